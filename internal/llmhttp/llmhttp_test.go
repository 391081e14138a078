package llmhttp_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/quiverkit/quiver/internal/llmhttp"
)

func TestTransportRecordsFailures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/busy" {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	c := &http.Client{Transport: &llmhttp.Transport{}}
	for _, tt := range []struct {
		path       string
		status     int
		retryAfter string
	}{{"/ok", 0, ""}, {"/busy", 429, "7"}} {
		ctx, rec := llmhttp.WithRecorder(t.Context())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+tt.path, nil)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if s, ra := rec.Get(); s != tt.status || ra != tt.retryAfter {
			t.Errorf("%s: recorded %d %q, want %d %q", tt.path, s, ra, tt.status, tt.retryAfter)
		}
	}
	var none *llmhttp.Recorder
	if s, ra := none.Get(); s != 0 || ra != "" {
		t.Error("a nil Recorder recorded")
	}
}
