package jobs

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/internal/redistest"
)

// oomStore is a store (in process or Redis) that refuses the results of
// one job, as a Redis at maxmemory does, and stores every other's.
type oomStore struct {
	store
	id string

	mu      sync.Mutex
	refused int
}

var errOOM = redis.Error(oomError("OOM command not allowed when used memory > 'maxmemory'."))

type oomError string

func (e oomError) Error() string { return string(e) }
func (oomError) RedisError()     {}

func (s *oomStore) finish(ctx context.Context, id string, n int, res *chunkResult, now time.Time) (bool, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == s.id {
		s.refused++
		return false, false, errOOM
	}
	return s.store.finish(ctx, id, n, res, now)
}

func (s *oomStore) refusals() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// A job whose results cannot be stored does not hold the workers, on
// either backend: its chunks are put back and it waits, longer after
// each failure, while the one worker checks the job that another owner
// submits meanwhile, which ends while the first is still running; after
// Config.StoreRetry (here a minute, passed on the Manager's clock) the
// first fails, saying why, and its rows leave its owner's quotas.
func TestStoreFailureDoesNotHoldWorkers(t *testing.T) {
	for _, backend := range []string{"memory", "redis"} {
		t.Run(backend, func(t *testing.T) {
			cfg := Config{ChunkRows: 10, StoreRetry: time.Minute, MaxOwnerRowsInFlight: 100}
			if backend == "redis" {
				rdb := redis.NewClient(&redis.Options{Addr: redistest.Start(t).Addr})
				t.Cleanup(func() { rdb.Close() })
				cfg.Redis = rdb
			}
			storeFailureDoesNotHoldWorkers(t, cfg)
		})
	}
}

func storeFailureDoesNotHoldWorkers(t *testing.T, cfg Config) {
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var ahead atomic.Int64 // how far the Manager's clock is ahead of time.Now
	m.now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	st := &oomStore{store: m.st}
	m.st = st
	ctx := context.Background()
	file := "email\n" + strings.Repeat("a@b.test\n", 100)
	a, err := m.Submit(ctx, SubmitRequest{Owner: "a", File: strings.NewReader(file)})
	if err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	st.id = a.ID
	st.mu.Unlock()
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { m.Run(rctx); close(done) }()
	defer func() { cancel(); <-done }()

	poll := func(owner, id string, d time.Duration, what string, cond func(Job) bool) Job {
		t.Helper()
		for deadline := time.Now().Add(d); ; time.Sleep(10 * time.Millisecond) {
			j, err := m.Get(ctx, owner, id)
			if err == nil && cond(j) {
				return j
			}
			if time.Now().After(deadline) {
				t.Fatalf("job of %s after %v: %+v (%v), want %s", owner, d, j, err, what)
			}
		}
	}
	// The first job waits: its results were refused.
	for deadline := time.Now().Add(30 * time.Second); st.refusals() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the results of the first job were never stored nor refused")
		}
	}
	start := time.Now()
	b, err := m.Submit(ctx, SubmitRequest{Owner: "b", File: strings.NewReader("email\nx@y.test\n")})
	if err != nil {
		t.Fatal(err)
	}
	poll("b", b.ID, 30*time.Second, "done while the first waits", func(j Job) bool { return j.Status == StatusDone })
	if j, _ := m.Get(ctx, "a", a.ID); j.Status != StatusRunning {
		t.Errorf("the job that cannot store its results = %+v, want running", j)
	}
	// The waits double: a handful of tries in 3 s, not one per chunk per
	// worker turn.
	time.Sleep(time.Until(start.Add(3 * time.Second)))
	if refused := st.refusals(); refused < 3 || refused > 20 {
		t.Errorf("%d tries to store the results in 3 s, want a few, each after a longer wait", refused)
	}
	ahead.Store(int64(cfg.StoreRetry)) // StoreRetry passes
	j := poll("a", a.ID, 60*time.Second, "failed after StoreRetry", func(j Job) bool { return j.Status == StatusFailed })
	if j.Reason == nil || !strings.Contains(*j.Reason, "could not be stored for") || !strings.Contains(*j.Reason, "maxmemory") {
		t.Errorf("reason %v, want it to say the results could not be stored, and why", j.Reason)
	}
	// Its rows no longer count.
	if _, err := m.Submit(ctx, SubmitRequest{Owner: "a", File: strings.NewReader(file)}); err != nil {
		t.Errorf("a file as large after the failed job: %v", err)
	}
}
