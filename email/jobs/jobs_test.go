package jobs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/redistest"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// newRedis starts a redis-server and returns a client of it.
func newRedis(t testing.TB) (*redistest.Server, *redis.Client) {
	t.Helper()
	srv := redistest.Start(t)
	return srv, client(t, srv.Addr)
}

func client(t testing.TB, addr string) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { c.Close() })
	return c
}

func manager(t testing.TB, cfg jobs.Config) *jobs.Manager {
	t.Helper()
	m, err := jobs.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// run runs m's workers until the test ends.
func run(t testing.TB, m *jobs.Manager) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

// A job's results are verify-list's output of the same file, row by row,
// and its summary counts what bulk/validate would, on both backends.
func TestJobMatchesVerifyList(t *testing.T) {
	srv := dns(t, 50, resolvertest.Config{})
	file := listCSV(3000, 50)
	want := expected(t, verifier(t, srv.Addr, 0, 0), file)
	for _, backend := range []string{"memory", "redis"} {
		t.Run(backend, func(t *testing.T) {
			cfg := jobs.Config{Verifier: verifier(t, srv.Addr, 0, 0), ChunkRows: 256, Workers: 3}
			if backend == "redis" {
				_, cfg.Redis = newRedis(t)
			}
			m := manager(t, cfg)
			run(t, m)
			j, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: "key-a", File: bytes.NewReader(file)})
			if err != nil {
				t.Fatal(err)
			}
			if j.Status != jobs.StatusQueued || j.Total != 3000 || j.FinishedAt != nil {
				t.Fatalf("submitted job = %+v", j)
			}
			j = wait(t, m, "key-a", j.ID, time.Minute, isDone)
			sameRows(t, results(t, m, "key-a", j.ID), want)

			if j.Summary.Total != 3000 || j.Done != 3000 || j.Summary.Valid+j.Summary.Invalid != 3000 {
				t.Errorf("summary = %+v", j.Summary)
			}
			if j.FinishedAt == nil || j.RowsPerSecond <= 0 || j.ETASeconds != nil {
				t.Errorf("finished job = %+v", j)
			}
		})
	}
}

// The summary of a job equals bulk/validate's for the same addresses.
func TestSummaryIsBulkSummary(t *testing.T) {
	srv := dns(t, 20, resolvertest.Config{})
	v := verifier(t, srv.Addr, 0, 0)
	addrs := []string{"a@d1.test", "A@D1.test", "b@d2.test", "admin@d3.test", "nope", "nope", " nope", "c@d9.test", "a@d1.test"}
	bulk, err := v.ValidateBulk(context.Background(), email.BulkRequest{Emails: addrs})
	if err != nil {
		t.Fatal(err)
	}
	file := "email\n" + strings.Join(addrs, "\n") + "\n"
	for _, chunk := range []int{1, 2, 100} {
		m := manager(t, jobs.Config{Verifier: v, ChunkRows: chunk})
		run(t, m)
		j, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: "k", File: strings.NewReader(file)})
		if err != nil {
			t.Fatal(err)
		}
		j = wait(t, m, "k", j.ID, 30*time.Second, isDone)
		if j.Summary != bulk.Summary {
			t.Errorf("chunks of %d: summary %+v, want %+v", chunk, j.Summary, bulk.Summary)
		}
	}
}

// The owner, limits, early results and bad files, on both backends.
func TestSubmitAndAccess(t *testing.T) {
	for _, backend := range []string{"memory", "redis"} {
		t.Run(backend, func(t *testing.T) {
			cfg := jobs.Config{MaxRows: 10, MaxBytes: 400}
			if backend == "redis" {
				_, cfg.Redis = newRedis(t)
			}
			m := manager(t, cfg) // no workers: the job stays queued
			ctx := context.Background()
			j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: strings.NewReader("email\nx@y.test\n")})
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				name string
				err  error
				code envelope.Code
			}{
				{"other key get", func() error { _, err := m.Get(ctx, "b", j.ID); return err }(), envelope.CodeNotFound},
				{"other key cancel", func() error { _, err := m.Cancel(ctx, "b", j.ID); return err }(), envelope.CodeNotFound},
				{"other key results", m.Results(ctx, "b", j.ID, new(bytes.Buffer)), envelope.CodeNotFound},
				{"unknown id", func() error { _, err := m.Get(ctx, "a", strings.Repeat("0", 32)); return err }(), envelope.CodeNotFound},
				{"malformed id", func() error { _, err := m.Get(ctx, "a", "../x"); return err }(), envelope.CodeNotFound},
				{"early results", m.Results(ctx, "a", j.ID, new(bytes.Buffer)), envelope.CodeConflict},
			} {
				if e := envelope.From(tc.err); e == nil || e.Code != tc.code {
					t.Errorf("%s: error %v, want %s", tc.name, tc.err, tc.code)
				}
			}
			if err := m.Results(ctx, "a", j.ID, new(bytes.Buffer)); !errors.Is(err, jobs.ErrNotDone) {
				t.Errorf("early results: %v, want ErrNotDone", err)
			}

			for _, tc := range []struct {
				name, file string
				code       envelope.Code
				msg        string
			}{
				{"rows", "email\n" + strings.Repeat("a@b.test\n", 11), envelope.CodeInvalidRequest, "limit of 10 data rows"},
				{"bytes", "email\n" + strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789abcdefgh@b.test\n", 9), envelope.CodePayloadTooLarge, "limit of 400 bytes"},
				{"empty", "", envelope.CodeInvalidRequest, "header row is required"},
				{"header only", "email\n", envelope.CodeInvalidRequest, "no data rows"},
				{"bad quote", "email\n\"a@b.test\n", envelope.CodeInvalidRequest, "row 1"},
			} {
				_, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: strings.NewReader(tc.file)})
				e := envelope.From(err)
				if e == nil || e.Code != tc.code || !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("%s: error %v, want %s naming %q", tc.name, err, tc.code, tc.msg)
				}
			}
		})
	}
}

// A job expires after the TTL, with everything it stored.
func TestTTLExpiry(t *testing.T) {
	_, rdb := newRedis(t)
	m := manager(t, jobs.Config{Redis: rdb, TTL: 1500 * time.Millisecond, Prefix: "ttl:"})
	run(t, m)
	ctx := context.Background()
	j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: strings.NewReader("email\nx@y.test\nz@y.test\n")})
	if err != nil {
		t.Fatal(err)
	}
	wait(t, m, "a", j.ID, 30*time.Second, isDone)
	jobKeys := func() []string {
		var all []string
		for _, pattern := range []string{"ttl:{" + j.ID + "}*", "ttl:owner:*", "ttl:{q}:?:*"} {
			keys, err := rdb.Keys(ctx, pattern).Result()
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, keys...)
		}
		return all
	}
	keys := jobKeys()
	if len(keys) == 0 {
		t.Fatalf("no keys of the job")
	}
	for _, k := range keys {
		if strings.HasPrefix(k, "ttl:{q}:o:") {
			continue // an owner's turns, emptied as the workers pass
		}
		if ttl := rdb.PTTL(ctx, k).Val(); ttl <= 0 || ttl > 1500*time.Millisecond {
			t.Errorf("key %s: TTL %v", k, ttl)
		}
	}
	time.Sleep(1600*time.Millisecond + 2*time.Second) // the TTL, and an idle worker's look at the queue
	if _, err := m.Get(ctx, "a", j.ID); !errors.Is(err, jobs.ErrNotFound) {
		t.Errorf("after the TTL: %v, want ErrNotFound", err)
	}
	if keys := jobKeys(); len(keys) != 0 {
		t.Errorf("keys left after the TTL: %v", keys)
	}
}

// A job cancelled mid-way stops: its count stays, its status is
// cancelled, and its results are refused.
func TestCancelMidJob(t *testing.T) {
	srv := dns(t, 200, resolvertest.Config{Delay: 20 * time.Millisecond})
	_, rdb := newRedis(t)
	m := manager(t, jobs.Config{Redis: rdb, Verifier: verifier(t, srv.Addr, -1, 8), ChunkRows: 50})
	run(t, m)
	ctx := context.Background()
	j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(listCSV(5000, 200))})
	if err != nil {
		t.Fatal(err)
	}
	wait(t, m, "a", j.ID, 30*time.Second, func(j jobs.Job) bool { return j.Done > 0 })
	c, err := m.Cancel(ctx, "a", j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != jobs.StatusCancelled || c.FinishedAt == nil {
		t.Fatalf("cancelled job = %+v", c)
	}
	time.Sleep(time.Second) // a chunk in hand when cancelled is not counted
	after, _ := m.Get(ctx, "a", j.ID)
	if after.Status != jobs.StatusCancelled || after.Done != c.Done || after.Done >= after.Total {
		t.Errorf("after cancel: %+v (when cancelled: done %d)", after, c.Done)
	}
	if err := m.Results(ctx, "a", j.ID, new(bytes.Buffer)); !errors.Is(err, jobs.ErrNotDone) {
		t.Errorf("results of a cancelled job: %v", err)
	}
	if again, _ := m.Cancel(ctx, "a", j.ID); again.Status != jobs.StatusCancelled {
		t.Errorf("cancelling again: %+v", again)
	}
	// Skipped chunks are acked; on a loaded machine that may take a while.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		n := jobs.QueueDepth(m)
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("queue depth after cancel = %d, want 0 (skipped chunks are acked)", n)
		}
	}
	// The rows never to be checked are gone at once, not at the TTL.
	if keys, _ := rdb.Keys(ctx, "quiver:jobs:{"+j.ID+"}:in:*").Result(); len(keys) != 0 {
		t.Errorf("%d input keys left after cancel, want 0: %v", len(keys), keys[:min(3, len(keys))])
	}
	if n, _ := rdb.Exists(ctx, "quiver:jobs:{"+j.ID+"}:seen").Result(); n != 0 {
		t.Errorf("the duplicate keys of a cancelled job are kept")
	}
}

// In process, a cancelled job gives back the memory of its rows at once:
// a file as large fits again under MaxMemory. Its times are stored to
// the millisecond, as created_at is and as Redis keeps them.
func TestCancelFreesRowsInProcess(t *testing.T) {
	file := listCSV(2000, 10)
	m := manager(t, jobs.Config{ChunkRows: 100, MaxMemory: int64(len(file)) * 10, TTL: time.Hour}) // one job fits
	ctx := context.Background()
	j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(file)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Cancel(ctx, "a", j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(file)}); err != nil {
		t.Errorf("a file after the cancelled one of the same size: %v, want its room freed", err)
	}
	for name, at := range map[string]time.Time{"created_at": c.CreatedAt, "finished_at": *c.FinishedAt} {
		if !at.Equal(at.Truncate(time.Millisecond)) || at.Location() != time.UTC {
			t.Errorf("%s = %v, want UTC to the millisecond", name, at)
		}
	}
}

// Files that encoding/csv does not write back as it read them (a lone
// empty field, an empty header) come back as verify-list writes them,
// on both backends.
func TestOddFilesMatchVerifyList(t *testing.T) {
	v, err := email.New(email.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, rdb := newRedis(t)
	files := []string{
		"\"\"\n\"\"\na@b.test\n",
		"email\n\"\"\n\"multi\nline\"\n\"a\rb\",x\n",
		"\xef\xbb\xbf\"\",\"\"\r\n,\r\n1,2,3\r\n",
		"e\n\xff\xfe@b.test\n", // not UTF-8: kept as it is
	}
	for _, backend := range []string{"memory", "redis"} {
		cfg := jobs.Config{Verifier: v, ChunkRows: 1}
		if backend == "redis" {
			cfg.Redis = rdb
		}
		m := manager(t, cfg)
		run(t, m)
		for _, file := range files {
			j, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: "k", File: strings.NewReader(file)})
			if err != nil {
				t.Fatalf("%s %q: %v", backend, file, err)
			}
			j = wait(t, m, "k", j.ID, 30*time.Second, isDone)
			if got, want := results(t, m, "k", j.ID), expected(t, v, []byte(file)); !bytes.Equal(got, want) {
				t.Errorf("%s %q:\n got %q\nwant %q", backend, file, got, want)
			}
		}
	}
}

// The results keep the bytes of every field as they were uploaded:
// "\r\n", a lone "\r", quotes and empty fields inside quoted fields, in
// the header too, and bytes that are not UTF-8, on both backends; and
// they are verify-list's output of the same file.
func TestResultsKeepBytes(t *testing.T) {
	v, err := email.New(email.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, rdb := newRedis(t)
	const header = "e\xffmail,\"no\r\nte\",\"\"\r\n"
	rows := [][2]string{ // the address, then the rest of the row as sent and as it comes back
		{"a@b.test", `,"line1` + "\r\n" + `line2",x`},
		{"c@d.test", `,"lone` + "\r" + `cr","` + "\r" + `"`},
		{"e@f.test", `,"q""uote",""`},
		{"g@h.test", `,"` + "\r\n\r\n" + `",` + "\r"},
		{"i@j.test", `,"a` + "\n" + `b` + "\r\r\n" + `"`},
	}
	file := header
	for _, r := range rows {
		file += r[0] + r[1] + "\r\n"
	}
	// The result columns of each address, from verify-list.
	var plain bytes.Buffer
	plain.WriteString("email\n")
	for _, r := range rows {
		plain.WriteString(r[0] + "\n")
	}
	cols := strings.Split(strings.TrimSuffix(string(expected(t, v, plain.Bytes())), "\n"), "\n")
	want := "e\xffmail,\"no\r\nte\",," + strings.Join(email.CSVResultHeader(), ",") + "\n"
	back := []string{ // the rows as encoding/csv's writer writes them, every byte kept
		`a@b.test,"line1` + "\r\n" + `line2",x`,
		`c@d.test,"lone` + "\r" + `cr","` + "\r" + `"`,
		`e@f.test,"q""uote",`,
		`g@h.test,"` + "\r\n\r\n" + `","` + "\r" + `"`, // an unquoted "\r" before the line's "\r\n"
		`i@j.test,"a` + "\n" + `b` + "\r\r\n" + `",`,
	}
	for i, b := range back {
		_, res, _ := strings.Cut(cols[i+1], ",")
		want += b + "," + res + "\n"
	}
	if vl := string(expected(t, v, []byte(file))); vl != want {
		t.Errorf("verify-list:\n got %q\nwant %q", vl, want)
	}
	for _, backend := range []string{"memory", "redis"} {
		cfg := jobs.Config{Verifier: v, ChunkRows: 2}
		if backend == "redis" {
			cfg.Redis = rdb
		}
		m := manager(t, cfg)
		run(t, m)
		j, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: "k", File: strings.NewReader(file)})
		if err != nil {
			t.Fatalf("%s: %v", backend, err)
		}
		j = wait(t, m, "k", j.ID, 30*time.Second, isDone)
		if got := string(results(t, m, "k", j.ID)); got != want {
			t.Errorf("%s:\n got %q\nwant %q", backend, got, want)
		}
	}
}

// Results reads a chunk's results from the store in pieces of at most
// 64 KiB, one at a time, on both backends: a download holds one piece,
// whatever the size of the chunk (here 1 MB of rows, more of results).
func TestResultsAreReadInPieces(t *testing.T) {
	v, err := email.New(email.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, rdb := newRedis(t)
	var file bytes.Buffer
	file.WriteString("email,note\n")
	note := strings.Repeat("n", 2000)
	for i := range 1000 {
		fmt.Fprintf(&file, "user%d@example.test,%s\n", i, note)
	}
	want := expected(t, v, file.Bytes())
	for _, backend := range []string{"memory", "redis"} {
		t.Run(backend, func(t *testing.T) {
			cfg := jobs.Config{Verifier: v}
			if backend == "redis" {
				cfg.Redis = rdb
			}
			m := manager(t, cfg)
			run(t, m)
			j, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: "k", File: bytes.NewReader(file.Bytes())})
			if err != nil {
				t.Fatal(err)
			}
			wait(t, m, "k", j.ID, time.Minute, isDone)
			var w pieceWriter
			if err := m.Results(context.Background(), "k", j.ID, &w); err != nil {
				t.Fatal(err)
			}
			if w.most > 64<<10 {
				t.Errorf("Results wrote %d bytes at once, want pieces of at most 64 KiB", w.most)
			}
			sameRows(t, w.Bytes(), want)
		})
	}
}

// pieceWriter keeps what is written to it, and the most written at once.
type pieceWriter struct {
	bytes.Buffer
	most int
}

func (w *pieceWriter) Write(p []byte) (int, error) {
	w.most = max(w.most, len(p))
	return w.Buffer.Write(p)
}

// Every worker instance stops mid-job (its chunks in hand are cut
// short) and a new one starts: it claims the abandoned chunks after
// ClaimIdle, the job completes with every row once, and the claims are
// counted as retries.
func TestRestartEveryInstance(t *testing.T) {
	srv := dns(t, 100, resolvertest.Config{Delay: 20 * time.Millisecond})
	rsrv, rdb := newRedis(t)
	file := listCSV(2000, 100)
	want := expected(t, verifier(t, srv.Addr, 0, 0), file)
	first := manager(t, jobs.Config{Redis: rdb, Verifier: verifier(t, srv.Addr, -1, 8), ChunkRows: 100, Workers: 2})
	ctx, stop := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { first.Run(ctx); close(stopped) }()
	j, err := first.Submit(context.Background(), jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(file)})
	if err != nil {
		t.Fatal(err)
	}
	wait(t, first, "a", j.ID, 30*time.Second, func(j jobs.Job) bool { return j.Done > 0 })
	stop()
	<-stopped
	if n, _ := rdb.ZCard(context.Background(), "quiver:jobs:{q}:leases").Result(); n == 0 {
		t.Fatalf("no chunk was left leased by the stopped instance")
	}

	reg := prometheus.NewRegistry()
	second := manager(t, jobs.Config{Redis: client(t, rsrv.Addr), Verifier: verifier(t, srv.Addr, -1, 8),
		Workers: 2, ClaimIdle: 300 * time.Millisecond, Metrics: reg})
	run(t, second)
	j = wait(t, second, "a", j.ID, time.Minute, isDone)
	sameRows(t, results(t, second, "a", j.ID), want)
	if got := counter(t, reg, "quiver_email_job_chunk_retries_total"); got < 1 {
		t.Errorf("chunk retries = %v, want the abandoned chunks counted", got)
	}
}

// counter returns the value of the counter name in reg.
func counter(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.Metric) == 1 {
			return mf.Metric[0].GetCounter().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// The in-process queue holds at most Config.MaxMemory bytes of rows and
// results: a chunk's rows are counted when they are uploaded, and its
// results, in their place, when they land. A file that would go over is
// refused with 503 and leaves nothing behind; results that would go over
// wait, as on a full Redis, and their job fails after StoreRetry saying
// why, which frees its rows; the room comes back when a job is gone.
func TestInProcessMemoryIsBounded(t *testing.T) {
	srv := dns(t, 10, resolvertest.Config{})
	file := listCSV(2000, 10) // some 54 KB of rows, 154 KB of results
	ctx := context.Background()
	// What one job's results take, measured.
	roomy := manager(t, jobs.Config{Verifier: verifier(t, srv.Addr, 0, 0), ChunkRows: 100})
	run(t, roomy)
	j, err := roomy.Submit(ctx, jobs.SubmitRequest{Owner: "key-a", File: bytes.NewReader(file)})
	if err != nil {
		t.Fatal(err)
	}
	wait(t, roomy, "key-a", j.ID, 30*time.Second, isDone)
	out := jobs.HeldBytes(roomy)
	if out <= 2*int64(len(file)) {
		t.Fatalf("a job's results hold %d bytes for a file of %d", out, len(file))
	}
	// Room for one job's results and another's rows, not its results.
	limit := out + int64(len(file))*3/2
	m := manager(t, jobs.Config{Verifier: verifier(t, srv.Addr, 0, 0), ChunkRows: 100, MaxMemory: limit,
		TTL: time.Hour, StoreRetry: 500 * time.Millisecond})
	submit := func() (jobs.Job, error) {
		return m.Submit(ctx, jobs.SubmitRequest{Owner: "key-a", File: bytes.NewReader(file)})
	}
	a, err := submit()
	if err != nil {
		t.Fatal(err)
	}
	wctx, stop := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() { m.Run(wctx); close(stopped) }()
	wait(t, m, "key-a", a.ID, 30*time.Second, isDone)
	stop() // no result lands while the bytes held are compared
	<-stopped
	if held := jobs.HeldBytes(m); held != out {
		t.Fatalf("a done job holds %d bytes, want its results, %d", held, out)
	}
	b, err := submit() // its rows fit; its results will not
	if err != nil {
		t.Fatalf("a file whose rows fit under MaxMemory: %v", err)
	}
	held := jobs.HeldBytes(m)
	if _, err := submit(); err == nil {
		t.Fatalf("a file over MaxMemory %d (held %d) was admitted", limit, held)
	} else if e := envelope.From(err); e.Code != envelope.CodeServiceUnavailable || !strings.Contains(e.Message, "limit of") {
		t.Fatalf("job over MaxMemory: %v, want SERVICE_UNAVAILABLE naming the limit", err)
	}
	if now := jobs.HeldBytes(m); now != held {
		t.Fatalf("a refused file changed the bytes held: %d, then %d", held, now)
	}
	run(t, m)
	fb := wait(t, m, "key-a", b.ID, 30*time.Second, func(j jobs.Job) bool { return j.Status == jobs.StatusFailed })
	if fb.Reason == nil || !strings.Contains(*fb.Reason, "memory limit") {
		t.Errorf("a job whose results do not fit failed with reason %v, want one naming the memory limit", fb.Reason)
	}
	hdr := jobs.HeaderBytes([]string{"name", "Email", "note"}) // a failed job keeps its record
	if held := jobs.HeldBytes(m); held != out+hdr {
		t.Errorf("after the job that did not fit failed, %d bytes are held, want the first job's results and the second's header, %d", held, out+hdr)
	}
	for _, id := range []string{a.ID, b.ID} {
		if _, err := m.Delete(ctx, "key-a", id); err != nil {
			t.Fatal(err)
		}
	}
	if held := jobs.HeldBytes(m); held != 0 {
		t.Errorf("with no job left, %d bytes are held", held)
	}
	c, err := submit()
	if err != nil {
		t.Fatalf("a file once a job is deleted: %v", err)
	}
	wait(t, m, "key-a", c.ID, 30*time.Second, isDone)
	// An expired job frees its room: with a TTL of 1 ms, each job has
	// expired when the next one comes.
	short := manager(t, jobs.Config{Verifier: verifier(t, srv.Addr, 0, 0), ChunkRows: 100, MaxMemory: limit, TTL: time.Millisecond})
	for i := range 3 {
		if _, err := short.Submit(ctx, jobs.SubmitRequest{Owner: "key-a", File: bytes.NewReader(file)}); err != nil {
			t.Fatalf("job %d after the earlier ones expired: %v", i, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := jobs.New(jobs.Config{MaxMemory: -1}); !errors.Is(err, jobs.ErrInvalidConfig) {
		t.Errorf("New with MaxMemory -1 = %v, want ErrInvalidConfig", err)
	}
}

// A zero Config takes two jobs of DefaultMaxRows rows of 31-byte
// addresses at once, in process, as Config.MaxMemory's default says: the
// rows count, not what their results may take.
func TestDefaultConfigTakesDefaultJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("email/jobs: two uploads of 32 MB")
	}
	m := manager(t, jobs.Config{})
	var b bytes.Buffer
	b.WriteString("email\n")
	for i := range jobs.DefaultMaxRows {
		fmt.Fprintf(&b, "user%07d@example-domain.test\n", i)
	}
	for i := range 2 {
		if _, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: fmt.Sprint("key-", i), File: bytes.NewReader(b.Bytes())}); err != nil {
			t.Fatalf("job %d of %d rows under the zero Config: %v", i+1, jobs.DefaultMaxRows, err)
		}
	}
	// A stored row is its bytes and one byte of length per field; the
	// header is counted apart.
	rows := 2 * (int64(b.Len()+jobs.DefaultMaxRows) + jobs.HeaderBytes([]string{"email"}))
	if held := jobs.HeldBytes(m); held > rows {
		t.Errorf("two uploads of %d bytes hold %d bytes, want at most their rows and headers, %d", b.Len(), held, rows)
	}
}

// A job's header row counts against Config.MaxMemory for as long as its
// record is kept, after it has ended too: jobs of one row and a wide
// header, cancelled at once, fill the limit and are then refused.
func TestHeadersCountAgainstMemory(t *testing.T) {
	const limit = 8 << 20
	m := manager(t, jobs.Config{MaxMemory: limit, MaxOwnerJobsStored: -1})
	var file bytes.Buffer
	for i := range jobs.MaxColumns {
		if i > 0 {
			file.WriteByte(',')
		}
		fmt.Fprintf(&file, "c%062d", i) // 64 KB of header
	}
	file.WriteString("\nsomeone@example.test\n")
	ctx := context.Background()
	for n := range 1000 {
		held := jobs.HeldBytes(m)
		j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "key-a", File: bytes.NewReader(file.Bytes())})
		if err != nil {
			if e := envelope.From(err); e.Code != envelope.CodeServiceUnavailable {
				t.Fatalf("job %d: %v, want SERVICE_UNAVAILABLE", n, err)
			}
			if now := jobs.HeldBytes(m); now != held {
				t.Errorf("a refused file changed the bytes held: %d, then %d", held, now)
			}
			if held < limit*9/10 {
				t.Errorf("refused with %d bytes held of %d", held, limit)
			}
			return
		}
		if _, err := m.Cancel(ctx, "key-a", j.ID); err != nil {
			t.Fatal(err)
		}
		if held := jobs.HeldBytes(m); held > limit {
			t.Fatalf("%d jobs hold %d bytes, over MaxMemory %d", n+1, held, limit)
		}
	}
	t.Fatalf("1000 jobs of a %d-byte header admitted under MaxMemory %d; %d bytes counted", file.Len(), limit, jobs.HeldBytes(m))
}

// A chunk that takes longer than ClaimIdle (slow DNS) stays with the
// worker checking it: its claim is refreshed, so no idle worker claims it
// again, and the job completes with no retry. ClaimIdle is 2 s, so that a
// refresh (every ClaimIdle/3) would have to stall for 2 s on a busy
// machine before the test saw a retry; each chunk takes some 3 s.
func TestSlowChunkIsNotClaimed(t *testing.T) {
	srv := dns(t, 100, resolvertest.Config{Delay: 150 * time.Millisecond})
	_, rdb := newRedis(t)
	file := listCSV(80, 100) // 2 chunks of 40 rows, some 3 s each
	reg := prometheus.NewRegistry()
	m := manager(t, jobs.Config{Redis: rdb, Verifier: verifier(t, srv.Addr, -1, 2), ChunkRows: 40,
		Workers: 3, ClaimIdle: 2 * time.Second, Metrics: reg})
	run(t, m)
	j, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(file)})
	if err != nil {
		t.Fatal(err)
	}
	j = wait(t, m, "a", j.ID, time.Minute, isDone)
	sameRows(t, results(t, m, "a", j.ID), expected(t, verifier(t, srv.Addr, 0, 0), file))
	if got := counter(t, reg, "quiver_email_job_chunk_retries_total"); got != 0 {
		t.Errorf("chunk retries = %v, want 0: a chunk in hand was claimed by another worker", got)
	}
}

// A chunk ends at ChunkRows rows or at ChunkBytes bytes of rows, so a
// file of long rows is cut into small chunks; a row over MaxRowBytes is
// refused, naming the row and the limit, and leaves nothing behind.
func TestChunksAreBoundedInBytes(t *testing.T) {
	_, rdb := newRedis(t)
	ctx := context.Background()
	m := manager(t, jobs.Config{Redis: rdb, ChunkBytes: 1000})
	var file bytes.Buffer
	file.WriteString("email,note\n")
	for i := range 50 {
		fmt.Fprintf(&file, "u%d@d.test,%s\n", i, strings.Repeat("x", 190)) // some 200 bytes a row
	}
	if _, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(file.Bytes())}); err != nil {
		t.Fatal(err)
	}
	keys, err := rdb.Keys(ctx, "quiver:jobs:*:in:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) < 10 {
		t.Errorf("%d chunks of 50 rows of 200 bytes with ChunkBytes 1000, want at least 10", len(keys))
	}
	for _, k := range keys {
		if n, _ := rdb.StrLen(ctx, k).Result(); n > 1000+250 {
			t.Errorf("chunk %s holds %d bytes, want at most ChunkBytes plus one row", k, n)
		}
	}
	rdb.FlushAll(ctx)

	long := "email\na@b.test\n" + strings.Repeat("y", jobs.MaxRowBytes+1) + "\n"
	_, err = m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: strings.NewReader(long)})
	if e := envelope.From(err); e.Code != envelope.CodeInvalidRequest ||
		!strings.Contains(err.Error(), "row 2") || !strings.Contains(err.Error(), fmt.Sprint(jobs.MaxRowBytes)) {
		t.Fatalf("a row over MaxRowBytes: %v, want INVALID_REQUEST naming row 2 and the limit", err)
	}
	if keys, _ := rdb.Keys(ctx, "quiver:jobs:{*").Result(); len(keys) != 0 {
		t.Errorf("keys left by the refused file: %v", keys)
	}
}

// Submit holds at most UploadMemory of a file, whatever its size: a row
// of 64 MiB is refused as soon as it passes MaxRowBytes, having read
// little more than the bound and allocated a few buffers, not the row; a
// header wider than MaxColumns is refused.
func TestSubmitMemoryIsBounded(t *testing.T) {
	m := manager(t, jobs.Config{})
	ctx := context.Background()
	var read int64
	var err error
	res := testing.Benchmark(func(b *testing.B) {
		for range b.N {
			src := &countingReader{r: io.MultiReader(strings.NewReader("email\n"), io.LimitReader(repeatReader('a'), 64<<20), strings.NewReader("\n"))}
			_, err = m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: src})
			read = src.n
		}
	})
	if e := envelope.From(err); e == nil || e.Code != envelope.CodeInvalidRequest || !strings.Contains(err.Error(), "row 1 (line 2)") ||
		!strings.Contains(err.Error(), fmt.Sprint(jobs.MaxRowBytes)) {
		t.Fatalf("a 64 MiB row: %v, want INVALID_REQUEST naming row 1 and the limit", err)
	}
	if read > jobs.MaxRowBytes+64<<10 {
		t.Errorf("read %d bytes of a file whose row 1 passes %d bytes at byte %d", read, jobs.MaxRowBytes, 6+jobs.MaxRowBytes)
	}
	if a := res.AllocedBytesPerOp(); a > jobs.UploadMemory {
		t.Errorf("Submit of a 64 MiB row allocated %d bytes, over UploadMemory %d", a, jobs.UploadMemory)
	}

	wide := strings.Repeat("c,", jobs.MaxColumns) + "email\na@b.test\n"
	_, err = m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: strings.NewReader(wide)})
	if e := envelope.From(err); e == nil || e.Code != envelope.CodeInvalidRequest || !strings.Contains(err.Error(), fmt.Sprint(jobs.MaxColumns)) {
		t.Errorf("a header of %d columns: %v, want INVALID_REQUEST naming the limit", jobs.MaxColumns+1, err)
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A Redis job is "creating" until every chunk is on the stream: it shows
// as queued, workers that get its chunks wait for it, and a job left
// creating (its creator died mid-way) is reported failed once
// queueing has taken more than its bound, its rows dropped.
func TestCreatingJob(t *testing.T) {
	srv := dns(t, 10, resolvertest.Config{})
	_, rdb := newRedis(t)
	ctx := context.Background()
	m := manager(t, jobs.Config{Redis: rdb, Verifier: verifier(t, srv.Addr, 0, 0), ChunkRows: 10})
	file := listCSV(50, 10)

	// Caught mid-way: workers wait, then finish once it is queued.
	j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(file)})
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := rdb.HGet(ctx, "quiver:jobs:{"+j.ID+"}:meta", "status").Result(); st != "queued" {
		t.Fatalf("stored status after Submit = %q, want queued", st)
	}
	meta := "quiver:jobs:{" + j.ID + "}:meta"
	rdb.HSet(ctx, meta, "status", "creating")
	run(t, m)
	time.Sleep(500 * time.Millisecond)
	if g, err := m.Get(ctx, "a", j.ID); err != nil || g.Status != jobs.StatusQueued || g.Done != 0 {
		t.Fatalf("a creating job = %+v, %v; want queued, untouched", g, err)
	}
	rdb.HSet(ctx, meta, "status", "queued")
	j = wait(t, m, "a", j.ID, 30*time.Second, isDone)
	sameRows(t, results(t, m, "a", j.ID), expected(t, verifier(t, srv.Addr, 0, 0), file))

	// Left creating for longer than the bound: failed, rows dropped.
	idle := manager(t, jobs.Config{Redis: rdb, ChunkRows: 10}) // no workers run
	k, err := idle.Submit(ctx, jobs.SubmitRequest{Owner: "a", File: bytes.NewReader(file)})
	if err != nil {
		t.Fatal(err)
	}
	rdb.HSet(ctx, "quiver:jobs:{"+k.ID+"}:meta", "status", "creating", "queuing", time.Now().Add(-time.Hour).UnixMilli())
	g, err := idle.Get(ctx, "a", k.ID)
	if err != nil || g.Status != jobs.StatusFailed || g.FinishedAt == nil {
		t.Fatalf("a job left creating = %+v, %v; want failed", g, err)
	}
	if keys, _ := rdb.Keys(ctx, "quiver:jobs:{"+k.ID+"}:in:*").Result(); len(keys) != 0 {
		t.Errorf("%d input keys left of the failed job", len(keys))
	}
}
