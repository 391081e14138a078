package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/httpapi/redislimit"
	"github.com/quiverkit/quiver/internal/httpcache"
	"github.com/quiverkit/quiver/internal/llmcache"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/secret"
)

// redisConfig selects the shared state of many instances: with
// QUIVER_REDIS_URL set, the per-key rate limit lives in Redis, and with
// QUIVER_LLM_CACHE_TTL too, language model answers are cached there.
type redisConfig struct {
	url         secret.String
	timeout     time.Duration
	prefix      string
	llmTTL      time.Duration
	upstreamTTL time.Duration

	client *redis.Client
}

// redisFlags registers -redis-url, -redis-timeout and -redis-prefix.
func redisFlags(f *flags) *redisConfig {
	rc := &redisConfig{}
	bind(f, &rc.url, "redis-url", "", "Redis shared by all instances, e.g. redis://:password@redis:6379/0 (rediss:// for TLS); empty keeps the rate limit in process")
	bind(f, &rc.timeout, "redis-timeout", redislimit.DefaultTimeout, "time allowed for each Redis call; past it the request is allowed (fail open)")
	bind(f, &rc.prefix, "redis-prefix", "quiver:", "prefix of every Redis key")
	bind(f, &rc.llmTTL, "llm-cache-ttl", 0, "keep language model answers in Redis this long, answering identical requests from there; 0 disables")
	bind(f, &rc.upstreamTTL, "upstream-cache-ttl", 0, "keep the social data providers' answers in Redis this long, answering identical requests from there; 0 disables")
	return rc
}

// connect connects to Redis, when configured. A Redis that does not
// answer at start is logged, not fatal: requests are let through until it
// does.
func (rc *redisConfig) connect(ctx context.Context, logger *slog.Logger) error {
	if rc.url == "" {
		if rc.llmTTL != 0 || rc.upstreamTTL != 0 {
			return usageError{fmt.Errorf("%s and %s need %s", flagName("llm-cache-ttl"), flagName("upstream-cache-ttl"), flagName("redis-url"))}
		}
		return nil
	}
	opts, err := redis.ParseURL(rc.url.Reveal())
	if err != nil {
		// A *url.Error repeats the URL, password included: keep its cause.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return usageError{fmt.Errorf("%s: %w", flagName("redis-url"), err)}
	}
	// Let the per-call context bound reads and writes, and do not retry:
	// a retry would multiply what a hung Redis costs each request.
	opts.ContextTimeoutEnabled = true
	opts.MaxRetries = -1
	opts.DialTimeout = max(rc.timeout, time.Second)
	rc.client = redis.NewClient(opts)

	pctx, cancel := context.WithTimeout(ctx, opts.DialTimeout)
	defer cancel()
	if err := rc.client.Ping(pctx).Err(); err != nil {
		logger.Warn("redis does not answer; rate limits are not enforced until it does", "addr", opts.Addr, "error", err)
	}
	return nil
}

// upstreamCache returns the cache of the providers' answers, nil when
// -upstream-cache-ttl is not set.
func (rc *redisConfig) upstreamCache(logger *slog.Logger) (*httpcache.Cache, error) {
	if rc.client == nil || rc.upstreamTTL <= 0 {
		return nil, nil
	}
	c, err := httpcache.New(rc.client, httpcache.Config{
		TTL:     rc.upstreamTTL,
		Prefix:  rc.prefix,
		Timeout: rc.timeout,
		OnError: func(err error) { logger.Warn("upstream cache", "error", err) },
	})
	if err != nil {
		return nil, usageError{fmt.Errorf("%s: %w", flagName("upstream-cache-ttl"), err)}
	}
	logger.Info("social provider answers cached in redis", "ttl", rc.upstreamTTL)
	return c, nil
}

// install puts the limiter shared through Redis in cfg, when
// configured.
func (rc *redisConfig) install(cfg *httpapi.Config, logger *slog.Logger) error {
	if rc.client == nil {
		return nil
	}
	if cfg.RatePerSecond >= 0 {
		l, err := redislimit.New(redislimit.Config{
			Client:        rc.client,
			RatePerSecond: cfg.RatePerSecond,
			Burst:         cfg.Burst,
			Prefix:        rc.prefix,
			Timeout:       rc.timeout,
		})
		if err != nil {
			return usageError{fmt.Errorf("%s, %s or %s: %w", flagName("rate-limit"), flagName("burst"), flagName("redis-timeout"), err)}
		}
		cfg.Limiter = l
		logger.Info("rate limits shared through redis", "addr", rc.client.Options().Addr)
	}
	return nil
}

// cacheLLM wraps the model of lc, when set, in a cache of its answers
// in Redis, when -llm-cache-ttl is set. The cache is named after the
// model, so that a change of model does not answer from the previous
// one's answers.
func (rc *redisConfig) cacheLLM(lc llm.Config, logger *slog.Logger) (llm.Config, error) {
	if rc.client == nil || rc.llmTTL <= 0 || !lc.Enabled() {
		return lc, nil
	}
	backend, err := llmcache.NewRedis(rc.client, llmcache.Config{
		TTL:       rc.llmTTL,
		Namespace: llmCacheNamespace(lc.Name),
		Prefix:    rc.prefix,
		Timeout:   rc.timeout,
		OnError:   func(err error) { logger.Warn("llm cache", "error", err) },
	})
	if err != nil {
		return lc, usageError{fmt.Errorf("%s: %w", flagName("llm-cache-ttl"), err)}
	}
	lc.Model = llmcache.Wrap(lc.Model, backend)
	logger.Info("language model answers cached in redis", "ttl", rc.llmTTL)
	return lc, nil
}

// llmCacheNamespace names the LLM cache after the model.
func llmCacheNamespace(model string) string {
	if model == "" {
		return "default"
	}
	return model
}

// close closes the Redis client.
func (rc *redisConfig) close() {
	if rc.client != nil {
		rc.client.Close()
	}
}
