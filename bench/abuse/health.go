package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// hostileTXT is the size of each TXT record of the hostile zone: as much
// as one DNS message of 64 KiB carries in one record (a length byte per
// 255-byte string, the header and the question around it).
const hostileTXT = 64<<10 - 600

// hostileZone is a domain whose TXT records are as large as DNS allows,
// at every name domain health asks: the SPF record at the domain, DMARC,
// MTA-STS, TLS-RPT, BIMI and every default DKIM selector. Its MX host has
// an address, so the MX hosts are checked too.
func hostileZone() string {
	var z strings.Builder
	z.WriteString("$ORIGIN test.\n$TTL 3600\n@ SOA ns hostmaster 1 3600 600 86400 60\n")
	z.WriteString("hostile MX 10 mx.hostile.test.\nmx.hostile A 192.0.2.25\n")
	txt := func(name, prefix string) {
		fmt.Fprintf(&z, "%s TXT", name)
		// A record of many strings, each up to 255 bytes: its bytes are
		// the prefix followed by filler, as hostile as plain text gets.
		rec := prefix + strings.Repeat("x", hostileTXT-len(prefix))
		for len(rec) > 0 {
			n := min(len(rec), 255)
			fmt.Fprintf(&z, " %q", rec[:n])
			rec = rec[n:]
		}
		z.WriteString("\n")
	}
	txt("hostile", "v=spf1 a:")
	txt("_dmarc.hostile", "v=DMARC1; p=reject; rua=mailto:")
	txt("_mta-sts.hostile", "v=STSv1; id=")
	txt("_smtp._tls.hostile", "v=TLSRPTv1; rua=mailto:")
	txt("default._bimi.hostile", "v=BIMI1; l=https://")
	for _, sel := range mailauth.DefaultDKIMSelectors() {
		txt(sel+"._domainkey.hostile", "v=DKIM1; k=rsa; p=")
	}
	return z.String()
}

// healthScenario starts its own quiver, resolving through a loopback DNS
// server that serves hostileZone, and sends 500 copies of the hostile
// domain to domain health from 4 clients for d, while one client calls
// Base64 encode. It reports the size of the answers, the server's CPU
// seconds and peak RSS, and the cheap route's latency. Pass: the peak RSS
// stays under budget, every answer is a 200 or an enveloped 429/503 with
// Retry-After, and the cheap route's p99 stays under 100 ms.
func healthScenario(bin string, d time.Duration, budget int64, extra []string) bool {
	dns, err := resolvertest.New(resolvertest.Config{Zone: hostileZone()})
	if err != nil {
		fmt.Println("  dns server:", err)
		return false
	}
	defer dns.Close()
	s, err := start(bin, append([]string{"-memory-budget", strconv.FormatInt(budget, 10), "-dns-servers", dns.Addr}, extra...)...)
	if err != nil {
		fmt.Println("  quiver:", err)
		return false
	}
	defer s.stop()
	domains := slices.Repeat([]string{"hostile.test"}, 500)
	body, _ := json.Marshal(map[string]any{"domains": domains})
	const clients = 4
	fmt.Printf("\n[health] %d clients × domain health of 500 copies of a domain with %d KiB TXT records (body %d bytes) for %v, while 1 client calls base64/encode\n",
		clients, hostileTXT>>10, len(body), d)
	cheap := &http.Client{Transport: &http.Transport{}, Timeout: 2 * time.Minute}
	base, baseT := cheapCalls(s, cheap, d/4)
	fmt.Printf("  base64/encode alone for %v: %s (%s)\n", d/4, percentiles(base), baseT)
	cpu0 := s.cpuSeconds()

	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var t tally
	var sizes []int64
	var lat []time.Duration
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for ctx.Err() == nil {
				a, n := postCounted(client, s.base+"/v1/email/domain/health", body)
				t.add(a, enveloped)
				mu.Lock()
				sizes = append(sizes, n)
				if a.status == 200 {
					lat = append(lat, a.latency)
				}
				mu.Unlock()
				if a.status != 200 {
					time.Sleep(100 * time.Millisecond)
				}
			}
		})
	}
	time.Sleep(200 * time.Millisecond) // let the requests start
	cheapLat, cheapT := cheapCalls(s, cheap, d-time.Second)
	wg.Wait()
	cpu := s.cpuSeconds() - cpu0
	hwm := s.status("VmHWM")
	slices.Sort(sizes)
	slices.Sort(lat)
	fmt.Printf("  health answers: %s\n", &t)
	if len(sizes) > 0 {
		fmt.Printf("  answer size: min %s, max %s\n", mb(sizes[0]), mb(sizes[len(sizes)-1]))
	}
	if len(lat) > 0 {
		fmt.Printf("  health 200s: %d, median %v, max %v\n", len(lat), lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
	}
	fmt.Printf("  server CPU: %.1f s; VmHWM %d MiB; budget %d MiB\n", cpu, hwm>>20, budget>>20)
	fmt.Printf("  base64/encode with domain health: %s (%s)\n", percentiles(cheapLat), cheapT)
	ok := len(t.bad) == 0 && len(cheapT.bad) == 0 && hwm > 0 && hwm < budget &&
		len(cheapLat) > 0 && cheapLat[len(cheapLat)*99/100] < 100*time.Millisecond
	if len(t.bad) > 0 {
		fmt.Printf("  not enveloped 200/429/503: %v\n", t.bad)
	}
	fmt.Printf("  %s (RSS under the budget, cheap p99 under 100ms)\n", verdict(ok))
	return ok
}

// postCounted is post for answers too large to decode: it counts the
// answer's bytes, and reads the envelope of an error only.
func postCounted(c *http.Client, url string, body []byte) (answer, int64) {
	req := newPost(context.Background(), url, key, body)
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return answer{err: err, latency: time.Since(start)}, 0
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, retry: resp.Header.Get("Retry-After")}
	if resp.StatusCode == 200 {
		n, err := io.Copy(io.Discard, resp.Body)
		a.latency, a.err = time.Since(start), err
		return a, n
	}
	var env struct {
		Success *bool
		Error   *struct{ Code string }
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	a.latency = time.Since(start)
	if err := json.Unmarshal(b, &env); err != nil || env.Success == nil || env.Error == nil {
		a.err = fmt.Errorf("status %d: not an error envelope: %v", resp.StatusCode, err)
	} else {
		a.code = env.Error.Code
	}
	return a, int64(len(b))
}

// cpuSeconds is the user and system CPU time of the server so far, from
// /proc/PID/stat (in clock ticks of 1/100 s, as on every Linux of
// x86-64 and arm64).
func (s *server) cpuSeconds() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	// The fields after the command name, which ends with ")": state is
	// field 3, utime 14 and stime 15.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return -1
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return float64(ut+st) / 100
}

// mb renders n bytes in MB (10^6), as the issue does.
func mb(n int64) string {
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
}
