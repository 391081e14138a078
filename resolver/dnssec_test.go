package resolver

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/internal/dnssectest"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// Against a real validating Unbound, a lookup of records whose
// signatures do not match, or have expired, is a server failure caused
// by DNSSEC (ErrDNSSECBogus), with the Extended DNS Error the server
// sent; without EDE, the question asked again with CD tells it from an
// outage. Records of the same zone that validate are answered with AD.
func TestDNSSECBogusFromUnbound(t *testing.T) {
	peers := dnssectest.Start(t, dnssectest.MailZones()...)
	for _, ede := range []bool{true, false} {
		addr := peers.Validator(t, ede)
		r, err := New(Config{Servers: []string{addr}, Timeout: 10 * time.Second}) // the default Attempts
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for _, tc := range []struct {
			name  string
			qtype uint16
			bogus bool
			code  uint16 // the EDE of a bogus answer, with ede
		}{
			{"good.example", dns.TypeMX, false, 0},
			{"bogus.example", dns.TypeMX, true, dns.ExtendedErrorCodeDNSBogus},
			{"bogus.example", dns.TypeTXT, true, dns.ExtendedErrorCodeDNSBogus},
			{"_dmarc.bogus.example", dns.TypeTXT, false, 0},
			{"bogus.example", dns.TypeDNSKEY, false, 0},
			{"expired.example", dns.TypeMX, true, dns.ExtendedErrorCodeSignatureExpired},
			{"expired.example", dns.TypeDNSKEY, true, dns.ExtendedErrorCodeSignatureExpired},
			{"expired.example", dns.TypeDS, false, 0}, // served, and signed, by the parent
		} {
			q := tc.name + " " + dns.TypeToString[tc.qtype]
			if !ede {
				q += " (no EDE)"
			}
			a, err := r.Lookup(ctx, tc.name, tc.qtype)
			if !tc.bogus {
				if err != nil || !a.AuthenticatedData || len(a.RRs) == 0 {
					t.Errorf("%s: answer %+v, err %v; want validated records", q, a, err)
				}
				continue
			}
			var le *LookupError
			if !errors.Is(err, ErrDNSSECBogus) || !errors.Is(err, ErrServFail) || !errors.As(err, &le) {
				t.Errorf("%s: err = %v, want ErrServFail and ErrDNSSECBogus", q, err)
				continue
			}
			codes := make([]uint16, len(le.ExtendedErrors))
			for i, e := range le.ExtendedErrors {
				codes[i] = e.InfoCode
			}
			switch {
			case ede && !slices.Contains(codes, tc.code):
				t.Errorf("%s: EDE codes %v, want %d; err %v", q, codes, tc.code, err)
			case ede && !strings.Contains(err.Error(), "EDE "):
				t.Errorf("%s: the error does not show the EDE: %v", q, err)
			case !ede && len(codes) > 0:
				t.Errorf("%s: EDE codes %v from a server that sends none", q, codes)
			}
		}
	}
}

// A validating resolver's EDE 6 is enough to call a SERVFAIL bogus,
// without asking again; a SERVFAIL the CD question does not clear is an
// outage, not bogus data.
func TestDNSSECBogusOrOutage(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone, Bogus: []string{"example.test"}, ServFail: []string{"down.example.test"}})
	r, err := New(Config{Servers: []string{srv.Addr}, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, err = r.LookupMX(ctx, "example.test")
	var le *LookupError
	if !errors.Is(err, ErrDNSSECBogus) || !errors.As(err, &le) || len(le.ExtendedErrors) != 1 || !le.ExtendedErrors[0].Bogus() {
		t.Fatalf("bogus: err = %v, want ErrDNSSECBogus with EDE 6", err)
	}
	if got := srv.QueriesFor("example.test", dns.TypeMX); got != 1 {
		t.Errorf("bogus with EDE: %d queries, want 1 (no CD question)", got)
	}
	if want := `EDE 6 (DNSSEC Bogus): "validation failure <example.test. MX IN>: signature crypto failed"`; !strings.HasSuffix(err.Error(), want) {
		t.Errorf("message %q, want it to end with %q", err, want)
	}
	_, err = r.LookupMX(ctx, "down.example.test")
	if !errors.Is(err, ErrServFail) || errors.Is(err, ErrDNSSECBogus) {
		t.Errorf("outage: err = %v, want ErrServFail without ErrDNSSECBogus", err)
	}
	if got := srv.QueriesFor("down.example.test", dns.TypeMX); got != 2 || !srv.LastFlags().CD {
		t.Errorf("outage: %d queries (CD on the last: %v), want 2: the question, then with CD", got, srv.LastFlags().CD)
	}
}

// Without EDE, the CD question tells bogus data from a transient
// failure with the default Attempts, and whatever the other servers do:
// a bogus verdict is not retried into a plain SERVFAIL, and a SERVFAIL
// that the plain question no longer gets is not bogus.
func TestDNSSECBogusWithoutEDE(t *testing.T) {
	bogusAt := func(req *dns.Msg, _ int) int { // SERVFAIL unless CD, as Unbound with "ede: no"
		if req.CheckingDisabled {
			return dns.RcodeSuccess
		}
		return dns.RcodeServerFailure
	}
	onceDown := func(_ *dns.Msg, n int) int { // one SERVFAIL, then answers
		if n == 1 {
			return dns.RcodeServerFailure
		}
		return dns.RcodeSuccess
	}
	silent := resolvertest.Start(t, resolvertest.Config{Drop: []string{"example.test"}})
	for _, tc := range []struct {
		name     string
		servers  []string
		attempts int
		bogus    bool
	}{
		{"bogus, default attempts", []string{scripted(t, bogusAt)}, 0, true},
		{"bogus, then a silent server", []string{scripted(t, bogusAt), silent.Addr}, 1, true},
		{"bogus, three attempts", []string{scripted(t, bogusAt)}, 3, true},
		{"one transient SERVFAIL, one attempt", []string{scripted(t, onceDown)}, 1, false},
		{"one transient SERVFAIL, default attempts", []string{scripted(t, onceDown)}, 0, false},
	} {
		r, err := New(Config{Servers: tc.servers, Attempts: tc.attempts, Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		mx, err := r.LookupMX(context.Background(), "example.test")
		switch {
		case tc.bogus && (!errors.Is(err, ErrDNSSECBogus) || !errors.Is(err, ErrServFail)):
			t.Errorf("%s: err = %v, want ErrServFail and ErrDNSSECBogus", tc.name, err)
		case !tc.bogus && (err != nil || len(mx) != 1):
			t.Errorf("%s: LookupMX = %v, %v; want the record", tc.name, mx, err)
		}
	}
}

// scripted serves, on loopback UDP, the MX record of example.test with
// the rcode rcode(req, n) gives the n-th query (from 1): records with
// NOERROR, none otherwise.
func scripted(t *testing.T, rcode func(req *dns.Msg, n int) int) string {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, req *dns.Msg) {
		m := new(dns.Msg)
		m.SetRcode(req, rcode(req, int(n.Add(1))))
		m.RecursionAvailable = true
		if m.Rcode == dns.RcodeSuccess {
			m.Answer = append(m.Answer, &dns.MX{Hdr: dns.RR_Header{Name: req.Question[0].Name, Rrtype: dns.TypeMX, Class: dns.ClassINET, Ttl: 60}, Preference: 10, Mx: "mx.example.test."})
		}
		w.WriteMsg(m)
	})}
	go srv.ActivateAndServe()
	t.Cleanup(func() { srv.Shutdown() })
	return pc.LocalAddr().String()
}
