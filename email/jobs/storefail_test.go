package jobs

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// oomStore is the in-process store, but for the results of one job, which
// it refuses as a Redis at maxmemory does.
type oomStore struct {
	*memStore
	id string

	mu      sync.Mutex
	refused int
}

var errOOM = redis.Error(oomError("OOM command not allowed when used memory > 'maxmemory'."))

type oomError string

func (e oomError) Error() string { return string(e) }
func (oomError) RedisError()     {}

func (s *oomStore) finish(ctx context.Context, id string, n int, res *chunkResult, now time.Time) (bool, bool, error) {
	if id == s.id {
		s.mu.Lock()
		s.refused++
		s.mu.Unlock()
		return false, false, errOOM
	}
	return s.memStore.finish(ctx, id, n, res, now)
}

// A job whose results cannot be stored does not hold the workers: its
// chunks are put back and it waits, longer after each failure, while the
// one worker checks another owner's job; after Config.StoreRetry it fails,
// saying why, and its rows leave its owner's quotas.
func TestStoreFailureDoesNotHoldWorkers(t *testing.T) {
	m, err := New(Config{ChunkRows: 10, StoreRetry: 3 * time.Second, MaxOwnerRowsInFlight: 100})
	if err != nil {
		t.Fatal(err)
	}
	st := &oomStore{memStore: m.st.(*memStore)}
	m.st = st
	ctx := context.Background()
	file := "email\n" + strings.Repeat("a@b.test\n", 100)
	a, err := m.Submit(ctx, SubmitRequest{Owner: "a", File: strings.NewReader(file)})
	if err != nil {
		t.Fatal(err)
	}
	st.id = a.ID
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { m.Run(rctx); close(done) }()
	defer func() { cancel(); <-done }()

	b, err := m.Submit(ctx, SubmitRequest{Owner: "b", File: strings.NewReader("email\nx@y.test\n")})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		j, _ := m.Get(ctx, "b", b.ID)
		if j.Status == StatusDone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("another owner's job: %+v, want done while the first waits", j)
		}
	}
	if j, _ := m.Get(ctx, "a", a.ID); j.Status != StatusRunning {
		t.Errorf("the job that cannot store its results = %+v, want running", j)
	}
	var j Job
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if j, _ = m.Get(ctx, "a", a.ID); j.Status == StatusFailed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after StoreRetry: %+v, want failed", j)
		}
	}
	if j.Reason == nil || !strings.Contains(*j.Reason, "could not be stored for") || !strings.Contains(*j.Reason, "maxmemory") {
		t.Errorf("reason %v, want it to say the results could not be stored, and why", j.Reason)
	}
	// The waits double: a handful of tries in 3 s, not one per chunk per
	// worker turn.
	st.mu.Lock()
	refused := st.refused
	st.mu.Unlock()
	if refused < 3 || refused > 20 {
		t.Errorf("%d tries to store the results in 3 s, want a few, each after a longer wait", refused)
	}
	// Its rows no longer count.
	if _, err := m.Submit(ctx, SubmitRequest{Owner: "a", File: strings.NewReader(file)}); err != nil {
		t.Errorf("a file as large after the failed job: %v", err)
	}
}
