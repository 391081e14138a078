package resolvertest_test

import (
	"strings"
	"testing"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

func TestServerAnswers(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{
		Zone: `
$ORIGIN example.test.
@ 300 IN SOA ns h 1 3600 600 86400 30
a.b 300 IN A 192.0.2.1
`,
		ServFail: []string{"bad.example.test"},
	})
	ask := func(name string, qtype uint16, network string) *dns.Msg {
		t.Helper()
		m := new(dns.Msg)
		m.SetQuestion(name, qtype)
		c := &dns.Client{Net: network}
		r, _, err := c.Exchange(m, srv.Addr)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tests := []struct {
		name    string
		qtype   uint16
		rcode   int
		answers int
		soa     bool
	}{
		{"a.b.example.test.", dns.TypeA, dns.RcodeSuccess, 1, false},
		{"A.B.Example.Test.", dns.TypeA, dns.RcodeSuccess, 1, false},
		{"a.b.example.test.", dns.TypeMX, dns.RcodeSuccess, 0, true},
		{"b.example.test.", dns.TypeA, dns.RcodeSuccess, 0, true}, // empty non-terminal
		{"c.example.test.", dns.TypeA, dns.RcodeNameError, 0, true},
		{"bad.example.test.", dns.TypeA, dns.RcodeServerFailure, 0, false},
	}
	for _, tt := range tests {
		for _, network := range []string{"udp", "tcp"} {
			r := ask(tt.name, tt.qtype, network)
			if r.Rcode != tt.rcode || len(r.Answer) != tt.answers || (len(r.Ns) == 1) != tt.soa {
				t.Errorf("%s %s over %s: rcode %d, %d answers, %d authority; want %d, %d, soa %v",
					tt.name, dns.TypeToString[tt.qtype], network, r.Rcode, len(r.Answer), len(r.Ns), tt.rcode, tt.answers, tt.soa)
			}
		}
	}
	if got := srv.QueriesFor("a.b.example.test", dns.TypeA); got != 4 {
		t.Errorf("QueriesFor = %d, want 4", got)
	}
	if got := srv.Queries(); got != 12 {
		t.Errorf("Queries = %d, want 12", got)
	}
}

// A zone that does not parse is an error, not a panic, and no server is
// left running.
func TestNewBadZone(t *testing.T) {
	srv, err := resolvertest.New(resolvertest.Config{Zone: "example.test. IN A not-an-address"})
	if err == nil {
		srv.Close()
		t.Fatal("New accepted a zone that does not parse")
	}
	if srv != nil {
		t.Errorf("New returned a server with its error %v", err)
	}
}

// Start fails the test on a zone that does not parse, and closes the
// server it started at the test's cleanup.
func TestStart(t *testing.T) {
	bad := &testutil.FakeTB{}
	if bad.Run(func(tb testing.TB) {
		resolvertest.Start(tb, resolvertest.Config{Zone: "example.test. IN A not-an-address"})
	}) {
		t.Error("Start returned after a zone that does not parse")
	}
	if len(bad.Failures()) != 1 || bad.Cleanups() != 0 {
		t.Errorf("bad zone: failures %q, %d cleanups; want one failure and no cleanup", bad.Failures(), bad.Cleanups())
	}

	good := &testutil.FakeTB{}
	var srv *resolvertest.Server
	good.Run(func(tb testing.TB) {
		srv = resolvertest.Start(tb, resolvertest.Config{Zone: "example.test. 60 IN A 192.0.2.1"})
	})
	if len(good.Failures()) != 0 || good.Cleanups() != 1 {
		t.Fatalf("good zone: failures %q, %d cleanups; want no failure and one cleanup", good.Failures(), good.Cleanups())
	}
	m := new(dns.Msg)
	m.SetQuestion("example.test.", dns.TypeA)
	c := &dns.Client{Net: "tcp"}
	if _, _, err := c.Exchange(m, srv.Addr); err != nil {
		t.Fatalf("the started server does not answer: %v", err)
	}
	good.RunCleanups()
	if _, _, err := c.Exchange(m, srv.Addr); err == nil {
		t.Error("the server answered after the test's cleanup")
	}
}

// Close stops the server: it may be called twice, and a query after it
// gets no answer.
func TestCloseStops(t *testing.T) {
	srv, err := resolvertest.New(resolvertest.Config{Zone: "example.test. 60 IN A 192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	srv.Close()
	m := new(dns.Msg)
	m.SetQuestion("example.test.", dns.TypeA)
	c := &dns.Client{Net: "tcp"}
	if _, _, err := c.Exchange(m, srv.Addr); err == nil {
		t.Error("the server answered after Close")
	}
}

// TestServerTruncatesLargeUDPAnswers: an answer larger than the client's
// UDP buffer comes with the TC bit over UDP and whole over TCP, as from a
// real server, so that a 60 KB TXT record can be served.
func TestServerTruncatesLargeUDPAnswers(t *testing.T) {
	var zone strings.Builder
	zone.WriteString("$ORIGIN example.test.\n@ 300 IN SOA ns h 1 3600 600 86400 30\nbig 300 IN TXT")
	for range 240 {
		zone.WriteString(` "` + strings.Repeat("x", 250) + `"`)
	}
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone.String() + "\n"})
	for _, tt := range []struct {
		network string
		edns    uint16 // 0: no EDNS0
		trunc   bool
	}{
		{"udp", 0, true},
		{"udp", 1232, true},
		{"tcp", 1232, false},
	} {
		m := new(dns.Msg)
		m.SetQuestion("big.example.test.", dns.TypeTXT)
		if tt.edns > 0 {
			m.SetEdns0(tt.edns, false)
		}
		c := &dns.Client{Net: tt.network, UDPSize: max(tt.edns, dns.MinMsgSize)}
		r, _, err := c.Exchange(m, srv.Addr)
		if err != nil {
			t.Fatalf("%s EDNS0 %d: %v", tt.network, tt.edns, err)
		}
		if r.Truncated != tt.trunc || tt.trunc == (len(r.Answer) == 1) {
			t.Errorf("%s EDNS0 %d: TC %v, %d answers", tt.network, tt.edns, r.Truncated, len(r.Answer))
		}
	}
}
