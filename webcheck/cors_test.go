package webcheck

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// corsServer answers with CORS headers when allow(origin) says so.
func corsServer(t *testing.T, allow func(origin string) bool, credentials bool) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o := r.Header.Get("Origin")
		if allow != nil && allow(o) {
			w.Header().Set("Access-Control-Allow-Origin", o)
			w.Header().Set("Vary", "Origin")
			if credentials {
				w.Header().Set("Access-Control-Allow-Credentials", "true")
			}
			w.Header().Set("Access-Control-Expose-Headers", "X-Total-Count, ETag")
		}
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type")
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestCheckCORS(t *testing.T) {
	exact := func(o string) bool { return o == "https://example.com" }
	tests := []struct {
		name        string
		allow       func(string) bool
		credentials bool
		wildcard    bool
		risk        Risk
		allows      bool
		warning     string
	}{
		{"no CORS", nil, false, false, RiskNone, false, ""},
		{"exact allowlist with credentials", exact, true, false, RiskNone, true, ""},
		{"wildcard", nil, false, true, RiskLow, true, "any site can read"},
		{"reflects any origin", func(string) bool { return true }, false, false, RiskHigh, true, "reflects any origin"},
		{"reflects any origin with credentials", func(string) bool { return true }, true, false, RiskCritical, true, "with credentials any site"},
		{"null with credentials", func(o string) bool { return exact(o) || o == "null" }, true, false, RiskCritical, true, "null origin"},
		{"prefix check with credentials", func(o string) bool { return strings.HasPrefix(o, "https://example.com") }, true, false, RiskHigh, true, "only tests the prefix"},
		{"suffix check", func(o string) bool { return strings.HasSuffix(o, "example.com") }, false, false, RiskMedium, true, "only tests the suffix"},
		{"unescaped dot", regexp.MustCompile(`^https://www.example\.com$`).MatchString, false, false, RiskMedium, true, "not escaped"},
		{"http downgrade with credentials", func(o string) bool { return o == "https://example.com" || o == "http://example.com" }, true, false, RiskMedium, true, "plain-http origin"},
		{"special characters", regexp.MustCompile(`^https://example\.com[^.]*\.`).MatchString, false, false, RiskMedium, false, "special characters"},
	}
	c := newTestChecker(t, "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := corsServer(t, tt.allow, tt.credentials)
			origin := "https://example.com"
			if tt.name == "unescaped dot" {
				origin = "https://www.example.com"
			}
			if tt.wildcard {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Access-Control-Allow-Origin", "*")
				}))
				t.Cleanup(srv.Close)
				u = srv.URL
			}
			res, err := c.CheckCORS(context.Background(), CORSRequest{URL: u + "/api", Origin: origin})
			if err != nil {
				t.Fatal(err)
			}
			if res.RiskLevel != tt.risk || res.AllowsOrigin != tt.allows {
				t.Errorf("risk=%s allows=%v; want %s %v\nwarnings: %q\nprobes: %+v", res.RiskLevel, res.AllowsOrigin, tt.risk, tt.allows, res.Warnings, res.Probes)
			}
			if tt.warning != "" {
				assertWarning(t, res.Warnings, tt.warning)
			}
			if res.StatusCode != 200 || len(res.Probes) < 9 {
				t.Errorf("status=%d probes=%d", res.StatusCode, len(res.Probes))
			}
		})
	}
}

func TestCheckCORSFields(t *testing.T) {
	u := corsServer(t, func(o string) bool { return o == "https://example.com" }, true)
	res, err := newTestChecker(t, "").CheckCORS(context.Background(), CORSRequest{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	if !res.AllowsOrigin || !res.AllowsCredentials || strings.Join(res.AllowedMethods, ",") != "GET,POST" ||
		strings.Join(res.ExposedHeaders, ",") != "X-Total-Count,ETag" || res.PreflightStatus != 204 || res.MaxAge != "600" {
		t.Errorf("%+v", res)
	}
}

func TestCheckCORSInvalid(t *testing.T) {
	c := newTestChecker(t, "")
	for _, tt := range []struct {
		req  CORSRequest
		want string
	}{
		{CORSRequest{}, "url: is required"},
		{CORSRequest{URL: "https://example.test", Origin: "example.com"}, "origin: must be an origin"},
		{CORSRequest{URL: "https://example.test", Origin: "https://example.com/path"}, "origin: must be an origin"},
		{CORSRequest{URL: "file:///etc/passwd"}, "http or https"},
	} {
		_, err := c.CheckCORS(context.Background(), tt.req)
		assertInvalid(t, err, tt.want)
	}
}

// TestCheckCORSUnreachable: a target that does not resolve, refuses the
// connection or does not answer is the caller's concern, reported in the
// result as the other web checks do, never a 5xx (issue 13).
func TestCheckCORSUnreachable(t *testing.T) {
	dead := httptest.NewServer(nil)
	deadURL := dead.URL
	dead.Close()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	c := newTestChecker(t, "known.test. 60 IN A 127.0.0.1\n", func(c *Config) { c.Timeout = 300 * time.Millisecond })
	for _, tt := range []struct{ name, url, want string }{
		{"closed port", deadURL + "/api", "no connection could be made"},
		{"no such host", "https://nowhere.known.test/api", "does not resolve"},
		{"no answer", slow.URL, "did not answer in time"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.CheckCORS(context.Background(), CORSRequest{URL: tt.url})
			if err != nil {
				t.Fatalf("err = %v; want a result", err)
			}
			if res.Error == nil || !strings.Contains(*res.Error, tt.want) {
				t.Fatalf("Error = %v; want it to say %q", res.Error, tt.want)
			}
			if res.URL != tt.url || res.StatusCode != 0 || res.RiskLevel != RiskNone || res.AllowsOrigin || len(res.Probes) != 0 {
				t.Errorf("%+v", res)
			}
			assertWarning(t, res.Warnings, "could not be reached")
		})
	}
}

// TestCheckCORSProbeFailures: a probe whose request fails is not a clean
// "not allowed": the result says it failed and warns that the risk level
// does not cover it.
func TestCheckCORSProbeFailures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "https://example.com" {
			// Drop the connection without an answer for attacker origins.
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		}
	}))
	defer srv.Close()
	c := newTestChecker(t, "")
	res, err := c.CheckCORS(context.Background(), CORSRequest{URL: srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Probes) == 0 {
		t.Fatal("no probes")
	}
	for _, p := range res.Probes {
		if p.Error == nil || p.Allowed {
			t.Errorf("probe %s: allowed %v, error %v; want a failure", p.Name, p.Allowed, p.Error)
		}
	}
	assertWarning(t, res.Warnings, "probes failed")
}
