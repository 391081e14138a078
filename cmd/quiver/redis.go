package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/httpapi/redislimit"
	"github.com/quiverkit/quiver/internal/llmcache"
)

// redisConfig selects the shared state of many instances: with
// QUIVER_REDIS_URL set, the per-key rate limit lives in Redis, and with
// QUIVER_LLM_CACHE_TTL too, language model answers are cached there.
type redisConfig struct {
	url     string
	timeout time.Duration
	prefix  string
	llmTTL  time.Duration

	client *redis.Client
}

// redisFlags registers -redis-url, -redis-timeout and -redis-prefix.
func redisFlags(f *flags) *redisConfig {
	rc := &redisConfig{}
	f.String(&rc.url, "redis-url", "QUIVER_REDIS_URL", "", "Redis shared by all instances, e.g. redis://:password@redis:6379/0 (rediss:// for TLS); empty keeps the rate limit in process")
	f.Duration(&rc.timeout, "redis-timeout", "QUIVER_REDIS_TIMEOUT", redislimit.DefaultTimeout, "time allowed for each Redis call; past it the request is allowed (fail open)")
	f.String(&rc.prefix, "redis-prefix", "QUIVER_REDIS_PREFIX", "quiver:", "prefix of every Redis key")
	f.Duration(&rc.llmTTL, "llm-cache-ttl", "QUIVER_LLM_CACHE_TTL", 0, "keep language model answers in Redis this long, answering identical requests from there; 0 disables")
	return rc
}

// start connects to Redis, when configured, and installs the shared
// limiter in cfg. A Redis that does not answer at start is logged, not
// fatal: requests are let through until it does.
func (rc *redisConfig) start(ctx context.Context, cfg *httpapi.Config, logger *slog.Logger) error {
	if rc.url == "" {
		if rc.llmTTL != 0 {
			return usageError{errors.New("-llm-cache-ttl needs -redis-url")}
		}
		return nil
	}
	opts, err := redis.ParseURL(rc.url)
	if err != nil {
		return usageError{fmt.Errorf("-redis-url: %w", err)}
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
	if cfg.RatePerSecond >= 0 {
		cfg.Limiter = redislimit.New(rc.client, redislimit.Config{
			RatePerSecond: cfg.RatePerSecond,
			Burst:         cfg.Burst,
			Prefix:        rc.prefix,
			Timeout:       rc.timeout,
		})
		logger.Info("rate limits shared through redis", "addr", opts.Addr)
	}
	return rc.cacheLLM(cfg, logger)
}

// cacheLLM wraps cfg.LLM, when set, in a cache of its answers in Redis,
// when -llm-cache-ttl is set.
func (rc *redisConfig) cacheLLM(cfg *httpapi.Config, logger *slog.Logger) error {
	if rc.llmTTL <= 0 || cfg.LLM == nil {
		return nil
	}
	backend, err := llmcache.NewRedis(rc.client, llmcache.Config{
		TTL:       rc.llmTTL,
		Namespace: "default",
		Prefix:    rc.prefix,
		Timeout:   rc.timeout,
		OnError:   func(err error) { logger.Warn("llm cache", "error", err) },
	})
	if err != nil {
		return usageError{fmt.Errorf("-llm-cache-ttl: %w", err)}
	}
	cfg.LLM = llmcache.Wrap(cfg.LLM, backend)
	logger.Info("language model answers cached in redis", "ttl", rc.llmTTL)
	return nil
}

// close closes the Redis client.
func (rc *redisConfig) close() {
	if rc.client != nil {
		rc.client.Close()
	}
}
