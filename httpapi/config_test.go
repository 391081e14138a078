package httpapi_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
)

func TestNewRefusesInvalidConfig(t *testing.T) {
	ok := httpapi.Config{Keys: []secret.String{"k"}}
	tests := []struct {
		name  string
		edit  func(c *httpapi.Config)
		field string // "" when the config is valid
	}{
		{"minimal", func(c *httpapi.Config) {}, ""},
		{"rate limit off", func(c *httpapi.Config) { c.RatePerSecond = -1 }, ""},
		{"request timeout off", func(c *httpapi.Config) { c.RequestTimeout = -1 }, ""},
		{"no keys", func(c *httpapi.Config) { c.Keys = nil }, "Keys"},
		{"blank key", func(c *httpapi.Config) { c.Keys = []secret.String{"k", " "} }, "Keys[1]"},
		{"blank host", func(c *httpapi.Config) { c.Hosts = []string{""} }, "Hosts[0]"},
		{"NaN rate", func(c *httpapi.Config) { c.RatePerSecond = math.NaN() }, "RatePerSecond"},
		{"infinite rate", func(c *httpapi.Config) { c.RatePerSecond = math.Inf(1) }, "RatePerSecond"},
		{"negative burst", func(c *httpapi.Config) { c.Burst = -1 }, "Burst"},
		{"negative body limit", func(c *httpapi.Config) { c.MaxBodyBytes = -1 }, "MaxBodyBytes"},
		{"trusted proxy not an address", func(c *httpapi.Config) { c.TrustedProxies = []string{"10.0.0.0/8", "proxy.internal"} }, "TrustedProxies"},
		{"trusted proxies", func(c *httpapi.Config) { c.TrustedProxies = []string{"10.0.0.0/8", "192.0.2.1"} }, ""},
		{"NaN auth failure rate", func(c *httpapi.Config) { c.AuthFailureRate = math.NaN() }, "AuthFailureRate"},
		{"infinite /48 failure rate", func(c *httpapi.Config) { c.AuthFailurePrefixRate = math.Inf(1) }, "AuthFailurePrefixRate"},
		{"negative auth failure table", func(c *httpapi.Config) { c.AuthFailureMaxAddresses = -1 }, "AuthFailureMaxAddresses"},
		{"/48 limit off", func(c *httpapi.Config) { c.AuthFailurePrefixBurst = -1 }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := ok
			tt.edit(&cfg)
			h, err := httpapi.New(cfg)
			if tt.field == "" {
				if err != nil || h == nil {
					t.Fatalf("New = %v, %v; want a handler", h, err)
				}
				return
			}
			if h != nil || !errors.Is(err, httpapi.ErrInvalidConfig) || !strings.Contains(err.Error(), tt.field+" ") {
				t.Errorf("New = %v, %v; want ErrInvalidConfig naming %s", h, err, tt.field)
			}
		})
	}
}

// A registry that already holds a different collector under a Quiver
// metric name cannot take the handler's metrics.
func TestNewRefusesConflictingRegistry(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(prometheus.NewGauge(prometheus.GaugeOpts{Name: "quiver_http_requests_total", Help: "not ours"}))
	if h, err := httpapi.New(httpapi.Config{Keys: []secret.String{"k"}, Metrics: reg}); err == nil || h != nil {
		t.Errorf("New = %v, %v; want a registration error", h, err)
	}
}

// Two handlers may share one registry.
func TestNewSharesRegistry(t *testing.T) {
	reg := prometheus.NewRegistry()
	for i := range 2 {
		if _, err := httpapi.New(httpapi.Config{Keys: []secret.String{"k"}, Metrics: reg}); err != nil {
			t.Fatalf("handler %d: %v", i, err)
		}
	}
}
