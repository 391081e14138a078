package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/internal/npmpack"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		list, in, want string
		ok             bool
	}{
		{"disposable", " Mailinator.COM ", "mailinator.com", true},
		{"disposable", "*.wild.example", "wild.example", true},
		{"disposable", "trailing.example.", "trailing.example", true},
		{"disposable", "bücher.example", "xn--bcher-kva.example", true},
		{"disposable", "nodot", "", false},
		{"disposable", "bad_name.example", "", false},
		{"disposable", "", "", false},
		{"roles", "Support", "support", true},
		{"roles", "no-reply", "no-reply", true},
		{"roles", "two words", "", false},
		{"roles", "-lead", "", false},
	}
	for _, tt := range tests {
		got, ok := normalize(tt.list, tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("normalize(%s, %q) = %q, %v; want %q, %v", tt.list, tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestExtractors(t *testing.T) {
	got, err := jsSetLiteral("", []byte(`'use strict';\nvar blacklist = new Set(["a.example","b.example"]);\nvar x = new Set(["no"]);`))
	if err != nil || !cmp.Equal(got, []string{"a.example", "b.example"}) {
		t.Errorf("jsSetLiteral = %q, %v", got, err)
	}
	if _, err := jsSetLiteral("", []byte("module.exports = []")); err == nil {
		t.Error("jsSetLiteral without a Set accepted")
	}
	got, err = jsQuotedStrings("", []byte("const A = [\n  'admin',\n  'info',\n];\nmodule.exports = [...A];"))
	if err != nil || !cmp.Equal(got, []string{"admin", "info"}) {
		t.Errorf("jsQuotedStrings = %q, %v", got, err)
	}
	got, err = jsonArray("", []byte(`["x.example"]`))
	if err != nil || !cmp.Equal(got, []string{"x.example"}) {
		t.Errorf("jsonArray = %q, %v", got, err)
	}
}

func TestLicenseText(t *testing.T) {
	files := npmpack.Files{"package.json": []byte(`{"license":"MIT"}`), "Readme.md": []byte("# Use\n\n# License\n\nMIT, see text\n\n# Other\n")}
	if lic := licenseText(files); lic != "\n\nMIT, see text\n" {
		t.Errorf("license from the readme = %q", lic)
	}
	files["LICENSE"] = []byte("the license file")
	if lic := licenseText(files); lic != "the license file" {
		t.Errorf("license with a LICENSE file = %q", lic)
	}
}

func TestWriteIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt.gz"), filepath.Join(dir, "b.txt.gz")
	if err := write(a, []string{"x.example", "y.example"}); err != nil {
		t.Fatal(err)
	}
	write(b, []string{"x.example", "y.example"})
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if !bytes.Equal(ba, bb) {
		t.Error("two writes of the same list differ")
	}
	r, _ := gzip.NewReader(bytes.NewReader(ba))
	var out bytes.Buffer
	out.ReadFrom(r)
	if out.String() != "x.example\ny.example\n" {
		t.Errorf("content %q", out.String())
	}
}

func TestReadLines(t *testing.T) {
	name := filepath.Join(t.TempDir(), "l.txt")
	os.WriteFile(name, []byte("# comment\nGmail.com  # trailing\n\n  yahoo.com\n"), 0o644)
	got, err := readLines(name)
	if err != nil || !cmp.Equal(got, []string{"gmail.com", "yahoo.com"}) {
		t.Errorf("readLines = %q, %v", got, err)
	}
}
