package metrics_test

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/internal/metrics"
	"github.com/quiverkit/quiver/secret"
)

// Metrics fed by the HTTP handler, scraped from the registry.
func Example() {
	reg := prometheus.NewRegistry()
	api, err := httpapi.New(httpapi.Config{Keys: []secret.String{"k"}, Metrics: reg})
	if err != nil {
		fmt.Println(err)
		return
	}

	req := httptest.NewRequest("POST", "/v1/dev/data/base64/encode", strings.NewReader(`{"value":"hi"}`))
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "example")
	req.Header.Set("Content-Type", "application/json")
	api.ServeHTTP(httptest.NewRecorder(), req)

	printMetric(reg, "quiver_http_requests_total")
	// Output:
	// quiver_http_requests_total{route="POST /v1/dev/data/base64/encode",status="200"} 1
}

// Upstream calls are counted by wrapping the provider's transport.
func ExampleMetrics_Transport() {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer upstream.Close()

	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		fmt.Println(err)
		return
	}
	client := &http.Client{Transport: m.Transport("acme", upstream.Client().Transport)}
	if res, err := client.Get(upstream.URL); err == nil {
		res.Body.Close()
	}

	printMetric(reg, "quiver_upstream_requests_total")
	// Output:
	// quiver_upstream_requests_total{outcome="rate_limited",provider="acme"} 1
}

// A nil *Metrics turns every call into a no-op: code feeding metrics needs
// no "enabled?" test.
func Example_disabled() {
	var m *metrics.Metrics
	m.RateLimited()
	m.ObserveUpstream("acme", metrics.OutcomeOK, 0)
	m, err := metrics.New(nil)
	fmt.Println(m == nil, err)
	// Output:
	// true <nil>
}

// printMetric prints the lines of one metric family that promhttp serves
// from reg.
func printMetric(reg *prometheus.Registry, name string) {
	scrape := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(scrape, httptest.NewRequest("GET", "/metrics", nil))
	sc := bufio.NewScanner(scrape.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), name+"{") || strings.HasPrefix(sc.Text(), name+" ") {
			fmt.Println(sc.Text())
		}
	}
}
