package email

import (
	"context"
	"errors"

	"github.com/quiverkit/quiver/resolver"
)

// A Verifier runs the checks of the package with its dependencies. The
// zero value works: syntax and list checks with the embedded lists, and
// no DNS (MX checks report status "skipped"). Its methods are safe for
// concurrent use.
type Verifier struct {
	// Resolver answers the MX, SPF and DMARC questions. Nil disables them.
	Resolver *resolver.Resolver
	// Lists are the disposable, free-provider and role lists. Default:
	// DefaultLists().
	Lists *Lists
	// Syntax relaxes or tightens the syntax check.
	Syntax SyntaxOptions
	// SMTP configures the mailbox probe of single validations.
	SMTP SMTPOptions
	// Concurrency bounds the DNS lookups a bulk operation runs at once.
	// Default DefaultConcurrency.
	Concurrency int
}

// DefaultConcurrency is the default of [Verifier.Concurrency].
const DefaultConcurrency = 64

func (v *Verifier) lists() *Lists {
	if v.Lists != nil {
		return v.Lists
	}
	return DefaultLists()
}

func (v *Verifier) concurrency() int {
	if v.Concurrency > 0 {
		return v.Concurrency
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

// Result is what the checks found about one address: the fields of
// section 2.1 of the specification shared by single and bulk validation,
// plus Quiver's extras.
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
}

// Validation is the result of a single validation: [Result] plus the SMTP
// probe (section 2.1).
type Validation struct {
	Result
	// SMTPVerified: the probe got a 250 for the address on a domain that
	// is not catch-all. False when not probed or undecided.
	SMTPVerified bool `json:"smtp_verified"`
	// SMTP is the probe's outcome; null when check_smtp was false or the
	// address is invalid.
	SMTP *SMTPResult `json:"smtp"`
}

// MX statuses.
const (
	MXFound    = "mx"             // MX records
	MXImplicit = "implicit"       // no MX; the A/AAAA host is the implicit MX (RFC 5321 section 5.1)
	MXNull     = "null_mx"        // null MX: the domain takes no mail (RFC 7505)
	MXNone     = "no_mail_server" // neither MX nor address records
	MXNXDomain = "nxdomain"       // the domain does not exist
	MXServFail = "servfail"       // the resolver failed (SERVFAIL)
	MXTimeout  = "timeout"        // no answer in time
	MXError    = "error"          // another DNS failure
	MXSkipped  = "skipped"        // no resolver configured
	MXLiteral  = "ip_literal"     // the domain is an IP literal: no lookup
)

// MX is the outcome of the MX check of a domain.
type MX struct {
	// Status is one of mx, implicit, null_mx, no_mail_server, nxdomain,
	// servfail, timeout, error, skipped, ip_literal.
	Status string `json:"status"`
	// Hosts are the mail hosts by preference; for implicit, the domain.
	Hosts []string `json:"hosts"`
	// Error describes a DNS failure.
	Error string `json:"error,omitempty"`
}

// Validate checks one address with the zero [Verifier] configured by opts.
// See [Verifier.Validate].
func Validate(ctx context.Context, addr string, opts Options) Validation {
	v := Verifier{Resolver: opts.Resolver, Lists: opts.Lists, Syntax: opts.SyntaxOptions, SMTP: opts.SMTPOptions}
	return v.Validate(ctx, addr, opts.Checks)
}

// Options configure [Validate].
type Options struct {
	SyntaxOptions
	Checks
	SMTPOptions
	// Resolver answers the MX lookup; nil skips it.
	Resolver *resolver.Resolver
	// Lists default to DefaultLists().
	Lists *Lists
}

// Validate checks one address: syntax, then the lists, then MX, then the
// SMTP probe when asked and the address is valid so far.
func (v *Verifier) Validate(ctx context.Context, addr string, c Checks) Validation {
	a, res := v.check(addr, c)
	if res.Reason != nil {
		return Validation{Result: res}
	}
	var mx *MX
	if !c.SkipMX {
		m := v.lookupMX(ctx, a)
		mx = &m
	}
	res.applyMX(mx)
	out := Validation{Result: res}
	if c.SMTP && res.IsValid {
		p := v.probe(ctx, a, mx)
		out.SMTP = &p
		out.SMTPVerified = p.Verified
	}
	return out
}

// check runs the syntax and list checks.
func (v *Verifier) check(addr string, c Checks) (Address, Result) {
	a, reason := Parse(addr, v.Syntax)
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

// applyMX records the MX outcome; a domain that cannot receive mail makes
// the address invalid. DNS failures leave it valid: they prove nothing.
func (r *Result) applyMX(mx *MX) {
	r.MX = mx
	if mx == nil {
		return
	}
	r.HasMXRecords = mx.Status == MXFound
	switch mx.Status {
	case MXNXDomain:
		*r = invalid(*r, ReasonDomainNotFound)
	case MXNull:
		*r = invalid(*r, ReasonNullMX)
	case MXNone:
		*r = invalid(*r, ReasonNoMailServer)
	}
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
	if v.Resolver == nil {
		return MX{Status: MXSkipped, Hosts: []string{}}
	}
	mxs, err := v.Resolver.LookupMX(ctx, domain)
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
		return MX{Status: MXFound, Hosts: hosts}
	}
	if errors.Is(err, resolver.ErrNoData) {
		if _, err = v.Resolver.LookupIP(ctx, domain); err == nil {
			return MX{Status: MXImplicit, Hosts: []string{domain}}
		}
		if errors.Is(err, resolver.ErrNoData) {
			return MX{Status: MXNone, Hosts: []string{}}
		}
	}
	return mxFailure(err)
}

func mxFailure(err error) MX {
	m := MX{Hosts: []string{}, Error: err.Error()}
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

// Resolver is the caching DNS resolver the checks use (the one Quiver
// shares between its packages). Build one with [NewResolver] and share it.
type Resolver = resolver.Resolver

// ResolverConfig configures [NewResolver]. The zero value asks the servers
// of /etc/resolv.conf; set Servers to choose others ("host:port").
type ResolverConfig = resolver.Config

// NewResolver returns a resolver with a TTL-honouring cache and in-flight
// de-duplication, for [Verifier.Resolver] and [Options.Resolver].
func NewResolver(cfg ResolverConfig) (*Resolver, error) { return resolver.New(cfg) }
