package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
)

const key = "sk-live-7f3a9c2e1b"

func newClient(t *testing.T, h http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Client{Name: "example", BaseURL: srv.URL + "/api/", Header: http.Header{"X-Api-Key": {key}}, Timeout: 500 * time.Millisecond}
}

func TestGetDecodes(t *testing.T) {
	c := newClient(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != key || r.URL.Path != "/api/user/info" || r.URL.Query().Get("userName") != "jack" {
			http.Error(w, "bad request", 400)
			return
		}
		fmt.Fprint(w, `{"data":{"id":"12"}}`)
	})
	var v struct{ Data struct{ ID string } }
	if err := c.Get(context.Background(), "/user/info", url.Values{"userName": {"jack"}}, &v); err != nil {
		t.Fatal(err)
	}
	if v.Data.ID != "12" {
		t.Errorf("decoded %+v", v)
	}
}

func TestErrorMapping(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name      string
		handler   http.HandlerFunc
		code      envelope.Code
		retry     time.Duration
		maxBytes  int64
		wantInMsg string
	}{
		{"404", status(404, nil), envelope.CodeNotFound, 0, 0, "no such resource"},
		{"410", status(410, nil), envelope.CodeNotFound, 0, 0, ""},
		{"429 seconds", status(429, http.Header{"Retry-After": {"17"}}), envelope.CodeRateLimitExceeded, 17 * time.Second, 0, "rate limit"},
		{"429 date", status(429, http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}), envelope.CodeRateLimitExceeded, 90 * time.Second, 0, ""},
		{"429 reset", status(429, http.Header{"X-Rate-Limit-Reset": {fmt.Sprint(now.Add(5 * time.Minute).Unix())}}), envelope.CodeRateLimitExceeded, 5 * time.Minute, 0, ""},
		{"429 far date", status(429, http.Header{"Retry-After": {"Fri, 31 Dec 9999 23:59:59 GMT"}}), envelope.CodeRateLimitExceeded, 24 * time.Hour, 0, ""},
		{"429 huge seconds", status(429, http.Header{"Retry-After": {"99999999999"}}), envelope.CodeRateLimitExceeded, 24 * time.Hour, 0, ""},
		{"429 none", status(429, nil), envelope.CodeRateLimitExceeded, DefaultRetryAfter, 0, ""},
		{"429 retry now", status(429, http.Header{"Retry-After": {"0"}}), envelope.CodeRateLimitExceeded, MinRetryAfter, 0, ""},
		{"429 past date", status(429, http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}), envelope.CodeRateLimitExceeded, MinRetryAfter, 0, ""},
		{"429 past reset", status(429, http.Header{"X-Rate-Limit-Reset": {fmt.Sprint(now.Add(-time.Minute).Unix())}}), envelope.CodeRateLimitExceeded, MinRetryAfter, 0, ""},
		{"429 unusable", status(429, http.Header{"Retry-After": {"soon"}}), envelope.CodeRateLimitExceeded, DefaultRetryAfter, 0, ""},
		{"429 graph business use case", status(429, http.Header{"X-Business-Use-Case-Usage": {`{"17841400000000123":[{"type":"instagram","call_count":100,"total_cputime":12,"total_time":30,"estimated_time_to_regain_access":7},{"type":"pages","estimated_time_to_regain_access":2}]}`}}), envelope.CodeRateLimitExceeded, 7 * time.Minute, 0, ""},
		{"429 graph app usage", status(429, http.Header{"X-App-Usage": {`{"call_count":100,"total_cputime":20,"total_time":20,"estimated_time_to_regain_access":3}`}}), envelope.CodeRateLimitExceeded, 3 * time.Minute, 0, ""},
		{"429 graph usage without wait", status(429, http.Header{"X-App-Usage": {`{"call_count":100,"total_cputime":20,"total_time":20}`}}), envelope.CodeRateLimitExceeded, DefaultRetryAfter, 0, ""},
		{"429 graph malformed usage", status(429, http.Header{"X-Business-Use-Case-Usage": {`{"1":{"estimated_time_to_regain_access":"soon"}}`}}), envelope.CodeRateLimitExceeded, DefaultRetryAfter, 0, ""},
		{"429 graph huge wait", status(429, http.Header{"X-App-Usage": {`{"estimated_time_to_regain_access":1e300}`}}), envelope.CodeRateLimitExceeded, 24 * time.Hour, 0, ""},
		{"401", status(401, nil), envelope.CodeUpstreamError, 0, 0, "credentials"},
		{"403", status(403, nil), envelope.CodeUpstreamError, 0, 0, "credentials"},
		{"500", status(500, nil), envelope.CodeUpstreamError, 0, 0, "HTTP 500"},
		{"503", status(503, nil), envelope.CodeUpstreamError, 0, 0, "HTTP 503"},
		{"bad json", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"data": [`) }, envelope.CodeUpstreamError, 0, 0, "not the expected JSON"},
		{"too big", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"data":"`+strings.Repeat("x", 200)+`"}`) }, envelope.CodeUpstreamError, 0, 100, "exceeds 100 bytes"},
		{"timeout", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
		}, envelope.CodeUpstreamTimeout, 0, 0, "in time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, tt.handler)
			c.Now = func() time.Time { return now }
			c.MaxBytes = tt.maxBytes
			var v any
			err := c.Get(context.Background(), "/tweets", url.Values{"q": {"x"}}, &v)
			var e *envelope.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *envelope.Error", err, err)
			}
			if e.Code != tt.code || e.RetryAfter != tt.retry {
				t.Errorf("got %s retry %v, want %s retry %v (%v)", e.Code, e.RetryAfter, tt.code, tt.retry, err)
			}
			if !strings.Contains(e.Message, tt.wantInMsg) {
				t.Errorf("message %q lacks %q", e.Message, tt.wantInMsg)
			}
			if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "q=x") {
				t.Errorf("error leaks the key or the query: %v", err)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	c := &Client{Name: "example", BaseURL: base, Header: http.Header{"Authorization": {"Bearer " + key}}}
	err := c.Get(context.Background(), "/x", nil, new(any))
	if e := envelope.From(err); e.Code != envelope.CodeUpstreamError || strings.Contains(err.Error(), key) {
		t.Errorf("err = %v", err)
	}
}

func TestCallerDeadline(t *testing.T) {
	c := newClient(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	c.Timeout = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if e := envelope.From(c.Get(ctx, "/slow", nil, new(any))); e.Code != envelope.CodeUpstreamTimeout {
		t.Errorf("code = %s", e.Code)
	}
}

func TestNotConfigured(t *testing.T) {
	e := envelope.From(NotConfigured("microblog", "set QUIVER_MICROBLOG_PROVIDER"))
	if e.Code != envelope.CodeServiceUnavailable || !strings.Contains(e.Message, "QUIVER_MICROBLOG_PROVIDER") {
		t.Errorf("got %+v", e)
	}
}

func status(code int, h http.Header) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for k, v := range h {
			w.Header()[k] = v
		}
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error":"status %d","message":"something"}`, code)
	}
}

// A redirect to another host is not followed, so the key header, which
// net/http would forward, never reaches it; one within the host is.
func TestRedirectKeepsKeyOnHost(t *testing.T) {
	var leaked atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != "" {
			leaked.Store(true)
		}
		fmt.Fprint(w, `{}`)
	}))
	defer other.Close()
	c := newClient(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/away":
			http.Redirect(w, r, other.URL+"/steal", http.StatusFound)
		case "/api/moved":
			http.Redirect(w, r, "/api/here", http.StatusMovedPermanently)
		case "/api/here":
			fmt.Fprint(w, `{"ok":true}`)
		}
	})
	var v struct{ OK bool }
	if err := c.Get(context.Background(), "/moved", nil, &v); err != nil || !v.OK {
		t.Errorf("same-host redirect: %+v, %v", v, err)
	}
	err := c.Get(context.Background(), "/away", nil, &v)
	if e := envelope.From(err); err == nil || e.Code != envelope.CodeUpstreamError {
		t.Errorf("redirect to another host: err = %v, want UPSTREAM_ERROR", err)
	}
	if leaked.Load() {
		t.Error("the key was sent to the host redirected to")
	}
}

// TestErrorTextSaysItsCauseOnce: a provider's failure names the provider
// and the status once, adds what the provider said, and describes an
// answer of the wrong shape in JSON's words, not Go's.
func TestErrorTextSaysItsCauseOnce(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"404", func(w http.ResponseWriter, r *http.Request) { http.Error(w, `{"error":"not found"}`, 404) },
			`NOT_FOUND: example has no such resource (/tweets): it answered {"error":"not found"}`},
		{"429", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(429) },
			"RATE_LIMIT_EXCEEDED: example rate limit exceeded; retry later: it answered with an empty body"},
		{"401", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "Unauthorized", 401) },
			"UPSTREAM_ERROR: example refused the configured credentials (HTTP 401): it answered Unauthorized"},
		{"500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", 500) },
			"UPSTREAM_ERROR: example failed with HTTP 500 for /tweets: it answered oops"},
		{"wrong shape", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"data":{"id":12}}`) },
			"UPSTREAM_ERROR: example: the response to /tweets is not the expected JSON: at data.id: a JSON number where a string belongs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v struct {
				Data struct {
					ID string `json:"id"`
				} `json:"data"`
			}
			err := newClient(t, tt.handler).Get(context.Background(), "/tweets", nil, &v)
			if err == nil || err.Error() != tt.want {
				t.Errorf("err = %v\n\twant %s", err, tt.want)
			}
			var te *json.UnmarshalTypeError
			if tt.name == "wrong shape" && !errors.As(err, &te) {
				t.Errorf("errors.As finds no *json.UnmarshalTypeError in %v", err)
			}
		})
	}
}
