// Package npmpack fetches one pinned version of a published npm package
// for the generators that vendor data or assets from the npm registry
// (go generate steps; never the library at run time).
//
// [Fetch] runs `npm pack` (which downloads the tarball without installing
// it or running any of its scripts), and [Read] checks what it got: the
// tarball's digest against the integrity pinned beside the version (the
// registry's dist.integrity, `npm view NAME@VERSION dist.integrity`), the
// name and version in its package.json, and a license we may
// redistribute.
package npmpack

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Package names one pinned version of an npm package.
type Package struct {
	Name    string
	Version string
	// Integrity is the registry's dist.integrity of the version:
	// "sha512-" and the base64 SHA-512 of the tarball.
	Integrity string
}

// Meta is what package.json says about the package.
type Meta struct {
	Name       string `json:"name"`
	Version    string `json:"version"`
	License    string `json:"license"`
	Author     Person `json:"author"`
	Homepage   string `json:"homepage"`
	Repository any    `json:"repository"`
}

// Person is the name of a package.json person field, which is written
// either as a string ("Ana <ana@example.com>") or as an object with a
// name.
type Person string

// UnmarshalJSON reads either form.
func (p *Person) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*p = Person(s)
		return nil
	}
	var o struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	*p = Person(o.Name)
	return nil
}

// Home is the package's homepage, else its repository.
func (m Meta) Home() string {
	if m.Homepage != "" {
		return m.Homepage
	}
	switch r := m.Repository.(type) {
	case string:
		return r
	case map[string]any:
		u, _ := r["url"].(string)
		return u
	}
	return ""
}

// Files are the regular files of a package, by path relative to the
// tarball's top directory ("package.json", "dist/x.js").
type Files map[string][]byte

// Redistributable are the SPDX licenses whose terms let us commit and
// ship the package's files or data derived from them, with attribution.
var Redistributable = map[string]bool{
	"MIT": true, "ISC": true, "BSD-2-Clause": true, "BSD-3-Clause": true,
	"Apache-2.0": true, "CC0-1.0": true, "Unlicense": true,
}

// maxFile bounds one file of a tarball.
const maxFile = 64 << 20

// Fetch downloads p with `npm pack` into a temporary directory under tmp
// and returns its files after the checks of [Read].
func Fetch(tmp string, p Package) (Files, Meta, error) {
	dir, err := os.MkdirTemp(tmp, "npmpack")
	if err != nil {
		return nil, Meta{}, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("npm", "pack", "--silent", "--ignore-scripts", p.Name+"@"+p.Version)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, Meta{}, fmt.Errorf("npm pack %s@%s: %w", p.Name, p.Version, err)
	}
	name := strings.TrimSpace(string(out))
	name = name[strings.LastIndexByte(name, '\n')+1:]
	if name == "" || strings.ContainsAny(name, `/\`) {
		return nil, Meta{}, fmt.Errorf("npm pack %s@%s: printed no tarball name", p.Name, p.Version)
	}
	tgz, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, Meta{}, err
	}
	return Read(tgz, p)
}

// ErrIntegrity is returned by [Read] when the tarball is not the one the
// pinned integrity names.
var ErrIntegrity = errors.New("npmpack: integrity mismatch")

// ErrLicense is returned by [Read] when the package's license is not in
// [Redistributable].
var ErrLicense = errors.New("npmpack: license not redistributable")

// Read checks the tarball tgz against p (integrity, name, version) and
// its license, and returns its files.
func Read(tgz []byte, p Package) (Files, Meta, error) {
	var meta Meta
	sum := sha512.Sum512(tgz)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != p.Integrity {
		return nil, meta, fmt.Errorf("%w: %s@%s is %s, pinned %s", ErrIntegrity, p.Name, p.Version, got, p.Integrity)
	}
	files, err := untar(tgz)
	if err != nil {
		return nil, meta, fmt.Errorf("%s@%s: %w", p.Name, p.Version, err)
	}
	if err := json.Unmarshal(files["package.json"], &meta); err != nil {
		return nil, meta, fmt.Errorf("%s@%s: package.json: %w", p.Name, p.Version, err)
	}
	if meta.Name != p.Name || meta.Version != p.Version {
		return nil, meta, fmt.Errorf("%s@%s: the tarball is %s@%s", p.Name, p.Version, meta.Name, meta.Version)
	}
	if !Redistributable[meta.License] {
		return nil, meta, fmt.Errorf("%w: %s@%s is %q", ErrLicense, p.Name, p.Version, meta.License)
	}
	return files, meta, nil
}

// untar reads the regular files of a gzipped tarball, paths relative to
// its top directory.
func untar(tgz []byte) (Files, error) {
	gz, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, err
	}
	files := Files{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size > maxFile {
			return nil, fmt.Errorf("%s is larger than %d bytes", h.Name, maxFile)
		}
		top, rel, ok := strings.Cut(path.Clean(h.Name), "/")
		if !ok || top == ".." || strings.HasPrefix(rel, "../") {
			continue // outside the package's directory
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files[rel] = b
	}
}

// License returns the text of the package's license file, or "" when it
// has none.
func (f Files) License() string {
	for _, n := range []string{"LICENSE", "LICENSE.md", "LICENSE.txt", "license", "LICENCE"} {
		if b := f[n]; b != nil {
			return string(b)
		}
	}
	return ""
}
