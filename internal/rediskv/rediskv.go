// Package rediskv is the Redis access shared by Quiver's caches: get and
// set with a TTL, each call bounded by a timeout, and failures reported
// but never returned, since a cache that fails is only a miss.
package rediskv

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// MinTransferRate is the slowest rate, in bytes per second, at which a
// value is expected to move between Quiver and Redis: each call is
// allowed Timeout plus the time its value takes at this rate.
const MinTransferRate = 8 << 20

// Store reads and writes values in Redis.
type Store struct {
	// Client is the Redis client. For Timeout to interrupt a read already
	// on the wire, create it with ContextTimeoutEnabled.
	Client redis.UniversalClient
	// Timeout bounds the wait for Redis in each call. Moving a value
	// takes time in proportion to its size, on a busy machine too: a
	// call is allowed Timeout plus the value's size at MinTransferRate,
	// so that a large value is not lost to a clock that measures the
	// machine rather than Redis.
	Timeout time.Duration
	// OnError, when set, is told of failures other than a missing key.
	OnError func(error)
}

// allowed is the time allowed to a call moving n bytes.
func (s Store) allowed(n int64) time.Duration {
	return s.Timeout + time.Duration(n)*time.Second/MinTransferRate
}

// Get returns the value of key; ok is false when it is missing, empty or
// Redis failed. Its size is asked first, within Timeout, to know the
// time its transfer is allowed.
func (s Store) Get(ctx context.Context, key string) (val []byte, ok bool) {
	sctx, cancel := context.WithTimeout(ctx, s.Timeout)
	n, err := s.Client.StrLen(sctx, key).Result()
	cancel()
	if err != nil {
		s.Fail(err)
		return nil, false
	}
	if n == 0 {
		return nil, false
	}
	ctx, cancel = context.WithTimeout(ctx, s.allowed(n))
	defer cancel()
	b, err := s.Client.Get(ctx, key).Bytes()
	if err != nil {
		if !errors.Is(err, redis.Nil) {
			s.Fail(err)
		}
		return nil, false
	}
	return b, true
}

// Set stores val under key for ttl. It completes even when ctx is
// cancelled (the value was paid for), within the time allowed.
func (s Store) Set(ctx context.Context, key string, val []byte, ttl time.Duration) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.allowed(int64(len(val))))
	defer cancel()
	if err := s.Client.Set(ctx, key, val, ttl).Err(); err != nil {
		s.Fail(err)
	}
}

// Fail reports err to OnError.
func (s Store) Fail(err error) {
	if s.OnError != nil {
		s.OnError(err)
	}
}
