package webcheck

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// differentialURLs are written so that parsers disagree on the host; a
// browser (the URL Standard) reads 127.0.0.1 in each.
var differentialURLs = []string{
	`http://127.0.0.1\@example.com/`,
	`http:\\127.1\@example.com/`,
	`https:127.0.0.1/`,
	`http:///0x7f.1/`,
	"http://127.0.0.1\t/",
	"http://%31%32%37.0.0.1/",
	`http://example.com@127.0.0.1\@other.example/`,
}

// TestDifferentialTricksRefused: every route that fetches a user's URL
// reads it as a browser does, so a URL a browser sends to loopback is
// refused by a client that does not allow loopback, whatever other
// parsers would read in it.
func TestDifferentialTricksRefused(t *testing.T) {
	c := newTestChecker(t, "", func(c *Config) { c.AllowLoopback = false })
	ctx := context.Background()
	routes := map[string]func(string) error{
		"safety":  func(u string) error { _, err := c.CheckURLSafety(ctx, URLSafetyRequest{URL: u}); return err },
		"cors":    func(u string) error { _, err := c.CheckCORS(ctx, CORSRequest{URL: u}); return err },
		"robots":  func(u string) error { _, err := c.AnalyzeRobots(ctx, RobotsRequest{URL: u}); return err },
		"sitemap": func(u string) error { _, err := c.ValidateSitemap(ctx, SitemapRequest{URL: u}); return err },
		"ssl":     func(u string) error { _, err := c.CheckSSL(ctx, SSLRequest{Domain: u}); return err },
	}
	for name, call := range routes {
		for _, u := range differentialURLs {
			err := call(u)
			if err == nil || !strings.Contains(err.Error(), "destination not allowed") {
				t.Errorf("%s %q: err = %v; want destination not allowed", name, u, err)
			}
		}
	}
}

// pathRecorder is a loopback server that records the paths it is asked
// for, and redirects /jump to the Location given in its query.
func pathRecorder(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.EscapedPath())
		mu.Unlock()
		if r.URL.Path == "/jump" {
			w.Header().Set("Location", r.URL.Query().Get("to"))
			w.WriteHeader(http.StatusFound)
			return
		}
		w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), paths...)
	}
}

// TestDifferentialTrickDialsBrowserHost: the host the client dials is the
// host a browser reads, in the URL given and in a redirect's Location.
func TestDifferentialTrickDialsBrowserHost(t *testing.T) {
	srv, paths := pathRecorder(t)
	hostport := strings.TrimPrefix(srv.URL, "http://")
	c := newTestChecker(t, "")
	res, err := c.CheckURLSafety(context.Background(), URLSafetyRequest{URL: "http://" + hostport + `\@evil.example/`})
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(); len(got) != 1 || got[0] != "/@evil.example/" {
		t.Errorf("server saw %q; want the browser's reading, path /@evil.example/ on %s", got, hostport)
	}
	if res.FinalURL != "http://"+hostport+"/@evil.example/" {
		t.Errorf("final URL %q", res.FinalURL)
	}

	// A Location is resolved as a browser resolves it.
	loc := "http://" + hostport + `\@evil.example/next`
	res, err = c.CheckURLSafety(context.Background(), URLSafetyRequest{URL: srv.URL + "/jump?to=" + strings.ReplaceAll(loc, `\`, "%5C")})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RedirectChain) != 1 || res.RedirectChain[0].Location != "http://"+hostport+"/@evil.example/next" {
		t.Errorf("redirect chain %+v; want one hop to http://%s/@evil.example/next", res.RedirectChain, hostport)
	}
	if got := paths(); got[len(got)-1] != "/@evil.example/next" {
		t.Errorf("server saw %q last; want /@evil.example/next", got)
	}
}
