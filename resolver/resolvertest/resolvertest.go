// Package resolvertest provides a DNS server on loopback, in the spirit
// of net/http/httptest: a program starts one with [New] from a [Config]
// whose Zone holds fixture records written as RFC 1035 zone text, points
// a resolver.Resolver at its Addr (resolver.Config.Servers), and stops it
// with [Server.Close]; a test calls [Start], which fails the test when the
// server cannot start and closes it when the test ends.
//
// The server listens on one 127.0.0.1 port over UDP and TCP and answers
// as a recursive resolver would for the names of its zones: the records
// of the asked type (following CNAMEs inside the zones), NODATA with the
// zone's SOA when the name exists without that type, and NXDOMAIN with the
// SOA when it does not exist. The other fields of the Config make it slow
// (Delay), fail (ServFail, Refused), fail DNSSEC validation as a
// validating resolver does for bogus data (Bogus), stay silent (Drop),
// truncate UDP answers (Truncate) or reject EDNS0 (NoEDNS), and set the
// AD bit of a validating resolver on the answers of signed zones
// (AuthenticatedData); DS and DNSKEY records are served like any other.
// A UDP answer larger than the client's buffer (512 bytes, or its EDNS0
// size) is truncated, as a real server's is, so that the client asks
// again over TCP. It records the flags of the last query
// ([Server.LastFlags]) and counts the queries it receives
// ([Server.Queries], [Server.QueriesFor]).
package resolvertest

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// A Server is a DNS server on loopback, answering from its zone. It is
// safe for concurrent use. Close stops it.
type Server struct {
	// Addr is the "127.0.0.1:port" the server listens on, UDP and TCP.
	Addr string

	records  map[string][]dns.RR // by lowercased owner name
	names    map[string]bool     // owner names and empty non-terminals
	delay    time.Duration
	servfail map[string]bool
	bogus    map[string]bool
	drop     map[string]bool
	trunc    map[string]bool
	refused  map[string]bool
	noEDNS   bool
	ad       map[string]bool

	flagsMu sync.Mutex
	flags   QueryFlags

	total atomic.Int64
	mu    sync.Mutex
	count map[string]int // "name/TYPE" -> queries
	done  chan struct{}

	close     func()
	closeOnce sync.Once
}

// Config says what a [Server] answers and how. The zero Config works: a
// server with no records, which answers every query NXDOMAIN. Names are
// matched without regard to case, with or without the final dot.
type Config struct {
	// Zone is the fixture, as zone file text: $ORIGIN and $TTL as usual;
	// names without an origin are relative to the root; records without a
	// TTL get 3600. Default "": no records.
	Zone string

	// Delay is how long the server waits before answering each query.
	// Default 0: it answers at once.
	Delay time.Duration

	// ServFail lists names answered SERVFAIL, for any type. Default: none.
	ServFail []string

	// Bogus lists names whose data fails DNSSEC validation: the server
	// answers as a validating resolver does, SERVFAIL with the Extended
	// DNS Error 6 (DNSSEC Bogus, RFC 8914) to a query that carries EDNS0,
	// plain SERVFAIL to one that does not, and the records to a query with
	// the CD bit (checking disabled), which asks for the data without
	// validation. Default: none.
	Bogus []string

	// Refused lists names answered REFUSED. Default: none.
	Refused []string

	// Drop lists names whose queries are never answered, so that the
	// client times out. Default: none.
	Drop []string

	// Truncate lists names whose UDP answers carry the TC bit and no
	// records, so that the client must retry over TCP. Default: none (an
	// answer larger than the client's buffer is still truncated).
	Truncate []string

	// NoEDNS makes the server answer FORMERR, without an OPT record, to
	// queries that carry one, as servers that predate EDNS0 do. Default
	// false: EDNS0 queries get EDNS0 answers.
	NoEDNS bool

	// AuthenticatedData lists zones for which the server sets the AD bit,
	// as a validating resolver does for answers it proved with DNSSEC
	// (RFC 4035 section 3.2.3), on its NOERROR and NXDOMAIN answers for
	// names at or under them, when the query carries the AD or DO bit
	// (RFC 6840 section 5.7). Default: none, so no answer carries AD, as
	// from a resolver that does not validate or a zone that is not signed.
	AuthenticatedData []string
}

// QueryFlags are the DNSSEC-related flags of a query the server received.
type QueryFlags struct {
	// AD is the AD bit of the query header.
	AD bool
	// DO is the DO bit of the query's EDNS0 record.
	DO bool
	// CD is the CD (checking disabled) bit of the query header.
	CD bool
}

// LastFlags returns the flags of the last query received (the zero
// QueryFlags before the first).
func (s *Server) LastFlags() QueryFlags {
	s.flagsMu.Lock()
	defer s.flagsMu.Unlock()
	return s.flags
}

// authenticated reports whether name is at or under a zone of
// Config.AuthenticatedData.
func (s *Server) authenticated(name string) bool {
	for n := name; ; {
		if s.ad[n] {
			return true
		}
		i, end := dns.NextLabel(n, 0)
		if end || n == "." {
			return false
		}
		n = n[i:]
	}
}

// nameSet returns the set of names, lowercased and fully qualified.
func nameSet(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[dns.Fqdn(strings.ToLower(n))] = true
	}
	return m
}

// New starts a server answering as cfg says. It returns an error when
// cfg.Zone does not parse (naming the line) or no loopback port is free
// for both UDP and TCP. The server runs until Close.
func New(cfg Config) (*Server, error) {
	s := &Server{
		records:  make(map[string][]dns.RR),
		names:    make(map[string]bool),
		delay:    cfg.Delay,
		servfail: nameSet(cfg.ServFail),
		bogus:    nameSet(cfg.Bogus),
		drop:     nameSet(cfg.Drop),
		trunc:    nameSet(cfg.Truncate),
		refused:  nameSet(cfg.Refused),
		noEDNS:   cfg.NoEDNS,
		ad:       nameSet(cfg.AuthenticatedData),
		count:    make(map[string]int),
		done:     make(chan struct{}),
	}
	zp := dns.NewZoneParser(strings.NewReader(cfg.Zone), ".", "fixture")
	zp.SetDefaultTTL(3600)
	for rr, ok := zp.Next(); ok; rr, ok = zp.Next() {
		name := strings.ToLower(rr.Header().Name)
		s.records[name] = append(s.records[name], rr)
		for n := name; n != "." && n != ""; {
			s.names[n] = true
			i, end := dns.NextLabel(n, 0)
			if end {
				break
			}
			n = n[i:]
		}
	}
	if err := zp.Err(); err != nil {
		return nil, fmt.Errorf("resolvertest: zone: %w", err)
	}
	pc, ln, err := listen()
	if err != nil {
		return nil, err
	}
	s.Addr = pc.LocalAddr().String()
	udp := &dns.Server{PacketConn: pc, Handler: s}
	tcp := &dns.Server{Listener: ln, Handler: s}
	started := make(chan struct{}, 2)
	udp.NotifyStartedFunc = func() { started <- struct{}{} }
	tcp.NotifyStartedFunc = func() { started <- struct{}{} }
	go udp.ActivateAndServe()
	go tcp.ActivateAndServe()
	<-started
	<-started
	s.close = func() {
		close(s.done)
		udp.Shutdown()
		tcp.Shutdown()
	}
	return s, nil
}

// Start is [New] for a test or benchmark: it fails tb (with Fatal) when
// the server cannot start, and closes the server when tb and its subtests
// end (tb.Cleanup).
func Start(tb testing.TB, cfg Config) *Server {
	tb.Helper()
	s, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Close stops the server and waits for it to stop listening. Queries in
// flight may go unanswered. Close may be called more than once.
func (s *Server) Close() { s.closeOnce.Do(s.close) }

// listen opens a UDP socket and a TCP listener on the same loopback port.
func listen() (net.PacketConn, net.Listener, error) {
	for range 20 {
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			return nil, nil, fmt.Errorf("resolvertest: %w", err)
		}
		ln, err := net.Listen("tcp", pc.LocalAddr().String())
		if err == nil {
			return pc, ln, nil
		}
		pc.Close()
	}
	return nil, nil, errors.New("resolvertest: no port free for both UDP and TCP")
}

// Queries returns the number of queries received.
func (s *Server) Queries() int { return int(s.total.Load()) }

// QueriesFor returns the number of queries received for name and qtype
// (dns.TypeMX, ...).
func (s *Server) QueriesFor(name string, qtype uint16) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count[dns.Fqdn(strings.ToLower(name))+"/"+dns.TypeToString[qtype]]
}

// ServeDNS implements dns.Handler.
func (s *Server) ServeDNS(w dns.ResponseWriter, req *dns.Msg) {
	if len(req.Question) != 1 {
		m := new(dns.Msg)
		m.SetRcode(req, dns.RcodeFormatError)
		w.WriteMsg(m)
		return
	}
	q := req.Question[0]
	name := strings.ToLower(q.Name)
	s.total.Add(1)
	s.mu.Lock()
	s.count[name+"/"+dns.TypeToString[q.Qtype]]++
	s.mu.Unlock()
	opt := req.IsEdns0()
	s.flagsMu.Lock()
	s.flags = QueryFlags{AD: req.AuthenticatedData, DO: opt != nil && opt.Do(), CD: req.CheckingDisabled}
	s.flagsMu.Unlock()

	if s.drop[name] {
		return
	}
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-s.done:
			return
		}
	}
	m := new(dns.Msg)
	m.SetReply(req)
	m.RecursionAvailable = true
	if opt != nil {
		if s.noEDNS {
			m.Rcode = dns.RcodeFormatError
			w.WriteMsg(m)
			return
		}
		m.SetEdns0(opt.UDPSize(), opt.Do())
	}
	_, isUDP := w.RemoteAddr().(*net.UDPAddr)
	switch {
	case s.servfail[name]:
		m.Rcode = dns.RcodeServerFailure
	case s.bogus[name] && !req.CheckingDisabled:
		m.Rcode = dns.RcodeServerFailure
		if opt := m.IsEdns0(); opt != nil {
			opt.Option = append(opt.Option, &dns.EDNS0_EDE{InfoCode: dns.ExtendedErrorCodeDNSBogus, ExtraText: "validation failure <" + name + " " + dns.TypeToString[q.Qtype] + " IN>: signature crypto failed"})
		}
	case s.refused[name]:
		m.Rcode = dns.RcodeRefused
	case s.trunc[name] && isUDP:
		m.Truncated = true
	default:
		s.answer(m, name, q.Qtype)
		m.AuthenticatedData = (req.AuthenticatedData || opt != nil && opt.Do()) && s.authenticated(name)
	}
	if isUDP {
		// An answer larger than the client's buffer (512 bytes, or its
		// EDNS0 size) is cut, with the TC bit, as RFC 1035 section 4.2.1
		// and RFC 6891 section 7 say: the client asks again over TCP.
		size := dns.MinMsgSize
		if opt != nil {
			size = max(size, int(opt.UDPSize()))
		}
		m.Truncate(size)
	}
	w.WriteMsg(m)
}

// answer fills m with the records of qtype at name, following CNAMEs
// within the zones, or with a negative answer and the SOA.
func (s *Server) answer(m *dns.Msg, name string, qtype uint16) {
	for range 8 { // CNAME chain bound
		var cname *dns.CNAME
		found := false
		for _, rr := range s.records[name] {
			switch {
			case rr.Header().Rrtype == qtype || qtype == dns.TypeANY:
				m.Answer = append(m.Answer, rr)
				found = true
			case rr.Header().Rrtype == dns.TypeCNAME:
				cname = rr.(*dns.CNAME)
			}
		}
		if found || cname == nil {
			break
		}
		m.Answer = append(m.Answer, cname)
		name = strings.ToLower(cname.Target)
	}
	if len(m.Answer) > 0 && m.Answer[len(m.Answer)-1].Header().Rrtype != dns.TypeCNAME {
		return
	}
	if !s.names[name] {
		m.Rcode = dns.RcodeNameError
	}
	if soa := s.soaFor(name); soa != nil {
		m.Ns = append(m.Ns, soa)
	}
}

// soaFor returns the SOA of the closest enclosing zone of name.
func (s *Server) soaFor(name string) dns.RR {
	for n := name; ; {
		for _, rr := range s.records[n] {
			if rr.Header().Rrtype == dns.TypeSOA {
				return rr
			}
		}
		i, end := dns.NextLabel(n, 0)
		if end || n == "." {
			return nil
		}
		n = n[i:]
	}
}
