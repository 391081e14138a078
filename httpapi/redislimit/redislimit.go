// Package redislimit is an [httpapi.Limiter] whose state lives in Redis,
// so that every Quiver instance behind a load balancer enforces one
// per-key limit between them.
//
// It uses the generic cell rate algorithm (GCRA) of
// github.com/go-redis/redis_rate/v10: one Redis key per API key holding a
// single timestamp, updated atomically by a Lua script, with the time
// taken from the Redis server so that the instances' clocks do not matter.
// The limit has the same meaning as the in-process [httpapi.MemoryLimiter]:
// a sustained rate per second and a burst.
//
// Every call to Redis is bounded by [Config.Timeout]. When Redis does not
// answer in time or fails, Allow returns the error and httpapi lets the
// request through (fail open): a rate limit store that is down must not
// take the service down with it. For the timeout to interrupt a read
// already on the wire, create the client with ContextTimeoutEnabled set,
// as cmd/quiver does.
package redislimit

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/httpapi"
)

// DefaultTimeout bounds each Redis call when Config.Timeout is zero.
const DefaultTimeout = 100 * time.Millisecond

// ErrInvalidConfig is wrapped by the error of [New] when a Config field
// cannot work, ErrNoClient included.
var ErrInvalidConfig = errors.New("redislimit: invalid configuration")

// ErrNoClient is returned by [New] when Config.Client is nil. It wraps
// ErrInvalidConfig.
var ErrNoClient = fmt.Errorf("%w: Config.Client is nil", ErrInvalidConfig)

// Config configures a Limiter. Client is required; the other fields'
// zero values give httpapi's default limit.
type Config struct {
	// Client is the Redis client holding the limiter's state: a
	// *redis.Client, *redis.ClusterClient or *redis.Ring. Required. Create
	// it with ContextTimeoutEnabled so that Timeout interrupts a read.
	Client redis.UniversalClient
	// RatePerSecond is the sustained request rate allowed per key.
	// Default (0): httpapi.DefaultRatePerSecond. Negative or not finite is
	// an error.
	RatePerSecond float64
	// Burst is how many requests a key may make at once. Default (0):
	// httpapi.DefaultBurst. Negative is an error.
	Burst int
	// Prefix is put before every Redis key, to share one Redis between
	// deployments. Default (""): "quiver:". Instances that must share a limit
	// must use the same prefix, rate and burst.
	Prefix string
	// Timeout bounds each call to Redis. Default (0): DefaultTimeout.
	// Negative is an error.
	Timeout time.Duration
}

// Limiter is an httpapi.Limiter backed by Redis. It is safe for concurrent
// use.
type Limiter struct {
	rl      *redis_rate.Limiter
	limit   redis_rate.Limit
	prefix  string
	timeout time.Duration
}

// New returns a Limiter storing its state in cfg.Client. The error is
// [ErrNoClient], or names a field whose value cannot work; either wraps
// [ErrInvalidConfig].
func New(cfg Config) (*Limiter, error) {
	switch {
	case cfg.Client == nil:
		return nil, ErrNoClient
	case cfg.RatePerSecond < 0 || math.IsNaN(cfg.RatePerSecond) || math.IsInf(cfg.RatePerSecond, 0):
		return nil, fmt.Errorf("%w: Config.RatePerSecond %v: want a positive number, or 0 for the default", ErrInvalidConfig, cfg.RatePerSecond)
	case cfg.Burst < 0:
		return nil, fmt.Errorf("%w: Config.Burst %d: want a positive number, or 0 for the default", ErrInvalidConfig, cfg.Burst)
	case cfg.Timeout < 0:
		return nil, fmt.Errorf("%w: Config.Timeout %v: want a positive duration, or 0 for the default", ErrInvalidConfig, cfg.Timeout)
	}
	if cfg.RatePerSecond == 0 {
		cfg.RatePerSecond = httpapi.DefaultRatePerSecond
	}
	if cfg.Burst == 0 {
		cfg.Burst = httpapi.DefaultBurst
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "quiver:"
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &Limiter{
		rl: redis_rate.NewLimiter(cfg.Client),
		// GCRA needs only the emission interval (Period/Rate) and the
		// burst; one request per 1/RatePerSecond keeps fractional rates
		// exact, which redis_rate's integer Rate could not.
		limit: redis_rate.Limit{
			Rate:   1,
			Period: time.Duration(float64(time.Second) / cfg.RatePerSecond),
			Burst:  cfg.Burst,
		},
		prefix:  cfg.Prefix,
		timeout: cfg.Timeout,
	}, nil
}

// Allow implements httpapi.Limiter. The key is hex-encoded into the Redis
// key, so any bytes are safe.
func (l *Limiter) Allow(ctx context.Context, key string) (httpapi.Decision, error) {
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	res, err := l.rl.Allow(ctx, l.prefix+hex.EncodeToString([]byte(key)), l.limit)
	if err != nil {
		return httpapi.Decision{}, fmt.Errorf("redislimit: %w", err)
	}
	d := httpapi.Decision{
		Allowed:   res.Allowed > 0,
		Limit:     l.limit.Burst,
		Remaining: res.Remaining,
	}
	if !d.Allowed {
		d.RetryAfter = res.RetryAfter
	}
	return d, nil
}
