package replay

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestHandler(t *testing.T) {
	files := fstest.MapFS{"ok.json": {Data: []byte(`{"ok":true}`)}, "refused.json": {Data: []byte(`{"error":"key"}`)}}
	h := New(files, func(r *http.Request) bool { return r.Header.Get("Key") == "k" },
		Refusal{Status: http.StatusUnauthorized, Fixture: "refused.json"},
		func(w http.ResponseWriter, r *http.Request, body []byte) (string, int) {
			if r.URL.Path == "/missing" {
				return "", 0
			}
			if r.URL.Path == "/computed" {
				w.WriteHeader(http.StatusCreated)
				io.WriteString(w, "computed")
				return Written, 0
			}
			w.Header().Set("X-Body", string(body))
			return "ok.json", http.StatusOK
		})
	srv := httptest.NewServer(h)
	defer srv.Close()
	h.Respond("/a", http.StatusTooManyRequests, http.Header{"Retry-After": {"5"}}, "short")
	h.Respond("/a/b", http.StatusTeapot, nil, "long")
	h.Delay("/slow", time.Minute)

	tests := []struct {
		name, path, key, body string
		status                int
		want                  string
	}{
		{"fixture", "/x?q=1", "k", "in", 200, `{"ok":true}`},
		{"refused", "/x", "bad", "", 401, `{"error":"key"}`},
		{"no route", "/missing", "k", "", 404, "404 page not found\n"},
		{"written by the route", "/computed", "k", "", 201, "computed"},
		{"override", "/a/c", "k", "", 429, "short"},
		{"longest prefix wins", "/a/b/c", "", "", 418, "long"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+tt.path, strings.NewReader(tt.body))
		req.Header.Set("Key", tt.key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tt.status || string(b) != tt.want {
			t.Errorf("%s: %d %q, want %d %q", tt.name, res.StatusCode, b, tt.status, tt.want)
		}
		if tt.name == "fixture" && res.Header.Get("X-Body") != "in" {
			t.Errorf("the route did not see the body: %q", res.Header.Get("X-Body"))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/slow", nil)
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		t.Errorf("delayed request answered %d before the client gave up", res.StatusCode)
	}
	got := h.Requests()
	if len(got) != 7 || got[0] != "/x?q=1" || got[6] != "/slow?" {
		t.Errorf("requests = %q", got)
	}
}
