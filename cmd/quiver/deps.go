package main

import (
	"log/slog"
	"net/http"

	"github.com/quiverkit/quiver/internal/httpcache"
	"github.com/quiverkit/quiver/internal/metrics"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/social/microblog"
)

// deps are the process-wide pieces that services wires into the
// services it builds: the metrics, the caches in Redis, the logger. run
// creates them from the server flags before any service is built.
// Commands (no server) have none: a nil *deps gives plain clients.
type deps struct {
	metrics *metrics.Metrics
	cache   *httpcache.Cache
	// cacheLLM, when set, wraps the language model in the cache of its
	// answers in Redis (redis.go).
	cacheLLM func(llm.Config) (llm.Config, error)
	// logger receives the warnings of the services' setup.
	logger *slog.Logger
}

// upstreamClient returns the HTTP client of a data provider: each call
// counted by provider and outcome, and 200 answers kept in Redis for
// -upstream-cache-ttl. The cache is outside the metrics, so that a hit is
// not counted as an upstream call. Nil when there is nothing to add: the
// provider keeps its default client.
func (d *deps) upstreamClient(provider string) *http.Client {
	if d == nil || (d.metrics == nil && d.cache == nil) {
		return nil
	}
	return &http.Client{Transport: d.cache.Transport(provider, d.metrics.Transport(provider, nil), cacheable(provider))}
}

// cacheable returns the check of the answers of provider that may be
// cached, nil when every 200 may. twitterapi.io reports some errors
// (rate limits, unknown users) in a 200 with "status":"error", which
// would otherwise be served from the cache for the whole TTL; the check
// is the provider's own rule, microblog.TwitterAPIIOSucceeded.
func cacheable(provider string) func([]byte) bool {
	if provider != "twitterapi" {
		return nil
	}
	return microblog.TwitterAPIIOSucceeded
}

// llmClient returns the HTTP client of a language model provider: an
// llm.Transport (which reads the provider's status codes) over the
// calls' metrics. Model answers are never cached here; -llm-cache-ttl
// caches them by prompt, above the client.
func (d *deps) llmClient(provider string) *http.Client {
	hc := llm.HTTPClient()
	if d != nil && d.metrics != nil {
		hc.Transport = &llm.Transport{Base: d.metrics.Transport(provider, nil)}
	}
	return hc
}

// watchDNS exports the hits and misses of the shared DNS cache.
func (d *deps) watchDNS(stats func() (hits, misses uint64)) error {
	if d == nil {
		return nil
	}
	return d.metrics.WatchDNSCache(stats)
}
