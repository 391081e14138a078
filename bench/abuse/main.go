// Command abuse drives a quiver server on loopback as an attacker would
// and reports whether the limits of issue 13 hold. bench/abuse.sh builds
// quiver and runs it; it stops by itself, every scenario bounded in
// requests and in time.
//
//	go run ./bench/abuse -quiver /path/to/quiver
//
// Scenarios:
//
//   - format: 64 clients send 1 MiB json/format requests with sort_keys
//     and indent 8 for -duration, while 16 more send the same request and
//     never read the answer. Pass: the server's peak RSS stays under
//     -budget, and every answer is a 200 or an enveloped 429/503 with
//     Retry-After.
//   - sitemap: 6 clients validate a gzip bomb (an 80 MiB sitemap, about
//     100 KB on the wire) served by a local origin, while one client calls
//     Base64 encode. Pass: the cheap route's p99 stays under 10 ms.
//   - auth: 2,000 wrong keys from 127.0.0.1. Pass: 429 after the burst,
//     and the right key from 127.0.0.2 is still a 200.
//   - authflood: 2 × 400,000 wrong keys through a trusted proxy, each from
//     its own IPv6 /64 (authflood.go). Pass: bounded 401s and RSS, and
//     the right key from another address is a 200.
//   - health: 4 clients send domain health 500 copies of a domain whose
//     TXT records are 64 KiB at every name it asks, served by a DNS
//     server on loopback, for -duration, while one client calls Base64
//     encode (health.go). Pass: peak RSS under -budget, enveloped
//     answers, and the cheap route's p99 under 100 ms.
//   - uploads, redisfull, quota, latency: bulk jobs (jobs.go, which
//     describes each).
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const key = "bench-abuse-key-0123456789abcdef"

func main() { os.Exit(run()) }

// run runs the scenarios that -only names (every one by default) and
// returns the exit code, after stopping every quiver it started.
func run() int {
	quiver := flag.String("quiver", "", "path to the quiver binary (required)")
	duration := flag.Duration("duration", 20*time.Second, "how long each load scenario runs")
	budget := flag.Int64("budget", 512<<20, "the memory budget: the server's -memory-budget, and the RSS it must stay under")
	only := flag.String("only", "", "run one scenario: format, sitemap, auth, authflood, health, uploads, redisfull, quota or latency")
	serverArgs := flag.String("server-args", "", "more quiver flags, separated by spaces (e.g. -heavy-slots 8)")
	flag.Parse()
	if *quiver == "" {
		fmt.Fprintln(os.Stderr, "abuse: -quiver is required")
		return 2
	}
	// shared is the quiver of the scenarios that need no flags of their
	// own, started on first use.
	var shared *server
	sharedServer := func() *server {
		if shared == nil {
			srv, err := start(*quiver, append([]string{"-memory-budget", strconv.FormatInt(*budget, 10)}, strings.Fields(*serverArgs)...)...)
			if err != nil {
				fmt.Fprintln(os.Stderr, "abuse:", err)
				return nil
			}
			fmt.Printf("quiver pid %d on %s; GOMAXPROCS of this host %d cores\n", srv.cmd.Process.Pid, srv.base, numCPU())
			shared = srv
		}
		return shared
	}
	defer func() {
		if shared != nil {
			shared.stop()
		}
	}()
	onShared := func(f func(*server) bool) func() bool {
		return func() bool {
			srv := sharedServer()
			return srv != nil && f(srv)
		}
	}
	scenarios := []struct {
		name string
		run  func() bool
	}{
		{"format", onShared(func(srv *server) bool { return formatScenario(srv, *duration, *budget) })},
		{"sitemap", onShared(func(srv *server) bool { return sitemapScenario(srv, *duration) })},
		{"auth", onShared(authScenario)},
		// The scenarios below start quivers of their own.
		{"authflood", func() bool { return authfloodScenario(*quiver, *budget) }},                                   // authflood.go
		{"health", func() bool { return healthScenario(*quiver, *duration, *budget, strings.Fields(*serverArgs)) }}, // health.go
		{"uploads", func() bool { return uploadsScenario(*quiver, *budget) }},                                       // jobs.go
		{"redisfull", func() bool { return redisFullScenario(*quiver) }},                                            // jobs.go
		{"quota", func() bool { return quotaScenario(*quiver) }},                                                    // jobs.go
		{"latency", func() bool { return latencyScenario(*quiver, *duration) }},                                     // jobs.go
	}
	ok, ran := true, false
	for _, sc := range scenarios {
		if *only == "" || *only == sc.name {
			ran = true
			ok = sc.run() && ok
		}
	}
	if !ran {
		fmt.Fprintf(os.Stderr, "abuse: no scenario %q\n", *only)
		return 2
	}
	if !ok {
		fmt.Println("FAIL")
		return 1
	}
	fmt.Println("PASS")
	return 0
}

// server is a running quiver.
type server struct {
	cmd  *exec.Cmd
	base string
	log  *os.File
}

var listening = regexp.MustCompile(`quiver listening on (http://\S+)`)

func start(bin string, extra ...string) (*server, error) {
	logf, err := os.CreateTemp("", "quiver-abuse-*.log")
	if err != nil {
		return nil, err
	}
	args := append([]string{"-addr", "127.0.0.1:0", "-api-keys", key, "-rate-limit", "-1",
		"-allow-loopback", "-log-format", "json"}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, log: logf}
	for range 200 {
		b, _ := os.ReadFile(logf.Name())
		if m := listening.FindSubmatch(b); m != nil {
			s.base = string(m[1])
			return s, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	return nil, errors.New("quiver did not start; see " + logf.Name())
}

func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	s.log.Close()
	os.Remove(s.log.Name())
}

// status reads a field of /proc/PID/status in bytes (VmRSS, VmHWM).
func (s *server) status(field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return -1
}

func numCPU() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return max(1, strings.Count(string(b), "processor\t:"))
}

// answer is what one request got.
type answer struct {
	status  int
	code    string // the envelope's error code
	retry   string // Retry-After
	latency time.Duration
	err     error
}

var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128}, Timeout: 2 * time.Minute}

// newPost is a JSON POST through the gateway with gatewayKey.
func newPost(ctx context.Context, url, gatewayKey string, body []byte) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Gateway-Key", gatewayKey)
	req.Header.Set("X-Gateway-Host", "bench")
	return req
}

func post(ctx context.Context, c *http.Client, url, gatewayKey string, body []byte) answer {
	req := newPost(ctx, url, gatewayKey, body)
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return answer{err: err, latency: time.Since(start)}
	}
	defer resp.Body.Close()
	var env struct {
		Success *bool
		Error   *struct{ Code string }
	}
	derr := json.NewDecoder(resp.Body).Decode(&env)
	a := answer{status: resp.StatusCode, retry: resp.Header.Get("Retry-After"), latency: time.Since(start)}
	switch {
	case derr != nil || env.Success == nil:
		a.err = fmt.Errorf("status %d: not an envelope: %v", resp.StatusCode, derr)
	case env.Error != nil:
		a.code = env.Error.Code
	}
	return a
}

// tally counts answers by status and code, and keeps what is wrong.
type tally struct {
	mu     sync.Mutex
	counts map[string]int
	bad    []string
}

func (t *tally) add(a answer, ok func(answer) bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[string]int{}
	}
	label := strconv.Itoa(a.status)
	if a.code != "" {
		label += " " + a.code
	}
	if a.err != nil {
		label = "error"
	}
	t.counts[label]++
	if !ok(a) && len(t.bad) < 5 {
		t.bad = append(t.bad, fmt.Sprintf("%s (Retry-After %q, %v)", label, a.retry, a.err))
	}
}

func (t *tally) String() string {
	keys := make([]string, 0, len(t.counts))
	for k := range t.counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s×%d", k, t.counts[k])
	}
	return strings.TrimSpace(b.String())
}

// enveloped is the pass rule of a load answer: 200, or a refusal with
// Retry-After.
func enveloped(a answer) bool {
	if a.err != nil {
		return false
	}
	return a.status == 200 ||
		(a.status == 429 && a.code == "RATE_LIMIT_EXCEEDED" && a.retry != "") ||
		(a.status == 503 && a.code == "SERVICE_UNAVAILABLE" && a.retry != "")
}

// formatBody is a json/format request of just under 1 MiB: an array of
// records with nested objects, sorted and indented by 8.
func formatBody() []byte {
	var doc strings.Builder
	doc.WriteString("[")
	escaped := 64 // the request around the text
	for i := 0; ; i++ {
		rec := fmt.Sprintf(`{"zeta":%d,"name":"user %d","tags":["b","a"],"nested":{"z":1,"y":[1,2,{"x":null,"w":true}]},"alpha":%d.5}`, i, i, i)
		// Each quote is escaped in the request: one byte more.
		escaped += len(rec) + strings.Count(rec, `"`) + 1
		if escaped > 1<<20-100 {
			break
		}
		if i > 0 {
			doc.WriteString(",")
		}
		doc.WriteString(rec)
	}
	doc.WriteString("]")
	body, _ := json.Marshal(map[string]any{"text": doc.String(), "indent": 8, "sort_keys": true})
	return body
}

func formatScenario(s *server, d time.Duration, budget int64) bool {
	body := formatBody()
	url := s.base + "/v1/dev/data/json/format"
	fmt.Printf("\n[format] 64 clients × 1 MiB json/format (sort_keys, indent 8, body %d bytes) for %v, plus 16 clients that never read\n", len(body), d)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()

	// 16 clients that send the request and never read the answer: each
	// keeps its connection open until the end.
	var stuck []net.Conn
	head := fmt.Sprintf("POST /v1/dev/data/json/format HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nX-Gateway-Key: %s\r\nX-Gateway-Host: bench\r\nContent-Length: %d\r\n\r\n", key, len(body))
	for range 16 {
		c, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
		if err != nil {
			fmt.Println("  dial:", err)
			return false
		}
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetReadBuffer(4096) // a client that reads nothing has a small window
		}
		// Pipeline several requests: a reader that never reads keeps asking.
		go func() {
			for range 4 {
				if _, err := io.WriteString(c, head); err != nil {
					return
				}
				if _, err := c.Write(body); err != nil {
					return
				}
			}
		}()
		stuck = append(stuck, c)
	}
	defer func() {
		for _, c := range stuck {
			c.Close()
		}
	}()

	var peak atomic.Int64
	go func() {
		for ctx.Err() == nil {
			if r := s.status("VmRSS"); r > peak.Load() {
				peak.Store(r)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	var t tally
	var lat []time.Duration
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for ctx.Err() == nil {
				a := post(context.Background(), client, url, key, body)
				t.add(a, enveloped)
				if a.status == 200 {
					mu.Lock()
					lat = append(lat, a.latency)
					mu.Unlock()
				}
				if a.status != 200 {
					time.Sleep(100 * time.Millisecond) // a client in a hurry, not one that honours Retry-After
				}
			}
		})
	}
	wg.Wait()
	hwm := s.status("VmHWM")
	fmt.Printf("  answers: %s\n", &t)
	slices.Sort(lat)
	if len(lat) > 0 {
		fmt.Printf("  200s: %d, median %v, max %v\n", len(lat), lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
	}
	fmt.Printf("  server RSS: peak sampled %d MiB, VmHWM %d MiB; budget %d MiB\n", peak.Load()>>20, hwm>>20, budget>>20)
	ok := len(t.bad) == 0 && hwm > 0 && hwm < budget && len(lat) > 0
	if len(t.bad) > 0 {
		fmt.Printf("  not enveloped 200/429/503: %v\n", t.bad)
	}
	fmt.Printf("  %s\n", verdict(ok))
	return ok
}

func verdict(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

// bomb is a gzip sitemap that inflates to about 80 MiB: one valid entry
// repeated, what a hostile site can serve cheaply.
func bomb(host string) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	bw := bufio.NewWriter(zw)
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	entry := "<url><loc>http://" + host + "/page</loc><lastmod>2024-01-01</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>\n"
	for n := 0; n < 80<<20; n += len(entry) {
		bw.WriteString(entry)
	}
	bw.WriteString("</urlset>\n")
	bw.Flush()
	zw.Close()
	return buf.Bytes()
}

func sitemapScenario(s *server, d time.Duration) bool {
	var origin *httptest.Server
	var gz []byte
	origin = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-gzip")
		w.Write(gz)
	}))
	defer origin.Close()
	gz = bomb(strings.TrimPrefix(origin.URL, "http://"))
	fmt.Printf("\n[sitemap] 6 clients validate a gzip bomb (%d KB on the wire, 80 MiB inflated) for %v, while 1 client calls base64/encode\n", len(gz)>>10, d)
	sitemapReq, _ := json.Marshal(map[string]string{"url": origin.URL + "/sitemap.xml.gz"})
	// The cheap route, one call at a time, on its own connection: first
	// alone, for a baseline of this machine as busy as it is, then with
	// the sitemaps.
	cheap := &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}
	base, baseT := cheapCalls(s, cheap, d/4)
	fmt.Printf("  base64/encode alone for %v: %s (%s)\n", d/4, percentiles(base), baseT)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var t tally
	var mu sync.Mutex
	var sitemapLat []time.Duration
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for ctx.Err() == nil {
				a := post(context.Background(), client, s.base+"/v1/utility/sitemap/validate", key, sitemapReq)
				t.add(a, enveloped)
				if a.status == 200 {
					mu.Lock()
					sitemapLat = append(sitemapLat, a.latency)
					mu.Unlock()
				} else {
					time.Sleep(50 * time.Millisecond)
				}
			}
		})
	}
	time.Sleep(500 * time.Millisecond) // let the sitemaps start
	lat, cheapT := cheapCalls(s, cheap, d-time.Second)
	wg.Wait()
	slices.Sort(sitemapLat)
	fmt.Printf("  sitemap answers: %s\n", &t)
	if len(sitemapLat) > 0 {
		fmt.Printf("  sitemap 200s: median %v, max %v\n", sitemapLat[len(sitemapLat)/2].Round(time.Millisecond), sitemapLat[len(sitemapLat)-1].Round(time.Millisecond))
	}
	fmt.Printf("  base64/encode with the sitemaps: %s (%s)\n", percentiles(lat), cheapT)
	ok := len(t.bad) == 0 && len(cheapT.bad) == 0 && len(lat) > 0 && lat[len(lat)*99/100] < 10*time.Millisecond
	fmt.Printf("  %s (p99 under 10ms)\n", verdict(ok))
	return ok
}

// cheapCalls calls base64/encode one at a time for d and returns the
// latencies, sorted.
func cheapCalls(s *server, c *http.Client, d time.Duration) ([]time.Duration, *tally) {
	var lat []time.Duration
	t := new(tally)
	for end := time.Now().Add(d); time.Now().Before(end); {
		a := post(context.Background(), c, s.base+"/v1/dev/data/base64/encode", key, []byte(`{"value":"hello, world"}`))
		t.add(a, func(a answer) bool { return a.status == 200 })
		lat = append(lat, a.latency)
		time.Sleep(5 * time.Millisecond)
	}
	slices.Sort(lat)
	return lat, t
}

// percentiles renders the p50, p90, p99 and max of sorted latencies.
func percentiles(lat []time.Duration) string {
	if len(lat) == 0 {
		return "no calls"
	}
	p := func(q float64) time.Duration {
		return lat[min(len(lat)-1, int(q*float64(len(lat))))].Round(10 * time.Microsecond)
	}
	return fmt.Sprintf("%d calls, p50 %v, p90 %v, p99 %v, max %v", len(lat), p(0.5), p(0.9), p(0.99), lat[len(lat)-1].Round(10*time.Microsecond))
}

func authScenario(s *server) bool {
	fmt.Printf("\n[auth] 2,000 wrong keys from 127.0.0.1, then the right key from 127.0.0.1 and from 127.0.0.2\n")
	url := s.base + "/v1/dev/data/base64/encode"
	body := []byte(`{"value":"x"}`)
	var t tally
	first429 := -1
	for i := range 2000 {
		a := post(context.Background(), client, url, fmt.Sprintf("guess-%016d", i), body)
		t.add(a, func(a answer) bool {
			return (a.status == 401 && a.code == "UNAUTHORIZED") || (a.status == 429 && a.code == "RATE_LIMIT_EXCEEDED" && a.retry != "")
		})
		if a.status == 429 && first429 < 0 {
			first429 = i + 1
		}
	}
	fmt.Printf("  wrong keys: %s; first 429 at attempt %d\n", &t, first429)
	same := post(context.Background(), client, url, key, body)
	other := &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{
		LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)},
	}).DialContext}}
	from2 := post(context.Background(), other, url, key, body)
	fmt.Printf("  right key from 127.0.0.1: %d %s (Retry-After %s); from 127.0.0.2: %d %s\n", same.status, same.code, same.retry, from2.status, from2.code)
	ok := len(t.bad) == 0 && first429 > 0 && first429 <= 11 && from2.status == 200 && t.counts["401 UNAUTHORIZED"] == first429-1
	if len(t.bad) > 0 {
		fmt.Printf("  unexpected: %v\n", t.bad)
	}
	fmt.Printf("  %s (429 after the burst of 10; the other address unaffected)\n", verdict(ok))
	return ok
}
