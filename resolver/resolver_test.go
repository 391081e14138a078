package resolver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/resolver/resolvertest"
)

var zone = `
$ORIGIN example.test.
$TTL 300
@        IN SOA ns1 hostmaster 1 3600 600 86400 60
@        IN NS  ns1
@        IN MX  20 mx2
@        IN MX  10 mx1
@        IN TXT "v=spf1 " "-all"
@        IN A   192.0.2.1
@        IN AAAA 2001:db8::1
mx1      IN A   192.0.2.10
mx2      IN A   192.0.2.20
www      IN CNAME @
nullmx   IN MX  0 .
short    1 IN A 192.0.2.99
escaped  IN TXT "caf\195\169 \"quoted\" back\\slash" "\009tab"
big      IN TXT "` + strings.Repeat("a", 250) + `" "` + strings.Repeat("b", 250) + `"
big      IN TXT "` + strings.Repeat("c", 250) + `" "` + strings.Repeat("d", 250) + `"
big      IN TXT "` + strings.Repeat("e", 250) + `" "` + strings.Repeat("f", 250) + `"
`

func newResolver(t *testing.T, srv *resolvertest.Server, cfg Config) *Resolver {
	t.Helper()
	cfg.Servers = []string{srv.Addr}
	if cfg.Timeout == 0 {
		cfg.Timeout = 300 * time.Millisecond
	}
	if cfg.Attempts == 0 {
		cfg.Attempts = 1
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLookupMX(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	r := newResolver(t, srv, Config{})
	ctx := context.Background()

	mx, err := r.LookupMX(ctx, "Example.Test")
	if err != nil {
		t.Fatal(err)
	}
	want := []MX{{Host: "mx1.example.test", Pref: 10}, {Host: "mx2.example.test", Pref: 20}}
	if diff := cmp.Diff(want, mx); diff != "" {
		t.Errorf("LookupMX (-want +got):\n%s", diff)
	}

	null, err := r.LookupMX(ctx, "nullmx.example.test")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]MX{{Host: "", Pref: 0}}, null); diff != "" {
		t.Errorf("null MX (-want +got):\n%s", diff)
	}
}

// Every method reports each failure as a *LookupError wrapping the one
// sentinel that names it.
func TestErrorsToldApart(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone, ServFail: []string{"broken.example.test"}, Refused: []string{"refused.example.test"}, Drop: []string{"slow.example.test"}})
	r := newResolver(t, srv, Config{Timeout: 100 * time.Millisecond})
	ctx := context.Background()
	methods := map[string]func(name string) error{
		"Lookup":      func(n string) error { _, err := r.Lookup(ctx, n, dns.TypeMX); return err },
		"LookupMX":    func(n string) error { _, err := r.LookupMX(ctx, n); return err },
		"LookupTXT":   func(n string) error { _, err := r.LookupTXT(ctx, n); return err },
		"LookupNS":    func(n string) error { _, err := r.LookupNS(ctx, n); return err },
		"LookupCNAME": func(n string) error { _, err := r.LookupCNAME(ctx, n); return err },
		"LookupA":     func(n string) error { _, err := r.LookupA(ctx, n); return err },
		"LookupAAAA":  func(n string) error { _, err := r.LookupAAAA(ctx, n); return err },
		"LookupIP":    func(n string) error { _, err := r.LookupIP(ctx, n); return err },
	}
	tests := []struct {
		name string
		want error
	}{
		{"missing.example.test", ErrNXDomain},
		{"nullmx.example.test", ErrNoData}, // no record of any type asked but MX
		{"broken.example.test", ErrServFail},
		{"refused.example.test", ErrRefused},
		{"slow.example.test", ErrTimeout},
		{"bad..name", ErrInvalidName},
		{strings.Repeat("a", 64) + ".test", ErrInvalidName},
	}
	for method, lookup := range methods {
		for _, tt := range tests {
			if tt.want == ErrNoData && (method == "Lookup" || method == "LookupMX") {
				continue // Lookup answers NODATA without an error; nullmx has an MX
			}
			t.Run(method+"/"+tt.name, func(t *testing.T) {
				err := lookup(tt.name)
				if !errors.Is(err, tt.want) {
					t.Fatalf("err = %v, want %v", err, tt.want)
				}
				var le *LookupError
				if !errors.As(err, &le) {
					t.Fatalf("err %T is not a *LookupError", err)
				}
				for _, other := range []error{ErrNXDomain, ErrNoData, ErrServFail, ErrRefused, ErrTimeout, ErrUnreachable, ErrInvalidName} {
					if other != tt.want && errors.Is(err, other) {
						t.Errorf("err %v also matches %v", err, other)
					}
				}
			})
		}
	}
}

// A server that cannot be reached is ErrUnreachable, not an error no
// sentinel names.
func TestUnreachableServer(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close() // nothing listens there now: the query is refused at once
	r, err := New(Config{Servers: []string{addr}, Attempts: 1, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.LookupMX(context.Background(), "example.test")
	var le *LookupError
	if !errors.Is(err, ErrUnreachable) || !errors.As(err, &le) {
		t.Fatalf("err = %v, want a *LookupError wrapping ErrUnreachable", err)
	}
	// The network error names the server: the text does not name it again.
	if n := strings.Count(err.Error(), addr); n != 1 {
		t.Errorf("err = %v: names the server %d times, want once", err, n)
	}
}

// A failure rcode other than SERVFAIL and REFUSED is ErrServFail.
func TestOtherRcodeIsServFail(t *testing.T) {
	r, err := New(Config{Servers: []string{notImp(t)}, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.LookupTXT(context.Background(), "example.test"); !errors.Is(err, ErrServFail) {
		t.Fatalf("err = %v, want ErrServFail", err)
	}
}

// notImp serves NOTIMP to every query on loopback.
func notImp(t *testing.T) string {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, req *dns.Msg) {
		m := new(dns.Msg)
		m.SetRcode(req, dns.RcodeNotImplemented)
		w.WriteMsg(m)
	})}
	go srv.ActivateAndServe()
	t.Cleanup(func() { srv.Shutdown() })
	return pc.LocalAddr().String()
}

// The message of an invalid name quotes at most textcut.MaxExcerpt
// characters of it (issue 13: a 1 MiB name made a 1 MiB message).
func TestInvalidNameMessageIsBounded(t *testing.T) {
	r, err := New(Config{Servers: []string{"127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("a", 1<<20)
	_, err = r.LookupA(context.Background(), name)
	if !errors.Is(err, ErrInvalidName) {
		t.Fatalf("err = %v, want ErrInvalidName", err)
	}
	if msg := err.Error(); len(msg) > 300 {
		t.Errorf("message is %d bytes: %.120s...", len(msg), msg)
	}
}

func TestLookupNODATAIsNotAnError(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	r := newResolver(t, srv, Config{})
	a, err := r.Lookup(context.Background(), "mx1.example.test", dns.TypeMX)
	if err != nil {
		t.Fatal(err)
	}
	if a.Rcode != dns.RcodeSuccess || len(a.RRs) != 0 {
		t.Fatalf("got rcode %d, %d records; want NOERROR with none", a.Rcode, len(a.RRs))
	}
	if a.TTL != 60*time.Second {
		t.Errorf("negative TTL = %v, want the SOA minimum 60s", a.TTL)
	}
}

func TestTypedHelpers(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	r := newResolver(t, srv, Config{})
	ctx := context.Background()

	txt, err := r.LookupTXT(ctx, "example.test")
	if err != nil || len(txt) != 1 || txt[0] != "v=spf1 -all" {
		t.Errorf("LookupTXT = %q, %v; want the strings joined", txt, err)
	}
	// The bytes published, not miekg/dns's presentation form with \DDD
	// and \" escapes.
	txt, err = r.LookupTXT(ctx, "escaped.example.test")
	if want := "café \"quoted\" back\\slash\ttab"; err != nil || len(txt) != 1 || txt[0] != want {
		t.Errorf("LookupTXT(escaped) = %q, %v; want %q", txt, err, want)
	}
	ips, err := r.LookupIP(ctx, "example.test")
	want := []netip.Addr{netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("2001:db8::1")}
	if err != nil || !cmp.Equal(ips, want, cmp.Comparer(func(a, b netip.Addr) bool { return a == b })) {
		t.Errorf("LookupIP = %v, %v; want %v", ips, err, want)
	}
	if _, err := r.LookupIP(ctx, "nothing.example.test"); !errors.Is(err, ErrNXDomain) {
		t.Errorf("LookupIP of a missing name: %v, want NXDOMAIN", err)
	}
	lit, err := r.LookupIP(ctx, "[2001:db8::5]")
	if err != nil || len(lit) != 1 || lit[0] != netip.MustParseAddr("2001:db8::5") {
		t.Errorf("LookupIP of a literal = %v, %v", lit, err)
	}
	ns, err := r.LookupNS(ctx, "example.test")
	if err != nil || !cmp.Equal(ns, []string{"ns1.example.test"}) {
		t.Errorf("LookupNS = %v, %v", ns, err)
	}
	cname, err := r.LookupCNAME(ctx, "www.example.test")
	if err != nil || cname != "example.test" {
		t.Errorf("LookupCNAME = %q, %v", cname, err)
	}
	// A question of another type at a CNAME follows it.
	mx, err := r.LookupMX(ctx, "www.example.test")
	if err != nil || len(mx) != 2 {
		t.Errorf("LookupMX through a CNAME = %v, %v", mx, err)
	}
}

func TestTruncatedRetriesOverTCP(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone, Truncate: []string{"big.example.test"}})
	r := newResolver(t, srv, Config{})
	txt, err := r.LookupTXT(context.Background(), "big.example.test")
	if err != nil {
		t.Fatal(err)
	}
	if len(txt) != 3 || len(txt[0]) != 500 {
		t.Errorf("got %d records, want 3 of 500 bytes", len(txt))
	}
	if got := r.Stats().Queries; got != 2 {
		t.Errorf("queries = %d, want 2 (UDP then TCP)", got)
	}
}

func TestCacheHonoursTTLs(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	r := newResolver(t, srv, Config{})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r.now = func() time.Time { return now }
	ctx := context.Background()
	ask := func(name string, qtype uint16) {
		t.Helper()
		if _, err := r.Lookup(ctx, name, qtype); err != nil && !errors.Is(err, ErrNXDomain) {
			t.Fatal(err)
		}
	}

	ask("example.test", dns.TypeMX)
	ask("EXAMPLE.test.", dns.TypeMX)
	if got := srv.QueriesFor("example.test", dns.TypeMX); got != 1 {
		t.Fatalf("queries after a cached repeat = %d, want 1", got)
	}
	a, _ := r.Lookup(ctx, "example.test", dns.TypeMX)
	if !a.Cached {
		t.Error("repeat not marked Cached")
	}
	now = now.Add(299 * time.Second)
	ask("example.test", dns.TypeMX)
	if got := srv.QueriesFor("example.test", dns.TypeMX); got != 1 {
		t.Errorf("queried again within the TTL: %d", got)
	}
	now = now.Add(2 * time.Second)
	ask("example.test", dns.TypeMX)
	if got := srv.QueriesFor("example.test", dns.TypeMX); got != 2 {
		t.Errorf("not queried again after the TTL: %d", got)
	}

	// Negative answers: cached for the SOA minimum (60s).
	ask("gone.example.test", dns.TypeA)
	now = now.Add(59 * time.Second)
	ask("gone.example.test", dns.TypeA)
	if got := srv.QueriesFor("gone.example.test", dns.TypeA); got != 1 {
		t.Errorf("NXDOMAIN not cached: %d queries", got)
	}
	now = now.Add(2 * time.Second)
	ask("gone.example.test", dns.TypeA)
	if got := srv.QueriesFor("gone.example.test", dns.TypeA); got != 2 {
		t.Errorf("NXDOMAIN cached past the SOA minimum: %d queries", got)
	}
	// The smallest TTL of the answer wins.
	ask("short.example.test", dns.TypeA)
	now = now.Add(2 * time.Second)
	ask("short.example.test", dns.TypeA)
	if got := srv.QueriesFor("short.example.test", dns.TypeA); got != 2 {
		t.Errorf("1s TTL not honoured: %d queries", got)
	}
}

func TestFailuresAreNotCached(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone, ServFail: []string{"broken.example.test"}})
	r := newResolver(t, srv, Config{})
	for range 3 {
		r.Lookup(context.Background(), "broken.example.test", dns.TypeMX)
	}
	// Each lookup asks, then asks again with CD to tell bogus data from
	// an outage.
	if got := srv.QueriesFor("broken.example.test", dns.TypeMX); got != 6 {
		t.Errorf("SERVFAIL queries = %d, want 6 (not cached)", got)
	}
}

func TestCacheIsBounded(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	r := newResolver(t, srv, Config{CacheSize: 3})
	for i := range 10 {
		r.Lookup(context.Background(), fmt.Sprintf("n%d.example.test", i), dns.TypeA)
	}
	if got := r.Stats().Entries; got != 3 {
		t.Errorf("entries = %d, want 3", got)
	}
}

func TestInFlightDeduplication(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone, Delay: 50 * time.Millisecond})
	r := newResolver(t, srv, Config{})
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for range 100 {
		wg.Go(func() {
			_, err := r.LookupMX(context.Background(), "example.test")
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.Queries(); got != 1 {
		t.Errorf("server saw %d queries for 100 concurrent lookups, want 1", got)
	}
	if s := r.Stats(); s.Shared+s.CacheHits != 99 {
		t.Errorf("stats %+v: want 99 shared or cached", s)
	}
}

func TestCallerContextEndsWait(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone, Delay: 300 * time.Millisecond})
	r := newResolver(t, srv, Config{Timeout: time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := r.LookupMX(ctx, "example.test")
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want ErrTimeout wrapping the deadline", err)
	}
	if d := time.Since(start); d > 200*time.Millisecond {
		t.Errorf("waited %v after the caller's deadline", d)
	}
}

// A caller whose context has ended starts no query: nobody would wait for
// it, and it would outlive the caller.
func TestEndedContextSendsNothing(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	r := newResolver(t, srv, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 20 {
		if _, err := r.LookupMX(ctx, "example.test"); !errors.Is(err, ErrTimeout) || !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want ErrTimeout wrapping context.Canceled", err)
		}
	}
	time.Sleep(50 * time.Millisecond) // a query sent anyway would have arrived
	if n := srv.Queries(); n != 0 {
		t.Errorf("%d queries sent for a caller that had gone", n)
	}
}

func TestServersFallBackInOrder(t *testing.T) {
	bad := resolvertest.Start(t, resolvertest.Config{Zone: zone, ServFail: []string{"example.test"}})
	good := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	r, err := New(Config{Servers: []string{bad.Addr, good.Addr}, Timeout: 200 * time.Millisecond, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.LookupMX(context.Background(), "example.test"); err != nil {
		t.Fatalf("second server not tried: %v", err)
	}
}

func TestNewServers(t *testing.T) {
	r, err := New(Config{Servers: []string{"192.0.2.53", "[2001:db8::53]:5353", " "}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"192.0.2.53:53", "[2001:db8::53]:5353"}, r.Servers()); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	if _, err := New(Config{Servers: []string{" "}}); !errors.Is(err, ErrNoServers) {
		t.Errorf("no usable servers: err = %v, want ErrNoServers", err)
	}
}

// Without Servers, an unreadable resolv.conf is an invalid configuration,
// as New's doc says, and the message names the file once.
func TestNewUnreadableResolvConf(t *testing.T) {
	path := filepath.Join(t.TempDir(), "resolv.conf") // never created
	_, err := newFrom(Config{}, path)
	if !errors.Is(err, ErrInvalidConfig) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want ErrInvalidConfig and fs.ErrNotExist", err)
	}
	if n := strings.Count(err.Error(), path); n != 1 {
		t.Errorf("err = %v: names the file %d times, want once", err, n)
	}
}

func BenchmarkLookupCached(b *testing.B) {
	srv := resolvertest.Start(b, resolvertest.Config{Zone: zone})
	r, _ := New(Config{Servers: []string{srv.Addr}})
	ctx := context.Background()
	r.LookupMX(ctx, "example.test")
	b.ReportAllocs()
	for b.Loop() {
		r.LookupMX(ctx, "example.test")
	}
}

func TestRetriesWithoutEDNS(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone, NoEDNS: true})
	r := newResolver(t, srv, Config{})
	mx, err := r.LookupMX(context.Background(), "example.test")
	if err != nil || len(mx) != 2 {
		t.Fatalf("LookupMX = %v, %v", mx, err)
	}
	if got := srv.Queries(); got != 2 {
		t.Errorf("%d queries; want 2 (with EDNS0, then without)", got)
	}
}

func TestAnswersAreNotShared(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	r := newResolver(t, srv, Config{})
	a, _ := r.Lookup(context.Background(), "example.test", dns.TypeMX)
	a.Name = "changed."
	b, _ := r.Lookup(context.Background(), "example.test", dns.TypeMX)
	if b.Name != "example.test." || !b.Cached {
		t.Errorf("second answer %+v", b)
	}
}

// The AD bit of the reply reaches Answer.AuthenticatedData, from the
// network and from the cache; every query asks for it, and DNSSECOK adds
// the DO bit.
func TestAuthenticatedData(t *testing.T) {
	signed := zone + `
signed   IN DNSKEY 257 3 13 epnM0mN+bkM/Jb2yaou0+GRIxBY4UNsaFxTAsYiG/ZaG/dSCI3U2Ls518lZQ8xHGXpRXSG5+TGLBJNE1KsuN9A==
signed   IN DS 2371 13 2 029b874ce2ce160923c82f2d51a17a81841a15934348e70384c079e1e5cebf62
`
	srv := resolvertest.Start(t, resolvertest.Config{Zone: signed, AuthenticatedData: []string{"signed.example.test"}})
	ctx := context.Background()
	for _, do := range []bool{false, true} {
		r := newResolver(t, srv, Config{DNSSECOK: do})
		tests := []struct {
			name  string
			qtype uint16
			ad    bool
		}{
			{"signed.example.test", dns.TypeDNSKEY, true},
			{"signed.example.test", dns.TypeDS, true},
			{"example.test", dns.TypeMX, false},
		}
		for _, tt := range tests {
			for _, cached := range []bool{false, true} {
				a, err := r.Lookup(ctx, tt.name, tt.qtype)
				if err != nil {
					t.Fatal(err)
				}
				if a.AuthenticatedData != tt.ad || a.Cached != cached || len(a.RRs) == 0 {
					t.Errorf("DO %v %s %s (cached %v): AD %v, %d records; want AD %v", do, tt.name, dns.TypeToString[tt.qtype], cached, a.AuthenticatedData, len(a.RRs), tt.ad)
				}
			}
		}
		if f := srv.LastFlags(); !f.AD || f.DO != do {
			t.Errorf("DNSSECOK %v: the query carried %+v", do, f)
		}
	}
}

// MaxInFlight bounds the queries on the network: six lookups through two
// slots, against a server that answers after 100 ms, take three rounds.
func TestMaxInFlight(t *testing.T) {
	const delay = 100 * time.Millisecond
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone, Delay: delay})
	r := newResolver(t, srv, Config{MaxInFlight: 2, Timeout: 2 * time.Second})
	var wg sync.WaitGroup
	start := time.Now()
	for i := range 6 {
		wg.Go(func() { r.Lookup(context.Background(), fmt.Sprintf("n%d.example.test", i), dns.TypeA) })
	}
	wg.Wait()
	if took := time.Since(start); took < 3*delay-10*time.Millisecond {
		t.Errorf("six lookups through two slots took %v; want three rounds of %v", took, delay)
	}
	if n := srv.Queries(); n != 6 {
		t.Errorf("%d queries", n)
	}
	// A caller that cannot get a slot in time times out.
	r = newResolver(t, srv, Config{MaxInFlight: 1, Timeout: 2 * time.Second})
	go r.Lookup(context.Background(), "slow.example.test", dns.TypeA)
	time.Sleep(20 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := r.Lookup(ctx, "other.example.test", dns.TypeA); !errors.Is(err, ErrTimeout) {
		t.Errorf("err = %v; want ErrTimeout", err)
	}
}

// FuzzUnescapeTXT: escaping every byte as \DDD, as a presentation form
// may, decodes back to the bytes; decoding never panics.
func FuzzUnescapeTXT(f *testing.F) {
	for _, s := range []string{`Listed\009for spam`, `\\\`, `\25`, `\2555`, "a\u202eb", `\256`, "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		_ = unescapeTXT(in)
		var esc strings.Builder
		for i := range len(in) {
			fmt.Fprintf(&esc, `\%03d`, in[i])
		}
		if got := unescapeTXT(esc.String()); got != in {
			t.Fatalf("unescapeTXT(escaped %q) = %q", in, got)
		}
	})
}

// FuzzParseServer: an accepted server entry becomes an IP address and a
// port from 1 to 65535, which parseServer accepts again unchanged; a
// refused one says why; nothing panics.
func FuzzParseServer(f *testing.F) {
	for _, s := range []string{"192.0.2.53", "192.0.2.53:5353", "2001:db8::53", "[2001:db8::53]", "[2001:db8::53]:5353",
		"fe80::1%eth0", "[fe80::1%eth0]:53", "127.0.0.1:99999", "127.0.0.1:abc", "127.0.0.1:", "http://1.1.1.1",
		"dns.example:53", "[192.0.2.1]", "[::1", "::ffff:192.0.2.1", " 10.0.0.1:053 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		addr, reason := parseServer(in)
		if (addr == "") == (reason == "") {
			t.Fatalf("parseServer(%q) = %q, %q: want exactly one", in, addr, reason)
		}
		if reason != "" {
			return
		}
		ap, err := netip.ParseAddrPort(addr)
		if err != nil || ap.Port() == 0 {
			t.Fatalf("parseServer(%q) = %q: not an address and port: %v", in, addr, err)
		}
		if again, reason := parseServer(addr); again != addr {
			t.Fatalf("parseServer(%q) = %q, but parseServer(%q) = %q, %q", in, addr, addr, again, reason)
		}
		if strings.Contains(in, "://") {
			t.Fatalf("parseServer(%q) accepted a scheme", in)
		}
	})
}
