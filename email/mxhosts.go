package email

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
)

// Bounds of the MX hosts check ([Verifier.CheckMXHosts] and the mx_hosts
// of DomainHealth): what one domain may cost.
const (
	// MaxMXHostsChecked is how many MX hosts are checked, the first by
	// preference.
	MaxMXHostsChecked = 3
	// MaxSTARTTLSHosts bounds the distinct MX hosts one DomainHealth call
	// connects to for check_starttls: 500 domains of 3 hosts each would
	// otherwise open 1,500 SMTP connections. Hosts past it, the first
	// reached being checked, have starttls null, and the domains they
	// serve one mx_starttls_bound warning.
	MaxSTARTTLSHosts = 50
	// MaxMXAddresses is how many addresses of each host are checked,
	// IPv4 first.
	MaxMXAddresses = 2
	// MaxPTRNames is how many PTR names of each address are looked up
	// to confirm the address.
	MaxPTRNames = 2
	// MaxDNSBLZones is the most zones Config.DNSBLZones may name.
	MaxDNSBLZones = 8
	// MaxDNSBLReason is the most bytes of a DNSBL's TXT explanation kept
	// in a problem's message.
	MaxDNSBLReason = 200
	// MaxPTRListed is how many PTR names of an address MXAddress.PTR
	// lists: DNS answers may carry thousands.
	MaxPTRListed = 10
	// mxFanOut bounds the lookups of one domain's MX hosts in flight at
	// once (each round still waits for all of its lookups).
	mxFanOut = 16
)

// MXHost is the check of one MX host: its addresses and whether it
// offers STARTTLS.
type MXHost struct {
	// Host is the MX host name.
	Host string `json:"host"`
	// Addresses are its first MaxMXAddresses addresses, IPv4 first;
	// empty when it has none or the lookup failed.
	Addresses []MXAddress `json:"addresses"`
	// STARTTLS reports whether the host offers STARTTLS in its answer to
	// EHLO; null when not checked (check_starttls false, or past
	// MaxSTARTTLSHosts: an mx_starttls_bound warning) or when the host
	// could not be reached (an mx_starttls_unreachable warning says why).
	STARTTLS *bool `json:"starttls"`
}

// MXAddress is the check of one address of an MX host.
type MXAddress struct {
	// IP is the address.
	IP string `json:"ip"`
	// PTR are the names of its PTR records (reverse DNS), the first
	// MaxPTRListed; empty when there are none.
	PTR []string `json:"ptr"`
	// FCrDNS is true when the address is forward-confirmed: one of its
	// first MaxPTRNames PTR names has an A (or AAAA) record equal to it.
	FCrDNS bool `json:"fcrdns"`
	// Listed are the configured DNSBL zones that list the address.
	Listed []string `json:"listed"`
}

// MXHostsRequest asks for the check of a domain's MX hosts.
type MXHostsRequest struct {
	// Domain is the domain whose MX hosts are checked (its implicit MX,
	// the domain itself, when it has no MX records).
	Domain string
	// CheckSTARTTLS connects to each host's SMTP port to see whether it
	// offers STARTTLS, with the settings, bounds and pacing of the SMTP
	// probe (Config.SMTP). Default false: DNS only.
	CheckSTARTTLS bool
}

// MXHostsResult is the check of a domain's MX hosts.
type MXHostsResult struct {
	// MX is the MX lookup of the domain.
	MX MX `json:"mx"`
	// Hosts are the first MaxMXHostsChecked MX hosts, by preference.
	Hosts []MXHost `json:"hosts"`
	// Problems are the findings, with the codes of domain health
	// (mx_no_address, mx_no_fcrdns, mx_listed, mx_no_starttls,
	// mx_starttls_unreachable, mx_dns_error, dnsbl_error, dnssec_bogus),
	// errors first.
	Problems []Problem `json:"problems"`
}

// CheckMXHosts checks the MX hosts of a domain, each of the first
// MaxMXHostsChecked by preference: its addresses (at most
// MaxMXAddresses, IPv4 first), each with forward-confirmed reverse DNS
// (its PTR names, then the addresses of at most MaxPTRNames of them,
// which must contain it) and its listings in Config.DNSBLZones; and,
// when asked, whether the host offers STARTTLS. Every DNS question goes
// through Config.Resolver and its cache, in rounds of parallel lookups:
// the hosts' addresses, then the PTR and DNSBL lookups, then the PTR
// names' addresses, then the TXT explanation of any listing. Without a
// Resolver it answers SERVICE_UNAVAILABLE; a domain that is not a valid
// name is a validation error.
func (v *Verifier) CheckMXHosts(ctx context.Context, req MXHostsRequest) (MXHostsResult, error) {
	var a Address
	d := strings.TrimSuffix(strings.TrimSpace(req.Domain), ".")
	if d == "" {
		return MXHostsResult{}, envelope.Invalid("domain", "is required")
	}
	if reason := parseDomain(d, &a); reason != "" {
		return MXHostsResult{}, envelope.Invalid("domain", "is not a valid domain: "+reason.Message())
	}
	if v.cfg.Resolver == nil {
		return MXHostsResult{}, envelope.Errorf(envelope.CodeServiceUnavailable, "no DNS resolver is configured")
	}
	res := MXHostsResult{MX: v.domainMX(ctx, a.ASCIIDomain), Hosts: []MXHost{}, Problems: []Problem{}}
	if res.MX.Status == MXFound || res.MX.Status == MXImplicit {
		var errs, warns []Problem
		res.Hosts = v.mxHosts(ctx, res.MX.Hosts, req.CheckSTARTTLS, nil, func(sev mailauth.Severity, code ProblemCode, msg string) {
			p := newProblem(sev, code, msg)
			if sev == mailauth.SeverityError {
				errs = append(errs, p)
			} else {
				warns = append(warns, p)
			}
		})
		res.Problems = append(append(res.Problems, errs...), warns...)
	}
	return res, nil
}

// starttlsMemo shares the STARTTLS check of each host among the domains
// of one DomainHealth call, so that a host serving many of them is
// contacted once.
type starttlsMemo struct {
	mu    sync.Mutex
	hosts map[string]*starttlsOnce
}

// errSTARTTLSBound is the STARTTLS check of a host past MaxSTARTTLSHosts:
// not done.
var errSTARTTLSBound = errors.New("email: more than MaxSTARTTLSHosts hosts to check for STARTTLS")

type starttlsOnce struct {
	once sync.Once
	ok   bool
	err  error
}

func (m *starttlsMemo) check(ctx context.Context, v *Verifier, host string) (bool, error) {
	if m == nil {
		return v.CheckSTARTTLS(ctx, host)
	}
	m.mu.Lock()
	if m.hosts == nil {
		m.hosts = map[string]*starttlsOnce{}
	}
	o := m.hosts[host]
	if o == nil && len(m.hosts) == MaxSTARTTLSHosts {
		m.mu.Unlock()
		return false, errSTARTTLSBound
	}
	if o == nil {
		o = &starttlsOnce{}
		m.hosts[host] = o
	}
	m.mu.Unlock()
	o.once.Do(func() { o.ok, o.err = v.CheckSTARTTLS(ctx, host) })
	return o.ok, o.err
}

// mxHosts checks the first MaxMXHostsChecked of hosts and reports its
// findings through add.
func (v *Verifier) mxHosts(ctx context.Context, hosts []string, starttls bool, memo *starttlsMemo, add func(sev mailauth.Severity, code ProblemCode, msg string)) []MXHost {
	r := v.cfg.Resolver
	hosts = hosts[:min(len(hosts), MaxMXHostsChecked)]
	out := make([]MXHost, len(hosts))
	addrErrs := make([]error, len(hosts))

	// STARTTLS runs beside the DNS rounds.
	tlsOK := make([]bool, len(hosts))
	tlsErrs := make([]error, len(hosts))
	var tlsDone sync.WaitGroup
	if starttls {
		for i, h := range hosts {
			tlsDone.Go(func() { tlsOK[i], tlsErrs[i] = memo.check(ctx, v, h) })
		}
	}

	// Round 1: the hosts' addresses.
	forEach(len(hosts), mxFanOut, func(i int) {
		out[i] = MXHost{Host: hosts[i], Addresses: []MXAddress{}}
		ips, err := r.LookupIP(ctx, hosts[i])
		if err != nil {
			addrErrs[i] = err
			return
		}
		ips = slices.CompactFunc(ips, func(a, b netip.Addr) bool { return a.Unmap() == b.Unmap() })
		for _, ip := range ips[:min(len(ips), MaxMXAddresses)] {
			out[i].Addresses = append(out[i].Addresses, MXAddress{IP: ip.Unmap().String(), PTR: []string{}, Listed: []string{}})
		}
	})
	type slot struct{ host, addr int }
	var addrs []slot
	for i := range out {
		for j := range out[i].Addresses {
			addrs = append(addrs, slot{i, j})
		}
	}
	at := func(s slot) *MXAddress { return &out[s.host].Addresses[s.addr] }

	// Round 2: the PTR of each address and its DNSBL lookups, together.
	ptrErrs := make([]error, len(addrs))
	zones := v.dnsbl
	listings := make([]dnsblAnswer, len(addrs)*len(zones))
	forEach(len(addrs)*(1+len(zones)), mxFanOut, func(k int) {
		s := addrs[k%len(addrs)]
		ip := netip.MustParseAddr(at(s).IP)
		if k < len(addrs) {
			names, err := r.LookupPTR(ctx, ip)
			if err != nil && !errors.Is(err, resolver.ErrNXDomain) && !errors.Is(err, resolver.ErrNoData) {
				ptrErrs[k] = err
			}
			at(s).PTR = append(at(s).PTR, names[:min(len(names), MaxPTRListed)]...)
			return
		}
		z := k/len(addrs) - 1
		listings[k-len(addrs)] = v.dnsblLookup(ctx, ip, zones[z])
	})

	// Round 3: the addresses of the PTR names.
	type fwd struct {
		a    int
		name string
	}
	var fwds []fwd
	for k, s := range addrs {
		for _, n := range at(s).PTR[:min(len(at(s).PTR), MaxPTRNames)] {
			fwds = append(fwds, fwd{k, n})
		}
	}
	confirmed := make([]bool, len(fwds))
	fwdErrs := make([]error, len(fwds))
	forEach(len(fwds), mxFanOut, func(k int) {
		ip := netip.MustParseAddr(at(addrs[fwds[k].a]).IP)
		lookup := r.LookupA
		if ip.Is6() {
			lookup = r.LookupAAAA
		}
		ips, err := lookup(ctx, fwds[k].name)
		if err != nil && !errors.Is(err, resolver.ErrNXDomain) && !errors.Is(err, resolver.ErrNoData) {
			fwdErrs[k] = err
		}
		confirmed[k] = slices.Contains(ips, ip)
	})
	for k, f := range fwds {
		if confirmed[k] {
			at(addrs[f.a]).FCrDNS = true
		}
	}

	// Round 4: the TXT explanation of each listing.
	var listed []int
	for k, l := range listings {
		if l.listed {
			listed = append(listed, k)
		}
	}
	forEach(len(listed), mxFanOut, func(k int) {
		l := &listings[listed[k]]
		if txt, err := r.LookupTXT(ctx, l.name); err == nil && len(txt) > 0 {
			l.reason = dnsblReason(txt[0])
		}
	})
	tlsDone.Wait()

	// Findings, in host order.
	if slices.ContainsFunc(tlsErrs, func(err error) bool { return err == errSTARTTLSBound }) {
		add(mailauth.SeverityWarning, ProblemMXSTARTTLSBound, fmt.Sprintf("STARTTLS was not checked for every MX host: one request checks at most %d distinct hosts", MaxSTARTTLSHosts))
	}
	for i := range out {
		h := &out[i]
		if addrErrs[i] != nil {
			if errors.Is(addrErrs[i], resolver.ErrNXDomain) || errors.Is(addrErrs[i], resolver.ErrNoData) {
				add(mailauth.SeverityWarning, ProblemMXNoAddress, "the MX host "+h.Host+" has no A or AAAA record: mail cannot be delivered to it")
			} else {
				addProblem(add, lookupProblem(mailauth.SeverityWarning, ProblemMXDNSError, "the address lookup of the MX host "+h.Host, addrErrs[i]))
			}
		}
		switch {
		case !starttls || tlsErrs[i] == errSTARTTLSBound:
		case tlsErrs[i] != nil:
			why := strings.TrimPrefix(tlsErrs[i].Error(), "email: STARTTLS check of "+h.Host+": ")
			add(mailauth.SeverityWarning, ProblemMXSTARTTLSUnreachable, starttlsUnreachable+h.Host+": "+why)
		default:
			ok := tlsOK[i]
			h.STARTTLS = &ok
			if !ok {
				add(mailauth.SeverityWarning, ProblemMXNoSTARTTLS, "the MX host "+h.Host+" does not offer STARTTLS: mail to it travels unencrypted")
			}
		}
	}
	for k, s := range addrs {
		a := at(s)
		host := out[s.host].Host
		switch {
		case ptrErrs[k] != nil:
			addProblem(add, lookupProblem(mailauth.SeverityWarning, ProblemMXDNSError, "the PTR lookup of "+a.IP+" ("+host+")", ptrErrs[k]))
		case len(a.PTR) == 0:
			add(mailauth.SeverityWarning, ProblemMXNoFCrDNS, a.IP+" ("+host+") has no PTR record: receivers check that a mail server's address has reverse DNS")
		case !a.FCrDNS:
			msg := a.IP + " (" + host + ") is not forward-confirmed: its PTR names (" + strings.Join(a.PTR[:min(len(a.PTR), MaxPTRNames)], ", ") + ") do not resolve back to it"
			for j, f := range fwds {
				if f.a == k && fwdErrs[j] != nil {
					addProblem(add, lookupProblem(mailauth.SeverityWarning, ProblemMXDNSError, "the address lookup of "+f.name, fwdErrs[j]))
					msg = ""
				}
			}
			if msg != "" {
				add(mailauth.SeverityWarning, ProblemMXNoFCrDNS, msg)
			}
		}
		for z, zone := range zones {
			l := listings[z*len(addrs)+k]
			switch {
			case l.err != nil:
				add(mailauth.SeverityWarning, ProblemDNSBLError, "the DNSBL "+zone+" did not answer for "+a.IP+": "+mailauth.LookupText(l.err))
			case l.listed:
				a.Listed = append(a.Listed, zone)
				msg := a.IP + " (" + host + ") is listed by " + zone + " (" + strings.Join(l.codes, ", ") + ")"
				if l.reason != "" {
					msg += ": " + l.reason
				}
				add(mailauth.SeverityError, ProblemMXListed, msg)
			}
		}
	}
	return out
}

// addProblem reports p through add.
func addProblem(add func(sev mailauth.Severity, code ProblemCode, msg string), p Problem) {
	add(p.Severity, p.Code, p.Message)
}

// starttlsUnreachable opens the message of mx_starttls_unreachable,
// followed by the host and why.
const starttlsUnreachable = "STARTTLS could not be checked on the MX host "

// Errors of CheckSTARTTLS, usable with errors.Is; each one's message is
// the matching SMTP probe reason (SMTPForbidden, SMTPProxyError).
var (
	// ErrForbiddenAddress: the host resolves to an address the SMTP
	// probe's address policy refuses (a non-public address, unless
	// SMTPOptions.AllowPrivateAddresses).
	ErrForbiddenAddress = errors.New(string(SMTPForbidden))
	// ErrProxy: the SOCKS5 proxy of SMTPOptions.Proxy could not be
	// reached or refused the connection.
	ErrProxy = errors.New(string(SMTPProxyError))
)

// CheckSTARTTLS connects to the SMTP port of host (an MX host name,
// resolved through Config.Resolver, or an IP literal), reads the
// greeting, sends EHLO and reports whether the answer offers STARTTLS,
// then quits. It uses the settings of the SMTP probe (Config.SMTP):
// port, EHLO name, timeouts, proxy, the private-address policy and the
// pacing per mail server. The error says why no answer to EHLO was had;
// it wraps ErrForbiddenAddress or ErrProxy for those causes.
func (v *Verifier) CheckSTARTTLS(ctx context.Context, host string) (bool, error) {
	o := v.cfg.SMTP.withDefaults()
	c, fail, err := v.hello(ctx, o, host)
	switch {
	case fail != nil && (fail.reason == SMTPForbidden || fail.reason == SMTPProxyError):
		sentinel := ErrForbiddenAddress
		if fail.reason == SMTPProxyError {
			sentinel = ErrProxy
		}
		return false, &describedError{"email: STARTTLS check of " + host + ": " + fail.message, sentinel}
	case fail != nil:
		return false, fmt.Errorf("email: STARTTLS check of %s: %s", host, fail.message)
	case err != nil:
		return false, &describedError{"email: STARTTLS check of " + host + ": greeting or EHLO: " + failText(err), err}
	}
	defer c.close()
	ok, _ := c.Extension("STARTTLS")
	c.step(o.StepTimeout)
	c.Quit()
	return ok, nil
}

// dnsblZones normalizes Config.DNSBLZones: lowercase, without the final
// dot, each a domain name of letters, digits and hyphens, at most MaxDNSBLZones, duplicates dropped.
func dnsblZones(zones []string) ([]string, error) {
	var out []string
	for i, z := range zones {
		z = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(z), "."))
		ldh := strings.Trim(z, "abcdefghijklmnopqrstuvwxyz0123456789-.") == ""
		if _, ok := dns.IsDomainName(z); !ok || !ldh || !strings.Contains(z, ".") || strings.Contains(z, "..") || len(z) > 200 {
			return nil, fmt.Errorf("DNSBLZones[%d] is not a domain name such as zen.spamhaus.org", i)
		}
		if !slices.Contains(out, z) {
			out = append(out, z)
		}
	}
	if len(out) > MaxDNSBLZones {
		return nil, fmt.Errorf("DNSBLZones names %d zones; at most %d are allowed", len(out), MaxDNSBLZones)
	}
	return out, nil
}

// DNSBLListing is the answer of one DNSBL zone about one address.
type DNSBLListing struct {
	// Zone is the DNSBL zone asked.
	Zone string `json:"zone"`
	// Listed reports that the zone lists the address: it answered an
	// address in 127.0.0.0/8 outside 127.255.255.0/24.
	Listed bool `json:"listed"`
	// Codes are the addresses the zone answered (its return codes, such
	// as 127.0.0.2). Never nil.
	Codes []string `json:"codes"`
	// Reason is the zone's TXT explanation of a listing, cleaned of
	// control characters and cut to MaxDNSBLReason bytes; empty when
	// none.
	Reason string `json:"reason"`
	// Error says what Err says, in the caller's words: a failed lookup
	// is named with its failure (SERVFAIL, timeout...), without the
	// network error behind it. Omitted when Err is nil.
	Error string `json:"error,omitempty"`
	// Err is why the zone gave no usable answer: the lookup failed, or
	// the zone answered an error code (Spamhaus's 127.255.255.0/24:
	// .252 a mistyped zone, .254 a query through a public resolver,
	// .255 too many queries) or an address outside 127.0.0.0/8. Nil
	// when Listed is set or the zone does not list the address. Not part
	// of the JSON form, which carries its message as Error.
	Err error `json:"-"`
}

// CheckDNSBL looks up ip in each zone of Config.DNSBLZones, all at once
// through Config.Resolver, and the TXT explanation of each listing.
// Without zones it returns none; without a Resolver it answers
// SERVICE_UNAVAILABLE.
func (v *Verifier) CheckDNSBL(ctx context.Context, ip netip.Addr) ([]DNSBLListing, error) {
	if !ip.IsValid() {
		return nil, envelope.Invalid("ip", "is not an IP address")
	}
	if v.cfg.Resolver == nil {
		return nil, envelope.Errorf(envelope.CodeServiceUnavailable, "no DNS resolver is configured")
	}
	out := make([]DNSBLListing, len(v.dnsbl))
	forEach(len(v.dnsbl), mxFanOut, func(i int) {
		a := v.dnsblLookup(ctx, ip, v.dnsbl[i])
		if a.listed {
			if txt, err := v.cfg.Resolver.LookupTXT(ctx, a.name); err == nil && len(txt) > 0 {
				a.reason = dnsblReason(txt[0])
			}
		}
		out[i] = DNSBLListing{Zone: v.dnsbl[i], Listed: a.listed, Codes: a.codes, Reason: a.reason, Err: a.err}
		if out[i].Codes == nil {
			out[i].Codes = []string{}
		}
		if a.err != nil {
			out[i].Error = mailauth.LookupText(a.err)
		}
	})
	return out, nil
}

// dnsblAnswer is what one zone said of one address.
type dnsblAnswer struct {
	name   string // the name asked
	listed bool
	codes  []string
	reason string
	err    error
}

// dnsblLookup asks zone about ip. NXDOMAIN (and NODATA) is "not listed".
func (v *Verifier) dnsblLookup(ctx context.Context, ip netip.Addr, zone string) dnsblAnswer {
	a := dnsblAnswer{name: dnsblName(ip, zone)}
	ips, err := v.cfg.Resolver.LookupA(ctx, a.name)
	switch {
	case errors.Is(err, resolver.ErrNXDomain), errors.Is(err, resolver.ErrNoData):
		return a
	case err != nil:
		a.err = err
		return a
	}
	a.listed, a.codes, a.err = dnsblVerdict(ips)
	return a
}

// dnsblName is the name a DNSBL is asked about ip: the octets of an IPv4
// address in reverse order, or the 32 nibbles of an IPv6 address in
// reverse order, then the zone (RFC 5782 section 2).
func dnsblName(ip netip.Addr, zone string) string {
	ip = ip.Unmap()
	var b strings.Builder
	if ip.Is4() {
		o := ip.As4()
		for i := 3; i >= 0; i-- {
			b.WriteString(strconv.Itoa(int(o[i])))
			b.WriteByte('.')
		}
	} else {
		const hex = "0123456789abcdef"
		o := ip.As16()
		for i := 15; i >= 0; i-- {
			b.WriteByte(hex[o[i]&0xf])
			b.WriteByte('.')
			b.WriteByte(hex[o[i]>>4])
			b.WriteByte('.')
		}
	}
	b.WriteString(zone)
	return b.String()
}

// dnsblVerdict reads the addresses a DNSBL answered: 127.255.255.0/24
// are errors about the query (Spamhaus), never listings; other
// addresses in 127.0.0.0/8 list the address (RFC 5782 section 2.1);
// anything else is a zone that answers every name, whose answer proves
// nothing.
func dnsblVerdict(ips []netip.Addr) (listed bool, codes []string, err error) {
	refused := netip.MustParsePrefix("127.255.255.0/24")
	loop := netip.MustParsePrefix("127.0.0.0/8")
	var bad []string
	for _, ip := range ips {
		ip = ip.Unmap()
		codes = append(codes, ip.String())
		switch {
		case refused.Contains(ip):
			bad = append(bad, ip.String()+" ("+dnsblErrorMeaning(ip)+")")
		case !loop.Contains(ip):
			bad = append(bad, ip.String()+" (outside 127.0.0.0/8: the zone seems to answer every name)")
		default:
			listed = true
		}
	}
	if len(bad) > 0 {
		return false, codes, errors.New("the zone answered an error code, not a listing: " + strings.Join(bad, ", "))
	}
	return listed, codes, nil
}

// dnsblErrorMeaning is what Spamhaus documents for its error codes.
func dnsblErrorMeaning(ip netip.Addr) string {
	switch ip.As4()[3] {
	case 252:
		return "the zone name is mistyped"
	case 254:
		return "queries through public or open resolvers are refused"
	case 255:
		return "too many queries"
	}
	return "an error of the zone"
}

// dnsblReason cleans a DNSBL's TXT explanation (as the resolver decodes
// it) for a message: control, format and invalid characters dropped,
// runs of spaces folded, cut to MaxDNSBLReason bytes. At most
// 4*MaxDNSBLReason bytes of txt are read.
func dnsblReason(txt string) string {
	var b strings.Builder
	space := false
	for _, r := range textcut.Cut(txt, 4*MaxDNSBLReason) {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case r == utf8.RuneError, unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			continue
		case !unicode.IsPrint(r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		if b.Len() > MaxDNSBLReason {
			break
		}
	}
	// The cut may fall just after a space written before a character.
	return strings.TrimRight(textcut.Cut(b.String(), MaxDNSBLReason), " ")
}
