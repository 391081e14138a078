package httpapi

import (
	"context"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter decides whether a key may make one more request. Implementations
// must be safe for concurrent use. The in-process [MemoryLimiter] is the
// default; a limiter backed by a shared store lets instances behind a load
// balancer enforce one limit.
type Limiter interface {
	// Allow takes one request from key's allowance. An error means the
	// limiter could not decide; the handler then lets the request through.
	Allow(ctx context.Context, key string) (Decision, error)
}

// Decision is a [Limiter]'s answer.
type Decision struct {
	Allowed    bool          // whether the request may proceed
	Limit      int           // the burst: requests a key may make at once
	Remaining  int           // requests left right now
	RetryAfter time.Duration // when Allowed is false, how long until one is
}

// MemoryLimiter is a token-bucket limiter per key, kept in process. Keys
// idle for longer than it takes to refill the bucket, and at least a
// minute, are evicted, so memory stays bounded by the keys active lately.
type MemoryLimiter struct {
	limit rate.Limit
	burst int
	idle  time.Duration
	now   func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// NewMemoryLimiter returns a limiter allowing perSecond requests per second
// per key, in bursts of up to burst.
func NewMemoryLimiter(perSecond float64, burst int) *MemoryLimiter {
	fill := time.Duration(float64(burst) / perSecond * float64(time.Second))
	return &MemoryLimiter{
		limit:   rate.Limit(perSecond),
		burst:   burst,
		idle:    max(fill, time.Minute),
		now:     time.Now,
		buckets: make(map[string]*bucket),
	}
}

// Allow implements [Limiter]. It never returns an error.
func (m *MemoryLimiter) Allow(_ context.Context, key string) (Decision, error) {
	now := m.now()
	m.mu.Lock()
	if now.Sub(m.lastSweep) > m.idle {
		for k, b := range m.buckets {
			if now.Sub(b.seen) > m.idle {
				delete(m.buckets, k)
			}
		}
		m.lastSweep = now
	}
	b, ok := m.buckets[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(m.limit, m.burst)}
		m.buckets[key] = b
	}
	b.seen = now
	m.mu.Unlock()

	d := Decision{Limit: m.burst}
	if b.lim.AllowN(now, 1) {
		d.Allowed = true
		d.Remaining = int(math.Max(0, math.Floor(b.lim.TokensAt(now))))
		return d, nil
	}
	missing := 1 - b.lim.TokensAt(now)
	d.RetryAfter = time.Duration(missing / float64(m.limit) * float64(time.Second))
	return d, nil
}

// Len returns the number of keys currently tracked.
func (m *MemoryLimiter) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.buckets)
}
