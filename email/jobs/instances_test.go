package jobs_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// The environment of a worker process started by TestInstances: the
// test binary run again as one Quiver instance with workers.
const (
	envWorkerRedis = "QUIVER_TEST_JOBS_WORKER_REDIS"
	envWorkerDNS   = "QUIVER_TEST_JOBS_WORKER_DNS"
)

// Worker process settings: 4 chunks at once, 16 rows each, the resolver
// cache off, so that every row waits on the DNS server's latency as a
// list of distinct domains would.
const (
	procWorkers     = 4
	procConcurrency = 16
	procClaimIdle   = 3 * time.Second
)

// TestWorkerProcess is not a test: run by TestInstances with the
// environment above, it is a worker instance until it is killed.
func TestWorkerProcess(t *testing.T) {
	addr := os.Getenv(envWorkerRedis)
	if addr == "" {
		t.Skip("a worker process of TestInstances")
	}
	m := manager(t, jobs.Config{
		Redis:     client(t, addr),
		Verifier:  verifier(t, os.Getenv(envWorkerDNS), -1, procConcurrency),
		Workers:   procWorkers,
		ClaimIdle: procClaimIdle,
	})
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	m.Run(ctx)
}

// startWorker starts a worker instance: this test binary, run again.
func startWorker(t *testing.T, redisAddr, dnsAddr string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWorkerProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envWorkerRedis+"="+redisAddr, envWorkerDNS+"="+dnsAddr)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	return cmd
}

// Three instances on one redis-server, as the issue asks: one API-only
// (the Manager of this test, which never runs workers) and two worker
// processes, over a loopback DNS server answering after 20 ms. A job
// runs on one worker instance, then one on two (the rows per second of
// each are logged), then a third job loses a worker to kill -9 mid-way
// and has its API instance restarted: it completes, and every row
// appears once, in input order, checked row by row against verify-list's
// output. QUIVER_LONG=1 runs 200,000 rows over 2,000 domains; the default
// is the same shape with 20,000 rows.
func TestInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	rows, domains := 20_000, 2_000
	if os.Getenv("QUIVER_LONG") != "" {
		rows = 200_000
	}
	slow := dns(t, domains, resolvertest.Config{Delay: 20 * time.Millisecond})
	fast := dns(t, domains, resolvertest.Config{})
	rsrv, rdb := newRedis(t)
	file := listCSV(rows, domains)
	want := expected(t, verifier(t, fast.Addr, 0, 0), file)
	api := manager(t, jobs.Config{Redis: rdb})
	ctx := context.Background()
	limit := time.Duration(rows/100) * time.Second // 100 rows/s at the very least

	submit := func(m *jobs.Manager) jobs.Job {
		j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "key", File: bytes.NewReader(file)})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}

	startWorker(t, rsrv.Addr, slow.Addr)
	consumers(t, api, 1)
	j := submit(api)
	j = wait(t, api, "key", j.ID, limit, isDone)
	sameRows(t, results(t, api, "key", j.ID), want)
	one := j.RowsPerSecond
	t.Logf("1 worker instance: %d rows in %.1f s, %.0f rows/s", rows, float64(rows)/one, one)

	w2 := startWorker(t, rsrv.Addr, slow.Addr)
	consumers(t, api, 2)
	j = submit(api)
	j = wait(t, api, "key", j.ID, limit, isDone)
	sameRows(t, results(t, api, "key", j.ID), want)
	two := j.RowsPerSecond
	t.Logf("2 worker instances: %d rows in %.1f s, %.0f rows/s (%.2fx)", rows, float64(rows)/two, two, two/one)

	j = submit(api)
	wait(t, api, "key", j.ID, limit, func(j jobs.Job) bool { return j.Done >= j.Total/3 })
	if err := w2.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	w2.Wait()
	t.Logf("killed worker %d with %d of %d rows done", w2.Process.Pid, mustGet(t, api, j.ID).Done, rows)

	// The API instance restarts: a new Manager on a new connection
	// serves the job's status mid-way, then its results.
	api2 := manager(t, jobs.Config{Redis: client(t, rsrv.Addr)})
	if mid := mustGet(t, api2, j.ID); mid.Status != jobs.StatusRunning && mid.Status != jobs.StatusDone {
		t.Fatalf("after the API restart: %+v", mid)
	}
	j = wait(t, api2, "key", j.ID, limit+2*procClaimIdle, isDone)
	sameRows(t, results(t, api2, "key", j.ID), want)
	if j.Done != rows || j.Total != rows || j.Summary.Total != rows {
		t.Errorf("job after kill -9 = %+v", j)
	}
	if n := jobs.QueueDepth(api2); n != 0 {
		t.Errorf("queue depth = %d after the jobs, want 0", n)
	}

}

// consumers waits until n workers have asked for chunks, so that a rate
// is measured with every worker instance reading.
func consumers(t testing.TB, m *jobs.Manager, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for jobs.Workers(m) < int64(n) {
		if time.Now().After(deadline) {
			t.Fatalf("%d workers after 30 s, want %d", jobs.Workers(m), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func mustGet(t testing.TB, m *jobs.Manager, id string) jobs.Job {
	t.Helper()
	j, err := m.Get(context.Background(), "key", id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}
