package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// authflood is the scenario of issue 21: a flood of wrong keys, each from
// its own IPv6 /64, through a trusted proxy. It starts its own quiver
// with -trusted-proxies 127.0.0.1, so that what this process writes in
// X-Forwarded-For is the client address, and sends two waves of
// floodRequests wrong keys:
//
//   - "16 /48s": each /64 once, 25,000 rotating /64s in each of 16 /48s;
//   - "65,536 /48s": each /64 once, about 6 in each /48 of 2001:db8::/32,
//     the widest spread, which tracks the most entries.
//
// Before and after each wave it reads the server's VmRSS, and after each
// it sends the right key from 127.0.0.2 (a client of its own, not through
// the proxy) and from an IPv6 client in another /32 through the proxy.
// Pass: every answer is a 401 or an enveloped 429 with Retry-After; in
// the first wave at most 16 × (100 + 1/s × its duration) are 401s (the
// default limit of an IPv6 /48, -auth-failure-prefix-burst and -rate); the
// right keys get 200; and RSS grows by less than 32 MiB over both waves.
// (While the table is full, a right key from an address whose IPv6 /32
// or IPv4 /16 hashes to the overflow bucket of 2001:db8::/32 is refused
// too: 1 chance in 1,024 for each, the seed being random.)
const floodRequests = 400_000

func authfloodScenario(bin string, budget int64) bool {
	fmt.Printf("\n[authflood] quiver -trusted-proxies 127.0.0.1; 2 waves of %d wrong keys, each from its own /64 in X-Forwarded-For\n", floodRequests)
	s, err := start(bin, "-trusted-proxies", "127.0.0.1", "-memory-budget", strconv.FormatInt(budget, 10))
	if err != nil {
		fmt.Println("  ", err)
		return false
	}
	defer s.stop()
	url := s.base + "/v1/dev/data/base64/encode"
	// Warm up: the server's RSS before is that of a server that has
	// answered requests, not of one that has just started.
	for range 200 {
		flood1(url, key, "2001:db9::1")
	}
	time.Sleep(time.Second)
	rss0 := s.status("VmRSS")
	fmt.Printf("  server RSS before: %d MiB\n", rss0>>20)
	ok := true
	waves := []struct {
		name string
		addr func(i int) netip.Addr
		most func(d time.Duration) int // the 401s allowed, or -1 for no bound
	}{
		{"16 /48s", func(i int) netip.Addr { return sixtyFour(0x2001_0db8_0000_0000|uint64(i%16)<<16, uint16(i/16)) },
			func(d time.Duration) int { return 16 * (100 + int(d.Seconds()+1)) }},
		{"65,536 /48s", func(i int) netip.Addr {
			return sixtyFour(0x2001_0db8_0000_0000|uint64(i%65536)<<16, uint16(i/65536+30000))
		},
			func(time.Duration) int { return -1 }},
	}
	for _, w := range waves {
		before := s.status("VmRSS")
		var t tally
		began := time.Now()
		floodWave(url, w.addr, &t)
		d := time.Since(began)
		time.Sleep(500 * time.Millisecond)
		after := s.status("VmRSS")
		unauthorized := t.counts["401 UNAUTHORIZED"]
		fmt.Printf("  %s: %d requests in %v (%.0f/s): %s\n", w.name, floodRequests, d.Round(time.Millisecond), floodRequests/d.Seconds(), &t)
		fmt.Printf("    server RSS %d → %d MiB (VmHWM %d MiB)\n", before>>20, after>>20, s.status("VmHWM")>>20)
		if most := w.most(d); most >= 0 {
			fmt.Printf("    401s: %d, bound 16 × (100 + 1/s × %v) = %d\n", unauthorized, d.Round(time.Second), most)
			ok = ok && unauthorized <= most
		}
		if len(t.bad) > 0 {
			fmt.Printf("    unexpected: %v\n", t.bad)
			ok = false
		}
		other := &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{
			LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)},
		}).DialContext}}
		from2 := post(context.Background(), other, url, key, []byte(`{"value":"x"}`))
		via := flood1(url, key, "2001:db9::1")
		fmt.Printf("    right key from 127.0.0.2: %d %s; through the proxy from 2001:db9::1: %d %s\n", from2.status, from2.code, via.status, via.code)
		ok = ok && from2.status == 200 && via.status == 200
	}
	end := s.status("VmRSS")
	fmt.Printf("  server RSS %d → %d MiB over both waves (issue 21 before the fix: 47 → 138 MiB after 445,000)\n", rss0>>20, end>>20)
	ok = ok && end-rss0 < 32<<20
	fmt.Printf("  %s\n", verdict(ok))
	return ok
}

// sixtyFour is the address ::1 of the /64 whose first 48 bits are the top
// of prefix48 and whose subnet is subnet.
func sixtyFour(prefix48 uint64, subnet uint16) netip.Addr {
	var b [16]byte
	hi := prefix48 | uint64(subnet)
	for i := range 8 {
		b[i] = byte(hi >> (56 - 8*i))
	}
	b[15] = 1
	return netip.AddrFrom16(b)
}

// floodWave sends floodRequests wrong keys, request i from addr(i), from
// 32 clients at once, and tallies the answers.
func floodWave(url string, addr func(int) netip.Addr, t *tally) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= floodRequests {
					return
				}
				a := flood1(url, fmt.Sprintf("guess-%016d", i), addr(i).String())
				t.add(a, func(a answer) bool {
					return (a.status == 401 && a.code == "UNAUTHORIZED") || (a.status == 429 && a.code == "RATE_LIMIT_EXCEEDED" && a.retry != "")
				})
			}
		})
	}
	wg.Wait()
}

// flood1 sends one base64/encode request with gatewayKey, as the proxy
// at 127.0.0.1 forwarding a client at xff would.
func flood1(url, gatewayKey, xff string) answer {
	return post(context.WithValue(context.Background(), forwardedFor{}, xff), proxied, url, gatewayKey, []byte(`{"value":"x"}`))
}

// forwardedFor is the context key of the address that proxied writes in
// X-Forwarded-For.
type forwardedFor struct{}

// proxied is a client that sets X-Forwarded-For from its request's
// context.
var proxied = &http.Client{Transport: xffTransport{client.Transport}, Timeout: time.Minute}

type xffTransport struct{ next http.RoundTripper }

func (t xffTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if xff, ok := r.Context().Value(forwardedFor{}).(string); ok {
		r = r.Clone(r.Context())
		r.Header.Set("X-Forwarded-For", xff)
	}
	return t.next.RoundTrip(r)
}
