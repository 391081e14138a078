// The bulk job scenarios of issue 21, each with servers of its own:
//
//   - uploads: 8 clients upload at once a 64 MiB CSV made of one field
//     (a row over the 64 KiB row limit). Pass: each is refused with 400,
//     and the server's peak RSS stays under -budget.
//   - redisfull: Redis at maxmemory (64 MiB, noeviction). One key submits
//     1,000,000 rows, a second key a 1-row job, then, once Redis is full,
//     1,000,000 rows more. Reports the status codes, whether the second
//     job finishes, and how the first one ends. Pass: no 500, the upload
//     into a full Redis a 503 with Retry-After, the second job done, the
//     first one done or failed with a reason.
//   - quota: one key submits 10 jobs of 1,000,000 rows on Redis, then one
//     more once the first is done, deletes the first, and submits again.
//     Reports the status codes and Redis used_memory. Pass: past the
//     first, 429 naming the quota (rows in flight, then rows stored), with
//     Retry-After; after the DELETE, the first is 404 and a job is
//     accepted.
//   - latency: a cheap route's p50/p99 alone and while a 1,000,000-row job
//     runs, and how long a second key's 3-row job takes behind it; in
//     process and on Redis. Pass: the p99 under the job stays within twice
//     the p99 alone, or under 10 ms; the 3-row job done within 1 s.
//
// The rows' domains are served by bench/dnsserver (-dnsserver) and Redis
// is a redis-server (-redis-server) on a free loopback port.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	dnsBin   = flag.String("dnsserver", "", "path to the bench/dnsserver binary (the job scenarios)")
	redisBin = flag.String("redis-server", "redis-server", "path to redis-server (the job scenarios on Redis)")
)

// key2 is the second key of the job scenarios.
const key2 = "bench-abuse-key-second-fedcba9876"

// jobServer starts quiver with both keys and the DNS server of the
// scenario; env holds QUIVER_* settings, which a quiver that does not know
// one ignores (so that the scenarios also run on older builds).
func jobServer(bin, dns string, env []string, extra ...string) (*server, error) {
	args := append([]string{"-api-keys", key + "," + key2, "-dns-servers", dns}, extra...)
	return startEnv(bin, env, args...)
}

// startEnv is start with more environment.
func startEnv(bin string, env []string, extra ...string) (*server, error) {
	old := os.Environ()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
	defer func() {
		os.Clearenv()
		for _, kv := range old {
			k, v, _ := strings.Cut(kv, "=")
			os.Setenv(k, v)
		}
	}()
	return start(bin, extra...)
}

// dnsServer starts bench/dnsserver and returns its address and stop.
func dnsServer() (string, func(), error) {
	if *dnsBin == "" {
		return "", nil, errors.New("-dnsserver is required by the job scenarios")
	}
	cmd := exec.Command(*dnsBin, "-domains", "1000")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("dnsserver: %w", err)
	}
	return strings.TrimSpace(line), stop, nil
}

// redisServer is a redis-server on a free loopback port.
type redisServer struct {
	cmd  *exec.Cmd
	addr string
}

func startRedis(args ...string) (*redisServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	dir, err := os.MkdirTemp("", "abuse-redis-*")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(*redisBin, append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir, "--loglevel", "warning"}, args...)...)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r := &redisServer{cmd: cmd, addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))}
	for range 200 {
		if _, err := r.do("PING"); err == nil {
			return r, nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	r.stop()
	return nil, errors.New("redis-server did not answer")
}

func (r *redisServer) stop() {
	r.cmd.Process.Kill()
	r.cmd.Wait()
}

// do sends one command in the inline protocol and returns the reply's
// text (a bulk reply whole).
func (r *redisServer) do(args ...string) (string, error) {
	c, err := net.DialTimeout("tcp", r.addr, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	var cmd strings.Builder
	fmt.Fprintf(&cmd, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&cmd, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := io.WriteString(c, cmd.String()); err != nil {
		return "", err
	}
	br := bufio.NewReader(c)
	line, err := br.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimSuffix(line, "\r\n")
	switch {
	case strings.HasPrefix(line, "-"):
		return "", errors.New(line[1:])
	case strings.HasPrefix(line, "$"):
		n, _ := strconv.Atoi(line[1:])
		if n < 0 {
			return "", nil
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(br, b); err != nil {
			return "", err
		}
		return string(b[:n]), nil
	}
	return line[1:], nil
}

// usedMemory is Redis's used_memory in MiB.
func (r *redisServer) usedMemory() float64 {
	info, err := r.do("INFO", "memory")
	if err != nil {
		return -1
	}
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return n / (1 << 20)
		}
	}
	return -1
}

// listFile is a job's CSV: a header and rows addresses over the 1,000
// domains of bench/dnsserver.
func listFile(rows int) []byte {
	var b bytes.Buffer
	b.Grow(rows * 28)
	b.WriteString("email\n")
	for i := range rows {
		fmt.Fprintf(&b, "user%d@d%d.test\n", i, i%1000)
	}
	return b.Bytes()
}

// jobAnswer is the answer to a job route.
type jobAnswer struct {
	answer
	msg string
	job struct {
		ID     string  `json:"id"`
		Status string  `json:"status"`
		Total  int     `json:"total"`
		Done   int     `json:"done"`
		Reason *string `json:"reason"`
	}
}

func (a jobAnswer) String() string {
	if a.err != nil {
		return "error: " + a.err.Error()
	}
	s := strconv.Itoa(a.status)
	if a.code != "" {
		s += " " + a.code + " " + strconv.Quote(a.msg)
		if a.retry != "" {
			s += " Retry-After " + a.retry
		}
	}
	return s
}

// jobCall sends a request to a job route and decodes its envelope.
func jobCall(s *server, gatewayKey, method, path, contentType string, body io.Reader) jobAnswer {
	req, _ := http.NewRequest(method, s.base+path, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("X-Gateway-Key", gatewayKey)
	req.Header.Set("X-Gateway-Host", "bench")
	start := time.Now()
	resp, err := client.Do(req)
	var a jobAnswer
	if err != nil {
		a.err = err
		return a
	}
	defer resp.Body.Close()
	var env struct {
		Data  json.RawMessage
		Error *struct{ Code, Message string }
	}
	derr := json.NewDecoder(resp.Body).Decode(&env)
	a.status, a.retry, a.latency = resp.StatusCode, resp.Header.Get("Retry-After"), time.Since(start)
	switch {
	case derr != nil:
		a.err = fmt.Errorf("status %d: not an envelope: %v", resp.StatusCode, derr)
	case env.Error != nil:
		a.code, a.msg = env.Error.Code, env.Error.Message
	default:
		json.Unmarshal(env.Data, &a.job)
	}
	return a
}

// submit uploads file as a job of gatewayKey, streamed.
func submit(s *server, gatewayKey string, file io.Reader) jobAnswer {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, err := mw.CreateFormFile("file", "list.csv")
		if err == nil {
			_, err = io.Copy(part, file)
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	a := jobCall(s, gatewayKey, "POST", "/v1/email/bulk/jobs", mw.FormDataContentType(), pr)
	pr.Close()
	return a
}

func getJob(s *server, gatewayKey, id string) jobAnswer {
	return jobCall(s, gatewayKey, "GET", "/v1/email/bulk/jobs/"+id, "", nil)
}

func ended(st string) bool { return st == "done" || st == "failed" || st == "cancelled" }

// waitJob polls a job every 10 ms until it ends or d passes.
func waitJob(s *server, gatewayKey, id string, d time.Duration) jobAnswer {
	end := time.Now().Add(d)
	for {
		a := getJob(s, gatewayKey, id)
		if (a.status == 200 && ended(a.job.Status)) || time.Now().After(end) {
			return a
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func describe(a jobAnswer) string {
	if a.status != 200 {
		return a.String()
	}
	s := fmt.Sprintf("%s, %d of %d rows", a.job.Status, a.job.Done, a.job.Total)
	if a.job.Reason != nil {
		s += ", reason " + strconv.Quote(*a.job.Reason)
	}
	return s
}

// rssSampler samples the server's RSS every 20 ms until stopped.
func rssSampler(s *server) (stop func() (peak int64)) {
	var peak atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			if r := s.status("VmRSS"); r > peak.Load() {
				peak.Store(r)
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	return func() int64 { close(done); wg.Wait(); return peak.Load() }
}

func uploadsScenario(bin string, budget int64) bool {
	fmt.Printf("\n[uploads] 8 clients upload at once a 64 MiB CSV of one field (in process, workers on)\n")
	s, err := start(bin, "-memory-budget", strconv.FormatInt(budget, 10))
	if err != nil {
		fmt.Println("  start:", err)
		return false
	}
	defer s.stop()
	before := s.status("VmRSS")
	stop := rssSampler(s)
	answers := make([]jobAnswer, 8)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			file := io.MultiReader(strings.NewReader("email\n"), io.LimitReader(repeatByte('a'), 64<<20), strings.NewReader("\n"))
			answers[i] = submit(s, key, file)
		})
	}
	wg.Wait()
	peak := stop()
	hwm := s.status("VmHWM")
	time.Sleep(5 * time.Second)
	after := s.status("VmRSS")
	ok := hwm > 0 && hwm < budget
	counts := map[string]int{}
	for _, a := range answers {
		counts[a.String()]++
		ok = ok && a.status == 400
	}
	for k, n := range counts {
		fmt.Printf("  %d× %s\n", n, k)
	}
	fmt.Printf("  server RSS: %d MiB before, peak sampled %d MiB, VmHWM %d MiB, %d MiB 5 s after; budget %d MiB\n",
		before>>20, peak>>20, hwm>>20, after>>20, budget>>20)
	fmt.Printf("  %s (each refused with 400, VmHWM under the budget)\n", verdict(ok))
	return uploadRowsPart(bin, budget) && ok
}

// uploadRowsPart uploads 8 files of 1,000,000 rows of 59 bytes (59 MB)
// at once to an API-only quiver on Redis (the rows leave the process),
// the quotas off: what the server holds is the uploads'.
func uploadRowsPart(bin string, budget int64) bool {
	fmt.Printf("  then 8 clients upload at once 1,000,000 rows of 59 bytes each, on Redis, quotas off\n")
	r, err := startRedis()
	if err != nil {
		fmt.Println("  redis:", err)
		return false
	}
	defer r.stop()
	s, err := startEnv(bin, []string{"QUIVER_JOB_KEY_ROWS_IN_FLIGHT=-1", "QUIVER_JOB_KEY_ROWS_STORED=-1"},
		"-memory-budget", strconv.FormatInt(budget, 10), "-redis-url", "redis://"+r.addr, "-redis-timeout", "5s", "-workers", "0")
	if err != nil {
		fmt.Println("  start:", err)
		return false
	}
	defer s.stop()
	var file bytes.Buffer
	file.WriteString("email,note\n")
	for i := range 1_000_000 {
		fmt.Fprintf(&file, "user%07d@d%03d.test,%s\n", i, i%1000, strings.Repeat("n", 63-27))
	}
	before := s.status("VmRSS")
	stop := rssSampler(s)
	answers := make([]jobAnswer, 8)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i] = submit(s, key, bytes.NewReader(file.Bytes())) })
	}
	wg.Wait()
	took := time.Since(start)
	peak := stop()
	hwm := s.status("VmHWM")
	counts := map[string]int{}
	ok := hwm > 0 && hwm < budget
	for _, a := range answers {
		counts[a.String()]++
		ok = ok && a.status == 202
	}
	for k, n := range counts {
		fmt.Printf("  %d× %s\n", n, k)
	}
	fmt.Printf("  %d bytes each, all in %v; server RSS: %d MiB before, peak sampled %d MiB, VmHWM %d MiB: %.1f MiB per upload over the start\n",
		file.Len(), took.Round(time.Millisecond), before>>20, peak>>20, hwm>>20, float64(hwm-before)/8/(1<<20))
	fmt.Printf("  %s (each accepted, VmHWM under the budget)\n", verdict(ok))
	return ok
}

// repeatByte is an endless reader of b.
type repeatByte byte

func (r repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

func redisFullScenario(bin string) bool {
	fmt.Printf("\n[redisfull] Redis at maxmemory 64mb (noeviction): a 1,000,000-row job, then a second key's 1-row job\n")
	dns, stopDNS, err := dnsServer()
	if err != nil {
		fmt.Println(" ", err)
		return false
	}
	defer stopDNS()
	ok := true
	file := listFile(1_000_000)
	for round := 1; round <= 2; round++ {
		r, err := startRedis("--maxmemory", "64mb", "--maxmemory-policy", "noeviction")
		if err != nil {
			fmt.Println("  redis:", err)
			return false
		}
		s, err := jobServer(bin, dns, []string{"QUIVER_JOB_STORE_RETRY=30s"}, "-redis-url", "redis://"+r.addr, "-redis-timeout", "2s")
		if err != nil {
			r.stop()
			fmt.Println("  start:", err)
			return false
		}
		t0 := time.Now()
		big := submit(s, key, bytes.NewReader(file))
		fmt.Printf("  round %d: 1M-row submit: %s after %v (used_memory %.0f MiB)\n", round, big, time.Since(t0).Round(time.Millisecond), r.usedMemory())
		small := submit(s, key2, strings.NewReader("email\nana@d1.test\n"))
		fmt.Printf("    second key's 1-row submit: %s\n", small)
		ok = ok && big.status != 500 && small.status != 500
		for _, a := range []jobAnswer{big, small} {
			if a.status != 202 && !(a.status == 503 && a.code == "SERVICE_UNAVAILABLE" && a.retry != "") {
				ok = false
			}
		}
		if small.status == 503 { // retried as a client honouring Retry-After would
			for i := 0; i < 30 && small.status == 503; i++ {
				time.Sleep(2 * time.Second)
				small = submit(s, key2, strings.NewReader("email\nana@d1.test\n"))
			}
			fmt.Printf("    second key's 1-row submit, retried: %s\n", small)
		}
		if small.status == 202 {
			t := time.Now()
			end := waitJob(s, key2, small.job.ID, 2*time.Minute)
			fmt.Printf("    second key's job: %s, %v after its submit\n", describe(end), time.Since(t).Round(time.Millisecond))
			ok = ok && end.job.Status == "done"
		} else {
			ok = false
		}
		if big.status == 202 {
			// Once Redis is full, another upload is refused.
			for i := 0; i < 600 && r.usedMemory() < 63.5; i++ {
				time.Sleep(100 * time.Millisecond)
			}
			again := submit(s, key2, bytes.NewReader(file))
			fmt.Printf("    another 1M-row submit once Redis is full (used_memory %.0f MiB): %s\n", r.usedMemory(), again)
			ok = ok && again.status == 503 && again.code == "SERVICE_UNAVAILABLE" && again.retry != ""
			end := waitJob(s, key, big.job.ID, 5*time.Minute)
			took := time.Since(t0)
			time.Sleep(time.Second) // its rows and results deleted
			fmt.Printf("    1M-row job: %s, %v after its submit (used_memory %.0f MiB a second later)\n", describe(end), took.Round(time.Second), r.usedMemory())
			ok = ok && (end.job.Status == "done" || (end.job.Status == "failed" && end.job.Reason != nil))
		}
		s.stop()
		r.stop()
	}
	fmt.Printf("  %s (no 500; 503s with Retry-After; the second key's job done; the first done or failed with a reason)\n", verdict(ok))
	return ok
}

func quotaScenario(bin string) bool {
	fmt.Printf("\n[quota] one key submits 10 jobs of 1,000,000 rows on Redis\n")
	dns, stopDNS, err := dnsServer()
	if err != nil {
		fmt.Println(" ", err)
		return false
	}
	defer stopDNS()
	r, err := startRedis()
	if err != nil {
		fmt.Println("  redis:", err)
		return false
	}
	defer r.stop()
	s, err := jobServer(bin, dns, nil, "-redis-url", "redis://"+r.addr, "-redis-timeout", "2s")
	if err != nil {
		fmt.Println("  start:", err)
		return false
	}
	defer s.stop()
	file := listFile(1_000_000)
	before := r.usedMemory()
	ok := true
	var first string
	for i := range 10 {
		a := submit(s, key, bytes.NewReader(file))
		fmt.Printf("  job %d: %s (%v)\n", i+1, a, a.latency.Round(time.Millisecond))
		switch {
		case i == 0:
			ok = ok && a.status == 202
			first = a.job.ID
		default:
			ok = ok && a.status == 429 && a.code == "RATE_LIMIT_EXCEEDED" && a.retry != "" && strings.Contains(a.msg, "quota")
		}
	}
	fmt.Printf("  Redis used_memory: %.0f MiB before, %.0f MiB after\n", before, r.usedMemory())
	if first == "" {
		return false
	}
	done := waitJob(s, key, first, 5*time.Minute)
	fmt.Printf("  the first job: %s; used_memory %.0f MiB\n", describe(done), r.usedMemory())
	stored := submit(s, key, bytes.NewReader(file))
	fmt.Printf("  job 11, the first one done: %s\n", stored)
	ok = ok && done.job.Status == "done" && stored.status == 429 && strings.Contains(stored.msg, "rows stored") && stored.retry != ""
	d := jobCall(s, key, "DELETE", "/v1/email/bulk/jobs/"+first, "", nil)
	gone := getJob(s, key, first)
	time.Sleep(time.Second) // its keys deleted
	fmt.Printf("  DELETE of the done job: %s; then GET: %d; used_memory %.0f MiB\n", describe(d), gone.status, r.usedMemory())
	again := submit(s, key, bytes.NewReader(file))
	fmt.Printf("  job 12, after it: %s\n", again)
	ok = ok && d.status == 200 && gone.status == 404 && again.status == 202
	fmt.Printf("  %s (the first accepted, the next 429 naming a quota with Retry-After; DELETE of the done job frees)\n", verdict(ok))
	return ok
}

func latencyScenario(bin string, d time.Duration) bool {
	fmt.Printf("\n[latency] base64/encode alone and while a 1,000,000-row job runs; a second key's 3-row job behind it\n")
	dns, stopDNS, err := dnsServer()
	if err != nil {
		fmt.Println(" ", err)
		return false
	}
	defer stopDNS()
	file := listFile(1_000_000)
	ok := true
	for _, backend := range []string{"in process", "redis"} {
		var extra []string
		if backend == "redis" {
			r, err := startRedis()
			if err != nil {
				fmt.Println("  redis:", err)
				return false
			}
			defer r.stop()
			extra = []string{"-redis-url", "redis://" + r.addr, "-redis-timeout", "2s"}
		}
		s, err := jobServer(bin, dns, nil, extra...)
		if err != nil {
			fmt.Println("  start:", err)
			return false
		}
		cheap := &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}
		cheapCalls(s, cheap, time.Second) // warm up
		alone, _ := cheapCalls(s, cheap, d/2)
		big := submit(s, key, bytes.NewReader(file))
		if big.status != 202 {
			fmt.Printf("  %s: 1M-row submit: %s\n", backend, big)
			s.stop()
			return false
		}
		running := waitFor(s, key, big.job.ID, func(a jobAnswer) bool { return a.job.Done > 0 }, time.Minute)
		// The cheap route is measured while the 3-row job goes through,
		// until the large job ends or d has passed.
		var under []time.Duration
		measured := make(chan struct{})
		var bigEnded atomic.Bool
		go func() {
			for !bigEnded.Load() {
				if a := getJob(s, key, big.job.ID); a.status != 200 || ended(a.job.Status) {
					bigEnded.Store(true)
				}
				time.Sleep(100 * time.Millisecond)
			}
		}()
		go func() {
			defer close(measured)
			for end := time.Now().Add(d); time.Now().Before(end) && !bigEnded.Load(); {
				a := post(context.Background(), cheap, s.base+"/v1/dev/data/base64/encode", key, []byte(`{"value":"hello, world"}`))
				if a.status == 200 {
					under = append(under, a.latency)
				}
				time.Sleep(5 * time.Millisecond)
			}
			slices.Sort(under)
		}()
		t := time.Now()
		small := submit(s, key2, strings.NewReader("email\nana@d1.test\nbo@d2.test\ncy@d3.test\n"))
		var smallEnd jobAnswer
		var smallTook time.Duration
		if small.status == 202 {
			smallEnd = waitJob(s, key2, small.job.ID, time.Minute)
			smallTook = time.Since(t)
		}
		<-measured
		state := getJob(s, key, big.job.ID)
		bigEnded.Store(true)
		fmt.Printf("  %s: base64/encode alone: %s\n", backend, percentiles(alone))
		fmt.Printf("  %s: while the 1M-row job runs (%s when measuring began, %s when it ended): %s\n", backend, describe(running), describe(state), percentiles(under))
		fmt.Printf("  %s: second key's 3-row job: %s, %v after its submit\n", backend, describe(smallEnd), smallTook.Round(time.Millisecond))
		p99 := func(l []time.Duration) time.Duration { return l[min(len(l)-1, len(l)*99/100)] }
		bound := max(2*p99(alone), 10*time.Millisecond)
		pass := len(alone) > 0 && len(under) >= 100 && p99(under) <= bound && smallEnd.job.Status == "done" && smallTook < time.Second
		fmt.Printf("  %s: %s (p99 under the job within %v, over 100 calls or more; the 3-row job done within 1 s)\n", backend, verdict(pass), bound)
		ok = ok && pass
		jobCall(s, key, "DELETE", "/v1/email/bulk/jobs/"+big.job.ID, "", nil)
		s.stop()
	}
	return ok
}

// waitFor polls a job every 10 ms until cond holds or d passes.
func waitFor(s *server, gatewayKey, id string, cond func(jobAnswer) bool, d time.Duration) jobAnswer {
	end := time.Now().Add(d)
	for {
		a := getJob(s, gatewayKey, id)
		if (a.status == 200 && cond(a)) || time.Now().After(end) {
			return a
		}
		time.Sleep(10 * time.Millisecond)
	}
}
