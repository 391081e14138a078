package email

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/meter"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
)

// DomainHealthRequest is the body of POST /v1/email/domain/health.
type DomainHealthRequest struct {
	// Domains are the domains to check, 1 to 500.
	Domains []string `json:"domains" openapi:"required"`
	// CheckSTARTTLS connects to the SMTP port of each checked MX host
	// to see whether it offers STARTTLS (mx_hosts[].starttls), with the
	// settings, bounds and pacing of the SMTP probe; a host serving
	// several of the domains is contacted once, and at most
	// MaxSTARTTLSHosts distinct hosts are (the others get starttls null
	// and their domains an mx_starttls_bound warning). Default false: DNS
	// only. An extension beyond the contract.
	CheckSTARTTLS bool `json:"check_starttls,omitempty" openapi:"extension"`
	// DKIMSelectors are DKIM selectors to probe besides
	// mailauth.DefaultDKIMSelectors, at most mailauth.MaxDKIMSelectors,
	// each DNS labels.
	// An extension beyond the contract.
	DKIMSelectors []string `json:"dkim_selectors,omitempty" openapi:"extension"`
}

// A Verdict is the conclusion of a domain-health check
// ([DomainHealth.Verdict]) or of its bulk-sender readiness
// ([Readiness.Verdict], which is never needs_attention).
type Verdict string

// Verdicts of a domain-health check.
const (
	VerdictReady          Verdict = "ready"           // no problem found
	VerdictNeedsAttention Verdict = "needs_attention" // warnings only
	VerdictNotReady       Verdict = "not_ready"       // at least one error; data that fails DNSSEC validation (dnssec_bogus) is one, whatever else failed
	VerdictUnknown        Verdict = "unknown"         // the MX, SPF or DMARC lookup failed (not for DNSSEC); nothing proven
)

// Verdicts returns the verdicts, from the best.
func Verdicts() []Verdict {
	return []Verdict{VerdictReady, VerdictNeedsAttention, VerdictNotReady, VerdictUnknown}
}

// A ProblemCode names the kind of a domain-health [Problem], so that a
// program can act on a finding without reading its message. The codes
// of the MTA-STS, TLS-RPT, DKIM and BIMI records are mailauth's (the
// [mailauth.Code] of the same word); the others are this package's.
type ProblemCode string

// The codes of domain-health problems; [Problem.Code] says when each is
// an error and when a warning.
const (
	ProblemDomainNotFound          ProblemCode = "domain_not_found"
	ProblemNullMX                  ProblemCode = "null_mx"
	ProblemNoMX                    ProblemCode = "no_mx"
	ProblemDNSError                ProblemCode = "dns_error"
	ProblemSPFMissing              ProblemCode = "spf_missing"
	ProblemSPFInvalid              ProblemCode = "spf_invalid"
	ProblemSPFPlusAll              ProblemCode = "spf_plus_all"
	ProblemSPFWeakAll              ProblemCode = "spf_weak_all"
	ProblemSPFNoAll                ProblemCode = "spf_no_all"
	ProblemSPFTooManyLookups       ProblemCode = "spf_too_many_lookups"
	ProblemSPFTooManyVoidLookups   ProblemCode = "spf_too_many_void_lookups"
	ProblemDMARCMissing            ProblemCode = "dmarc_missing"
	ProblemDMARCInvalid            ProblemCode = "dmarc_invalid"
	ProblemDMARCPolicyNone         ProblemCode = "dmarc_p_none"
	ProblemDMARCPartial            ProblemCode = "dmarc_pct"
	ProblemDMARCNoRUA              ProblemCode = "dmarc_no_rua"
	ProblemMXNoAddress             ProblemCode = "mx_no_address"
	ProblemMXNoFCrDNS              ProblemCode = "mx_no_fcrdns"
	ProblemMXListed                ProblemCode = "mx_listed"
	ProblemMXNoSTARTTLS            ProblemCode = "mx_no_starttls"
	ProblemMXSTARTTLSUnreachable   ProblemCode = "mx_starttls_unreachable"
	ProblemMXSTARTTLSBound         ProblemCode = "mx_starttls_bound"
	ProblemMXDNSError              ProblemCode = "mx_dns_error"
	ProblemDNSBLError              ProblemCode = "dnsbl_error"
	ProblemMTASTSSyntax            ProblemCode = ProblemCode(mailauth.CodeMTASTSSyntax)
	ProblemMTASTSMultipleRecords   ProblemCode = ProblemCode(mailauth.CodeMTASTSMultipleRecords)
	ProblemMTASTSPolicyUnavailable ProblemCode = ProblemCode(mailauth.CodeMTASTSPolicyUnavailable)
	ProblemMTASTSPolicySyntax      ProblemCode = ProblemCode(mailauth.CodeMTASTSPolicySyntax)
	ProblemMTASTSMXMismatch        ProblemCode = ProblemCode(mailauth.CodeMTASTSMXMismatch)
	ProblemMTASTSShortMaxAge       ProblemCode = ProblemCode(mailauth.CodeMTASTSShortMaxAge)
	ProblemMTASTSDuplicateField    ProblemCode = ProblemCode(mailauth.CodeMTASTSDuplicateField)
	ProblemMTASTSPolicyContentType ProblemCode = ProblemCode(mailauth.CodeMTASTSPolicyContentType)
	ProblemTLSRPTSyntax            ProblemCode = ProblemCode(mailauth.CodeTLSRPTSyntax)
	ProblemTLSRPTInvalidRUA        ProblemCode = ProblemCode(mailauth.CodeTLSRPTInvalidRUA)
	ProblemTLSRPTMultipleRecords   ProblemCode = ProblemCode(mailauth.CodeTLSRPTMultipleRecords)
	ProblemDKIMSyntax              ProblemCode = ProblemCode(mailauth.CodeDKIMSyntax)
	ProblemDKIMInvalidKey          ProblemCode = ProblemCode(mailauth.CodeDKIMInvalidKey)
	ProblemDKIMWeakKey             ProblemCode = ProblemCode(mailauth.CodeDKIMWeakKey)
	ProblemDKIMMultipleRecords     ProblemCode = ProblemCode(mailauth.CodeDKIMMultipleRecords)
	ProblemDKIMShortKey            ProblemCode = ProblemCode(mailauth.CodeDKIMShortKey)
	ProblemDKIMRevoked             ProblemCode = ProblemCode(mailauth.CodeDKIMRevoked)
	ProblemDKIMTesting             ProblemCode = ProblemCode(mailauth.CodeDKIMTesting)
	ProblemBIMISyntax              ProblemCode = ProblemCode(mailauth.CodeBIMISyntax)
	ProblemBIMIMultipleRecords     ProblemCode = ProblemCode(mailauth.CodeBIMIMultipleRecords)
	ProblemBIMINoAuthority         ProblemCode = ProblemCode(mailauth.CodeBIMINoAuthority)
	ProblemBIMIDMARCNotEnforced    ProblemCode = ProblemCode(mailauth.CodeBIMIDMARCNotEnforced)
	ProblemDNSSECBroken            ProblemCode = ProblemCode(mailauth.CodeDNSSECBroken)
	ProblemDNSSECNoDS              ProblemCode = ProblemCode(mailauth.CodeDNSSECNoDS)
	ProblemDNSSECBogus             ProblemCode = ProblemCode(mailauth.CodeDNSSECBogus)
)

// ProblemCodes returns every domain-health problem code, in the order
// [Problem.Code] lists them: MX, SPF, DMARC, MX hosts, MTA-STS, TLS-RPT,
// DKIM, BIMI, DNSSEC.
func ProblemCodes() []ProblemCode {
	return []ProblemCode{
		ProblemDomainNotFound,
		ProblemNullMX,
		ProblemNoMX,
		ProblemDNSError,
		ProblemSPFMissing,
		ProblemSPFInvalid,
		ProblemSPFPlusAll,
		ProblemSPFWeakAll,
		ProblemSPFNoAll,
		ProblemSPFTooManyLookups,
		ProblemSPFTooManyVoidLookups,
		ProblemDMARCMissing,
		ProblemDMARCInvalid,
		ProblemDMARCPolicyNone,
		ProblemDMARCPartial,
		ProblemDMARCNoRUA,
		ProblemMXNoAddress,
		ProblemMXNoFCrDNS,
		ProblemMXListed,
		ProblemMXNoSTARTTLS,
		ProblemMXSTARTTLSUnreachable,
		ProblemMXSTARTTLSBound,
		ProblemMXDNSError,
		ProblemDNSBLError,
		ProblemMTASTSSyntax,
		ProblemMTASTSMultipleRecords,
		ProblemMTASTSPolicyUnavailable,
		ProblemMTASTSPolicySyntax,
		ProblemMTASTSMXMismatch,
		ProblemMTASTSShortMaxAge,
		ProblemMTASTSDuplicateField,
		ProblemMTASTSPolicyContentType,
		ProblemTLSRPTSyntax,
		ProblemTLSRPTInvalidRUA,
		ProblemTLSRPTMultipleRecords,
		ProblemDKIMSyntax,
		ProblemDKIMInvalidKey,
		ProblemDKIMWeakKey,
		ProblemDKIMMultipleRecords,
		ProblemDKIMShortKey,
		ProblemDKIMRevoked,
		ProblemDKIMTesting,
		ProblemBIMISyntax,
		ProblemBIMIMultipleRecords,
		ProblemBIMINoAuthority,
		ProblemBIMIDMARCNotEnforced,
		ProblemDNSSECBroken,
		ProblemDNSSECNoDS,
		ProblemDNSSECBogus,
	}
}

// A Problem is one finding of the domain-health check.
type Problem struct {
	// Code identifies the problem (the Problem constants, listed by
	// ProblemCodes): no_mx, null_mx, domain_not_found,
	// dns_error, spf_missing, spf_invalid, spf_plus_all, spf_weak_all,
	// spf_no_all, spf_too_many_lookups, spf_too_many_void_lookups,
	// dmarc_missing, dmarc_invalid, dmarc_p_none, dmarc_pct, dmarc_no_rua;
	// and, for the MX hosts (extensions): mx_no_address (warning: a host
	// without an A or AAAA record), mx_no_fcrdns (warning: an address
	// without forward-confirmed reverse DNS), mx_listed (error: an
	// address listed by a configured DNSBL), mx_no_starttls (warning: a
	// host that does not offer STARTTLS, when asked),
	// mx_starttls_unreachable (warning: STARTTLS was asked for but the
	// host could not be checked: connection refused, timeout, an address
	// the probe's policy refuses, a proxy failure; the message says
	// which), mx_starttls_bound
	// (warning: STARTTLS not checked for some hosts, past
	// MaxSTARTTLSHosts in one request), mx_dns_error
	// (warning: a lookup of the MX hosts check failed), dnsbl_error
	// (warning: a DNSBL failed or answered an error code, such as
	// Spamhaus's 127.255.255.254 for queries through public resolvers).
	//
	// Extensions, for the records a domain need not publish (their
	// absence is no problem; a broken one is):
	//   - MTA-STS: mta_sts_syntax, mta_sts_multiple_records (errors in the
	//     _mta-sts record), mta_sts_policy_unavailable (the policy cannot
	//     be fetched: an error for the server's HTTP status, certificate,
	//     redirect or size; a warning for a timeout, a refused connection,
	//     a DNS server failure or a refused address, which prove nothing),
	//     mta_sts_policy_syntax (error), mta_sts_mx_mismatch (an MX host
	//     matches no mx pattern: an error under mode enforce, a warning
	//     under testing), mta_sts_short_max_age, mta_sts_duplicate_field,
	//     mta_sts_policy_content_type (warnings).
	//   - TLS-RPT: tlsrpt_syntax, tlsrpt_invalid_rua,
	//     tlsrpt_multiple_records (errors).
	//   - DKIM, per selector found: dkim_syntax, dkim_invalid_key,
	//     dkim_weak_key (RSA under 1024 bits), dkim_multiple_records
	//     (errors); dkim_short_key (RSA under 2048 bits), dkim_revoked,
	//     dkim_testing (warnings).
	//   - BIMI: bimi_syntax, bimi_multiple_records (errors);
	//     bimi_no_authority, bimi_dmarc_not_enforced (warnings).
	//   - DNSSEC: dnssec_broken (error: a DS without DNSKEY),
	//     dnssec_no_ds (warning: a signed zone the parent does not point
	//     to), dnssec_bogus (error: a lookup failed DNSSEC validation at
	//     the resolver, resolver.ErrDNSSECBogus, as it does for every
	//     sender that validates; the message names the lookup and the
	//     resolver's Extended DNS Error, such as "EDE 6 (DNSSEC Bogus)"
	//     or "EDE 7 (Signature Expired)"; it replaces the dns_error or
	//     mx_dns_error of that lookup, and makes the verdict not_ready,
	//     since validating senders cannot read the records).
	//   - dns_error as a warning: a lookup of one of these records
	//     failed; only MX, SPF and DMARC failures make the verdict
	//     unknown.
	Code ProblemCode `json:"code"`
	// Severity is mailauth.SeverityError (mail is at risk) or
	// mailauth.SeverityWarning.
	Severity mailauth.Severity `json:"severity"`
	// Message explains it.
	Message string `json:"message"`
}

// DomainHealth is the MX, SPF and DMARC readiness of one domain.
type DomainHealth struct {
	// Domain is the domain as normalized (lowercase, A-labels).
	Domain string `json:"domain"`
	// Inputs are the zero-based indexes in DomainHealthRequest.Domains
	// of the entries that normalize to Domain, in order: several when
	// the request names a domain more than once ("Example.com",
	// "example.com."), each answered by this one result. An extension
	// beyond the contract.
	Inputs []int `json:"inputs" openapi:"extension"`
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
	// beyond the contract.
	MXHosts []MXHost `json:"mx_hosts" openapi:"extension"`
	// MTASTS is the MTA-STS record and policy (an extension); null when
	// not checked: the domain does not exist or its MX lookup timed out.
	MTASTS *mailauth.MTASTS `json:"mta_sts" openapi:"extension"`
	// TLSRPT is the SMTP TLS Reporting record (an extension); null when
	// not checked.
	TLSRPT *mailauth.TLSRPT `json:"tls_rpt" openapi:"extension"`
	// DKIM are the keys found at the probed selectors (an extension);
	// null when not checked.
	DKIM *mailauth.DKIM `json:"dkim" openapi:"extension"`
	// BIMI is the BIMI record (an extension); null when not checked.
	BIMI *mailauth.BIMI `json:"bimi" openapi:"extension"`
	// DNSSEC is the zone's DNSSEC state (an extension); null when not
	// checked.
	DNSSEC *mailauth.DNSSEC `json:"dnssec" openapi:"extension"`
	// BulkSender is the bulk-sender readiness for Gmail and Yahoo, as
	// far as DNS shows it (an extension; see BulkSenderReadiness).
	BulkSender Readiness `json:"bulk_sender" openapi:"extension"`
	// Verdict is ready, needs_attention, not_ready or unknown.
	Verdict Verdict `json:"verdict"`
	// Problems are every finding, errors first.
	Problems []Problem `json:"problems"`
}

// MaxDomainHealthBytes bounds the JSON form of one DomainHealth, whatever
// the domain publishes: 4 MiB. Every text taken from DNS or a policy is
// bounded (records to mailauth.MaxRecordBytes, their values to
// mailauth.MaxValueBytes, problem messages and reasons to
// mailauth.MaxMessageBytes, MX hosts to MaxMXHostsListed, PTR names to
// MaxPTRListed), and so are the lists (100 SPF terms, 64 DMARC tags, 16
// report URIs, 100 MTA-STS mx patterns, 10 problems a record, the
// probed DKIM selectors). The bound adds them up with each byte
// escaped six-fold, as JSON writes a control character (\u0001); a
// domain of ordinary records takes a few KB.
const MaxDomainHealthBytes = 4 << 20

// DomainHealthResult is the data of the domain-health check.
type DomainHealthResult struct {
	// Results has one result per distinct domain, in the order of the
	// domain's first appearance in the request: domains that normalize
	// to the same name (case, a final dot, the Unicode and A-label forms
	// of an internationalized name) share one result, whose Inputs list
	// their indexes.
	Results []DomainHealth `json:"results"`
}

// DomainHealth checks the MX, SPF and DMARC readiness of 1 to 500
// domains, at most Concurrency at a time. The domains are normalized
// (lowercase A-labels, without a final dot) and de-duplicated: each
// distinct domain is checked once and answered once, in the order of
// its first appearance, its DomainHealth.Inputs naming the request
// entries it answers. It checks the MX, SPF and DMARC records of each,
// its MX hosts (mx_hosts, see [Verifier.CheckMXHosts]), and as
// extensions its MTA-STS, TLS-RPT, DKIM, BIMI and DNSSEC records and
// the bulk-sender readiness. A domain that is not a valid name is a
// validation error naming its index. A domain whose MX lookup times out
// is verdict unknown, and nothing else is asked for.
//
// Cost: the MX lookup first (a domain that does not exist or does not
// answer costs one query), then every other record in one parallel
// round (SPF, DMARC, _mta-sts, _smtp._tls, default._bimi, DS, DNSKEY,
// each DKIM selector, and the MX hosts' addresses), then the MTA-STS
// policy fetch when a record announces one, and the lookups that depend
// on an answer (the MX hosts' reverse DNS and DNSBLs, SPF includes, the
// DMARC fallback to the organizational domain). Every lookup goes
// through the Resolver and its cache. Without a Resolver it answers 503.
//
// Memory: the result holds at most MaxDomainHealthBytes of JSON a distinct
// domain, a few KB for ordinary records. Served over HTTP, each result is
// charged to the request's share of the server's memory budget as it is
// finished; a request whose answer outgrows what can be admitted fails
// with the handler's 429 or 503 and Retry-After, the domains not yet
// checked skipped.
func (v *Verifier) DomainHealth(ctx context.Context, req DomainHealthRequest) (DomainHealthResult, error) {
	if err := checkBatch("domains", len(req.Domains)); err != nil {
		return DomainHealthResult{}, err
	}
	var verr envelope.ValidationError
	names := make([]string, len(req.Domains))
	for i, d := range req.Domains {
		name, reason := normalizeDomain(d)
		if reason != "" {
			verr.Add(fmt.Sprintf("domains[%d]", i), reason)
			continue
		}
		names[i] = name
	}
	if err := verr.Err(); err != nil {
		return DomainHealthResult{}, err
	}
	selectors, err := checkSelectors("dkim_selectors", req.DKIMSelectors)
	if err != nil {
		return DomainHealthResult{}, err
	}
	if v.cfg.Resolver == nil {
		return DomainHealthResult{}, envelope.Errorf(envelope.CodeServiceUnavailable, "no DNS resolver is configured")
	}
	distinct := map[string]int{}
	var order []string
	var inputs [][]int
	for i, n := range names {
		j, ok := distinct[n]
		if !ok {
			j = len(order)
			distinct[n] = j
			order = append(order, n)
			inputs = append(inputs, nil)
		}
		inputs[j] = append(inputs[j], i)
	}
	out := DomainHealthResult{Results: make([]DomainHealth, len(order))}
	var memo *starttlsMemo
	if req.CheckSTARTTLS {
		memo = &starttlsMemo{}
	}
	// A meter in ctx (the HTTP handler's admission) is charged each
	// result as it is finished; once it refuses one, the domains not yet
	// started are skipped and the call fails with its refusal.
	m := meter.From(ctx)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var refused atomic.Pointer[error]
	forEach(len(order), v.concurrency(), func(i int) {
		if refused.Load() != nil {
			return
		}
		h := v.health(ctx, order[i], selectors, memo)
		h.Inputs = inputs[i]
		if m != nil {
			if err := m.Charge(encodedSize(h)); err != nil {
				if refused.CompareAndSwap(nil, &err) {
					cancel()
				}
				return
			}
		}
		out.Results[i] = h
	})
	if err := refused.Load(); err != nil {
		return DomainHealthResult{}, *err
	}
	return out, nil
}

// encodedSize is the size of v in JSON: what an answer that carries it
// holds in memory, about, and then writes.
func encodedSize(v any) int64 {
	var n countWriter
	json.NewEncoder(&n).Encode(v)
	return int64(n)
}

// countWriter counts what is written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// normalizeDomain returns the ASCII form of a domain to check, or why
// it is not one.
func normalizeDomain(d string) (name, reason string) {
	var a Address
	d = strings.TrimSuffix(strings.TrimSpace(d), ".")
	if d == "" {
		return "", "is empty"
	}
	if r := parseDomain(d, &a); r != "" {
		return "", "is not a valid domain: " + r.Message()
	}
	return a.ASCIIDomain, ""
}

// health checks one domain; a non-nil memo asks for the STARTTLS check
// of its MX hosts.
func (v *Verifier) health(ctx context.Context, domain string, selectors []string, memo *starttlsMemo) DomainHealth {
	h := DomainHealth{Domain: domain, MX: v.domainMX(ctx, domain), MXHosts: []MXHost{}, Problems: []Problem{}}
	var found problems
	add := found.add
	// The MX hosts are checked beside the other lookups.
	var hostsDone sync.WaitGroup
	var mxProblems []Problem
	if h.MX.Status == MXFound || h.MX.Status == MXImplicit {
		hostsDone.Go(func() {
			h.MXHosts = v.mxHosts(ctx, h.MX.Hosts, memo != nil, memo, func(sev mailauth.Severity, code ProblemCode, msg string) {
				mxProblems = append(mxProblems, newProblem(sev, code, msg))
			})
		})
	}
	dnsFailed := false
	switch h.MX.Status {
	case MXNXDomain:
		add(mailauth.SeverityError, ProblemDomainNotFound, "the domain does not exist (NXDOMAIN)")
	case MXNull:
		add(mailauth.SeverityError, ProblemNullMX, "the domain publishes a null MX: it accepts no mail")
	case MXNone:
		add(mailauth.SeverityError, ProblemNoMX, "the domain has no MX records and no address to fall back on")
	case MXImplicit:
		add(mailauth.SeverityWarning, ProblemNoMX, "the domain has no MX records; mail goes to its A/AAAA address (implicit MX)")
	case MXTimeout:
		dnsFailed = true
		add(mailauth.SeverityError, ProblemDNSError, "the MX lookup failed: "+h.MX.Error)
	}
	mxFailed := h.MX.Status == MXServFail || h.MX.Status == MXError
	// A domain that does not exist has no records; one whose DNS did not
	// answer in time would cost a timeout per record, to prove nothing.
	if h.MX.Status != MXNXDomain && h.MX.Status != MXTimeout {
		var (
			wg               sync.WaitGroup
			spf              *mailauth.SPF
			dmarc            *mailauth.DMARC
			spfErr, dmarcErr error
		)
		wg.Go(func() { spf, spfErr = mailauth.CheckSPF(ctx, v.cfg.Resolver, domain) })
		wg.Go(func() { dmarc, dmarcErr = mailauth.CheckDMARC(ctx, v.cfg.Resolver, domain) })
		r := v.cfg.Resolver
		wg.Go(func() { h.MTASTS, _ = mailauth.CheckMTASTS(ctx, r, domain, h.MX.Hosts, v.cfg.MTASTS) })
		wg.Go(func() { h.TLSRPT, _ = mailauth.CheckTLSRPT(ctx, r, domain) })
		wg.Go(func() { h.BIMI, _ = mailauth.CheckBIMI(ctx, r, domain) })
		wg.Go(func() { h.DNSSEC, _ = mailauth.CheckDNSSEC(ctx, r, domain) })
		h.DKIM, _ = mailauth.CheckDKIM(ctx, r, domain, selectors)
		wg.Wait()
		// A lookup that failed DNSSEC validation proves the domain
		// broken for validating senders: the DNSSEC check reports it
		// (dnssec_bogus), and the verdict is not unknown.
		failed := func(what string, err error) {
			switch {
			case h.DNSSEC.Covers(err):
			case errors.Is(err, resolver.ErrDNSSECBogus):
				found = append(found, lookupProblem("", "", "the "+what+" lookup", err))
			default:
				dnsFailed = true
				found = append(found, lookupProblem(mailauth.SeverityError, ProblemDNSError, "the "+what+" lookup", err))
			}
		}
		if mxFailed && !h.DNSSEC.Failed(domain+" MX") {
			dnsFailed = true
			add(mailauth.SeverityError, ProblemDNSError, "the MX lookup failed: "+h.MX.Error)
		}
		switch {
		case errors.Is(spfErr, mailauth.ErrNoRecord):
			add(mailauth.SeverityError, ProblemSPFMissing, "no SPF record: receivers cannot tell which hosts may send for the domain")
		case spfErr != nil:
			failed("SPF", spfErr)
		default:
			h.SPF = spf
			spfProblems(h.SPF, add)
		}
		switch {
		case errors.Is(dmarcErr, mailauth.ErrNoRecord):
			add(mailauth.SeverityError, ProblemDMARCMissing, "no DMARC record at _dmarc."+domain+": spoofed mail is not rejected and no reports are sent")
		case dmarcErr != nil:
			failed("DMARC", dmarcErr)
		default:
			h.DMARC = dmarc
			dmarcProblems(h.DMARC, add)
		}
		for _, ps := range [][]mailauth.Problem{h.MTASTS.Problems, h.TLSRPT.Problems, h.DKIM.Problems, h.BIMI.Problems, h.DNSSEC.Problems} {
			found = append(found, fromMailauth(ps)...)
		}
	}
	hostsDone.Wait()
	found = append(found, mxProblems...)
	var errs, warns []Problem
	bogus := false
	for _, p := range found {
		bogus = bogus || p.Code == ProblemDNSSECBogus
		if p.Severity == mailauth.SeverityError {
			errs = append(errs, p)
		} else {
			warns = append(warns, p)
		}
	}
	h.Problems = append(append(h.Problems, errs...), warns...)
	switch {
	case bogus:
		h.Verdict = VerdictNotReady
	case dnsFailed:
		h.Verdict = VerdictUnknown
	case len(errs) > 0:
		h.Verdict = VerdictNotReady
	case len(warns) > 0:
		h.Verdict = VerdictNeedsAttention
	default:
		h.Verdict = VerdictReady
	}
	h.BulkSender = BulkSenderReadiness(h)
	return h
}

// spfProblems adds the problems of an SPF policy: each of its errors,
// under a code of ours chosen by mailauth's code, and the weaknesses of
// its all mechanism.
func spfProblems(s *mailauth.SPF, add func(sev mailauth.Severity, code ProblemCode, msg string)) {
	for _, p := range s.Problems {
		if p.Severity == mailauth.SeverityError {
			add(mailauth.SeverityError, spfCode(p.Code), p.Message)
		}
	}
	switch s.All {
	case "+all":
		add(mailauth.SeverityError, ProblemSPFPlusAll, "+all lets any host on the internet send mail for the domain")
	case "?all":
		add(mailauth.SeverityWarning, ProblemSPFWeakAll, "?all asserts nothing about unlisted hosts; use ~all or -all")
	case "":
		add(mailauth.SeverityWarning, ProblemSPFNoAll, "the SPF record ends without an all mechanism; unlisted hosts get a neutral result")
	}
}

// spfCode is the domain-health code of an SPF error of mailauth.
func spfCode(c mailauth.Code) ProblemCode {
	switch c {
	case mailauth.CodeSPFTooManyLookups:
		return ProblemSPFTooManyLookups
	case mailauth.CodeSPFTooManyVoidLookups:
		return ProblemSPFTooManyVoidLookups
	}
	return ProblemSPFInvalid
}

func dmarcProblems(d *mailauth.DMARC, add func(sev mailauth.Severity, code ProblemCode, msg string)) {
	for _, p := range d.Problems {
		if p.Severity == mailauth.SeverityError {
			add(mailauth.SeverityError, ProblemDMARCInvalid, p.Message)
		}
	}
	if d.Policy == "none" {
		add(mailauth.SeverityWarning, ProblemDMARCPolicyNone, "p=none only monitors: spoofed mail is still delivered")
	}
	if d.Percent < 100 {
		add(mailauth.SeverityWarning, ProblemDMARCPartial, fmt.Sprintf("pct=%d applies the policy to part of the failing mail only", d.Percent))
	}
	if len(d.RUA) == 0 {
		add(mailauth.SeverityWarning, ProblemDMARCNoRUA, "no rua: the domain receives no aggregate reports")
	}
}
