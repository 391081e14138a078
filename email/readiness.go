package email

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/quiverkit/quiver/mailauth"
)

// A RequirementStatus is what DNS shows of a bulk-sender [Requirement].
type RequirementStatus string

// Statuses of a bulk-sender [Requirement].
const (
	RequirementPass    RequirementStatus = "pass"    // DNS shows the requirement met
	RequirementFail    RequirementStatus = "fail"    // DNS shows it not met
	RequirementUnknown RequirementStatus = "unknown" // DNS cannot show it either way
)

// RequirementStatuses returns the statuses of a requirement.
func RequirementStatuses() []RequirementStatus {
	return []RequirementStatus{RequirementPass, RequirementFail, RequirementUnknown}
}

// A RequirementID names a bulk-sender [Requirement].
type RequirementID string

// IDs of the bulk-sender requirements, in the order of
// [Readiness.Requirements].
const (
	RequirementSPF            RequirementID = "spf"
	RequirementDKIM           RequirementID = "dkim"
	RequirementDMARC          RequirementID = "dmarc"
	RequirementDMARCAlignment RequirementID = "dmarc_alignment"
	RequirementForwardReverse RequirementID = "forward_reverse_dns"
	RequirementTLS            RequirementID = "tls"
)

// RequirementIDs returns the requirements' IDs, in the order of
// [Readiness.Requirements].
func RequirementIDs() []RequirementID {
	return []RequirementID{RequirementSPF, RequirementDKIM, RequirementDMARC, RequirementDMARCAlignment, RequirementForwardReverse, RequirementTLS}
}

// NotShownByDNS are the bulk-sender requirements of Gmail and Yahoo that
// no DNS check can show, listed in every [Readiness].
var notShownByDNS = []string{
	"spam rate reported in Google Postmaster Tools below 0.3% (Gmail; Yahoo sets no public figure)",
	"one-click unsubscribe (RFC 8058 List-Unsubscribe-Post) in marketing mail, honoured within two days",
	"messages formatted per RFC 5322",
	"no impersonation of Gmail From: headers",
	"ARC headers on forwarded mail and List-Id on mailing lists",
}

// A Requirement is one bulk-sender requirement and what DNS shows of it.
type Requirement struct {
	// ID names the requirement: spf, dkim, dmarc, dmarc_alignment,
	// forward_reverse_dns or tls.
	ID RequirementID `json:"id"`
	// Requirement states it.
	Requirement string `json:"requirement"`
	// Status is pass, fail or unknown.
	Status RequirementStatus `json:"status"`
	// Reason says what was found, and for unknown what cannot be shown;
	// up to mailauth.MaxMessageBytes.
	Reason string `json:"reason"`
}

// Readiness is a domain's bulk-sender readiness: each requirement of
// Gmail and Yahoo that DNS can show, one line each.
type Readiness struct {
	// Verdict is ready (every requirement passes), not_ready (one fails)
	// or unknown (none fails, some cannot be shown).
	Verdict Verdict `json:"verdict"`
	// Requirements are the lines, in a fixed order: spf, dkim, dmarc,
	// dmarc_alignment, forward_reverse_dns, tls.
	Requirements []Requirement `json:"requirements"`
	// NotShown are the requirements no DNS check can show (spam rate,
	// one-click unsubscribe, message format, ...). Never nil.
	NotShown []string `json:"not_shown"`
}

// BulkSenderReadiness judges the results of a domain-health check
// against the requirements Gmail and Yahoo set for bulk senders from
// February 2024 (Google: "Email sender guidelines",
// https://support.google.com/a/answer/81126; Yahoo: "Sender
// Requirements & Recommendations",
// https://senders.yahooinc.com/best-practices/): SPF and DKIM, a DMARC
// policy of at least p=none aligned with the From domain, valid forward
// and reverse DNS of the sending hosts, and TLS. It does no I/O.
//
// What DNS cannot show is said in each reason: DKIM selectors cannot be
// listed, so a key at an unprobed selector is unknown, not a failure;
// alignment is reported as possible when the DMARC policy covers the
// domain and the domain publishes SPF or a DKIM key of its own, but
// whether sent mail aligns depends on its Return-Path and DKIM d=
// domains; forward and reverse DNS is judged on the MX hosts (MXHosts),
// which are often, not always, the sending hosts; TLS on MTA-STS and the
// MX hosts' STARTTLS when it was probed (the receiving side). The
// spam rate, one-click unsubscribe and message format are listed in
// NotShown: no DNS check shows them.
func BulkSenderReadiness(h DomainHealth) Readiness {
	r := Readiness{NotShown: append([]string(nil), notShownByDNS...)}
	line := func(id RequirementID, req string, status RequirementStatus, reason string) {
		r.Requirements = append(r.Requirements, Requirement{ID: id, Requirement: req, Status: status, Reason: shownMessage(reason)})
	}
	// A domain whose other records were not asked for.
	skipped := ""
	switch h.MX.Status {
	case MXNXDomain:
		skipped = "the domain does not exist"
	case MXTimeout:
		skipped = "the domain's DNS did not answer in time"
	}
	status := func(fail bool) RequirementStatus {
		if fail {
			return RequirementFail
		}
		return RequirementUnknown
	}
	has := func(code ProblemCode) bool {
		for _, p := range h.Problems {
			if p.Code == code {
				return true
			}
		}
		return false
	}

	// bogusLookup reports whether the lookups of the check what ("SPF")
	// failed DNSSEC validation past the questions of the DNSSEC check
	// (an include target, the organizational domain's _dmarc): the
	// dnssec_bogus problem lookupProblem wrote for them.
	bogusLookup := func(what string) bool {
		for _, p := range h.Problems {
			if p.Code == ProblemDNSSECBogus && strings.HasPrefix(p.Message, "the "+what+" lookup (") {
				return true
			}
		}
		return false
	}

	const spfReq = "SPF: a valid SPF record authorizes the sending hosts"
	switch {
	case skipped != "":
		line(RequirementSPF, spfReq, status(h.MX.Status == MXNXDomain), skipped)
	case h.SPF != nil && h.SPF.Valid() && h.SPF.All != "+all":
		line(RequirementSPF, spfReq, RequirementPass, fmt.Sprintf("a valid SPF record ending in %s", cmp.Or(h.SPF.All, "no all mechanism")))
	case h.SPF != nil && h.SPF.All == "+all":
		line(RequirementSPF, spfReq, RequirementFail, "the SPF record ends in +all, which authorizes every host")
	case h.SPF != nil:
		line(RequirementSPF, spfReq, RequirementFail, "the SPF record is invalid: "+strings.Join(h.SPF.Errors, "; "))
	case has(ProblemSPFMissing):
		line(RequirementSPF, spfReq, RequirementFail, "no SPF record is published")
	case h.DNSSEC.Failed(h.Domain + " TXT"):
		line(RequirementSPF, spfReq, RequirementFail, "the domain's TXT records fail DNSSEC validation (dnssec_bogus): receivers that validate DNSSEC cannot read the SPF record")
	case bogusLookup("SPF"):
		line(RequirementSPF, spfReq, RequirementFail, "a record the SPF check reads fails DNSSEC validation (dnssec_bogus): receivers that validate DNSSEC cannot evaluate the SPF record")
	default:
		line(RequirementSPF, spfReq, RequirementUnknown, "the SPF lookup failed")
	}

	const dkimReq = "DKIM: mail is signed with a key published under the domain"
	switch {
	case skipped != "" || h.DKIM == nil:
		line(RequirementDKIM, dkimReq, status(h.MX.Status == MXNXDomain), cmp.Or(skipped, "not checked"))
	case h.DKIM.Status == mailauth.RecordValid:
		var keys, unusable []string
		for _, k := range h.DKIM.Keys {
			if k.Valid {
				keys = append(keys, fmt.Sprintf("%s (%s, %d bits)", k.Selector, k.KeyType, k.Bits))
			} else {
				unusable = append(unusable, k.Selector)
			}
		}
		reason := "usable keys at " + strings.Join(keys, ", ")
		if len(unusable) > 0 {
			// The domain's own dkim_* errors name them: say so here too.
			reason += "; the keys at " + strings.Join(unusable, ", ") + " are not usable, and mail signed with them fails DKIM"
		}
		line(RequirementDKIM, dkimReq, RequirementPass, reason)
	case h.DKIM.Status == mailauth.RecordInvalid:
		var keys []string
		for _, k := range h.DKIM.Keys {
			keys = append(keys, k.Selector+": "+strings.Join(append(append([]string{}, k.Errors...), revokedNote(k)...), "; "))
		}
		line(RequirementDKIM, dkimReq, RequirementFail, "keys are published but none is usable: "+strings.Join(keys, "; "))
	case h.DKIM.Status == mailauth.RecordError:
		line(RequirementDKIM, dkimReq, RequirementUnknown, "DKIM lookups failed: "+h.DKIM.Error)
	default:
		line(RequirementDKIM, dkimReq, RequirementUnknown, fmt.Sprintf("no key at the %d selectors probed; DNS cannot list selectors, so pass yours in dkim_selectors", len(h.DKIM.Selectors)))
	}

	const dmarcReq = "DMARC: a valid DMARC policy, at least p=none"
	dmarcOK := h.DMARC != nil && h.DMARC.Valid()
	dmarcBogus := h.DMARC == nil && (h.DNSSEC.Failed("_dmarc."+h.Domain+" TXT") || bogusLookup("DMARC"))
	switch {
	case skipped != "":
		line(RequirementDMARC, dmarcReq, status(h.MX.Status == MXNXDomain), skipped)
	case dmarcOK:
		line(RequirementDMARC, dmarcReq, RequirementPass, fmt.Sprintf("p=%s published at _dmarc.%s", h.DMARC.Policy, h.DMARC.Domain))
	case h.DMARC != nil:
		line(RequirementDMARC, dmarcReq, RequirementFail, "the DMARC record is invalid: "+strings.Join(h.DMARC.Errors, "; "))
	case has(ProblemDMARCMissing):
		line(RequirementDMARC, dmarcReq, RequirementFail, "no DMARC record at the domain or its organizational domain")
	case dmarcBogus:
		line(RequirementDMARC, dmarcReq, RequirementFail, "the DMARC record fails DNSSEC validation (dnssec_bogus): receivers that validate DNSSEC cannot read it")
	default:
		line(RequirementDMARC, dmarcReq, RequirementUnknown, "the DMARC lookup failed")
	}

	const alignReq = "DMARC alignment: the From domain aligns with the SPF or DKIM domain"
	spfOwn := h.SPF != nil && h.SPF.Valid() && h.SPF.All != "+all"
	dkimOwn := h.DKIM != nil && h.DKIM.Status == mailauth.RecordValid
	switch {
	case skipped != "":
		line(RequirementDMARCAlignment, alignReq, status(h.MX.Status == MXNXDomain), skipped)
	case !dmarcOK && h.DMARC == nil && !has(ProblemDMARCMissing) && !dmarcBogus:
		line(RequirementDMARCAlignment, alignReq, RequirementUnknown, "the DMARC lookup failed")
	case !dmarcOK:
		line(RequirementDMARCAlignment, alignReq, RequirementFail, "no valid DMARC policy: there is nothing to align with")
	case spfOwn || dkimOwn:
		var own []string
		if spfOwn {
			own = append(own, "SPF")
		}
		if dkimOwn {
			own = append(own, "a DKIM key")
		}
		line(RequirementDMARCAlignment, alignReq, RequirementPass, fmt.Sprintf("possible: the DMARC policy at %s covers the domain, which publishes %s of its own (adkim=%s, aspf=%s); whether sent mail aligns depends on its Return-Path and DKIM d= domains, which DNS cannot show", h.DMARC.Domain, strings.Join(own, " and "), h.DMARC.ADKIM, h.DMARC.ASPF))
	default:
		line(RequirementDMARCAlignment, alignReq, RequirementUnknown, "the DMARC policy covers the domain, but it publishes no SPF and no DKIM key at the probed selectors; mail may still align through a subdomain's SPF (relaxed alignment) or an unprobed selector")
	}

	const fcrdnsReq = "Forward and reverse DNS: the sending hosts' addresses have PTR records that resolve back"
	total, bad := 0, []string{}
	for _, mh := range h.MXHosts {
		for _, a := range mh.Addresses {
			total++
			if !a.FCrDNS {
				bad = append(bad, a.IP)
			}
		}
	}
	switch {
	case skipped != "":
		line(RequirementForwardReverse, fcrdnsReq, status(h.MX.Status == MXNXDomain), skipped)
	case total == 0:
		line(RequirementForwardReverse, fcrdnsReq, RequirementUnknown, "no MX host address was checked, and the sending hosts cannot be named from DNS")
	case len(bad) > 0:
		line(RequirementForwardReverse, fcrdnsReq, RequirementFail, fmt.Sprintf("%d of %d MX host addresses lack forward-confirmed reverse DNS (%s); the sending hosts, which DNS cannot name, are often the MX hosts", len(bad), total, strings.Join(bad, ", ")))
	default:
		line(RequirementForwardReverse, fcrdnsReq, RequirementPass, fmt.Sprintf("the %d MX host addresses have forward-confirmed reverse DNS; the sending hosts, which DNS cannot name, may differ", total))
	}

	const tlsReq = "TLS: mail is sent over TLS"
	var noTLS []string
	probed := 0
	for _, mh := range h.MXHosts {
		if mh.STARTTLS != nil {
			probed++
			if !*mh.STARTTLS {
				noTLS = append(noTLS, mh.Host)
			}
		}
	}
	sts := h.MTASTS
	stsApplies := sts != nil && sts.Status == mailauth.RecordValid && sts.Policy != nil && sts.Policy.Mode != "none"
	stsCovers := stsApplies && (sts.MXMatch == nil || *sts.MXMatch)
	// Senders that apply the policy deliver only to the MX hosts it
	// names: the reason says whether it names some.
	unnamed, others := "", ""
	if stsApplies && !stsCovers {
		unnamed = "does not name the MX hosts " + strings.Join(sts.UnmatchedMX, ", ")
		others = ", and deliver to the others only"
		if len(sts.UnmatchedMX) >= len(h.MX.Hosts) {
			unnamed, others = "names none of the MX hosts "+strings.Join(sts.UnmatchedMX, ", "), ""
		}
	}
	switch {
	case skipped != "" || sts == nil:
		line(RequirementTLS, tlsReq, status(h.MX.Status == MXNXDomain), cmp.Or(skipped, "not checked"))
	case len(noTLS) > 0:
		line(RequirementTLS, tlsReq, RequirementFail, "MX hosts without STARTTLS: "+strings.Join(noTLS, ", "))
	case stsApplies && !stsCovers && sts.Policy.Mode == "enforce":
		line(RequirementTLS, tlsReq, RequirementFail, fmt.Sprintf("the MTA-STS policy in mode enforce %s (mta_sts_mx_mismatch): senders that apply MTA-STS refuse to deliver to them%s", unnamed, others))
	case stsCovers:
		line(RequirementTLS, tlsReq, RequirementPass, fmt.Sprintf("the domain's mail hosts take TLS under an MTA-STS policy in mode %s; the TLS of outgoing connections is the sender's, which DNS cannot show", sts.Policy.Mode))
	case probed > 0 && probed == len(h.MXHosts):
		line(RequirementTLS, tlsReq, RequirementPass, "every MX host offers STARTTLS; the TLS of outgoing connections is the sender's, which DNS cannot show")
	default:
		policy := "no valid MTA-STS policy in mode enforce or testing"
		if stsApplies {
			policy = fmt.Sprintf("the MTA-STS policy in mode testing %s (mta_sts_mx_mismatch)", unnamed)
		}
		line(RequirementTLS, tlsReq, RequirementUnknown, policy+", and "+starttlsChecked(h, probed)+"; the TLS of outgoing connections cannot be shown from DNS")
	}

	r.Verdict = VerdictReady
	for _, q := range r.Requirements {
		switch {
		case q.Status == RequirementFail:
			r.Verdict = VerdictNotReady
		case q.Status == RequirementUnknown && r.Verdict == VerdictReady:
			r.Verdict = VerdictUnknown
		}
	}
	return r
}

// starttlsChecked says, for the TLS line, how far the STARTTLS check of
// the MX hosts went, of which probed hosts answered.
func starttlsChecked(h DomainHealth, probed int) string {
	var why []string // each host not checked, and why
	for _, p := range h.Problems {
		switch p.Code {
		case ProblemMXSTARTTLSUnreachable:
			why = append(why, strings.TrimPrefix(p.Message, starttlsUnreachable))
		case ProblemMXSTARTTLSBound:
			why = append(why, fmt.Sprintf("the others: one request checks at most %d distinct hosts", MaxSTARTTLSHosts))
		}
	}
	if probed == 0 && len(why) == 0 {
		return "STARTTLS was not probed (check_starttls)"
	}
	if len(why) == 0 {
		return fmt.Sprintf("STARTTLS could be checked on %d of %d MX hosts", probed, len(h.MXHosts))
	}
	return fmt.Sprintf("STARTTLS could be checked on %d of %d MX hosts, not on %s", probed, len(h.MXHosts), strings.Join(why, "; "))
}

func revokedNote(k mailauth.DKIMSelectorKey) []string {
	if k.Revoked {
		return []string{"revoked (empty p=)"}
	}
	return nil
}
