package email

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/quiverkit/quiver/internal/cfgerr"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
)

// Config configures a [Verifier] built by [New]. Every field is optional:
// the zero Config checks syntax and the embedded lists, without DNS.
type Config struct {
	// Resolver answers the DNS questions: the MX rules of the
	// validations, DomainHealth, and the hosts of the SMTP probe. Share
	// one resolver with the rest of the program: its cache is the
	// Verifier's.
	// Default: nil, no DNS: the MX check reports status "skipped",
	// DomainHealth answers SERVICE_UNAVAILABLE and the SMTP probe reason
	// "no_resolver".
	Resolver *resolver.Resolver
	// Lists are the disposable, free-provider and role lists.
	// Default: DefaultLists(), the lists embedded in the package.
	Lists *Lists
	// Syntax relaxes or tightens the syntax check.
	// Default: the zero SyntaxOptions: UTF-8 local parts and IDN domains
	// accepted, IP literals rejected.
	Syntax SyntaxOptions
	// SMTP configures the mailbox probe of single validations (asked
	// for with Checks.SMTP) and the STARTTLS check of the MX hosts (asked
	// for with CheckSTARTTLS): port, EHLO name, timeouts, SOCKS5 proxy,
	// address policy and pacing per mail server.
	// Default: the zero SMTPOptions, each of whose fields has a default:
	// port 25, EHLO localhost, null reverse path, 10s timeouts, direct
	// connections, no non-public addresses, 2 connections at once and 1s
	// between starts per mail server.
	SMTP SMTPOptions
	// Concurrency bounds the domains a bulk, CSV, stream or domain-health
	// operation looks up at once (and the rows a stream checks at once).
	// Default: DefaultConcurrency (64); so does a negative value.
	Concurrency int
	// MTASTS configures the fetch of MTA-STS policies by DomainHealth
	// (see mailauth.CheckMTASTS).
	// Default: the zero MTASTSOptions: system roots, port 443, 10s,
	// public addresses only.
	MTASTS mailauth.MTASTSOptions
	// DNSBLZones are the DNS blocklist zones (such as zen.spamhaus.org
	// or bl.spamcop.net) in which DomainHealth and CheckMXHosts look up
	// the addresses of each MX host, at most MaxDNSBLZones. Public
	// DNSBLs refuse queries that reach them through large public
	// resolvers (Spamhaus answers 127.255.255.254 to those), and their
	// terms limit free use, so none is asked unless configured: name
	// zones only when Resolver asks a resolver of your own, or use the
	// zone names of a paid query service.
	// Default: none.
	DNSBLZones []string
}

// DefaultConcurrency is the default of [Config.Concurrency].
const DefaultConcurrency = 64

// ErrInvalidConfig is wrapped by the error of [New] when its Config
// cannot work.
var ErrInvalidConfig = errors.New("email: invalid configuration")

// A Verifier runs the checks of the package with the dependencies of its
// [Config]: build one with [New], and share it; its methods are safe for
// concurrent use.
type Verifier struct {
	cfg Config
	// proxyDial dials through Config.SMTP.Proxy; nil for direct
	// connections.
	proxyDial func(ctx context.Context, network, addr string) (net.Conn, error)
	// pace spaces the connections to each mail server; nil (a Verifier
	// not built by New) does not pace.
	pace *pacer
	// dnsbl are the DNSBL zones, normalized.
	dnsbl []string
}

// New returns a Verifier configured by cfg. It fails, wrapping
// [ErrInvalidConfig], when cfg.SMTP.Port or cfg.MTASTS.Port is over 65535,
// cfg.SMTP.HeloName or cfg.SMTP.MailFrom holds a line break or a space,
// which no SMTP server would accept, cfg.SMTP.Proxy is not a SOCKS5 URL
// (the error never quotes it), or cfg.DNSBLZones holds a name that is
// not a domain or more than MaxDNSBLZones names. New does no I/O.
func New(cfg Config) (*Verifier, error) {
	if p := cfg.SMTP.Port; p > 65535 {
		return nil, cfgerr.New(ErrInvalidConfig, fmt.Sprintf("SMTP.Port %d is over 65535", p))
	}
	if strings.ContainsAny(cfg.SMTP.HeloName, "\r\n\t ") {
		return nil, cfgerr.New(ErrInvalidConfig, "SMTP.HeloName holds a line break or a space")
	}
	if strings.ContainsAny(cfg.SMTP.MailFrom, "\r\n\t ") {
		return nil, cfgerr.New(ErrInvalidConfig, "SMTP.MailFrom holds a line break or a space")
	}
	if p := cfg.MTASTS.Port; p < 0 || p > 65535 {
		return nil, cfgerr.New(ErrInvalidConfig, fmt.Sprintf("MTASTS.Port %d is not 0 to 65535", p))
	}
	v := &Verifier{cfg: cfg}
	if cfg.SMTP.Proxy != "" {
		d, err := proxyDialer(cfg.SMTP.withDefaults())
		if err != nil {
			return nil, cfgerr.New(ErrInvalidConfig, fmt.Sprintf("SMTP.Proxy %v", err))
		}
		v.proxyDial = d
	}
	o := cfg.SMTP.withDefaults()
	v.pace = newPacer(o.HostConnections, o.HostInterval)
	zones, err := dnsblZones(cfg.DNSBLZones)
	if err != nil {
		return nil, cfgerr.New(ErrInvalidConfig, err.Error()) // it starts with DNSBLZones
	}
	v.dnsbl = zones
	return v, nil
}

func (v *Verifier) lists() *Lists {
	if v.cfg.Lists != nil {
		return v.cfg.Lists
	}
	return DefaultLists()
}

func (v *Verifier) concurrency() int {
	if v.cfg.Concurrency > 0 {
		return v.cfg.Concurrency
	}
	return DefaultConcurrency
}

// Checks selects the checks beyond syntax. The zero value runs them all
// except the SMTP probe; the Skip fields switch checks off.
type Checks struct {
	SkipMX         bool
	SkipDisposable bool
	SkipRole       bool
	// SMTP runs the mailbox probe (single validation only).
	SMTP bool
}

// Result is what the checks found about one address: the fields shared
// by single and bulk validation (is_valid, email, local_part, domain,
// is_disposable, has_mx_records, is_role_account, reason), plus Quiver's
// extras.
type Result struct {
	// IsValid: the address is syntactically valid and, when MX was
	// checked, its domain exists and can receive mail.
	IsValid bool `json:"is_valid"`
	// Email is the normalized address (NFC, domain lowercased, local part
	// case kept); null when invalid.
	Email *string `json:"email"`
	// LocalPart is the normalized part before the @; null when the syntax
	// is invalid.
	LocalPart *string `json:"local_part"`
	// Domain is the normalized domain (Unicode for an IDN); null when the
	// syntax is invalid.
	Domain *string `json:"domain"`
	// ASCIIDomain is the domain in ASCII (IDNA A-labels); null when the
	// syntax is invalid.
	ASCIIDomain *string `json:"ascii_domain"`
	// SMTPUTF8 reports a local part with non-ASCII characters, which only
	// servers offering SMTPUTF8 accept.
	SMTPUTF8 bool `json:"smtputf8"`
	// IsDisposable: the domain (or a parent) is a known disposable
	// provider.
	IsDisposable bool `json:"is_disposable"`
	// HasMXRecords: the domain publishes MX records (not a null MX).
	HasMXRecords bool `json:"has_mx_records"`
	// IsRoleAccount: the local part, ignoring case and +tag, is a role
	// such as support or info.
	IsRoleAccount bool `json:"is_role_account"`
	// IsFreeProvider: the domain is a free mailbox provider.
	IsFreeProvider bool `json:"is_free_provider"`
	// DidYouMean is the address with the likely intended domain when the
	// domain looks like a typo of a common provider (gmial.com).
	DidYouMean *string `json:"did_you_mean"`
	// Reason is the code of why the address is invalid (see Reasons);
	// null when valid.
	Reason *Reason `json:"reason"`
	// ReasonMessage describes Reason in a sentence; null when valid.
	ReasonMessage *string `json:"reason_message"`
	// MX is the outcome of the MX check; null when it was not run.
	MX *MX `json:"mx"`
	// MailboxProvider is the provider of the domain's best MX host (see
	// [ProviderOf]), or, when the SMTP probe ran, of the MX host it
	// talked to, whose answer the provider's trust rules read; absent
	// when no MX host is known. An extension beyond the contract.
	MailboxProvider Provider `json:"mailbox_provider,omitempty" openapi:"extension"`
	// Reachability is the verdict: safe, risky, invalid or unknown (see
	// [ReachabilityOf]). Lists are never probed, so their rows are never
	// safe. An extension beyond the contract.
	Reachability Reachability `json:"reachability" openapi:"extension"`
	// ReachabilityReasons say why: empty for safe, at least one code
	// otherwise (see [ReachabilityReasons]). An extension beyond the
	// contract.
	ReachabilityReasons []ReachabilityReason `json:"reachability_reasons" openapi:"extension"`
}

// Validation is the result of a single validation: [Result] plus the SMTP
// probe (smtp_verified and its details).
type Validation struct {
	Result
	// SMTPVerified: the probe got a 250 for the address on a domain that
	// is not catch-all. False when not probed or undecided.
	SMTPVerified bool `json:"smtp_verified"`
	// SMTP is the probe's outcome; null when check_smtp was false or the
	// address is invalid.
	SMTP *SMTPResult `json:"smtp"`
}

// An MXStatus is the outcome of the MX check of a domain.
type MXStatus string

// MX statuses.
const (
	MXFound    MXStatus = "mx"             // MX records
	MXImplicit MXStatus = "implicit"       // no MX; the A/AAAA host is the implicit MX (RFC 5321 section 5.1)
	MXNull     MXStatus = "null_mx"        // null MX: the domain takes no mail (RFC 7505)
	MXNone     MXStatus = "no_mail_server" // neither MX nor address records
	MXNXDomain MXStatus = "nxdomain"       // the domain does not exist
	MXServFail MXStatus = "servfail"       // the resolver failed (SERVFAIL)
	MXTimeout  MXStatus = "timeout"        // no answer in time
	MXError    MXStatus = "error"          // another DNS failure
	MXSkipped  MXStatus = "skipped"        // no resolver configured
	MXLiteral  MXStatus = "ip_literal"     // the domain is an IP literal: no lookup
)

// MXStatuses returns the statuses of the MX check.
func MXStatuses() []MXStatus {
	return []MXStatus{MXFound, MXImplicit, MXNull, MXNone, MXNXDomain, MXServFail, MXTimeout, MXError, MXSkipped, MXLiteral}
}

// MaxMXHostsListed bounds the mail hosts an MX check lists: one DNS
// answer may name thousands. Real domains have a few; the SMTP probe
// tries the first, domain health checks the first MaxMXHostsChecked.
const MaxMXHostsListed = 32

// MX is the outcome of the MX check of a domain.
type MX struct {
	// Status is one of mx, implicit, null_mx, no_mail_server, nxdomain,
	// servfail, timeout, error, skipped, ip_literal.
	Status MXStatus `json:"status"`
	// Hosts are the mail hosts by preference, the first MaxMXHostsListed;
	// for implicit, the domain.
	Hosts []string `json:"hosts"`
	// HostsOmitted counts the mail hosts past MaxMXHostsListed, not
	// listed in Hosts (nor checked by anything that reads Hosts); 0 and
	// absent from the JSON form for every domain of up to
	// MaxMXHostsListed hosts. An extension beyond the contract.
	HostsOmitted int `json:"hosts_omitted,omitempty" openapi:"extension"`
	// Error describes a DNS failure.
	Error string `json:"error,omitempty"`
}

// Validate checks the syntax of one address and looks it up in the
// embedded lists, without I/O: it is [Verifier.Validate] with the zero
// Config, so the MX check reports status "skipped". Use a Verifier with a
// Resolver for the DNS checks.
func Validate(addr string) Validation {
	var v Verifier
	return v.Validate(context.Background(), addr, Checks{})
}

// Validate checks one address: syntax, then the lists, then MX, then the
// SMTP probe when asked and the address is valid so far.
func (v *Verifier) Validate(ctx context.Context, addr string, c Checks) Validation {
	a, res := v.check(addr, c)
	if res.Reason != nil {
		res.setReachability(nil, nil)
		return Validation{Result: res}
	}
	var mx *MX
	if !c.SkipMX {
		m := v.lookupMX(ctx, a)
		mx = &m
	}
	if mx != nil {
		res.applyMX(mx, mx.provider())
	}
	out := Validation{Result: res}
	if c.SMTP && res.IsValid {
		p := v.probe(ctx, a, mx)
		out.SMTP = &p
		out.SMTPVerified = p.Verified
		if p.Host != "" && !a.Literal && !noConversation(p.Reason) {
			// The host whose answer the trust rules read.
			out.MailboxProvider = ProviderOf(p.Host)
		}
	}
	out.setReachability(out.SMTP, nil)
	return out
}

// check runs the syntax and list checks.
func (v *Verifier) check(addr string, c Checks) (Address, Result) {
	a, reason := Parse(addr, v.cfg.Syntax)
	if reason != "" {
		return a, invalid(Result{}, reason)
	}
	l := v.lists()
	local, domain, ascii := a.Local, a.Domain, a.ASCIIDomain
	res := Result{IsValid: true, LocalPart: &local, Domain: &domain, ASCIIDomain: &ascii, SMTPUTF8: a.SMTPUTF8}
	if !a.Literal {
		res.IsDisposable = !c.SkipDisposable && l.IsDisposable(ascii)
		res.IsFreeProvider = l.IsFree(ascii)
		if s, ok := suggest(ascii, l); ok {
			dym := a.Local + "@" + s
			res.DidYouMean = &dym
		}
	}
	res.IsRoleAccount = !c.SkipRole && l.IsRole(a.Local)
	email := a.String()
	res.Email = &email
	return a, res
}

func invalid(r Result, reason Reason) Result {
	msg := reason.Message()
	r.IsValid, r.Email, r.Reason, r.ReasonMessage = false, nil, &reason, &msg
	return r
}

// applyMX records the MX outcome and its provider (mx.provider(), which a
// stream computes once per domain); a domain that cannot receive mail
// makes the address invalid. DNS failures leave it valid: they prove
// nothing.
func (r *Result) applyMX(mx *MX, provider Provider) {
	r.MX = mx
	if mx == nil {
		return
	}
	r.HasMXRecords = mx.Status == MXFound
	r.MailboxProvider = provider
	switch mx.Status {
	case MXNXDomain:
		*r = invalid(*r, ReasonDomainNotFound)
	case MXNull:
		*r = invalid(*r, ReasonNullMX)
	case MXNone:
		*r = invalid(*r, ReasonNoMailServer)
	}
}

// provider returns the provider of the best MX host; "" when there is
// none, or the domain is an IP literal.
func (m *MX) provider() Provider {
	if len(m.Hosts) == 0 || m.Status == MXLiteral {
		return ""
	}
	return ProviderOf(m.Hosts[0])
}

// setReachability records the verdict on r, probed with outcome p (nil:
// not probed), its reasons cut from a (nil: a new slice).
func (r *Result) setReachability(p *SMTPResult, a *reasonArena) {
	r.Reachability, r.ReachabilityReasons = judge(r, p, a)
}

// lookupMX applies the MX rules to the address's domain.
func (v *Verifier) lookupMX(ctx context.Context, a Address) MX {
	if a.Literal {
		return MX{Status: MXLiteral, Hosts: []string{a.Domain}}
	}
	return v.domainMX(ctx, a.ASCIIDomain)
}

// domainMX looks up the mail hosts of an ASCII domain: its MX records; a
// null MX; or, without MX records, the domain itself when it has an
// address (the implicit MX of RFC 5321 section 5.1).
func (v *Verifier) domainMX(ctx context.Context, domain string) MX {
	if v.cfg.Resolver == nil {
		return MX{Status: MXSkipped, Hosts: []string{}}
	}
	mxs, err := v.cfg.Resolver.LookupMX(ctx, domain)
	if err == nil {
		hosts := make([]string, 0, len(mxs))
		for _, m := range mxs {
			if m.Host != "" {
				hosts = append(hosts, m.Host)
			}
		}
		if len(hosts) == 0 {
			return MX{Status: MXNull, Hosts: hosts}
		}
		shown := min(len(hosts), MaxMXHostsListed)
		return MX{Status: MXFound, Hosts: hosts[:shown:shown], HostsOmitted: len(hosts) - shown}
	}
	if errors.Is(err, resolver.ErrNoData) {
		if _, err = v.cfg.Resolver.LookupIP(ctx, domain); err == nil {
			return MX{Status: MXImplicit, Hosts: []string{domain}}
		}
		if errors.Is(err, resolver.ErrNoData) {
			return MX{Status: MXNone, Hosts: []string{}}
		}
	}
	return mxFailure(err)
}

func mxFailure(err error) MX {
	m := MX{Hosts: []string{}, Error: mailauth.LookupText(err)}
	switch {
	case errors.Is(err, resolver.ErrNXDomain):
		m.Status, m.Error = MXNXDomain, ""
	case errors.Is(err, resolver.ErrServFail):
		m.Status = MXServFail
	case errors.Is(err, resolver.ErrTimeout):
		m.Status = MXTimeout
	default:
		m.Status = MXError
	}
	return m
}
