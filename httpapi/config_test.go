package httpapi_test

import (
	"bytes"
	"errors"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
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
		{"negative regex timeout", func(c *httpapi.Config) { c.RegexMatchTimeout = -time.Second }, "RegexMatchTimeout"},
		{"negative LLM timeout", func(c *httpapi.Config) { c.LLM.Timeout = -time.Second }, "Timeout"},
		{"negative LLM price", func(c *httpapi.Config) { c.LLM.Prices = llm.Prices{"m": {Input: -1}} }, `Prices["m"]`},
		{"negative LLM attempts", func(c *httpapi.Config) { c.LLM.MaxAttempts = -1 }, "MaxAttempts"},
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

// A model that no price table names costs 0: New says so in the log, and
// only then.
func TestNewWarnsOfUnknownPrice(t *testing.T) {
	s := llmtest.Start(t, llmtest.OpenAI)
	for _, tt := range []struct {
		name string
		llm  llm.Config
		warn bool
	}{
		{"no model", llm.Config{}, false},
		{"priced model", llm.Config{Model: s.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"}, false},
		{"local model", llm.Config{Model: s.ModelT(t, "llama3.2"), Name: "llama3.2"}, true},
		{"price given", llm.Config{Model: s.ModelT(t, "llama3.2"), Name: "llama3.2", Prices: llm.Prices{"llama3.2": {}}}, false},
	} {
		var logs bytes.Buffer
		_, err := httpapi.New(httpapi.Config{Keys: []secret.String{"k"}, LLM: tt.llm, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(logs.String(), "level=WARN") && strings.Contains(logs.String(), "price is unknown")
		if warned != tt.warn {
			t.Errorf("%s: warned %v, want %v; logs:\n%s", tt.name, warned, tt.warn, logs.String())
		}
	}
}
