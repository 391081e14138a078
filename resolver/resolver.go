// Package resolver is a caching DNS stub resolver. Every DNS question of
// Quiver's email and webcheck packages goes through a [Resolver], over
// github.com/miekg/dns, to the recursive servers of its [Config] (by
// default those of /etc/resolv.conf). Build one with [New] and share it:
// it is safe for concurrent use.
//
// A Resolver keeps a bounded cache that honours the TTLs of the answers,
// negative answers too (NXDOMAIN and NODATA are cached for the SOA
// minimum, RFC 2308), and de-duplicates questions in flight: when 500
// callers ask for the MX of one domain at once, one query is sent.
//
// [Resolver.Lookup] asks any question and returns the records as
// miekg/dns values in an [Answer]; the typed methods ([Resolver.LookupMX],
// [Resolver.LookupTXT], [Resolver.LookupNS], [Resolver.LookupCNAME],
// [Resolver.LookupA], [Resolver.LookupAAAA], [Resolver.LookupIP],
// [Resolver.LookupPTR]) return
// plain Go values.
//
// Every method reports a failure as a [*LookupError] naming the question
// and wrapping one sentinel error, to test with [errors.Is]:
// [ErrNXDomain] (the name does not exist), [ErrNoData] (it exists without
// a record of the type; typed methods only), [ErrServFail] (the server
// failed), [ErrRefused], [ErrTimeout] (no server answered in time, or the
// caller's context ended), [ErrUnreachable] (no server could be reached)
// and [ErrInvalidName]. A server failure caused by data that failed
// DNSSEC validation at a validating server wraps [ErrDNSSECBogus] as
// well: the resolver reads the Extended DNS Errors of the reply (RFC
// 8914; [LookupError.ExtendedErrors]) and, when there are none, asks
// again with the CD bit to tell bogus data from an outage. The package
// resolvertest serves fixture zones on loopback for tests and examples.
package resolver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/miekg/dns"
	"golang.org/x/sync/singleflight"

	"github.com/quiverkit/quiver/internal/textcut"
)

// Sentinel errors of a lookup, wrapped in a *LookupError.
var (
	// ErrNXDomain: the name does not exist (rcode NXDOMAIN).
	ErrNXDomain = errors.New("no such domain (NXDOMAIN)")
	// ErrNoData: the name exists but has no record of the asked type.
	// Only the typed helpers (LookupMX, ...) return it; Lookup answers
	// NODATA with an empty Answer and no error.
	ErrNoData = errors.New("no record of the requested type")
	// ErrServFail: the server could not answer (rcode SERVFAIL, or
	// another failure rcode such as NOTIMP).
	ErrServFail = errors.New("server failure (SERVFAIL)")
	// ErrRefused: the server refused the query (rcode REFUSED).
	ErrRefused = errors.New("query refused (REFUSED)")
	// ErrTimeout: no server answered within the timeout and attempts,
	// or the caller's context ended first (the error then also wraps
	// the context's error).
	ErrTimeout = errors.New("timeout")
	// ErrUnreachable: no server could be reached (a network error other
	// than a timeout, such as a closed port).
	ErrUnreachable = errors.New("server unreachable")
	// ErrInvalidName: the name is not a syntactically valid domain name.
	ErrInvalidName = errors.New("invalid domain name")
	// ErrDNSSECBogus: the server failed the lookup because the answer did
	// not pass DNSSEC validation (a "bogus" answer, RFC 4035 section
	// 4.3): a signature that does not match the data, has expired, or
	// is missing. It is wrapped along with ErrServFail, so that a caller
	// testing for ErrServFail alone sees a server failure as before.
	// The resolver tells it from an outage by the Extended DNS Error of
	// the reply (RFC 8914 codes 6 to 12: DNSSEC Bogus, Signature
	// Expired, Signature Not Yet Valid, DNSKEY Missing, RRSIGs Missing,
	// No Zone Key Bit Set, NSEC Missing) or, when the server sends none,
	// by asking again with the CD bit (checking disabled, RFC 4035
	// section 3.2.2): a server that then answers, and fails the plain
	// question once more, has the data and refused it for its
	// signatures. It is a verdict, not retried with other attempts or
	// servers. Only a validating server reports it;
	// LookupError.ExtendedErrors has the codes.
	ErrDNSSECBogus = errors.New("the answer failed DNSSEC validation (bogus)")
)

// An ExtendedError is an Extended DNS Error (RFC 8914) of a reply: why a
// server failed, refused or qualified an answer. A reply may carry
// several; the resolver keeps the first MaxExtendedErrors.
type ExtendedError struct {
	// InfoCode is the INFO-CODE, one of miekg/dns's ExtendedErrorCode
	// constants: 6 (dns.ExtendedErrorCodeDNSBogus), 7 (Signature
	// Expired), 22 (No Reachable Authority), ...
	InfoCode uint16
	// ExtraText is the server's EXTRA-TEXT, for people: invalid UTF-8
	// replaced and cut to MaxExtraText bytes; "" when it sent none.
	ExtraText string
}

// Bounds of what the resolver keeps of a reply's Extended DNS Errors.
const (
	MaxExtendedErrors = 4   // options kept per reply
	MaxExtraText      = 256 // bytes of EXTRA-TEXT kept per option
)

// String is "EDE 6 (DNSSEC Bogus)", followed by the quoted EXTRA-TEXT
// (at most 100 characters, the cut marked "…") when there is one.
func (e ExtendedError) String() string {
	s := "EDE " + strconv.Itoa(int(e.InfoCode))
	if name, ok := dns.ExtendedErrorCodeToString[e.InfoCode]; ok {
		s += " (" + name + ")"
	}
	if e.ExtraText != "" {
		s += ": " + textcut.Quote(e.ExtraText)
	}
	return s
}

// Bogus reports whether the code says that the answer failed DNSSEC
// validation: 6 (DNSSEC Bogus) to 12 (NSEC Missing).
func (e ExtendedError) Bogus() bool {
	return e.InfoCode >= dns.ExtendedErrorCodeDNSBogus && e.InfoCode <= dns.ExtendedErrorCodeNSECMissing
}

// extendedErrors returns the Extended DNS Errors of reply, at most
// MaxExtendedErrors, or nil.
func extendedErrors(reply *dns.Msg) []ExtendedError {
	opt := reply.IsEdns0()
	if opt == nil {
		return nil
	}
	var out []ExtendedError
	for _, o := range opt.Option {
		if ede, ok := o.(*dns.EDNS0_EDE); ok && len(out) < MaxExtendedErrors {
			out = append(out, ExtendedError{InfoCode: ede.InfoCode, ExtraText: textcut.Cut(strings.ToValidUTF8(ede.ExtraText, "\uFFFD"), MaxExtraText)})
		}
	}
	return out
}

// ErrNoServers is the error of [New] when the configuration names no
// usable DNS server.
var ErrNoServers = errors.New("resolver: no DNS servers configured")

// ErrInvalidConfig is wrapped by the error of [New] when a field of its
// Config cannot work; the error names the field and the rule.
var ErrInvalidConfig = errors.New("resolver: invalid configuration")

// Defaults of [Config], used for fields left zero.
const (
	DefaultTimeout     = 2 * time.Second // Config.Timeout
	DefaultAttempts    = 2               // Config.Attempts
	DefaultCacheSize   = 10000           // Config.CacheSize
	DefaultMaxTTL      = time.Hour       // Config.MaxTTL
	DefaultNegativeTTL = 5 * time.Minute // Config.NegativeTTL
	DefaultUDPSize     = 1232            // Config.UDPSize
	DefaultMaxInFlight = 256             // Config.MaxInFlight
)

// Config configures a [Resolver]. Every field is optional: the zero
// Config asks the nameservers of /etc/resolv.conf with the defaults
// below. A zero field means its default, and so does a negative
// Timeout, Attempts, MaxTTL or NegativeTTL. Reading the Extended DNS
// Errors of the replies (RFC 8914) and telling DNSSEC-bogus data from an
// outage ([ErrDNSSECBogus]) need no field: every query carries EDNS0,
// and the codes are in [Answer.ExtendedErrors] and
// [LookupError.ExtendedErrors]. The command quiver has a flag for each
// field (-dns-servers, -dns-dnssec-ok, ...).
type Config struct {
	// Servers are the recursive servers, asked in order, each an IP
	// address with an optional port: "192.0.2.53" (port 53),
	// "192.0.2.53:5353", "2001:db8::53", "[2001:db8::53]" or
	// "[2001:db8::53]:5353". Blank entries are skipped. New refuses a
	// host name (the resolver would need a resolver to find it), a
	// scheme ("udp://..."), and a port that is not a number from 1 to
	// 65535, with an error wrapping ErrInvalidConfig.
	// Default: the nameservers of /etc/resolv.conf.
	Servers []string
	// Timeout bounds one query to one server.
	// Default: the resolv.conf timeout when Servers comes from there,
	// else DefaultTimeout (2s).
	Timeout time.Duration
	// Attempts is how many times the list of servers is tried.
	// Default: the resolv.conf attempts when Servers comes from there,
	// else DefaultAttempts (2).
	Attempts int
	// CacheSize bounds the number of cached answers; the least recently
	// used is evicted first. Negative disables the cache (questions in
	// flight are still shared).
	// Default: DefaultCacheSize (10000).
	CacheSize int
	// MaxTTL caps how long a positive answer is cached.
	// Default: DefaultMaxTTL (1h).
	MaxTTL time.Duration
	// NegativeTTL caps how long NXDOMAIN and NODATA answers are cached
	// (RFC 2308: the SOA minimum, at most this); it also applies when a
	// negative answer carries no SOA.
	// Default: DefaultNegativeTTL (5m).
	NegativeTTL time.Duration
	// UDPSize is the EDNS0 buffer size advertised; a truncated UDP
	// answer is asked again over TCP.
	// Default: DefaultUDPSize (1232).
	UDPSize uint16
	// MaxInFlight bounds the queries on the network at once; a lookup
	// beyond it waits for a slot, within its own time limit. A burst of
	// thousands of UDP queries (a domain-health check of 64 domains asks
	// about 30 questions each) overflows the socket buffers of servers
	// and drops packets. Negative: no bound.
	// Default: DefaultMaxInFlight (256).
	MaxInFlight int
	// DNSSECOK sets the DO bit (RFC 3225) on every query, asking the
	// servers for the DNSSEC records (RRSIG) of the answers as well. The
	// records are dropped from [Answer.RRs] either way; the flag only
	// matters to servers that validate only for DO queries.
	// Default: false: queries carry the AD bit only (RFC 6840 section
	// 5.7), which is enough for a validating server to report in
	// [Answer.AuthenticatedData] that it validated the answer.
	DNSSECOK bool
}

// A Resolver sends DNS queries and caches the answers. It is safe for
// concurrent use; share one per process.
type Resolver struct {
	servers     []string
	timeout     time.Duration
	attempts    int
	maxTTL      time.Duration
	negativeTTL time.Duration
	udpSize     uint16
	dnssecOK    bool
	slots       chan struct{} // one per query on the network; nil: unbounded
	udp, tcp    *dns.Client

	cache  *cache // nil when disabled
	flight singleflight.Group
	now    func() time.Time

	queries, hits, misses, flights atomic.Int64
}

// New returns a Resolver configured by cfg. It fails with an error
// wrapping [ErrInvalidConfig] when cfg names a server that is not an IP
// address with an optional port (see Config.Servers), when cfg.Servers
// is empty and /etc/resolv.conf cannot be read, and with [ErrNoServers]
// when no server is left. New sends no query.
func New(cfg Config) (*Resolver, error) {
	return newFrom(cfg, "/etc/resolv.conf")
}

// newFrom is New, with resolvConf in place of /etc/resolv.conf.
func newFrom(cfg Config, resolvConf string) (*Resolver, error) {
	r := &Resolver{
		timeout:     cfg.Timeout,
		attempts:    cfg.Attempts,
		maxTTL:      cfg.MaxTTL,
		negativeTTL: cfg.NegativeTTL,
		udpSize:     cfg.UDPSize,
		dnssecOK:    cfg.DNSSECOK,
		now:         time.Now,
	}
	if len(cfg.Servers) == 0 {
		cc, err := dns.ClientConfigFromFile(resolvConf)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // it names the file again
			}
			return nil, fmt.Errorf("%w: Servers is empty, and %s cannot be read: %w", ErrInvalidConfig, resolvConf, err)
		}
		for _, s := range cc.Servers {
			r.servers = append(r.servers, net.JoinHostPort(s, cc.Port))
		}
		if r.timeout <= 0 && cc.Timeout > 0 {
			r.timeout = time.Duration(cc.Timeout) * time.Second
		}
		if r.attempts <= 0 && cc.Attempts > 0 {
			r.attempts = cc.Attempts
		}
	} else {
		for i, s := range cfg.Servers {
			if strings.TrimSpace(s) == "" {
				continue
			}
			addr, reason := parseServer(s)
			if reason != "" {
				return nil, fmt.Errorf("%w: Servers[%d] %s %s", ErrInvalidConfig, i, textcut.Quote(s), reason)
			}
			r.servers = append(r.servers, addr)
		}
	}
	if len(r.servers) == 0 {
		return nil, ErrNoServers
	}
	if r.timeout <= 0 {
		r.timeout = DefaultTimeout
	}
	if r.attempts <= 0 {
		r.attempts = DefaultAttempts
	}
	if r.maxTTL <= 0 {
		r.maxTTL = DefaultMaxTTL
	}
	if r.negativeTTL <= 0 {
		r.negativeTTL = DefaultNegativeTTL
	}
	if r.udpSize == 0 {
		r.udpSize = DefaultUDPSize
	}
	switch {
	case cfg.CacheSize == 0:
		r.cache = newCache(DefaultCacheSize)
	case cfg.CacheSize > 0:
		r.cache = newCache(cfg.CacheSize)
	}
	switch {
	case cfg.MaxInFlight == 0:
		r.slots = make(chan struct{}, DefaultMaxInFlight)
	case cfg.MaxInFlight > 0:
		r.slots = make(chan struct{}, cfg.MaxInFlight)
	}
	r.udp = &dns.Client{Net: "udp", Timeout: r.timeout, UDPSize: r.udpSize}
	r.tcp = &dns.Client{Net: "tcp", Timeout: r.timeout}
	return r, nil
}

// parseServer reads one entry of Config.Servers: an IP address with an
// optional port. It returns the address as "host:port", or why the entry
// is not one, as a phrase that follows the entry in an error.
func parseServer(s string) (addr, reason string) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "://") {
		return "", "has a scheme: give an IP address with an optional port, such as 192.0.2.53 or [2001:db8::53]:5353"
	}
	host, port := s, "53"
	bare, bracketed := strings.CutPrefix(s, "[")
	if bracketed {
		bare, bracketed = strings.CutSuffix(bare, "]")
	}
	if ip, err := netip.ParseAddr(bare); err == nil && (ip.Is6() || !bracketed) && (bracketed || bare == s) {
		host = ip.String()
	} else {
		h, p, err := net.SplitHostPort(s)
		if err != nil {
			return "", "is not an IP address with an optional port, such as 192.0.2.53 or [2001:db8::53]:5353"
		}
		host, port = h, p
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return "", "does not start with an IP address: a server is named by its address, as a host name would need a resolver to find it"
		}
		if ip.Is6() && !strings.HasPrefix(s, "[") {
			return "", "is ambiguous: write an IPv6 address with a port in brackets, as [2001:db8::53]:5353"
		}
		host = ip.String()
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 {
		return "", "has port " + textcut.Quote(port) + ": a port is a number from 1 to 65535"
	}
	if _, zone, _ := strings.Cut(host, "%"); strings.Trim(zone, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "" {
		return "", "has an IPv6 zone that is not an interface name or number, such as eth0 in fe80::53%eth0"
	}
	return net.JoinHostPort(host, port), ""
}

// Servers returns the servers the resolver asks, in order, as
// "host:port".
func (r *Resolver) Servers() []string { return append([]string(nil), r.servers...) }

// An Answer is the reply to one question of [Resolver.Lookup].
type Answer struct {
	// Name is the question name, fully qualified and lowercased
	// ("example.com.").
	Name string
	// Type is the question type (dns.TypeMX, ...).
	Type uint16
	// Rcode is the response code: dns.RcodeSuccess, or
	// dns.RcodeNameError along with an ErrNXDomain error.
	Rcode int
	// RRs is the answer section: the records of Type, with any CNAME
	// records that led to them; empty for NODATA and NXDOMAIN. Shared
	// with the cache: do not modify.
	RRs []dns.RR
	// Authoritative reports the AA bit of the reply.
	Authoritative bool
	// ExtendedErrors are the Extended DNS Errors (RFC 8914) the server
	// sent with the answer, such as 3 (Stale Answer); nil when none. A
	// failed lookup has them in its LookupError.
	ExtendedErrors []ExtendedError
	// AuthenticatedData reports the AD bit of the reply: the recursive
	// server validated the answer with DNSSEC (RFC 4035 section 3.2.3).
	// Every query asks for it (RFC 6840 section 5.7). It is only as
	// trustworthy as the path to the server: a validating resolver on
	// the same host or over a trusted link.
	AuthenticatedData bool
	// TTL is how long the answer is cached from when it was received.
	TTL time.Duration
	// Cached reports that the answer came from the cache.
	Cached bool
}

// A LookupError describes a failed lookup; every method of a [Resolver]
// reports its failures as one.
type LookupError struct {
	// Name is the question name: fully qualified and lowercased, or as
	// given when it is not a valid name.
	Name string
	// Type is the question type (dns.TypeMX, ...).
	Type uint16
	// Err wraps one of the sentinel errors (ErrNXDomain, ...), and the
	// network or context error behind it when there is one.
	Err error
	// ExtendedErrors are the Extended DNS Errors (RFC 8914) of the last
	// failing reply, such as 6 (DNSSEC Bogus) or 22 (No Reachable
	// Authority) with a SERVFAIL; nil when it had none. No setting is
	// needed: every query carries EDNS0, in which servers send them.
	// Err's message ends with them.
	ExtendedErrors []ExtendedError
}

// Error names the question (quoted when it is not a valid name, and cut
// to 100 characters) and the failure.
func (e *LookupError) Error() string {
	name := e.Name
	if errors.Is(e.Err, ErrInvalidName) {
		name = textcut.Quote(name)
	}
	return "resolver: lookup " + name + " " + dns.TypeToString[e.Type] + ": " + e.Err.Error()
}

// Unwrap returns the sentinel (or network) error.
func (e *LookupError) Unwrap() error { return e.Err }

// Stats are counters of a [Resolver] since it was created.
type Stats struct {
	Queries     int64 // queries sent over the network (each attempt counts)
	CacheHits   int64 // lookups answered from the cache
	CacheMisses int64 // lookups that needed the network
	Shared      int64 // lookups that joined a query already in flight
	Entries     int   // answers currently cached
}

// Stats returns the resolver's counters.
func (r *Resolver) Stats() Stats {
	s := Stats{
		Queries:     r.queries.Load(),
		CacheHits:   r.hits.Load(),
		CacheMisses: r.misses.Load(),
		Shared:      r.misses.Load() - r.flights.Load(),
	}
	if r.cache != nil {
		s.Entries = r.cache.len()
	}
	return s
}

// result is what a lookup produced, cached and shared between callers.
type result struct {
	ans *Answer
	err error
}

// Lookup asks for the records of qtype (dns.TypeMX, ...) at name, from
// the cache when it holds a live answer. A NODATA reply is an Answer with
// no records and a nil error; NXDOMAIN, SERVFAIL, REFUSED and timeouts
// are errors wrapping ErrNXDomain, ErrServFail, ErrRefused and
// ErrTimeout. For NXDOMAIN the Answer is returned along with the error.
// When ctx ends first, Lookup returns at once with an ErrTimeout error;
// a query already sent still completes and fills the cache.
func (r *Resolver) Lookup(ctx context.Context, name string, qtype uint16) (*Answer, error) {
	fqdn := dns.Fqdn(strings.ToLower(strings.TrimSpace(name)))
	if _, ok := dns.IsDomainName(fqdn); !ok || fqdn == "." || len(fqdn) > 254 {
		return nil, &LookupError{Name: name, Type: qtype, Err: ErrInvalidName}
	}
	key := cacheKey{name: fqdn, qtype: qtype}
	if r.cache != nil {
		if res, ok := r.cache.get(key, r.now()); ok {
			r.hits.Add(1)
			return cachedCopy(res)
		}
	}
	if ctx.Err() != nil {
		// Nobody would wait for the query, and it would outlive the caller.
		return nil, ended(ctx, fqdn, qtype)
	}
	r.misses.Add(1)
	ch := r.flight.DoChan(key.String(), func() (any, error) {
		r.flights.Add(1)
		// The query outlives any one caller: others may be waiting on it.
		qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.timeout*time.Duration(r.attempts*len(r.servers))+time.Second)
		defer cancel()
		res := r.resolve(qctx, fqdn, qtype)
		if r.cache != nil {
			if ttl := r.cacheTTL(res); ttl > 0 {
				r.cache.put(key, res, r.now().Add(ttl))
			}
		}
		return res, nil
	})
	select {
	case <-ctx.Done():
		return nil, ended(ctx, fqdn, qtype)
	case v := <-ch:
		res := v.Val.(result)
		if res.ans == nil {
			return nil, res.err
		}
		a := *res.ans // each caller gets its own Answer; RRs stay shared
		return &a, res.err
	}
}

// ended is the error of a lookup whose caller's context ended.
func ended(ctx context.Context, fqdn string, qtype uint16) error {
	return &LookupError{Name: fqdn, Type: qtype, Err: fmt.Errorf("%w: %w", ErrTimeout, ctx.Err())}
}

func cachedCopy(res result) (*Answer, error) {
	if res.ans == nil {
		return nil, res.err
	}
	a := *res.ans
	a.Cached = true
	return &a, res.err
}

// cacheTTL is how long res may be cached: the smallest TTL of the answer
// records, or for negative answers the SOA minimum (RFC 2308 section 5);
// zero for failures, which are not cached.
func (r *Resolver) cacheTTL(res result) time.Duration {
	if res.ans == nil {
		return 0
	}
	return res.ans.TTL
}

// resolve sends the question to the servers in turn until one answers
// with something other than a server failure.
func (r *Resolver) resolve(ctx context.Context, fqdn string, qtype uint16) result {
	m := new(dns.Msg)
	m.SetQuestion(fqdn, qtype)
	m.RecursionDesired = true
	m.AuthenticatedData = true
	m.SetEdns0(r.udpSize, r.dnssecOK)
	var ede []ExtendedError // of the last failing reply
	fail := func(err error) result {
		return result{err: &LookupError{Name: fqdn, Type: qtype, Err: err, ExtendedErrors: ede}}
	}
	var last error = ErrTimeout
	askedCD := make([]bool, len(r.servers)) // the CD question is asked once per server
	for range r.attempts {
		for i, server := range r.servers {
			if ctx.Err() != nil {
				return fail(fmt.Errorf("%w: %w", ErrTimeout, ctx.Err()))
			}
			reply, err := r.exchange(ctx, m, server)
			if err == nil && reply.Rcode == dns.RcodeFormatError && reply.IsEdns0() == nil {
				// A server that does not speak EDNS0 (RFC 6891 section
				// 7): ask again without the OPT record.
				plain := m.Copy()
				plain.Extra = nil
				reply, err = r.exchange(ctx, plain, server)
			}
			if err != nil {
				last, ede = err, nil
				continue
			}
			switch reply.Rcode {
			case dns.RcodeSuccess, dns.RcodeNameError:
				return r.answer(fqdn, qtype, reply)
			}
			ede = extendedErrors(reply)
			bogus := false
			switch reply.Rcode {
			case dns.RcodeServerFailure:
				last = ErrServFail
				var answered *dns.Msg
				bogus, answered = r.bogus(ctx, m, server, ede, &askedCD[i])
				if answered != nil {
					return r.answer(fqdn, qtype, answered)
				}
				if bogus {
					last = fmt.Errorf("%w: %w", ErrServFail, ErrDNSSECBogus)
				}
			case dns.RcodeRefused:
				last = ErrRefused
			default:
				last = fmt.Errorf("%w: rcode %s", ErrServFail, dns.RcodeToString[reply.Rcode])
			}
			for _, e := range ede {
				last = fmt.Errorf("%w; %s", last, e)
			}
			if bogus {
				// A verdict on the data, not a failure to retry: another
				// attempt or server must not turn it into an outage.
				return fail(last)
			}
		}
	}
	return fail(last)
}

// bogus reports whether the SERVFAIL of server to m, with its Extended
// DNS Errors ede, is a failed DNSSEC validation. An EDE says so. Without
// one, the server is asked the question again with the CD bit (checking
// disabled), once per lookup (*askedCD); when it answers that, it is
// asked once more without CD, to tell bogus data from a transient
// failure: a SERVFAIL again is bogus, and an answer (NOERROR or
// NXDOMAIN) is returned as answered, the result of the lookup. The
// records of the CD answer are never used.
func (r *Resolver) bogus(ctx context.Context, m *dns.Msg, server string, ede []ExtendedError, askedCD *bool) (bogus bool, answered *dns.Msg) {
	if slices.ContainsFunc(ede, ExtendedError.Bogus) {
		return true, nil
	}
	if *askedCD || ctx.Err() != nil {
		return false, nil
	}
	*askedCD = true
	cd := m.Copy()
	cd.CheckingDisabled = true
	if reply, err := r.exchange(ctx, cd, server); err != nil || reply.Rcode != dns.RcodeSuccess && reply.Rcode != dns.RcodeNameError {
		return false, nil
	}
	reply, err := r.exchange(ctx, m, server)
	switch {
	case err != nil:
		return false, nil
	case reply.Rcode == dns.RcodeSuccess || reply.Rcode == dns.RcodeNameError:
		return false, reply
	}
	return reply.Rcode == dns.RcodeServerFailure, nil
}

// exchange sends m to server over UDP, and again over TCP when the reply
// is truncated. Timeouts become ErrTimeout, other network errors
// ErrUnreachable.
func (r *Resolver) exchange(ctx context.Context, m *dns.Msg, server string) (*dns.Msg, error) {
	if r.slots != nil {
		select {
		case r.slots <- struct{}{}:
			defer func() { <-r.slots }()
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: waiting for one of %d query slots: %w", ErrTimeout, cap(r.slots), ctx.Err())
		}
	}
	m = m.Copy()
	m.Id = dns.Id()
	r.queries.Add(1)
	reply, _, err := r.udp.ExchangeContext(ctx, m, server)
	if err == nil && reply.Truncated {
		r.queries.Add(1)
		reply, _, err = r.tcp.ExchangeContext(ctx, m, server)
	}
	if err != nil {
		kind := ErrUnreachable
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
			kind = ErrTimeout
		}
		// A network error names the server already ("read udp
		// 127.0.0.1:41234->192.0.2.53:53: i/o timeout"); a context's
		// does not.
		if strings.Contains(err.Error(), server) {
			return nil, fmt.Errorf("%w: %w", kind, err)
		}
		return nil, fmt.Errorf("%w: %s: %w", kind, server, err)
	}
	return reply, nil
}

// answer builds the result of a NOERROR or NXDOMAIN reply.
func (r *Resolver) answer(fqdn string, qtype uint16, reply *dns.Msg) result {
	a := &Answer{Name: fqdn, Type: qtype, Rcode: reply.Rcode, Authoritative: reply.Authoritative, AuthenticatedData: reply.AuthenticatedData, ExtendedErrors: extendedErrors(reply)}
	var minTTL uint32 = 1<<32 - 1
	for _, rr := range reply.Answer {
		h := rr.Header()
		if h.Rrtype == qtype || h.Rrtype == dns.TypeCNAME || qtype == dns.TypeANY {
			a.RRs = append(a.RRs, rr)
			minTTL = min(minTTL, h.Ttl)
		}
	}
	if hasType(a.RRs, qtype) {
		a.TTL = min(time.Duration(minTTL)*time.Second, r.maxTTL)
		return result{ans: a}
	}
	// Negative answer: cache for min(SOA TTL, SOA MINIMUM), RFC 2308.
	a.TTL = r.negativeTTL
	for _, rr := range reply.Ns {
		if soa, ok := rr.(*dns.SOA); ok {
			a.TTL = min(time.Duration(min(soa.Hdr.Ttl, soa.Minttl))*time.Second, r.negativeTTL)
			break
		}
	}
	if reply.Rcode == dns.RcodeNameError {
		return result{ans: a, err: &LookupError{Name: fqdn, Type: qtype, Err: ErrNXDomain}}
	}
	return result{ans: a}
}

func hasType(rrs []dns.RR, qtype uint16) bool {
	for _, rr := range rrs {
		if rr.Header().Rrtype == qtype || qtype == dns.TypeANY {
			return true
		}
	}
	return false
}

// records is Lookup for the typed helpers: the records of type T, or
// ErrNoData when there are none.
func records[T dns.RR](ctx context.Context, r *Resolver, name string, qtype uint16) ([]T, error) {
	a, err := r.Lookup(ctx, name, qtype)
	if err != nil {
		return nil, err
	}
	var out []T
	for _, rr := range a.RRs {
		if t, ok := rr.(T); ok {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, &LookupError{Name: a.Name, Type: qtype, Err: ErrNoData}
	}
	return out, nil
}

// An MX is one mail exchanger, as [Resolver.LookupMX] returns it.
type MX struct {
	// Host is the exchanger's name, lowercased, without the trailing
	// dot; "" for a null MX "." (RFC 7505: the domain takes no mail).
	Host string
	// Pref is the preference: lower is tried first.
	Pref uint16
}

// LookupMX returns the MX records of name sorted by preference (stable for
// equal preferences). A null MX (RFC 7505) is returned as an MX with an
// empty Host. A name without MX records is an ErrNoData error.
func (r *Resolver) LookupMX(ctx context.Context, name string) ([]MX, error) {
	rrs, err := records[*dns.MX](ctx, r, name, dns.TypeMX)
	if err != nil {
		return nil, err
	}
	out := make([]MX, len(rrs))
	for i, rr := range rrs {
		out[i] = MX{Host: strings.TrimSuffix(strings.ToLower(rr.Mx), "."), Pref: rr.Preference}
	}
	slices.SortStableFunc(out, func(a, b MX) int { return cmp.Compare(a.Pref, b.Pref) })
	return out, nil
}

// LookupTXT returns the TXT records of name, each record's strings joined
// (RFC 7208 section 3.3), as the bytes published: miekg/dns hands a TXT
// string in presentation form (a quote as \", a byte outside printable
// ASCII as \DDD), and LookupTXT decodes it, so that "café" is "café", not
// "caf\195\169". A name without TXT records is an ErrNoData error.
func (r *Resolver) LookupTXT(ctx context.Context, name string) ([]string, error) {
	rrs, err := records[*dns.TXT](ctx, r, name, dns.TypeTXT)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rrs))
	for i, rr := range rrs {
		out[i] = unescapeTXT(strings.Join(rr.Txt, ""))
	}
	return out, nil
}

// unescapeTXT decodes the escapes of a TXT string in presentation form
// (RFC 1035 section 5.1): \DDD is the octet of decimal value DDD, \X is
// X. A malformed escape is kept as written.
func unescapeTXT(txt string) string {
	if !strings.Contains(txt, `\`) {
		return txt
	}
	out := make([]byte, 0, len(txt))
	for i := 0; i < len(txt); i++ {
		c := txt[i]
		if c != '\\' || i+1 == len(txt) {
			out = append(out, c)
			continue
		}
		if i+3 < len(txt) && isDigit(txt[i+1]) && isDigit(txt[i+2]) && isDigit(txt[i+3]) {
			if n, _ := strconv.Atoi(txt[i+1 : i+4]); n <= 255 {
				out = append(out, byte(n))
				i += 3
				continue
			}
		}
		out = append(out, txt[i+1])
		i++
	}
	return string(out)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// LookupNS returns the name servers of name, lowercased without the
// trailing dot. A name without NS records is an ErrNoData error.
func (r *Resolver) LookupNS(ctx context.Context, name string) ([]string, error) {
	rrs, err := records[*dns.NS](ctx, r, name, dns.TypeNS)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rrs))
	for i, rr := range rrs {
		out[i] = strings.TrimSuffix(strings.ToLower(rr.Ns), ".")
	}
	return out, nil
}

// LookupCNAME returns the target of the CNAME record at name, lowercased
// without the trailing dot. A name that is not an alias is an ErrNoData
// error.
func (r *Resolver) LookupCNAME(ctx context.Context, name string) (string, error) {
	rrs, err := records[*dns.CNAME](ctx, r, name, dns.TypeCNAME)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(strings.ToLower(rrs[0].Target), "."), nil
}

// LookupPTR returns the names of the PTR records at the reverse name of
// ip (in in-addr.arpa for IPv4, ip6.arpa for IPv6; an IPv4-mapped IPv6
// address counts as IPv4), lowercased without the trailing dot. An
// address without PTR records is an ErrNoData error, or ErrNXDomain when
// its reverse name does not exist.
func (r *Resolver) LookupPTR(ctx context.Context, ip netip.Addr) ([]string, error) {
	if !ip.IsValid() {
		return nil, &LookupError{Name: ip.String(), Type: dns.TypePTR, Err: ErrInvalidName}
	}
	name, err := dns.ReverseAddr(ip.Unmap().String())
	if err != nil {
		return nil, &LookupError{Name: ip.String(), Type: dns.TypePTR, Err: ErrInvalidName}
	}
	rrs, err := records[*dns.PTR](ctx, r, name, dns.TypePTR)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rrs))
	for i, rr := range rrs {
		out[i] = strings.TrimSuffix(strings.ToLower(rr.Ptr), ".")
	}
	return out, nil
}

// LookupA returns the IPv4 addresses of host, following CNAMEs. A host
// without A records is an ErrNoData error.
func (r *Resolver) LookupA(ctx context.Context, host string) ([]netip.Addr, error) {
	return addrs(ctx, r, host, dns.TypeA, func(rr *dns.A) net.IP { return rr.A.To4() })
}

// LookupAAAA returns the IPv6 addresses of host, following CNAMEs. A
// host without AAAA records is an ErrNoData error.
func (r *Resolver) LookupAAAA(ctx context.Context, host string) ([]netip.Addr, error) {
	return addrs(ctx, r, host, dns.TypeAAAA, func(rr *dns.AAAA) net.IP { return rr.AAAA.To16() })
}

func addrs[T dns.RR](ctx context.Context, r *Resolver, host string, qtype uint16, ip func(T) net.IP) ([]netip.Addr, error) {
	rrs, err := records[T](ctx, r, host, qtype)
	out := make([]netip.Addr, 0, len(rrs))
	for _, rr := range rrs {
		if a, ok := netip.AddrFromSlice(ip(rr)); ok {
			out = append(out, a)
		}
	}
	return out, err
}

// LookupIP returns the IPv4 then IPv6 addresses of host, asking for both
// at once. It fails only when neither lookup found an address; the error
// is then the more telling of the two (NXDOMAIN, SERVFAIL or timeout
// before NODATA). An IP literal is returned as is.
func (r *Resolver) LookupIP(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return []netip.Addr{a}, nil
	}
	type res struct {
		addrs []netip.Addr
		err   error
	}
	ch := make(chan res, 1)
	go func() {
		a, err := r.LookupAAAA(ctx, host)
		ch <- res{a, err}
	}()
	v4, err4 := r.LookupA(ctx, host)
	six := <-ch
	addrs := append(v4, six.addrs...)
	if len(addrs) > 0 {
		return addrs, nil
	}
	if errors.Is(err4, ErrNoData) && six.err != nil {
		return nil, six.err
	}
	return nil, err4
}
