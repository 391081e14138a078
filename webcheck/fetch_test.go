package webcheck

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/safehttp"
)

// TestFollowTimeoutCoversRedirects: Config.Timeout bounds a whole fetch,
// redirects included, not each hop on its own. Every hop here answers
// within the limit, but the chain does not.
func TestFollowTimeoutCoversRedirects(t *testing.T) {
	const hop = 250 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(hop)
		switch r.URL.Path {
		case "/1":
			http.Redirect(w, r, "/2", http.StatusFound)
		case "/2":
			http.Redirect(w, r, "/3", http.StatusFound)
		case "/3":
			http.Redirect(w, r, "/4", http.StatusFound)
		default:
			w.Write([]byte("done"))
		}
	}))
	defer srv.Close()
	c := newTestChecker(t, "", func(c *Config) { c.Timeout = 3 * hop })
	u, _ := url.Parse(srv.URL + "/1")
	start := time.Now()
	f, err := c.follow(context.Background(), u, 10)
	if err == nil {
		f.resp.Body.Close()
		t.Fatalf("a chain of 4 hops of %v each finished within a timeout of %v", hop, 3*hop)
	}
	if !safehttp.IsTimeout(err) {
		t.Errorf("err = %v; want a time-out", err)
	}
	if d := time.Since(start); d > 6*hop {
		t.Errorf("follow took %v; want about %v", d, 3*hop)
	}

	// Within the limit, the body stays readable after follow returns.
	c = newTestChecker(t, "", func(c *Config) { c.Timeout = 20 * hop })
	f, err = c.follow(context.Background(), u, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer f.resp.Body.Close()
	if len(f.hops) != 3 {
		t.Errorf("hops = %d; want 3", len(f.hops))
	}
	var buf [8]byte
	if n, _ := f.resp.Body.Read(buf[:]); string(buf[:n]) != "done" {
		t.Errorf("body = %q; want done", buf[:n])
	}
}
