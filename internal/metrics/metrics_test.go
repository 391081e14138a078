package metrics_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/quiverkit/quiver/internal/metrics"
)

func TestNilMetricsIsANoOp(t *testing.T) {
	var m *metrics.Metrics
	m.RequestStarted()
	m.RequestDone("r", 200, time.Second)
	m.RateLimited()
	m.LimiterFailed()
	m.ObserveUpstream("p", metrics.OutcomeOK, time.Second)
	m.ObserveAI("m", 1, 0, 0)
	if err := m.WatchDNSCache(func() (uint64, uint64) { return 1, 2 }); err != nil {
		t.Errorf("WatchDNSCache on nil: %v", err)
	}
	if m, err := metrics.New(nil); m != nil || err != nil {
		t.Errorf("New(nil) = %v, %v; want nil, nil", m, err)
	}
	rt := http.DefaultTransport
	if got := m.Transport("p", rt); got != rt {
		t.Error("Transport on nil Metrics wrapped its transport")
	}
}

// newMetrics returns Metrics registered in a new registry, and the
// registry.
func newMetrics(t *testing.T) (*metrics.Metrics, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	return m, reg
}

// scrape returns the exposition text that promhttp serves from reg.
func scrape(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics: status %d", rec.Code)
	}
	return rec.Body.String()
}

func TestExposition(t *testing.T) {
	m, reg := newMetrics(t)
	for range 4 {
		m.RequestStarted()
	}
	m.RequestDone("POST /v1/dev/data/base64/encode", 200, 3*time.Millisecond)
	m.RequestDone("POST /v1/dev/data/base64/encode", 200, 4*time.Millisecond)
	m.RequestDone("", 404, time.Millisecond)
	m.RateLimited()
	m.LimiterFailed()
	m.ObserveAI("gpt-4o-mini", 120, 30, 0.002)
	m.ObserveAI("gpt-4o-mini", 80, 20, 0.001)
	var hits, misses uint64 = 7, 3
	if err := m.WatchDNSCache(func() (uint64, uint64) { return hits, misses }); err != nil {
		t.Fatal(err)
	}

	text := scrape(t, reg)
	for _, want := range []string{
		`quiver_http_requests_total{route="POST /v1/dev/data/base64/encode",status="200"} 2`,
		`quiver_http_requests_total{route="unmatched",status="404"} 1`,
		`quiver_http_request_duration_seconds_count{route="POST /v1/dev/data/base64/encode"} 2`,
		`quiver_http_request_duration_seconds_bucket{route="POST /v1/dev/data/base64/encode",le="0.005"} 2`,
		`quiver_http_requests_in_flight 1`,
		`quiver_rate_limit_rejections_total 1`,
		`quiver_rate_limiter_errors_total 1`,
		`quiver_llm_tokens_total{kind="prompt",model="gpt-4o-mini"} 200`,
		`quiver_llm_tokens_total{kind="completion",model="gpt-4o-mini"} 50`,
		`quiver_llm_cost_usd_total{model="gpt-4o-mini"} 0.003`,
		`quiver_dns_cache_hits_total 7`,
		`quiver_dns_cache_misses_total 3`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}

	// The DNS counts are read at every scrape.
	hits = 9
	if text := scrape(t, reg); !strings.Contains(text, "quiver_dns_cache_hits_total 9") {
		t.Error("DNS cache hits not re-read at scrape")
	}
	if err := m.WatchDNSCache(func() (uint64, uint64) { return 0, 0 }); err == nil {
		t.Error("second WatchDNSCache did not fail")
	}
}

// Metrics on two registries never share state: nothing is registered
// globally.
func TestIndependentRegistries(t *testing.T) {
	a, _ := newMetrics(t)
	_, regB := newMetrics(t)
	a.RateLimited()
	if text := scrape(t, regB); strings.Contains(text, "quiver_rate_limit_rejections_total 1") {
		t.Error("a counter of one Metrics shows in another")
	}
}

// Two Metrics on one registry share their collectors, so that two
// handlers (or a handler and cmd/quiver's upstream clients) can feed one
// registry.
func TestSharedRegistry(t *testing.T) {
	a, reg := newMetrics(t)
	b, err := metrics.New(reg)
	if err != nil {
		t.Fatalf("second New on one registry: %v", err)
	}
	a.RateLimited()
	b.RateLimited()
	if text := scrape(t, reg); !strings.Contains(text, "quiver_rate_limit_rejections_total 2") {
		t.Errorf("shared counter not at 2:\n%s", text)
	}
}

// A registry holding a different collector under a Quiver name is a
// conflict that New reports.
func TestRegistrationConflict(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(prometheus.NewCounterVec(prometheus.CounterOpts{Name: "quiver_rate_limit_rejections_total", Help: "other"}, []string{"x"}))
	if m, err := metrics.New(reg); err == nil || m != nil {
		t.Errorf("New = %v, %v; want a registration error", m, err)
	}
}

func TestTransport(t *testing.T) {
	statuses := map[string]int{"/ok": 200, "/missing": 404, "/limited": 429, "/broken": 502}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			<-r.Context().Done()
			return
		}
		w.WriteHeader(statuses[r.URL.Path])
	}))
	defer upstream.Close()

	m, reg := newMetrics(t)
	client := &http.Client{Transport: m.Transport("acme", upstream.Client().Transport)}
	get := func(path string, timeout time.Duration) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", upstream.URL+path, nil)
		res, err := client.Do(req)
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}
	for _, p := range []string{"/ok", "/ok", "/missing", "/limited", "/broken"} {
		get(p, 5*time.Second)
	}
	get("/hang", 50*time.Millisecond)

	text := scrape(t, reg)
	for _, want := range []string{
		`quiver_upstream_requests_total{outcome="ok",provider="acme"} 2`,
		`quiver_upstream_requests_total{outcome="client_error",provider="acme"} 1`,
		`quiver_upstream_requests_total{outcome="rate_limited",provider="acme"} 1`,
		`quiver_upstream_requests_total{outcome="server_error",provider="acme"} 1`,
		`quiver_upstream_requests_total{outcome="timeout",provider="acme"} 1`,
		`quiver_upstream_request_duration_seconds_count{provider="acme"} 6`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}

func TestOutcomeCanceled(t *testing.T) {
	if got := metrics.Outcome(nil, context.Canceled); got != metrics.OutcomeCanceled {
		t.Errorf("Outcome(canceled) = %q", got)
	}
	if got := metrics.Outcome(nil, io.ErrUnexpectedEOF); got != metrics.OutcomeError {
		t.Errorf("Outcome(EOF) = %q", got)
	}
}

func TestLint(t *testing.T) {
	m, reg := newMetrics(t)
	m.RequestStarted()
	m.RequestDone("GET /healthz", 200, time.Millisecond)
	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.HasPrefix(p.Metric, "quiver_") {
			t.Errorf("%s: %s", p.Metric, p.Text)
		}
	}
}
