package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
)

func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: 0.001, Burst: 3, Metrics: reg})
	do := func(key, path, body string) int {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("X-Gateway-Key", key)
		req.Header.Set("X-Gateway-Host", "test")
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	const encode = "/v1/dev/data/base64/encode"
	wantCodes := []int{200, 200, 400, 429}
	for i, body := range []string{`{"value":"a"}`, `{"value":"b"}`, `{"value":""}`, `{"value":"c"}`} {
		if got := do("k", encode, body); got != wantCodes[i] {
			t.Fatalf("request %d: status %d, want %d", i, got, wantCodes[i])
		}
	}
	if got := do("wrong", encode, `{"value":"a"}`); got != http.StatusUnauthorized {
		t.Fatalf("bad key: status %d", got)
	}

	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	text := rec.Body.String()
	for _, want := range []string{
		`quiver_http_requests_total{route="POST /v1/dev/data/base64/encode",status="200"} 2`,
		`quiver_http_requests_total{route="POST /v1/dev/data/base64/encode",status="400"} 1`,
		`quiver_http_requests_total{route="unmatched",status="429"} 1`,
		`quiver_http_requests_total{route="unmatched",status="401"} 1`,
		`quiver_http_request_duration_seconds_count{route="POST /v1/dev/data/base64/encode"} 3`,
		`quiver_rate_limit_rejections_total 1`,
		`quiver_http_requests_in_flight 0`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestMetricsOneLabelPerRoute: a route's 405 is labelled with the route's
// pattern, as its served requests are (issue 22: it was labelled with
// the bare path, one route under two labels).
func TestMetricsOneLabelPerRoute(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Metrics: reg})
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodGet} {
		req := httptest.NewRequest(method, "/v1/dev/data/hash", strings.NewReader(`{"value":"a"}`))
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "test")
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	text := rec.Body.String()
	for _, want := range []string{
		`quiver_http_requests_total{route="POST /v1/dev/data/hash",status="200"} 1`,
		`quiver_http_requests_total{route="POST /v1/dev/data/hash",status="405"} 2`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if strings.Contains(text, `route="/v1/dev/data/hash"`) {
		t.Errorf("a second label for the route:\n%s", text)
	}
}

// BenchmarkMetricsOverhead measures the cost of metrics on the cheapest
// route, the handler's hot path: compare the two sub-benchmarks.
func BenchmarkMetricsOverhead(b *testing.B) {
	for _, bc := range []struct {
		name string
		reg  prometheus.Registerer // nil: metrics off
	}{{"metrics=off", nil}, {"metrics=on", prometheus.NewRegistry()}} {
		b.Run(bc.name, func(b *testing.B) {
			h := mustNew(b, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Metrics: bc.reg})
			body := `{"value":"hello, world"}`
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/v1/dev/data/base64/encode", strings.NewReader(body))
				req.Header.Set("X-Gateway-Key", "k")
				req.Header.Set("X-Gateway-Host", "test")
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}
