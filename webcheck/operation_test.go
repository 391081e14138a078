package webcheck

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
)

// TestOperationTimeoutBoundsWholeCheck: each hop of a redirect chain and
// each CORS probe is slow but within the per-fetch timeout; the checks
// must still end near OperationTimeout instead of adding the hops up.
func TestOperationTimeoutBoundsWholeCheck(t *testing.T) {
	const hop = 300 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(hop):
		case <-r.Context().Done():
			return
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		if n < 10 {
			http.Redirect(w, r, fmt.Sprintf("/%d", n+1), http.StatusFound)
			return
		}
		w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
		fmt.Fprintln(w, "ok")
	}))
	t.Cleanup(srv.Close)
	c := newTestChecker(t, "", func(cfg *Config) {
		cfg.Timeout = 5 * time.Second
		cfg.OperationTimeout = 500 * time.Millisecond
	})
	bound := 500*time.Millisecond + 1500*time.Millisecond // scheduling slack; unbounded, the chain takes 3.3 s
	checks := map[string]func() error{
		"url safety": func() error {
			res, err := c.CheckURLSafety(context.Background(), URLSafetyRequest{URL: srv.URL + "/0"})
			if err == nil && res.RedirectCount >= 10 {
				return fmt.Errorf("followed all %d hops", res.RedirectCount)
			}
			return nil
		},
		"cors": func() error {
			_, err := c.CheckCORS(context.Background(), CORSRequest{URL: srv.URL + "/10"})
			if err != nil && envelope.From(err).Code == envelope.CodeInternal {
				return err
			}
			return nil
		},
	}
	for name, check := range checks {
		start := time.Now()
		if err := check(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if took := time.Since(start); took > bound {
			t.Errorf("%s took %v, want at most %v", name, took.Round(time.Millisecond), bound)
		}
	}
}
