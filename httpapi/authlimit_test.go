package httpapi

import (
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/secret"
)

// viaProxy is a request that the trusted proxy 127.0.0.1 forwards for a
// client at addr.
func viaProxy(addr netip.Addr) func(*http.Request) {
	return func(r *http.Request) {
		r.RemoteAddr = "127.0.0.1:4000"
		r.Header.Set("X-Forwarded-For", addr.String())
	}
}

// net64 is the address ::1 of the /64 whose first 64 bits are hi.
func net64(hi uint64) netip.Addr {
	var b [16]byte
	for i := range 8 {
		b[i] = byte(hi >> (56 - 8*i))
	}
	b[15] = 1
	return netip.AddrFrom16(b)
}

// guess sends a wrong key for the client at addr, through the proxy.
func guess(t testing.TB, h http.Handler, addr netip.Addr, i int) result {
	return do(t, h, "POST", "/v1/test/echo", `{}`, viaProxy(addr), header("X-Gateway-Key", "guess-"+strconv.Itoa(i)))
}

// tallyGuesses counts the 401s and 429s of answers, and fails the test
// on anything else.
func tallyGuesses(t *testing.T, res result, unauthorized, refused *int) {
	t.Helper()
	switch {
	case res.status == 401:
		*unauthorized++
	case res.status == 429 && res.header.Get("Retry-After") != "":
		*refused++
	default:
		t.Fatalf("a wrong key got %d (Retry-After %q): %s", res.status, res.header.Get("Retry-After"), res.raw)
	}
}

// floodNet returns the first 32 bits of an IPv6 /32 whose overflow slot
// in s is none of those of avoid: a flood from it cannot exhaust theirs.
func floodNet(t *testing.T, s *server, avoid ...netip.Addr) uint64 {
	t.Helper()
	taken := map[uint16]bool{}
	for _, a := range avoid {
		_, _, slot := s.authFailures.keys(a)
		taken[slot] = true
	}
	for n := uint64(0x2001_0db8); n < 0x2001_0db8+4096; n++ {
		if _, _, slot := s.authFailures.keys(net64(n << 32)); !taken[slot] {
			return n << 32
		}
	}
	t.Fatal("no /32 with a free overflow slot")
	return 0
}

// TestAuthFailureTableStaysUnderItsCap: wrong keys from 5,000 /64s, each
// in its own /48, through a trusted proxy, leave at most
// AuthFailureMaxAddresses entries, and the right key still works from
// another address and from another /32.
func TestAuthFailureTableStaysUnderItsCap(t *testing.T) {
	var logs testutil.SyncBuffer
	s := newServer(Config{Keys: []secret.String{testKey}, RatePerSecond: -1, TrustedProxies: []string{"127.0.0.1"}, AuthFailureMaxAddresses: 1000,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	h := s.handler(echoRoutes())
	other6 := netip.MustParseAddr("2001:db9::1")
	flood := floodNet(t, s, other6, netip.MustParseAddr("127.0.0.2"))
	var unauthorized, refused int
	for i := range 5000 {
		tallyGuesses(t, guess(t, h, net64(flood|uint64(i)<<16), i), &unauthorized, &refused)
		if n := s.authFailures.Len(); n > 1000 {
			t.Fatalf("after %d wrong keys from distinct /48s, %d addresses are tracked; the cap is 1,000", i+1, n)
		}
	}
	t.Logf("5,000 wrong keys: %d × 401, %d × 429; %d entries", unauthorized, refused, s.authFailures.Len())
	if n := strings.Count(logs.String(), "failed-authentication table is full"); n != 1 {
		t.Errorf("%d warnings of a full table, want 1:\n%s", n, logs.String())
	}
	checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, from("127.0.0.2:4000")), 200, "")
	checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, viaProxy(other6)), 200, "")
}

// TestAuthFailurePrefixIsLimited: the /64s of one /48 share a limit, so
// that the /48 is worth a bounded number of guesses rather than 65,536
// times a /64's. The whole /48 is then refused, the right key included;
// other addresses are not.
func TestAuthFailurePrefixIsLimited(t *testing.T) {
	h := testServer(t, Config{RatePerSecond: -1, TrustedProxies: []string{"127.0.0.1"}}, echoRoutes()...)
	const site = 0x2001_0db8_0001_0000 // 2001:db8:1::/48
	start := time.Now()
	var unauthorized, refused int
	for i := range 2000 {
		tallyGuesses(t, guess(t, h, net64(site|uint64(i)), i), &unauthorized, &refused)
	}
	// A burst of 100, and one more a second.
	if most := DefaultAuthFailurePrefixBurst + int(time.Since(start).Seconds()*DefaultAuthFailurePrefixRate) + 1; unauthorized > most || unauthorized < DefaultAuthFailurePrefixBurst {
		t.Errorf("2,000 wrong keys from as many /64s of one /48: %d × 401, want %d to %d", unauthorized, DefaultAuthFailurePrefixBurst, most)
	}
	res := do(t, h, "POST", "/v1/test/echo", `{}`, viaProxy(net64(site|0xffff)))
	checkEnvelope(t, res, 429, envelope.CodeRateLimitExceeded)
	if res.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	for _, other := range []func(*http.Request){
		from("127.0.0.2:4000"),
		viaProxy(netip.MustParseAddr("2001:db8:2::1")), // the next /48
		viaProxy(netip.MustParseAddr("192.0.2.1")),
	} {
		checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, other), 200, "")
	}

	t.Run("off", func(t *testing.T) {
		h := testServer(t, Config{RatePerSecond: -1, AuthFailurePrefixBurst: -1}, echoRoutes()...)
		for i := range 300 {
			res := do(t, h, "POST", "/v1/test/echo", `{}`, from(fmt.Sprintf("[2001:db8:1:%x::1]:4000", i)), header("X-Gateway-Key", "x"))
			checkEnvelope(t, res, 401, envelope.CodeUnauthorized)
		}
	})
}

// TestBlockedAddressSurvivesFlood: a flood of new addresses into a full
// table does not push out a blocked address or /48 to give it fresh
// tries.
func TestBlockedAddressSurvivesFlood(t *testing.T) {
	s := newServer(Config{Keys: []secret.String{testKey}, RatePerSecond: -1, TrustedProxies: []string{"127.0.0.1"}, AuthFailureMaxAddresses: 1000})
	// The clock stands still: on a busy machine the flood may take
	// seconds, in which the blocked /48 would earn tries back (one a
	// second) and the test would measure the machine.
	stopped := time.Now()
	s.authFailures.now = func() time.Time { return stopped }
	h := s.handler(echoRoutes())
	blocked4 := netip.MustParseAddr("198.51.100.7")
	const site = 0x2001_0db8_0007_0000 // 2001:db8:7::/48
	for i := range DefaultAuthFailureBurst {
		checkEnvelope(t, guess(t, h, blocked4, i), 401, envelope.CodeUnauthorized)
	}
	for i := range DefaultAuthFailurePrefixBurst {
		checkEnvelope(t, guess(t, h, net64(site|uint64(i)), i), 401, envelope.CodeUnauthorized)
	}
	flood := floodNet(t, s, blocked4, net64(site))
	var unauthorized, refused int
	for i := range 5000 {
		tallyGuesses(t, guess(t, h, net64(flood|uint64(i)<<16), i), &unauthorized, &refused)
	}
	if n := s.authFailures.Len(); n != 1000 {
		t.Fatalf("5,000 wrong keys from new /48s into a table of 1,000 left %d entries: the table is not full, and the test proves nothing", n)
	}
	t.Logf("5,000 wrong keys: %d × 401, %d × 429", unauthorized, refused)
	for name, addr := range map[string]netip.Addr{"the blocked IPv4 address": blocked4, "a new /64 of the blocked /48": net64(site | 0xfffe)} {
		res := do(t, h, "POST", "/v1/test/echo", `{}`, viaProxy(addr))
		if res.status != 429 {
			t.Errorf("the right key from %s after a flood of 5,000 new addresses: %d, want 429", name, res.status)
		}
	}
}

// TestRightKeysLeaveNoEntry: a request with the right key gives back
// the failure it took: clients that never fail are not tracked.
func TestRightKeysLeaveNoEntry(t *testing.T) {
	s := newServer(Config{Keys: []secret.String{testKey}, RatePerSecond: -1, TrustedProxies: []string{"127.0.0.1"}})
	h := s.handler(echoRoutes())
	for i := range 500 {
		checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, viaProxy(net64(0x2001_0db8_0000_0000|uint64(i)<<16))), 200, "")
		checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, viaProxy(netip.AddrFrom4([4]byte{192, 0, 2, byte(i)}))), 200, "")
	}
	if n := s.authFailures.Len(); n != 0 {
		t.Errorf("1,000 right keys from 1,000 addresses left %d entries", n)
	}
	// One failure, then the right key 50 times: still 9 failures left.
	addr := netip.MustParseAddr("192.0.2.1")
	checkEnvelope(t, guess(t, h, addr, 0), 401, envelope.CodeUnauthorized)
	for range 50 {
		checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, viaProxy(addr)), 200, "")
	}
	for i := range DefaultAuthFailureBurst - 1 {
		checkEnvelope(t, guess(t, h, addr, i), 401, envelope.CodeUnauthorized)
	}
	checkEnvelope(t, guess(t, h, addr, 99), 429, envelope.CodeRateLimitExceeded)
}

// testTable is a failure table on a clock that the test moves.
func testTable(burst int, rate float64, prefixBurst int, prefixRate float64, max int) (*failureTable, *time.Time) {
	t := newFailureTable(burst, rate, prefixBurst, prefixRate, max)
	now := t.base
	t.now = func() time.Time { return now }
	return t, &now
}

func TestFailureTable(t *testing.T) {
	a := netip.MustParseAddr("192.0.2.1")
	t.Run("refill and forget", func(t *testing.T) {
		tab, now := testTable(3, 0.5, 100, 1, 100)
		for i := range 3 {
			if _, wait, _ := tab.take(a); wait > 0 {
				t.Fatalf("failure %d refused", i+1)
			}
		}
		if _, wait, _ := tab.take(a); wait != 2*time.Second {
			t.Fatalf("4th failure: wait %v, want 2s", wait)
		}
		*now = now.Add(2 * time.Second)
		if _, wait, _ := tab.take(a); wait > 0 {
			t.Fatalf("after 2 s at 0.5/s: wait %v", wait)
		}
		// Full again 6 s later; forgotten at the first take a minute
		// after the last sweep.
		*now = now.Add(6 * time.Second)
		if tab.Len() != 1 {
			t.Fatalf("Len %d", tab.Len())
		}
		*now = tab.base.Add(sweepEvery)
		tab.take(netip.MustParseAddr("192.0.2.2"))
		if tab.Len() != 1 {
			t.Errorf("after a minute, Len %d, want only the new address", tab.Len())
		}
	})
	t.Run("give back", func(t *testing.T) {
		tab, _ := testTable(2, 0.001, 100, 1, 100)
		for range 100 {
			tk, wait, _ := tab.take(a)
			if wait > 0 {
				t.Fatal("refused")
			}
			tab.give(tk)
		}
		if tab.Len() != 0 {
			t.Errorf("Len %d after takes given back", tab.Len())
		}
		// Takes not given back count, even while in flight together.
		tab.take(a)
		tk, _, _ := tab.take(a)
		if _, wait, _ := tab.take(a); wait <= 0 {
			t.Error("a third take with a burst of 2")
		}
		tab.give(tk)
		if _, wait, _ := tab.take(a); wait > 0 {
			t.Error("a take given back is not available again")
		}
	})
	t.Run("full table", func(t *testing.T) {
		tab, now := testTable(2, 0.001, 5, 0.001, 4)
		b := netip.MustParseAddr("2001:db8:1:2::3")
		tab.take(b) // its /48 and /64
		tab.take(a)
		tab.take(netip.MustParseAddr("192.0.2.9"))
		if tab.Len() != 4 {
			t.Fatalf("Len %d", tab.Len())
		}
		// New addresses share the overflow slot of their /16: the
		// /48 limit, 5.
		for i := range 5 {
			tk, wait, full := tab.take(netip.AddrFrom4([4]byte{198, 51, 100, byte(i)}))
			if wait > 0 || !tk.overflow || tk.n != 0 || full != (i == 0) {
				t.Fatalf("new address %d: %+v wait %v full %v", i, tk, wait, full)
			}
		}
		if _, wait, _ := tab.take(netip.MustParseAddr("198.51.200.1")); wait <= 0 {
			t.Error("the 6th new address of a /16 into a full table is not refused")
		}
		if tab.Len() != 4 {
			t.Errorf("Len %d", tab.Len())
		}
		// A tracked address keeps its own count.
		if _, wait, _ := tab.take(a); wait > 0 {
			t.Error("a tracked address was refused by the overflow")
		}
		if _, wait, _ := tab.take(a); wait <= 0 {
			t.Error("a tracked address got a 3rd failure")
		}
		// Once its buckets are full again, a sweep a second later makes
		// room.
		*now = now.Add(time.Hour)
		if tk, wait, _ := tab.take(netip.MustParseAddr("198.51.200.1")); wait > 0 || tk.overflow || tk.n != 1 {
			t.Errorf("after the table refilled: %+v, wait %v", tk, wait)
		}
	})
	t.Run("a /64 whose /48 is forgotten", func(t *testing.T) {
		// The /48 earns its failure back in 1 s, the /64 in 1,000 s: a
		// full table keeps counting the /64 in its own bucket.
		tab, now := testTable(1, 0.001, 5, 1, 2)
		b := netip.MustParseAddr("2001:db8:1:2::3")
		tab.take(b)
		*now = now.Add(2 * time.Second)
		tab.sweep(tab.clock())
		tab.take(netip.MustParseAddr("192.0.2.1"))
		if _, wait, _ := tab.take(b); wait <= 0 {
			t.Error("a blocked /64 got another try from the overflow")
		}
	})
	t.Run("memory of a flood goes back", func(t *testing.T) {
		tab, now := testTable(10, 0.1, 100, 1, 100_000)
		for i := range 20_000 {
			tab.take(net64(0x2001_0db8_0000_0000 | uint64(i)<<16))
		}
		big := tab.peak
		*now = now.Add(sweepEvery)
		tab.take(a)
		if tab.Len() != 1 || tab.peak != 1 || big != 40_000 {
			t.Errorf("after a minute: Len %d, peak %d (was %d)", tab.Len(), tab.peak, big)
		}
	})
	t.Run("extreme limits", func(t *testing.T) {
		for _, l := range []struct {
			burst   int
			rate    float64
			allowed int // of 3 takes
		}{{1, 1e-300, 1}, {math.MaxInt, 1e-300, 3}, {math.MaxInt, 1e300, 3}, {1, 1e300, 1}} {
			tab, _ := testTable(l.burst, l.rate, l.burst, l.rate, 10)
			allowed := 0
			for range 3 {
				if _, wait, _ := tab.take(a); wait <= 0 {
					allowed++
				}
			}
			if allowed != l.allowed {
				t.Errorf("burst %d, rate %g: %d of 3 takes allowed, want %d", l.burst, l.rate, allowed, l.allowed)
			}
		}
	})
}

// TestFailureTableMemory measures the heap of a full table of the default
// size, against the bound that Config.AuthFailureMaxAddresses documents.
func TestFailureTableMemory(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tab := newFailureTable(DefaultAuthFailureBurst, DefaultAuthFailureRate, DefaultAuthFailurePrefixBurst, DefaultAuthFailurePrefixRate, DefaultAuthFailureMaxAddresses)
	for i := range DefaultAuthFailureMaxAddresses / 2 {
		tab.take(net64(0x2001_0db8_0000_0000 | uint64(i)<<16))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	n := tab.Len()
	per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
	t.Logf("%d entries: %.1f bytes each", n, per)
	if n != DefaultAuthFailureMaxAddresses || per > authFailureEntryBytes {
		t.Errorf("%d entries of %.1f bytes, want %d of at most %d", n, per, DefaultAuthFailureMaxAddresses, authFailureEntryBytes)
	}
	runtime.KeepAlive(tab)
}

// benchAuth serves b.N requests with gatewayKey through h, each from the
// next of 2^20 /64s (16 in each of 65,536 /48s) through the proxy, and
// reports the entries left in s's failure table.
func benchAuth(b *testing.B, gatewayKey string) {
	s := newServer(Config{Keys: []secret.String{testKey}, RatePerSecond: -1, TrustedProxies: []string{"127.0.0.1"}})
	h := s.handler(echoRoutes())
	xff := make([]string, 1<<20)
	for i := range xff {
		xff[i] = net64(0x2001_0db8_0000_0000 | uint64(i%65536)<<16 | uint64(i/65536)).String()
	}
	req := httptest.NewRequest("POST", "/v1/test/echo", nil)
	req.RemoteAddr = "127.0.0.1:4000"
	req.Header.Set("X-Gateway-Key", gatewayKey)
	req.Header.Set("X-Gateway-Host", "api.test")
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		req.Header.Set("X-Forwarded-For", xff[i%len(xff)])
		req.Body = io.NopCloser(strings.NewReader(`{}`))
		w.Body.Reset()
		h.ServeHTTP(w, req)
	}
	b.ReportMetric(float64(s.authFailures.Len()), "entries")
}

// BenchmarkAuthFailure is the path of the flood of issue 21: a wrong
// key from a new /64 each time.
func BenchmarkAuthFailure(b *testing.B) { benchAuth(b, "wrong-key") }

// BenchmarkAuthSuccess is the path of every authenticated request.
func BenchmarkAuthSuccess(b *testing.B) { benchAuth(b, testKey) }
