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

// Store reads and writes values in Redis.
type Store struct {
	// Client is the Redis client. For Timeout to interrupt a read already
	// on the wire, create it with ContextTimeoutEnabled.
	Client redis.UniversalClient
	// Timeout bounds each call.
	Timeout time.Duration
	// OnError, when set, is told of failures other than a missing key.
	OnError func(error)
}

// Get returns the value of key; ok is false when it is missing or Redis
// failed.
func (s Store) Get(ctx context.Context, key string) (val []byte, ok bool) {
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
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
// cancelled (the value was paid for), within Timeout.
func (s Store) Set(ctx context.Context, key string, val []byte, ttl time.Duration) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.Timeout)
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
