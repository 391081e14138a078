package npmpack

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"testing"
)

// tarball builds a package tarball of files under package/.
func tarball(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: "package/" + name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.WriteHeader(&tar.Header{Name: "package/dir", Typeflag: tar.TypeDir, Mode: 0o755})
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

func integrity(b []byte) string {
	sum := sha512.Sum512(b)
	return "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
}

func TestRead(t *testing.T) {
	good := tarball(t, map[string]string{
		"package.json":  `{"name":"ui","version":"1.2.3","license":"Apache-2.0","author":{"name":"Ana"},"repository":{"url":"git+https://example.test/ui.git"}}`,
		"LICENSE":       "license text",
		"dist/a.js":     "a()",
		"../escape.txt": "x",
	})
	gpl := tarball(t, map[string]string{"package.json": `{"name":"ui","version":"1.2.3","license":"GPL-3.0","author":"Bo <bo@example.test>"}`})
	other := tarball(t, map[string]string{"package.json": `{"name":"ui","version":"1.2.4","license":"MIT"}`})
	tests := []struct {
		name    string
		tgz     []byte
		pin     Package
		wantErr error // nil: success
		anyErr  bool
	}{
		{"good", good, Package{"ui", "1.2.3", integrity(good)}, nil, false},
		{"tampered", good, Package{"ui", "1.2.3", integrity(gpl)}, ErrIntegrity, true},
		{"no integrity", good, Package{"ui", "1.2.3", ""}, ErrIntegrity, true},
		{"license", gpl, Package{"ui", "1.2.3", integrity(gpl)}, ErrLicense, true},
		{"other version", other, Package{"ui", "1.2.3", integrity(other)}, nil, true},
		{"other name", good, Package{"uix", "1.2.3", integrity(good)}, nil, true},
		{"not gzip", []byte("junk"), Package{"ui", "1.2.3", integrity([]byte("junk"))}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, meta, err := Read(tt.tgz, tt.pin)
			if (err != nil) != tt.anyErr || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) {
				t.Fatalf("Read: %v, want error %v (any: %v)", err, tt.wantErr, tt.anyErr)
			}
			if err != nil {
				return
			}
			if string(files["dist/a.js"]) != "a()" || files.License() != "license text" {
				t.Errorf("files = %q", files)
			}
			if len(files) != 3 {
				t.Errorf("read %d files, want package.json, LICENSE and dist/a.js: %q", len(files), files)
			}
			if meta.License != "Apache-2.0" || meta.Author != "Ana" || meta.Home() != "git+https://example.test/ui.git" {
				t.Errorf("meta = %+v, home %q", meta, meta.Home())
			}
		})
	}
}
