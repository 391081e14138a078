package mailauth

import "fmt"

// A Code names the kind of a [Problem], so that a program can act on a
// finding without reading its message, which may change.
type Code string

// The codes of SPF problems. The errors make the policy a permerror
// (RFC 7208); the warnings are weaknesses.
const (
	// CodeSPFMultipleRecords (error): the domain, or an include or
	// redirect target, publishes more than one SPF record.
	CodeSPFMultipleRecords Code = "spf_multiple_records"
	// CodeSPFSyntax (error): a term of the record, or of a record it
	// includes, does not parse.
	CodeSPFSyntax Code = "spf_syntax"
	// CodeSPFTooManyLookups (error): the DNS-querying terms exceed
	// MaxDNSLookups.
	CodeSPFTooManyLookups Code = "spf_too_many_lookups"
	// CodeSPFTooManyVoidLookups (error): the void lookups exceed
	// MaxVoidLookups.
	CodeSPFTooManyVoidLookups Code = "spf_too_many_void_lookups"
	// CodeSPFTooManyMXHosts (error): an mx mechanism names a domain with
	// more than 10 MX hosts.
	CodeSPFTooManyMXHosts Code = "spf_too_many_mx_hosts"
	// CodeSPFLoop (error): an include or redirect leads back to a record
	// already being evaluated, or nests too deep.
	CodeSPFLoop Code = "spf_loop"
	// CodeSPFIncludeMissing (error): an include or redirect target
	// publishes no SPF record.
	CodeSPFIncludeMissing Code = "spf_include_missing"

	// CodeSPFPlusAll (warning): +all lets any host send mail.
	CodeSPFPlusAll Code = "spf_plus_all"
	// CodeSPFNeutralAll (warning): ?all asserts nothing.
	CodeSPFNeutralAll Code = "spf_neutral_all"
	// CodeSPFNoAll (warning): the policy has no all mechanism.
	CodeSPFNoAll Code = "spf_no_all"
	// CodeSPFPTR (warning): the record uses the ptr mechanism.
	CodeSPFPTR Code = "spf_ptr"
)

// The codes of DMARC problems.
const (
	// CodeDMARCMultipleRecords (error): more than one DMARC record is
	// published, so receivers ignore them all.
	CodeDMARCMultipleRecords Code = "dmarc_multiple_records"
	// CodeDMARCSyntax (error): the record does not start with
	// v=DMARC1, has a tag without a value or with an invalid value, or
	// has too many tags.
	CodeDMARCSyntax Code = "dmarc_syntax"
	// CodeDMARCNoPolicy (error): no valid p tag and no rua to fall back
	// on: receivers ignore the record.
	CodeDMARCNoPolicy Code = "dmarc_no_policy"

	// CodeDMARCDuplicateTag (warning): a tag appears more than once.
	CodeDMARCDuplicateTag Code = "dmarc_duplicate_tag"
	// CodeDMARCUnknownTag (warning): a tag RFC 7489 does not define.
	CodeDMARCUnknownTag Code = "dmarc_unknown_tag"
	// CodeDMARCImplicitNone (warning): p is missing and taken as none
	// because rua is set.
	CodeDMARCImplicitNone Code = "dmarc_implicit_none"
	// CodeDMARCPolicyNone (warning): p=none only monitors.
	CodeDMARCPolicyNone Code = "dmarc_p_none"
	// CodeDMARCPartial (warning): pct is below 100.
	CodeDMARCPartial Code = "dmarc_pct"
	// CodeDMARCNoRUA (warning): no aggregate-report address.
	CodeDMARCNoRUA Code = "dmarc_no_rua"
	// CodeDMARCSubdomainNone (warning): sp=none leaves subdomains
	// unprotected under a stricter p.
	CodeDMARCSubdomainNone Code = "dmarc_sp_none"
)

// The codes of the record checks' own findings, beyond those of the
// records they parse: [CheckMTASTS], [CheckTLSRPT], [CheckDKIM],
// [CheckBIMI], [CheckDNSSEC].
const (
	// CodeDNSError (warning): a lookup of the check failed; nothing is
	// known of the record.
	CodeDNSError Code = "dns_error"
	// CodeMTASTSPolicyUnavailable: the policy announced by a valid
	// _mta-sts record cannot be fetched; an error when the server's
	// answer is refused (HTTP status, certificate, redirect, size), a
	// warning when the fetch failed on the network or on this side.
	CodeMTASTSPolicyUnavailable Code = "mta_sts_policy_unavailable"
	// CodeMTASTSMXMismatch: MX hosts match no mx pattern of the policy;
	// an error under mode enforce, else a warning.
	CodeMTASTSMXMismatch Code = "mta_sts_mx_mismatch"
	// CodeMTASTSPolicyContentType (warning): the policy is not served as
	// text/plain (RFC 8461 section 3.2).
	CodeMTASTSPolicyContentType Code = "mta_sts_policy_content_type"
	// CodeBIMIDMARCNotEnforced (warning): a logo is published but the
	// DMARC policy is neither reject nor quarantine at pct=100, so
	// receivers ignore it.
	CodeBIMIDMARCNotEnforced Code = "bimi_dmarc_not_enforced"
	// CodeDNSSECBroken (error): the parent publishes a DS record but the
	// domain serves no DNSKEY.
	CodeDNSSECBroken Code = "dnssec_broken"
	// CodeDNSSECNoDS (warning): the zone is signed but the parent has no
	// DS record.
	CodeDNSSECNoDS Code = "dnssec_no_ds"
	// CodeDNSSECBogus (error): an answer failed DNSSEC validation at the
	// resolver (resolver.ErrDNSSECBogus), as it does for every sender
	// that validates.
	CodeDNSSECBogus Code = "dnssec_bogus"
)

// Codes returns every problem code, by record: SPF, DMARC, MTA-STS,
// TLS-RPT, DKIM, BIMI, errors before warnings within each; then the
// record checks' own (dns_error, MTA-STS, BIMI, DNSSEC).
func Codes() []Code {
	return []Code{
		CodeSPFMultipleRecords, CodeSPFSyntax, CodeSPFTooManyLookups, CodeSPFTooManyVoidLookups, CodeSPFTooManyMXHosts, CodeSPFLoop, CodeSPFIncludeMissing, CodeSPFPlusAll, CodeSPFNeutralAll, CodeSPFNoAll, CodeSPFPTR,
		CodeDMARCMultipleRecords, CodeDMARCSyntax, CodeDMARCNoPolicy, CodeDMARCDuplicateTag, CodeDMARCUnknownTag, CodeDMARCImplicitNone, CodeDMARCPolicyNone, CodeDMARCPartial, CodeDMARCNoRUA, CodeDMARCSubdomainNone,
		CodeMTASTSMultipleRecords, CodeMTASTSSyntax, CodeMTASTSPolicySyntax, CodeMTASTSShortMaxAge, CodeMTASTSDuplicateField,
		CodeTLSRPTMultipleRecords, CodeTLSRPTSyntax, CodeTLSRPTInvalidRUA,
		CodeDKIMMultipleRecords, CodeDKIMSyntax, CodeDKIMInvalidKey, CodeDKIMWeakKey, CodeDKIMShortKey, CodeDKIMRevoked, CodeDKIMTesting,
		CodeBIMIMultipleRecords, CodeBIMISyntax, CodeBIMINoAuthority,
		CodeDNSError, CodeMTASTSPolicyUnavailable, CodeMTASTSMXMismatch, CodeMTASTSPolicyContentType,
		CodeBIMIDMARCNotEnforced, CodeDNSSECBroken, CodeDNSSECNoDS, CodeDNSSECBogus,
	}
}

// A Severity says how much a [Problem] matters.
type Severity string

// Severities of a [Problem].
const (
	// SeverityError: the policy is broken or ignored by receivers.
	SeverityError Severity = "error"
	// SeverityWarning: the policy works but is weak.
	SeverityWarning Severity = "warning"
)

// Severities returns the severities, the gravest first.
func Severities() []Severity { return []Severity{SeverityError, SeverityWarning} }

// A Problem is one finding of a check: an error (the policy is broken or
// ignored) or a warning (a weakness).
type Problem struct {
	// Code names the kind of problem: one of the Code constants.
	Code Code `json:"code"`
	// Severity is SeverityError or SeverityWarning.
	Severity Severity `json:"severity"`
	// Message explains the problem in a sentence; it is the text also
	// found in the result's Errors or Warnings.
	Message string `json:"message"`
}

// findings collects the problems of a result along with their messages,
// which the result also lists as errors and warnings.
type findings struct {
	errors, warnings *[]string
	problems         *[]Problem
	// budget, when not nil, caps the problems listed (see capped).
	budget *findingBudget
}

func (f findings) fail(code Code, msg string) {
	if !f.take(code, true) {
		return
	}
	msg = shownMessage(msg)
	*f.errors = append(*f.errors, msg)
	*f.problems = append(*f.problems, Problem{Code: code, Severity: SeverityError, Message: msg})
}

func (f findings) warn(code Code, msg string) {
	if !f.take(code, false) {
		return
	}
	msg = shownMessage(msg)
	*f.warnings = append(*f.warnings, msg)
	*f.problems = append(*f.problems, Problem{Code: code, Severity: SeverityWarning, Message: msg})
}

// maxRecordFindings bounds the problems listed for one SPF policy (its
// includes with it), DMARC, DKIM, MTA-STS, TLS-RPT or BIMI record or
// MTA-STS policy: a hostile record of 64 KiB could otherwise yield
// thousands. The rest are counted in one last problem.
const maxRecordFindings = 10

// findingBudget counts what a capped [findings] still lists and what it
// dropped.
type findingBudget struct {
	left, dropped int
	code          Code // of the first problem dropped
	errCode       Code // of the first error dropped
	droppedError  bool
}

// capped returns f listing at most maxRecordFindings problems; flush
// must be called when the parse ends to report the ones dropped.
func (f findings) capped() findings {
	f.budget = &findingBudget{left: maxRecordFindings}
	return f
}

// full reports whether a capped f lists no more problems, so that a
// caller can skip formatting a message nobody reads.
func (f findings) full() bool { return f.budget != nil && f.budget.left == 0 }

// take reports whether a problem with code may be listed, counting it
// as dropped when not.
func (f findings) take(code Code, isError bool) bool {
	b := f.budget
	if b == nil {
		return true
	}
	if b.left > 0 {
		b.left--
		return true
	}
	if b.dropped == 0 {
		b.code = code
	}
	if isError && !b.droppedError {
		b.errCode = code
	}
	b.dropped++
	b.droppedError = b.droppedError || isError
	return false
}

// flush adds one problem counting those a capped f dropped: an error
// with the code of the first error dropped when any of them was one, so
// that Valid is unchanged by the cap and the code has its documented
// severity; else a warning with the code of the first dropped.
func (f findings) flush() {
	b := f.budget
	if b == nil || b.dropped == 0 {
		return
	}
	msg := fmt.Sprintf("and %d more problems, not listed", b.dropped)
	f.budget = nil
	if b.droppedError {
		f.fail(b.errCode, msg)
	} else {
		f.warn(b.code, msg)
	}
	b.dropped = 0
}
