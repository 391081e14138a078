package email

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/mailauth"
)

// DomainHealthRequest is the body of POST /v1/email/domain/health.
type DomainHealthRequest struct {
	// Domains are the domains to check, 1 to 500.
	Domains []string `json:"domains" openapi:"required"`
	// CheckSTARTTLS connects to the SMTP port of each checked MX host
	// to see whether it offers STARTTLS (mx_hosts[].starttls), with the
	// settings, bounds and pacing of the SMTP probe; a host serving
	// several of the domains is contacted once. Default false: DNS
	// only. An extension beyond the specification.
	CheckSTARTTLS bool `json:"check_starttls,omitempty" openapi:"extension"`
}

// Verdicts of a domain-health check.
const (
	VerdictReady          = "ready"           // no problem found
	VerdictNeedsAttention = "needs_attention" // warnings only
	VerdictNotReady       = "not_ready"       // at least one error
	VerdictUnknown        = "unknown"         // DNS failed; nothing proven
)

// A Problem is one finding of the domain-health check.
type Problem struct {
	// Code identifies the problem: no_mx, null_mx, domain_not_found,
	// dns_error, spf_missing, spf_invalid, spf_plus_all, spf_weak_all,
	// spf_no_all, spf_too_many_lookups, spf_too_many_void_lookups,
	// dmarc_missing, dmarc_invalid, dmarc_p_none, dmarc_pct, dmarc_no_rua;
	// and, for the MX hosts (extensions): mx_no_address (warning: a host
	// without an A or AAAA record), mx_no_fcrdns (warning: an address
	// without forward-confirmed reverse DNS), mx_listed (error: an
	// address listed by a configured DNSBL), mx_no_starttls (warning: a
	// host that does not offer STARTTLS, when asked), mx_dns_error
	// (warning: a lookup of the MX hosts check failed), dnsbl_error
	// (warning: a DNSBL failed or answered an error code, such as
	// Spamhaus's 127.255.255.254 for queries through public resolvers).
	Code string `json:"code"`
	// Severity is "error" (mail is at risk) or "warning".
	Severity string `json:"severity"`
	// Message explains it.
	Message string `json:"message"`
}

// DomainHealth is the MX, SPF and DMARC readiness of one domain.
type DomainHealth struct {
	// Domain is the domain as normalized (lowercase, A-labels).
	Domain string `json:"domain"`
	// MX is the MX check: status and hosts by preference.
	MX MX `json:"mx"`
	// SPF is the SPF policy as mailauth.CheckSPF evaluates it; null when
	// none is published or its lookup failed.
	SPF *mailauth.SPF `json:"spf"`
	// DMARC is the DMARC policy as mailauth.CheckDMARC finds it; null
	// when none applies or its lookup failed.
	DMARC *mailauth.DMARC `json:"dmarc"`
	// MXHosts is the check of the first MaxMXHostsChecked MX hosts (see
	// [Verifier.CheckMXHosts]): addresses, forward-confirmed reverse
	// DNS, DNSBL listings and, when asked, STARTTLS. Empty when the
	// domain has no mail host or its MX lookup failed. An extension
	// beyond the specification.
	MXHosts []MXHost `json:"mx_hosts" openapi:"extension"`
	// Verdict is ready, needs_attention, not_ready or unknown.
	Verdict string `json:"verdict"`
	// Problems are every finding, errors first.
	Problems []Problem `json:"problems"`
}

// DomainHealthResult is the data of the domain-health check.
type DomainHealthResult struct {
	// Results are in input order.
	Results []DomainHealth `json:"results"`
}

// DomainHealth checks the MX, SPF and DMARC readiness of 1 to 500
// domains, each distinct domain once, at most Concurrency at a time, and
// the MX hosts of each (mx_hosts, see [Verifier.CheckMXHosts]). A
// domain that is not a valid name is a validation error naming its index.
// A domain whose MX lookup times out is verdict unknown, and its SPF and
// DMARC are not asked for. Without a Resolver it answers 503.
func (v *Verifier) DomainHealth(ctx context.Context, req DomainHealthRequest) (DomainHealthResult, error) {
	if err := checkBatch("domains", len(req.Domains)); err != nil {
		return DomainHealthResult{}, err
	}
	var verr envelope.ValidationError
	names := make([]string, len(req.Domains))
	for i, d := range req.Domains {
		var a Address
		d = strings.TrimSuffix(strings.TrimSpace(d), ".")
		if d == "" {
			verr.Add(fmt.Sprintf("domains[%d]", i), "is empty")
			continue
		}
		if reason := parseDomain(d, &a); reason != "" {
			verr.Add(fmt.Sprintf("domains[%d]", i), "is not a valid domain: "+reason.Message())
			continue
		}
		names[i] = a.ASCIIDomain
	}
	if err := verr.Err(); err != nil {
		return DomainHealthResult{}, err
	}
	if v.cfg.Resolver == nil {
		return DomainHealthResult{}, envelope.Errorf(envelope.CodeServiceUnavailable, "no DNS resolver is configured")
	}
	distinct := map[string]int{}
	var order []string
	for _, n := range names {
		if _, ok := distinct[n]; !ok {
			distinct[n] = len(order)
			order = append(order, n)
		}
	}
	checked := make([]DomainHealth, len(order))
	var memo *starttlsMemo
	if req.CheckSTARTTLS {
		memo = &starttlsMemo{}
	}
	forEach(len(order), v.concurrency(), func(i int) { checked[i] = v.health(ctx, order[i], memo) })
	out := DomainHealthResult{Results: make([]DomainHealth, len(names))}
	for i, n := range names {
		out.Results[i] = checked[distinct[n]]
	}
	return out, nil
}

// health checks one domain; a non-nil memo asks for the STARTTLS check
// of its MX hosts.
func (v *Verifier) health(ctx context.Context, domain string, memo *starttlsMemo) DomainHealth {
	h := DomainHealth{Domain: domain, MX: v.domainMX(ctx, domain), MXHosts: []MXHost{}, Problems: []Problem{}}
	var errs, warns []Problem
	add := func(sev, code, msg string) {
		p := Problem{Code: code, Severity: sev, Message: msg}
		if sev == "error" {
			errs = append(errs, p)
		} else {
			warns = append(warns, p)
		}
	}
	// The MX hosts are checked beside the SPF and DMARC lookups.
	var hostsDone sync.WaitGroup
	var mxProblems []Problem
	if h.MX.Status == MXFound || h.MX.Status == MXImplicit {
		hostsDone.Go(func() {
			h.MXHosts = v.mxHosts(ctx, h.MX.Hosts, memo != nil, memo, func(sev, code, msg string) {
				mxProblems = append(mxProblems, Problem{Code: code, Severity: sev, Message: msg})
			})
		})
	}
	dnsFailed := false
	switch h.MX.Status {
	case MXNXDomain:
		add("error", "domain_not_found", "the domain does not exist (NXDOMAIN)")
	case MXNull:
		add("error", "null_mx", "the domain publishes a null MX: it accepts no mail")
	case MXNone:
		add("error", "no_mx", "the domain has no MX records and no address to fall back on")
	case MXImplicit:
		add("warning", "no_mx", "the domain has no MX records; mail goes to its A/AAAA address (implicit MX)")
	case MXServFail, MXTimeout, MXError:
		dnsFailed = true
		add("error", "dns_error", "the MX lookup failed: "+h.MX.Error)
	}
	// A domain that does not exist has no records; one whose DNS did not
	// answer in time would cost a timeout per record, to prove nothing.
	if h.MX.Status != MXNXDomain && h.MX.Status != MXTimeout {
		spf, err := mailauth.CheckSPF(ctx, v.cfg.Resolver, domain)
		switch {
		case errors.Is(err, mailauth.ErrNoRecord):
			add("error", "spf_missing", "no SPF record: receivers cannot tell which hosts may send for the domain")
		case err != nil:
			dnsFailed = true
			add("error", "dns_error", "the SPF lookup failed: "+err.Error())
		default:
			h.SPF = spf
			spfProblems(spf, add)
		}
		dmarc, err := mailauth.CheckDMARC(ctx, v.cfg.Resolver, domain)
		switch {
		case errors.Is(err, mailauth.ErrNoRecord):
			add("error", "dmarc_missing", "no DMARC record at _dmarc."+domain+": spoofed mail is not rejected and no reports are sent")
		case err != nil:
			dnsFailed = true
			add("error", "dns_error", "the DMARC lookup failed: "+err.Error())
		default:
			h.DMARC = dmarc
			dmarcProblems(dmarc, add)
		}
	}
	hostsDone.Wait()
	for _, p := range mxProblems {
		add(p.Severity, p.Code, p.Message)
	}
	h.Problems = append(append(h.Problems, errs...), warns...)
	switch {
	case dnsFailed:
		h.Verdict = VerdictUnknown
	case len(errs) > 0:
		h.Verdict = VerdictNotReady
	case len(warns) > 0:
		h.Verdict = VerdictNeedsAttention
	default:
		h.Verdict = VerdictReady
	}
	return h
}

// spfProblems adds the problems of an SPF policy: each of its errors,
// under a code of ours chosen by mailauth's code, and the weaknesses of
// its all mechanism.
func spfProblems(s *mailauth.SPF, add func(sev, code, msg string)) {
	for _, p := range s.Problems {
		if p.Severity == mailauth.SeverityError {
			add("error", spfCode(p.Code), p.Message)
		}
	}
	switch s.All {
	case "+all":
		add("error", "spf_plus_all", "+all lets any host on the internet send mail for the domain")
	case "?all":
		add("warning", "spf_weak_all", "?all asserts nothing about unlisted hosts; use ~all or -all")
	case "":
		add("warning", "spf_no_all", "the SPF record ends without an all mechanism; unlisted hosts get a neutral result")
	}
}

// spfCode is the domain-health code of an SPF error of mailauth.
func spfCode(c mailauth.Code) string {
	switch c {
	case mailauth.CodeSPFTooManyLookups:
		return "spf_too_many_lookups"
	case mailauth.CodeSPFTooManyVoidLookups:
		return "spf_too_many_void_lookups"
	}
	return "spf_invalid"
}

func dmarcProblems(d *mailauth.DMARC, add func(sev, code, msg string)) {
	for _, p := range d.Problems {
		if p.Severity == mailauth.SeverityError {
			add("error", "dmarc_invalid", p.Message)
		}
	}
	if d.Policy == "none" {
		add("warning", "dmarc_p_none", "p=none only monitors: spoofed mail is still delivered")
	}
	if d.Percent < 100 {
		add("warning", "dmarc_pct", fmt.Sprintf("pct=%d applies the policy to part of the failing mail only", d.Percent))
	}
	if len(d.RUA) == 0 {
		add("warning", "dmarc_no_rua", "no rua: the domain receives no aggregate reports")
	}
}
