package httpapi

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/quiverkit/quiver/internal/metrics"
	"github.com/quiverkit/quiver/llm"
)

// A client that disconnects mid-request cancels the operation's context:
// the operation returns at once, and no goroutine is left behind.
func TestClientDisconnectCancelsOperation(t *testing.T) {
	defer goleak.VerifyNone(t)
	started := make(chan struct{})
	ended := make(chan error, 1)
	slow := route{
		method: "POST", path: "/v1/dev/slow", group: groupDev, summary: "waits for its context",
		op: func(r *http.Request) (any, *llm.Usage, error) {
			// Read the body as the decoders do: the server notices a
			// disconnect only once the body has been read to its end.
			io.ReadAll(r.Body)
			close(started)
			select {
			case <-r.Context().Done():
				ended <- r.Context().Err()
				return nil, nil, r.Context().Err()
			case <-time.After(10 * time.Second):
				ended <- errors.New("the operation was not cancelled")
				return "late", nil, nil
			}
		},
	}
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{
		cfg:     Config{MaxBodyBytes: DefaultMaxBodyBytes},
		metrics: m,
		log:     slog.New(slog.NewTextHandler(io.Discard, nil)),
		keys:    [][32]byte{hashKey("k")},
	}
	srv := httptest.NewServer(s.handler([]route{slow}))
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/v1/dev/slow", strings.NewReader(`{}`))
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "test")
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	errc := make(chan error, 1)
	go func() {
		res, err := client.Do(req)
		if err == nil {
			res.Body.Close()
		}
		errc <- err
	}()

	<-started
	cancel() // the client goes away
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("client: %v, want context.Canceled", err)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("operation ended with %v, want context.Canceled", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the operation was still running 2s after the client left")
	}
	// The request is over for the middleware too: nothing in flight, and
	// the client's leaving is counted as 499, not as a server error. The
	// collectors are gathered one by one, so poll until a scrape shows
	// both.
	want := `quiver_http_requests_total{route="POST /v1/dev/slow",status="499"} 1`
	deadline := time.Now().Add(2 * time.Second)
	for {
		rec := httptest.NewRecorder()
		promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		text := rec.Body.String()
		if strings.Contains(text, "quiver_http_requests_in_flight 0") && strings.Contains(text, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 2s, metrics lack %s or still count the request in flight:\n%s", want, text)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
