package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJobResultsFileIsWholeOrAbsent: `quiver email job results -o FILE`
// writes FILE only when the download ends whole; a cut one leaves the
// file as it was and no temporary file behind.
func TestJobResultsFileIsWholeOrAbsent(t *testing.T) {
	const csv = "email,is_valid\na@b.test,true\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		if strings.Contains(r.URL.Path, "/cut/") {
			w.Header().Set("Content-Length", "1000")
			w.Write([]byte(csv))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // the server goes mid-download
		}
		w.Write([]byte(csv))
	}))
	defer srv.Close()
	env := map[string]string{"QUIVER_SERVER": srv.URL, "QUIVER_API_KEY": "k"}
	for _, tt := range []struct {
		id       string
		wantCode bool
		want     string
	}{
		{"cut", false, "old"},
		{"whole", true, csv},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, "results.csv")
		if err := os.WriteFile(out, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		// The fake server puts the ID in the path: ".../jobs/cut/results".
		code := runCommand(context.Background(), []string{"email", "job", "results", "-o", out, tt.id}, &cmdEnv{
			stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] },
		})
		if (code == 0) != tt.wantCode {
			t.Errorf("%s: exit %d: %s", tt.id, code, stderr.String())
		}
		if b, _ := os.ReadFile(out); string(b) != tt.want {
			t.Errorf("%s: the file holds %q, want %q", tt.id, b, tt.want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("%s: %d files left in the directory, want only results.csv", tt.id, len(entries))
		}
	}
}
