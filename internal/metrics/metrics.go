// Package metrics collects Quiver's operational metrics and serves them in
// the Prometheus text format, with github.com/prometheus/client_golang.
//
// [New] registers the collectors in the registry its caller gives (package
// httpapi passes its Config.Metrics, cmd/quiver a registry of its own):
// nothing is registered globally unless the caller passes
// prometheus.DefaultRegisterer. Serving the registry, and adding the Go
// runtime and process collectors, is the caller's business. Every method
// is safe on a nil *Metrics and then does nothing, so code that feeds
// metrics needs no "enabled?" checks and pays nothing when they are off:
//
//	var m *metrics.Metrics // nil: metrics disabled
//	m.RateLimited() // no-op
//
// # What is collected
//
//	quiver_http_requests_total{route,status}         requests served, by route pattern and HTTP status
//	quiver_http_request_duration_seconds{route}      latency histogram, by route pattern
//	quiver_http_requests_in_flight                   requests being served now
//	quiver_rate_limit_rejections_total               requests refused by the per-key rate limit
//	quiver_rate_limiter_errors_total                 limiter failures (the request was let through)
//	quiver_upstream_requests_total{provider,outcome} calls to upstream providers, by outcome
//	quiver_upstream_request_duration_seconds{provider}
//	quiver_dns_cache_hits_total, quiver_dns_cache_misses_total
//	quiver_llm_tokens_total{model,kind}              prompt and completion tokens, by model
//	quiver_llm_cost_usd_total{model}                 estimated LLM cost in US dollars, by model
//
// Route labels are route patterns ("POST /v1/dev/data/base64/encode"),
// never raw paths, so their number is bounded by the route table; a
// request with a method its path does not serve (405) is labelled with
// the pattern of the path's route, or, when several routes share the
// path, with their methods joined by "|" ("GET|DELETE /v1/email/bulk/jobs/{id}");
// requests that matched no route, or were refused before routing
// (authentication, rate limit), share the route label "unmatched".
package metrics

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Outcomes of an upstream call, the values of the outcome label.
const (
	OutcomeOK          = "ok"           // a 1xx, 2xx or 3xx answer
	OutcomeClientError = "client_error" // a 4xx answer other than 429
	OutcomeRateLimited = "rate_limited" // a 429 answer
	OutcomeServerError = "server_error" // a 5xx answer
	OutcomeTimeout     = "timeout"      // no answer within the deadline
	OutcomeCanceled    = "canceled"     // the caller gave up first
	OutcomeError       = "error"        // any other transport failure
)

// durationBuckets span a cached Base64 call (under a millisecond) to a
// slow LLM generation (a minute).
var durationBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

// Metrics is a set of collectors registered in one registry. Create it
// with [New]; the zero value is not usable, but a nil *Metrics is: every
// method is then a no-op.
type Metrics struct {
	reg prometheus.Registerer

	requests         *prometheus.CounterVec
	duration         *prometheus.HistogramVec
	inFlight         prometheus.Gauge
	rateLimited      prometheus.Counter
	limiterErrors    prometheus.Counter
	upstream         *prometheus.CounterVec
	upstreamDuration *prometheus.HistogramVec
	llmTokens        *prometheus.CounterVec
	llmCost          *prometheus.CounterVec
}

// New registers every Quiver collector in reg and returns the Metrics that
// feeds them. A collector that reg already holds, from an earlier New on
// the same registry, is reused: two handlers sharing a registry share
// their counters. A nil reg gives a nil *Metrics (metrics off). The error
// is a registration conflict, e.g. a collector of the same name with
// other labels.
func New(reg prometheus.Registerer) (*Metrics, error) {
	if reg == nil {
		return nil, nil
	}
	m := &Metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quiver_http_requests_total",
			Help: "HTTP requests served, by route pattern and status code.",
		}, []string{"route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "quiver_http_request_duration_seconds",
			Help:    "Time to serve an HTTP request, by route pattern.",
			Buckets: durationBuckets,
		}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "quiver_http_requests_in_flight",
			Help: "HTTP requests being served.",
		}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "quiver_rate_limit_rejections_total",
			Help: "Requests refused with 429 by the per-key rate limit.",
		}),
		limiterErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "quiver_rate_limiter_errors_total",
			Help: "Rate limiter failures; the request was allowed (fail open).",
		}),
		upstream: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quiver_upstream_requests_total",
			Help: "Calls to upstream providers, by provider and outcome.",
		}, []string{"provider", "outcome"}),
		upstreamDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "quiver_upstream_request_duration_seconds",
			Help:    "Duration of calls to upstream providers, by provider.",
			Buckets: durationBuckets,
		}, []string{"provider"}),
		llmTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quiver_llm_tokens_total",
			Help: "Language model tokens used, by model and kind (prompt or completion).",
		}, []string{"model", "kind"}),
		llmCost: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quiver_llm_cost_usd_total",
			Help: "Estimated language model cost in US dollars, by model.",
		}, []string{"model"}),
	}
	err := errors.Join(
		register(reg, &m.requests), register(reg, &m.duration), register(reg, &m.inFlight),
		register(reg, &m.rateLimited), register(reg, &m.limiterErrors),
		register(reg, &m.upstream), register(reg, &m.upstreamDuration),
		register(reg, &m.llmTokens), register(reg, &m.llmCost),
	)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	return m, nil
}

// register registers *c in reg, or replaces *c with the equal collector
// that reg already holds.
func register[C prometheus.Collector](reg prometheus.Registerer, c *C) error {
	err := reg.Register(*c)
	var dup prometheus.AlreadyRegisteredError
	if errors.As(err, &dup) {
		if existing, ok := dup.ExistingCollector.(C); ok {
			*c = existing
			return nil
		}
	}
	return err
}

// RequestStarted counts a request in flight, until RequestDone.
func (m *Metrics) RequestStarted() {
	if m == nil {
		return
	}
	m.inFlight.Inc()
}

// RequestDone records the end of a request counted by RequestStarted:
// its route pattern ("" for none), the status written, and how long it
// took.
func (m *Metrics) RequestDone(route string, status int, d time.Duration) {
	if m == nil {
		return
	}
	m.inFlight.Dec()
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, statusLabel(status)).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
}

// statusLabels holds the labels of the valid HTTP statuses, so that
// labelling a request allocates nothing.
var statusLabels = func() (l [600]string) {
	for i := 100; i < len(l); i++ {
		l[i] = strconv.Itoa(i)
	}
	return l
}()

func statusLabel(status int) string {
	if status >= 100 && status < len(statusLabels) {
		return statusLabels[status]
	}
	return strconv.Itoa(status)
}

// RateLimited records a request refused by the rate limit.
func (m *Metrics) RateLimited() {
	if m == nil {
		return
	}
	m.rateLimited.Inc()
}

// LimiterFailed records a rate limiter that could not decide.
func (m *Metrics) LimiterFailed() {
	if m == nil {
		return
	}
	m.limiterErrors.Inc()
}

// ObserveUpstream records one call to an upstream provider ("instagram",
// "openai", ...) with its outcome, one of the Outcome constants.
func (m *Metrics) ObserveUpstream(provider, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.upstream.WithLabelValues(provider, outcome).Inc()
	m.upstreamDuration.WithLabelValues(provider).Observe(d.Seconds())
}

// ObserveAI records the language model usage of one operation (the
// fields of llm.Usage): tokens by kind and cost, under model ("unknown"
// when empty).
func (m *Metrics) ObserveAI(model string, promptTokens, completionTokens int, costUSD float64) {
	if m == nil {
		return
	}
	if model == "" {
		model = "unknown"
	}
	m.llmTokens.WithLabelValues(model, "prompt").Add(float64(max(promptTokens, 0)))
	m.llmTokens.WithLabelValues(model, "completion").Add(float64(max(completionTokens, 0)))
	m.llmCost.WithLabelValues(model).Add(max(costUSD, 0))
}

// CacheStats reports a cache's cumulative hit and miss counts.
type CacheStats func() (hits, misses uint64)

// WatchDNSCache exports the counts of the shared DNS cache as
// quiver_dns_cache_hits_total and quiver_dns_cache_misses_total, read from
// stats at every scrape, so the cache itself needs no dependency on this
// package. Call it once per registry; a second call returns the
// registration error.
func (m *Metrics) WatchDNSCache(stats CacheStats) error {
	if m == nil {
		return nil
	}
	return m.reg.Register(cacheCollector{stats: stats,
		hits:   prometheus.NewDesc("quiver_dns_cache_hits_total", "DNS answers served from the shared cache.", nil, nil),
		misses: prometheus.NewDesc("quiver_dns_cache_misses_total", "DNS lookups that missed the shared cache.", nil, nil),
	})
}

// cacheCollector turns a CacheStats into two counters.
type cacheCollector struct {
	stats        CacheStats
	hits, misses *prometheus.Desc
}

func (c cacheCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.hits
	ch <- c.misses
}

func (c cacheCollector) Collect(ch chan<- prometheus.Metric) {
	hits, misses := c.stats()
	ch <- prometheus.MustNewConstMetric(c.hits, prometheus.CounterValue, float64(hits))
	ch <- prometheus.MustNewConstMetric(c.misses, prometheus.CounterValue, float64(misses))
}
