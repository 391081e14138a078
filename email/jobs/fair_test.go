package jobs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/redistest"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// backends runs fn on the in-process queue and on a redis-server.
func backends(t *testing.T, cfg jobs.Config, fn func(t *testing.T, m *jobs.Manager, rdb *redis.Client)) {
	for _, backend := range []string{"memory", "redis"} {
		t.Run(backend, func(t *testing.T) {
			cfg := cfg
			var rdb *redis.Client
			if backend == "redis" {
				_, rdb = newRedis(t)
				cfg.Redis = rdb
			}
			fn(t, manager(t, cfg), rdb)
		})
	}
}

func submit(t testing.TB, m *jobs.Manager, owner string, file []byte) jobs.Job {
	t.Helper()
	j, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: owner, File: bytes.NewReader(file)})
	if err != nil {
		t.Fatalf("submit of %s: %v", owner, err)
	}
	return j
}

// A small job does not wait behind a large one: the owners with chunks
// to check take turns, and so do the jobs of an owner. With one worker
// and a large job of 40 chunks running, a 3-row job of another owner,
// and one of the same owner, end while the large one still has most of
// its chunks to go.
func TestSmallJobsDoNotWait(t *testing.T) {
	srv := dns(t, 400, resolvertest.Config{Delay: 10 * time.Millisecond})
	big := listCSV(400, 400) // 40 chunks of 10 rows, every row a lookup
	small := []byte("email\nana@d1.test\nbo@d2.test\ncy@d3.test\n")
	cfg := jobs.Config{ChunkRows: 10, Workers: 1, Verifier: verifier(t, srv.Addr, -1, 2)}
	backends(t, cfg, func(t *testing.T, m *jobs.Manager, _ *redis.Client) {
		run(t, m)
		b := submit(t, m, "key-a", big)
		wait(t, m, "key-a", b.ID, 30*time.Second, func(j jobs.Job) bool { return j.Done > 0 })
		other := submit(t, m, "key-b", small)
		own := submit(t, m, "key-a", small)
		for _, s := range []struct{ owner, id string }{{"key-b", other.ID}, {"key-a", own.ID}} {
			wait(t, m, s.owner, s.id, time.Minute, isDone)
		}
		if j, _ := m.Get(context.Background(), "key-a", b.ID); j.Done > j.Total/2 {
			t.Errorf("the large job had %d of %d rows done when the small ones ended, want under half: they waited for it", j.Done, j.Total)
		}
		wait(t, m, "key-a", b.ID, time.Minute, isDone)
	})
}

// fullRedis starts a redis-server that refuses writes past maxmemory.
func fullRedis(t *testing.T, maxmemory string) (*redistest.Server, *redis.Client) {
	t.Helper()
	srv := redistest.Start(t, "--maxmemory", maxmemory, "--maxmemory-policy", "noeviction")
	return srv, client(t, srv.Addr)
}

// keysOf lists the keys of the job id (and of its place in the queue).
func keysOf(t *testing.T, rdb *redis.Client, id string) []string {
	t.Helper()
	var all []string
	for _, p := range []string{"quiver:jobs:{" + id + "}*", "quiver:jobs:{q}:?:" + id} {
		keys, err := rdb.Keys(context.Background(), p).Result()
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, keys...)
	}
	return all
}

// rowKeys lists the keys of job id but its record (meta, and the set of
// its domains with MX, which its summary counts).
func rowKeys(t *testing.T, rdb *redis.Client, id string) []string {
	t.Helper()
	var rows []string
	for _, k := range keysOf(t, rdb, id) {
		if !strings.HasSuffix(k, "}:meta") && !strings.HasSuffix(k, "}:mx") {
			rows = append(rows, k)
		}
	}
	return rows
}

// A write that a full Redis refuses is a 503 with Retry-After at
// submission, and nothing of the file is left; a running job whose
// results cannot be stored waits, then fails saying why, its rows and
// results dropped; the job of another owner then ends.
func TestFullRedis(t *testing.T) {
	srv := dns(t, 100, resolvertest.Config{})
	_, rdb := fullRedis(t, "3mb")
	ctx := context.Background()
	m := manager(t, jobs.Config{Redis: rdb, Verifier: verifier(t, srv.Addr, 0, 0), ChunkRows: 500, StoreRetry: time.Second})

	// 1.5 MB of rows fit; their 4 MB of results do not.
	var file bytes.Buffer
	file.WriteString("email,note\n")
	for i := range 25000 {
		fmt.Fprintf(&file, "user%d@d%d.test,n\n", i, i%100)
	}
	big := submit(t, m, "key-a", file.Bytes())
	small := submit(t, m, "key-b", []byte("email\nana@d1.test\n"))

	// The file that does not fit is refused, and leaves nothing.
	var huge bytes.Buffer
	huge.WriteString("email\n")
	for huge.Len() < 4<<20 {
		huge.WriteString("someone.with.a.long.name@d1.test\n")
	}
	_, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "key-c", File: bytes.NewReader(huge.Bytes())})
	e := envelope.From(err)
	if e == nil || e.Code != envelope.CodeServiceUnavailable || e.RetryAfter <= 0 || !errors.Is(err, jobs.ErrStoreUnavailable) ||
		!strings.Contains(e.Message, "maxmemory") {
		t.Fatalf("a file over maxmemory: %v, want SERVICE_UNAVAILABLE with Retry-After wrapping ErrStoreUnavailable, naming maxmemory", err)
	}
	keys, _ := rdb.Keys(ctx, "quiver:jobs:{*").Result()
	for _, k := range keys {
		if !strings.Contains(k, big.ID) && !strings.Contains(k, small.ID) && !strings.HasPrefix(k, "quiver:jobs:{q}:") {
			t.Errorf("key left by the refused file: %s", k)
		}
	}
	if n, _ := rdb.Exists(ctx, "quiver:jobs:owner:{"+jobs.OwnerHash("key-c")+"}").Result(); n != 0 {
		t.Errorf("the refused file is still counted in its owner's quotas")
	}

	run(t, m)
	b := wait(t, m, "key-a", big.ID, time.Minute, func(j jobs.Job) bool { return j.Status == jobs.StatusFailed })
	if b.Reason == nil || !strings.Contains(*b.Reason, "could not be stored") || !strings.Contains(*b.Reason, "maxmemory") || b.FinishedAt == nil {
		t.Errorf("the job whose results do not fit: %+v (reason %v), want failed saying why", b, b.Reason)
	}
	if keys := rowKeys(t, rdb, big.ID); len(keys) != 0 {
		t.Errorf("keys left of the failed job: %v, want its record only", keys)
	}
	wait(t, m, "key-b", small.ID, time.Minute, isDone)
}

// Redis out of reach, or read-only, is a 503 at submission too.
func TestUnavailableRedis(t *testing.T) {
	ctx := context.Background()
	primary := redistest.Start(t)
	host, port, _ := strings.Cut(primary.Addr, ":")
	replica := redistest.Start(t, "--replicaof", host, port)
	paused := redistest.Start(t)
	slow := redis.NewClient(&redis.Options{Addr: paused.Addr, ReadTimeout: 200 * time.Millisecond, WriteTimeout: 200 * time.Millisecond, MaxRetries: -1})
	t.Cleanup(func() { slow.Close() })
	for _, tc := range []struct {
		name string
		rdb  redis.UniversalClient
		want string
		stop func()
	}{
		{"read-only", client(t, replica.Addr), "read-only", func() {}},
		{"paused", slow, "does not answer", func() { paused.Pause(t) }},
	} {
		m := manager(t, jobs.Config{Redis: tc.rdb})
		tc.stop()
		_, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "k", File: strings.NewReader("email\na@b.test\n")})
		e := envelope.From(err)
		if e == nil || e.Code != envelope.CodeServiceUnavailable || e.RetryAfter <= 0 || !strings.Contains(e.Message, tc.want) {
			t.Errorf("%s: %v, want SERVICE_UNAVAILABLE with Retry-After saying %q", tc.name, err, tc.want)
		}
	}
	m := manager(t, jobs.Config{Redis: slow})
	if _, err := m.Get(ctx, "k", strings.Repeat("0", 32)); envelope.From(err).Code != envelope.CodeServiceUnavailable {
		t.Errorf("Get on a Redis that does not answer = %v, want SERVICE_UNAVAILABLE", err)
	}
	paused.Resume(t)
}

// quotaErr checks that err is a RATE_LIMIT_EXCEEDED error of quota q,
// with Retry-After, naming it and its limit.
func quotaErr(t *testing.T, err error, q jobs.Quota, limit int) {
	t.Helper()
	e := envelope.From(err)
	var qe *jobs.QuotaError
	if e == nil || e.Code != envelope.CodeRateLimitExceeded || e.RetryAfter <= 0 || !errors.As(err, &qe) || qe.Quota != q ||
		qe.Limit != limit || !errors.Is(err, jobs.ErrQuotaExceeded) || !strings.Contains(e.Message, fmt.Sprint(limit)) ||
		!strings.Contains(e.Message, strings.ReplaceAll(strings.TrimSuffix(string(q), "_stored"), "_", " ")) {
		t.Fatalf("error %v, want RATE_LIMIT_EXCEEDED with Retry-After naming quota %s of %d", err, q, limit)
	}
}

func rowsFile(n int) []byte {
	return []byte("email\n" + strings.Repeat("a@b.test\n", n))
}

// The rows of an owner's jobs that have not ended are bounded: a file
// that passes the quota is refused at the row that does, leaving
// nothing; other owners are not affected; a cancelled job frees its rows.
func TestQuotaRowsInFlight(t *testing.T) {
	backends(t, jobs.Config{MaxOwnerRowsInFlight: 100, ChunkRows: 10}, func(t *testing.T, m *jobs.Manager, rdb *redis.Client) {
		ctx := context.Background()
		first := submit(t, m, "a", rowsFile(60))
		_, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(rowsFile(60))})
		quotaErr(t, err, jobs.QuotaRowsInFlight, 100)
		if e := envelope.From(err); !strings.Contains(e.Message, "row 41") || e.RetryAfter != time.Minute {
			t.Errorf("refusal %q (Retry-After %v), want it at row 41, after a minute", e.Message, e.RetryAfter)
		}
		submit(t, m, "b", rowsFile(100))
		submit(t, m, "a", rowsFile(40)) // what is left
		if _, err := m.Cancel(ctx, "a", first.ID); err != nil {
			t.Fatal(err)
		}
		submit(t, m, "a", rowsFile(60))
		if rdb != nil {
			if keys, _ := rdb.Keys(ctx, "quiver:jobs:{*}:in:*").Result(); len(keys) != 10+6+4 {
				t.Errorf("%d chunks stored, want those of the three jobs kept: the refused file left some", len(keys))
			}
		}
	})
}

// The rows of an owner's stored jobs are bounded until they are deleted:
// DELETE of a done job deletes it (then it is not found), and frees its
// rows; the Retry-After is the time until the earliest expires.
func TestQuotaRowsStoredAndDelete(t *testing.T) {
	srv := dns(t, 10, resolvertest.Config{})
	cfg := jobs.Config{MaxOwnerRowsStored: 100, MaxOwnerRowsInFlight: -1, ChunkRows: 10, TTL: time.Hour, Verifier: verifier(t, srv.Addr, 0, 0)}
	backends(t, cfg, func(t *testing.T, m *jobs.Manager, rdb *redis.Client) {
		run(t, m)
		ctx := context.Background()
		first := submit(t, m, "a", listCSV(60, 10))
		wait(t, m, "a", first.ID, 30*time.Second, isDone)
		_, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(listCSV(60, 10))})
		quotaErr(t, err, jobs.QuotaRowsStored, 100)
		if e := envelope.From(err); e.RetryAfter < 59*time.Minute {
			t.Errorf("Retry-After %v, want the time until the first job expires", e.RetryAfter)
		}
		d, err := m.Delete(ctx, "a", first.ID)
		if err != nil || d.Status != jobs.StatusDone {
			t.Fatalf("Delete of a done job = %+v, %v", d, err)
		}
		if _, err := m.Get(ctx, "a", first.ID); !errors.Is(err, jobs.ErrNotFound) {
			t.Errorf("Get after Delete: %v, want ErrNotFound", err)
		}
		if err := m.Results(ctx, "a", first.ID, new(bytes.Buffer)); !errors.Is(err, jobs.ErrNotFound) {
			t.Errorf("Results after Delete: %v, want ErrNotFound", err)
		}
		if rdb != nil {
			if keys := keysOf(t, rdb, first.ID); len(keys) != 0 {
				t.Errorf("keys left of the deleted job: %v", keys)
			}
		}
		second := submit(t, m, "a", listCSV(60, 10))
		wait(t, m, "a", second.ID, 30*time.Second, isDone)
	})
}

// DELETE of a job that has not ended cancels it, saying why, and drops its
// rows and results; a second DELETE deletes it. The number of jobs an
// owner keeps is bounded too.
func TestDeleteRunningAndQuotaJobs(t *testing.T) {
	srv := dns(t, 200, resolvertest.Config{Delay: 20 * time.Millisecond})
	cfg := jobs.Config{MaxOwnerJobsStored: 2, ChunkRows: 20, Verifier: verifier(t, srv.Addr, -1, 4)}
	backends(t, cfg, func(t *testing.T, m *jobs.Manager, rdb *redis.Client) {
		run(t, m)
		ctx := context.Background()
		j := submit(t, m, "a", listCSV(2000, 200))
		submit(t, m, "a", rowsFile(1))
		_, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(rowsFile(1))})
		quotaErr(t, err, jobs.QuotaJobsStored, 2)

		wait(t, m, "a", j.ID, 30*time.Second, func(j jobs.Job) bool { return j.Done > 0 })
		c, err := m.Delete(ctx, "a", j.ID)
		if err != nil || c.Status != jobs.StatusCancelled || c.Reason == nil || !strings.Contains(*c.Reason, "cancelled") {
			t.Fatalf("Delete of a running job = %+v, %v; want it cancelled, saying why", c, err)
		}
		if rdb != nil {
			time.Sleep(200 * time.Millisecond) // a chunk in hand is not stored
			if keys := rowKeys(t, rdb, j.ID); len(keys) != 0 {
				t.Errorf("keys of the cancelled job: %v, want its record only", keys)
			}
		}
		if _, err := m.Delete(ctx, "a", j.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Get(ctx, "a", j.ID); !errors.Is(err, jobs.ErrNotFound) {
			t.Errorf("Get after the second Delete: %v, want ErrNotFound", err)
		}
		submit(t, m, "a", rowsFile(1))
	})
}

// Concurrent submissions of one owner never pass a quota together, and
// what the refused ones counted is given back.
func TestQuotaConcurrentSubmissions(t *testing.T) {
	backends(t, jobs.Config{MaxOwnerRowsInFlight: 100, ChunkRows: 10}, func(t *testing.T, m *jobs.Manager, _ *redis.Client) {
		var mu sync.Mutex
		accepted := 0
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				_, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(rowsFile(30))})
				if err != nil {
					if !errors.Is(err, jobs.ErrQuotaExceeded) {
						t.Errorf("a refusal that is not a quota's: %v", err)
					}
					return
				}
				mu.Lock()
				accepted += 30
				mu.Unlock()
			})
		}
		wg.Wait()
		if accepted > 100 {
			t.Fatalf("%d rows accepted under a quota of 100", accepted)
		}
		if left := 100 - accepted; left > 0 {
			submit(t, m, "a", rowsFile(left))
		}
		_, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(rowsFile(1))})
		quotaErr(t, err, jobs.QuotaRowsInFlight, 100)
	})
}

// On Redis, the quotas' index is repaired when it refuses a file: a job
// that ended without its owner's index knowing (a crash between the two)
// and an upload whose uploader died no longer count.
func TestQuotaRepair(t *testing.T) {
	_, rdb := newRedis(t)
	ctx := context.Background()
	m := manager(t, jobs.Config{Redis: rdb, MaxOwnerRowsInFlight: 100})
	j := submit(t, m, "a", rowsFile(60))
	idx := "quiver:jobs:owner:{" + jobs.OwnerHash("a") + "}"
	// The job failed behind the index's back; an upload died long ago.
	rdb.HSet(ctx, "quiver:jobs:{"+j.ID+"}:meta", "status", "failed")
	old := time.Now().Add(-time.Hour).UnixMilli()
	rdb.HSet(ctx, idx, strings.Repeat("e", 32), fmt.Sprintf("u 40 %d %d", time.Now().Add(time.Hour).UnixMilli(), old))
	submit(t, m, "a", rowsFile(100))
	if n, _ := rdb.HLen(ctx, idx).Result(); n != 2 {
		t.Errorf("%d entries in the index, want the failed job's and the new one's", n)
	}
}
