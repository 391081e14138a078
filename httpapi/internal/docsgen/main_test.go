package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/internal/npmpack"
)

func TestCheck(t *testing.T) {
	full := npmpack.Files{"LICENSE": []byte("Apache"), "NOTICE": []byte("n"), "swagger-ui-bundle.js": []byte("js"),
		"swagger-ui-bundle.js.LICENSE.txt": []byte("l"), "swagger-ui.css": []byte("css")}
	if err := check(full); err != nil {
		t.Errorf("complete package: %v", err)
	}
	delete(full, "swagger-ui.css")
	delete(full, "LICENSE")
	err := check(full)
	if err == nil || !strings.Contains(err.Error(), "swagger-ui.css") || !strings.Contains(err.Error(), "license") {
		t.Errorf("incomplete package: %v", err)
	}
}

func TestGzippedIsDeterministic(t *testing.T) {
	in := []byte(strings.Repeat("window.ui = 1;\n", 100))
	a, b := gzipped(in), gzipped(in)
	if !bytes.Equal(a, b) {
		t.Fatal("two compressions differ")
	}
	zr, err := gzip.NewReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(out, in) {
		t.Errorf("round trip: %v, equal %v", err, bytes.Equal(out, in))
	}
}

func TestNotice(t *testing.T) {
	files := npmpack.Files{"LICENSE": []byte("APACHE TEXT"), "NOTICE": []byte("SMARTBEAR"), "swagger-ui-bundle.js.LICENSE.txt": []byte("MIT BITS")}
	got := string(notice(files, npmpack.Meta{Name: "swagger-ui-dist", Version: "9.9.9", License: "Apache-2.0"}))
	for _, want := range []string{"swagger-ui-dist 9.9.9", "Apache-2.0", "APACHE TEXT", "SMARTBEAR", "MIT BITS"} {
		if !strings.Contains(got, want) {
			t.Errorf("NOTICE lacks %q:\n%s", want, got)
		}
	}
}
