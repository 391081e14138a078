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

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/secret"
)

// streamGet requests path on srv with the gateway headers and reads the
// answer to its end, returning the read error (a cut stream fails).
func streamGet(t *testing.T, ctx context.Context, srv *httptest.Server, path string) error {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+path, nil)
	req.Header.Set("X-Gateway-Key", testKey)
	req.Header.Set("X-Gateway-Host", "api.test")
	res, err := srv.Client().Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	_, err = io.Copy(io.Discard, res.Body)
	return err
}

// waitFor polls the logs until they contain s, for at most 30 s: the
// server's goroutine may log after the client has seen the end.
func waitFor(logs *testutil.SyncBuffer, s string) bool {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(logs.String(), s) {
			return true
		}
	}
	return false
}

// TestAbortedStreamIsLogged: a CSV stream that fails after its first
// byte is aborted with http.ErrAbortHandler, and still leaves its access
// log line, with the status and the bytes written.
func TestAbortedStreamIsLogged(t *testing.T) {
	cut := route{
		method: http.MethodGet, path: "/v1/test/cut", group: groupEmail,
		csv: func(w io.Writer, r *http.Request) error {
			io.WriteString(w, "a,b\n1,2\n")
			return errors.New("the store failed")
		},
	}
	var logs testutil.SyncBuffer
	s := newServer(Config{Keys: []secret.String{testKey}, RatePerSecond: -1, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	srv := httptest.NewServer(s.handler([]route{cut}))
	defer srv.Close()
	if err := streamGet(t, context.Background(), srv, "/v1/test/cut"); err == nil {
		t.Error("a cut stream read as whole")
	}
	if !waitFor(&logs, `msg=request method=GET route="GET /v1/test/cut" status=200`) {
		t.Fatalf("no access log line for the aborted stream:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "bytes=8 ") {
		t.Errorf("the line does not count the 8 bytes written:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), `level=WARN msg="streaming CSV failed"`) {
		t.Errorf("a failure on a live request is not a warning:\n%s", logs.String())
	}
}

// TestClientLeavingDownloadIsNoWarning: a client that goes mid-download
// is logged at debug level, not as a warning.
func TestClientLeavingDownloadIsNoWarning(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	slow := route{
		method: http.MethodGet, path: "/v1/test/slow", group: groupEmail, download: true,
		csv: func(w io.Writer, r *http.Request) error {
			for {
				if _, err := io.WriteString(w, "a,b\n"); err != nil {
					return err
				}
				if f, ok := w.(http.Flusher); ok {
					f.Flush()
				}
				cancel() // the client goes once the stream has begun
				select {
				case <-r.Context().Done():
					return r.Context().Err()
				case <-time.After(10 * time.Millisecond):
				}
			}
		},
	}
	var logs testutil.SyncBuffer
	s := newServer(Config{Keys: []secret.String{testKey}, RatePerSecond: -1,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	srv := httptest.NewServer(s.handler([]route{slow}))
	defer srv.Close()
	streamGet(t, ctx, srv, "/v1/test/slow")
	if !waitFor(&logs, `msg="streaming CSV failed"`) {
		t.Fatalf("the stream's end is not logged:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), `level=DEBUG msg="streaming CSV failed"`) {
		t.Errorf("a client leaving is not a debug line:\n%s", logs.String())
	}
}
