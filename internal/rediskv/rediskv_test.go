package rediskv_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/internal/rediskv"
	"github.com/quiverkit/quiver/internal/redistest"
)

func TestStore(t *testing.T) {
	srv := redistest.Start(t)
	var errs []error
	newStore := func(addr string) rediskv.Store {
		rdb := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true, MaxRetries: -1})
		t.Cleanup(func() { rdb.Close() })
		return rediskv.Store{Client: rdb, Timeout: 200 * time.Millisecond, OnError: func(err error) { errs = append(errs, err) }}
	}
	s := newStore(srv.Addr)
	ctx := context.Background()

	if _, ok := s.Get(ctx, "k"); ok {
		t.Error("Get of a missing key: ok")
	}
	if len(errs) != 0 {
		t.Errorf("a missing key was reported as an error: %v", errs)
	}
	// Set completes even for a caller that has gone.
	gone, cancel := context.WithCancel(ctx)
	cancel()
	s.Set(gone, "k", []byte("v"), time.Minute)
	if v, ok := s.Get(ctx, "k"); !ok || string(v) != "v" {
		t.Errorf("Get = %q, %v; want v", v, ok)
	}

	down := newStore("127.0.0.1:1")
	if _, ok := down.Get(ctx, "k"); ok {
		t.Error("Get with no Redis: ok")
	}
	if len(errs) != 1 {
		t.Errorf("errors reported with no Redis: %v, want 1", errs)
	}
}
