package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/internal/redistest"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

const jobsZone = `
$ORIGIN example.test.
$TTL 300
@    IN SOA ns1 hostmaster 1 3600 600 86400 60
@    IN MX  10 mx1
mx1  IN A   192.0.2.10
`

const jobsList = "name,email\nAna,ana@example.test\nBo,info@example.test\nCy,not-an-address\nDi,di@example.test\n"

// jobsWant is verify-list's output of jobsList on the zone's server.
func jobsWant(t *testing.T, dnsAddr string) string {
	t.Helper()
	r, err := resolver.New(resolver.Config{Servers: []string{dnsAddr}})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := email.New(email.Config{Resolver: r})
	var b bytes.Buffer
	if _, err := v.VerifyCSV(context.Background(), strings.NewReader(jobsList), &b, email.StreamOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// An API-only instance and a worker instance on one Redis, driven by
// the quiver email job commands of the real binary: submit -wait, status,
// results, cancel; the metrics count the job; both stop cleanly.
func TestJobCommandsAgainstInstances(t *testing.T) {
	t.Cleanup(func() { checkLeaks(t) })
	bin := quiverBinary(t)
	dns := resolvertest.Start(t, resolvertest.Config{Zone: jobsZone})
	rs := redistest.Start(t)
	env := map[string]string{"QUIVER_REDIS_URL": "redis://" + rs.Addr + "/0", "QUIVER_DNS_SERVERS": dns.Addr, "QUIVER_RATE_LIMIT": "-1"}
	api := startServer(t, []string{"-workers", "0", "-metrics", "-api-keys", "k,k2"}, env)
	worker := startServer(t, []string{"-workers", "2", "-metrics"}, env)

	dir := t.TempDir()
	list := filepath.Join(dir, "list.csv")
	os.WriteFile(list, []byte(jobsList), 0o600)
	cliEnv := []string{"QUIVER_API_KEY=k", "QUIVER_SERVER=" + api.base}

	stdout, stderr, code := runBinary(t, bin, cliEnv, "", "email", "job", "submit", "-wait", list)
	var j jobs.Job
	if code != 0 || json.Unmarshal([]byte(stdout), &j) != nil || j.Status != jobs.StatusDone || j.Done != 4 {
		t.Fatalf("submit -wait: exit %d, %s %s", code, stdout, stderr)
	}
	stdout, _, code = runBinary(t, bin, cliEnv, "", "email", "job", "status", "-server", worker.base, j.ID)
	if code != 0 || !strings.Contains(stdout, `"status":"done"`) || !strings.Contains(stdout, `"role_accounts":1`) {
		t.Errorf("status from the other instance: exit %d, %s", code, stdout)
	}
	out := filepath.Join(dir, "results.csv")
	if _, stderr, code := runBinary(t, bin, cliEnv, "", "email", "job", "results", "-o", out, j.ID); code != 0 {
		t.Fatalf("results: exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(out); string(got) != jobsWant(t, dns.Addr) {
		t.Errorf("results:\n%s\nwant verify-list's:\n%s", got, jobsWant(t, dns.Addr))
	}
	stdout, _, code = runBinary(t, bin, cliEnv, "", "email", "job", "cancel", j.ID)
	if code != 0 || !strings.Contains(stdout, `"status":"done"`) {
		t.Errorf("cancel of a done job: exit %d, %s", code, stdout)
	}
	_, stderr, code = runBinary(t, bin, []string{"QUIVER_API_KEY=k2", "QUIVER_SERVER=" + api.base}, "", "email", "job", "status", j.ID)
	if code != 1 || !strings.Contains(stderr, "no job") {
		t.Errorf("status with another key: exit %d, %s", code, stderr)
	}
	_, stderr, code = runBinary(t, bin, []string{"QUIVER_SERVER=" + api.base}, "", "email", "job", "status", j.ID)
	if code != 2 || !strings.Contains(stderr, "QUIVER_API_KEY") {
		t.Errorf("status without a key: exit %d, %s", code, stderr)
	}

	metrics := scrape(t, worker.base)
	for _, re := range []string{
		`quiver_email_jobs_total\{status="done"\} 1`,
		`quiver_email_job_rows_total 4`,
		`quiver_email_job_queue_depth 0`,
		`quiver_email_job_chunk_retries_total 0`,
	} {
		if !regexp.MustCompile(re).MatchString(metrics) {
			t.Errorf("worker metrics lack %s", re)
		}
	}
	if m := scrape(t, api.base); !regexp.MustCompile(`quiver_email_jobs_total\{status="queued"\} 1`).MatchString(m) {
		t.Errorf("API metrics lack the queued job")
	}
	for _, s := range []*server{api, worker} {
		if err := s.stop(t, 10*time.Second); err != nil {
			t.Error(err)
		}
	}
}

func scrape(t *testing.T, base string) string {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{}}
	defer c.CloseIdleConnections()
	res, err := c.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

// Without Redis the jobs run in process; -workers 0 without Redis turns
// them off (503), and a negative -workers is a usage error.
func TestJobsInProcess(t *testing.T) {
	t.Cleanup(func() { checkLeaks(t) })
	bin := quiverBinary(t)
	s := startServer(t, []string{"-dns-servers", "127.0.0.1:1", "-dns-timeout", "100ms"}, nil)
	dir := t.TempDir()
	list := filepath.Join(dir, "list.csv")
	os.WriteFile(list, []byte(jobsList), 0o600)
	stdout, stderr, code := runBinary(t, bin, []string{"QUIVER_API_KEY=k", "QUIVER_SERVER=" + s.base}, "", "email", "job", "submit", "-no-mx", "-wait", list)
	if code != 0 || !strings.Contains(stdout, `"status":"done"`) || !strings.Contains(stdout, `"total":4`) {
		t.Errorf("in process: exit %d, %s %s", code, stdout, stderr)
	}
	if err := s.stop(t, 10*time.Second); err != nil {
		t.Error(err)
	}

	off := startServer(t, []string{"-workers", "0"}, nil)
	_, stderr, code = runBinary(t, bin, []string{"QUIVER_API_KEY=k", "QUIVER_SERVER=" + off.base}, "", "email", "job", "status", strings.Repeat("a", 32))
	if code != 1 || !strings.Contains(stderr, "not configured") {
		t.Errorf("-workers 0 without Redis: exit %d, %s", code, stderr)
	}
	off.stop(t, 10*time.Second)

	err := run(context.Background(), []string{"-workers", "-1"}, func(string) string { return "" }, io.Discard)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "-workers") {
		t.Errorf("-workers -1: %v", err)
	}
}
