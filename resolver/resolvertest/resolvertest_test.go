package resolvertest_test

import (
	"testing"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/resolver/resolvertest"
)

func TestServerAnswers(t *testing.T) {
	srv := resolvertest.NewServer(t, `
$ORIGIN example.test.
@ 300 IN SOA ns h 1 3600 600 86400 30
a.b 300 IN A 192.0.2.1
`, resolvertest.WithServFail("bad.example.test"))
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
