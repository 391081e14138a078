package mailauth

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/quiverkit/quiver/internal/textcut"
)

// The codes of TLS-RPT problems.
const (
	// CodeTLSRPTMultipleRecords (error): more than one _smtp._tls record
	// starts with v=TLSRPTv1, so senders send no reports (RFC 8460
	// section 3).
	CodeTLSRPTMultipleRecords Code = "tlsrpt_multiple_records"
	// CodeTLSRPTSyntax (error): the record does not parse or has no rua.
	CodeTLSRPTSyntax Code = "tlsrpt_syntax"
	// CodeTLSRPTInvalidRUA (error): a rua URI is not a mailto: address
	// nor an https: URL.
	CodeTLSRPTInvalidRUA Code = "tlsrpt_invalid_rua"
)

// maxRUA bounds the rua URIs read from one TLS-RPT record.
const maxRUA = 16

// TLSRPTRecord is the _smtp._tls TXT record of a domain (SMTP TLS
// Reporting, RFC 8460 section 3), as [ParseTLSRPT] reads it.
type TLSRPTRecord struct {
	// Record is the TXT record, strings joined, up to MaxRecordBytes.
	Record string `json:"record"`
	// RecordTruncated reports a record longer than MaxRecordBytes, of
	// which Record shows the first MaxRecordBytes bytes. Every check
	// applies to the whole record. An extension beyond the contract.
	RecordTruncated bool `json:"record_truncated,omitempty" openapi:"extension"`
	// RUA are the valid report destinations in order: mailto: addresses
	// and https: URLs, at most 16, each up to MaxValueBytes. Never nil.
	RUA []string `json:"rua"`
	// Errors are the messages of the problems that make the record
	// invalid. Never nil.
	Errors []string `json:"errors"`
	// Warnings are the messages of the weaknesses. Never nil.
	Warnings []string `json:"warnings"`
	// Problems are the errors and warnings with their Code and Severity,
	// in the order found; their messages are also in Errors and
	// Warnings. Never nil. An extension beyond the contract in the
	// answers of the HTTP API.
	Problems []Problem `json:"problems" openapi:"extension"`
}

func (r *TLSRPTRecord) findings() findings {
	return findings{errors: &r.Errors, warnings: &r.Warnings, problems: &r.Problems}
}

// Valid reports whether the record has no errors.
func (r *TLSRPTRecord) Valid() bool { return len(r.Errors) == 0 }

// ParseTLSRPT parses an _smtp._tls TXT record ("v=TLSRPTv1;
// rua=mailto:...,https://..."), without DNS. Each rua URI must be a
// mailto: URI with one addr-spec (local@domain), header fields after "?"
// allowed (RFC 6068), or an https: URL with a host; at most 16 are read.
// At most ten problems are listed, the rest counted in one last problem. Extension tags are ignored. Problems are in
// the result, never a failure.
func ParseTLSRPT(record string) *TLSRPTRecord {
	r := &TLSRPTRecord{RUA: []string{}, Errors: []string{}, Warnings: []string{}, Problems: []Problem{}}
	r.Record, r.RecordTruncated = shownRecord(record)
	f := r.findings().capped()
	defer f.flush()
	hasRUA := false
	for _, t := range tagList(record, f, CodeTLSRPTSyntax, "TLSRPTv1", true) {
		if t.name != "rua" {
			continue
		}
		hasRUA = true
		n := 0
		for u := range strings.SplitSeq(t.value, ",") {
			if n == maxRUA {
				f.warn(CodeTLSRPTInvalidRUA, fmt.Sprintf("more than %d rua URIs; the rest are not read", maxRUA))
				break
			}
			n++
			u = strings.Trim(u, " \t")
			if reason := checkReportURI(u); reason != "" {
				f.fail(CodeTLSRPTInvalidRUA, fmt.Sprintf("rua %s %s", textcut.Quote(u), reason))
				continue
			}
			r.RUA = append(r.RUA, shownValue(u))
		}
	}
	if !hasRUA {
		f.fail(CodeTLSRPTSyntax, "the required rua tag is missing")
	}
	return r
}

// checkReportURI returns why u is not a mailto: address or https: URL, or
// "".
func checkReportURI(u string) string {
	scheme, rest, ok := strings.Cut(u, ":")
	switch {
	case !ok:
		return "is not a URI"
	case strings.EqualFold(scheme, "mailto"):
		// RFC 8460 takes any mailto: URI, and RFC 6068 allows header
		// fields after "?" (?subject=...): the address is before it.
		rest, _, _ = strings.Cut(rest, "?")
		addr, err := url.PathUnescape(rest)
		if err != nil || strings.ContainsAny(addr, "?,; \t<>") {
			return "is not a mailto: URI of one address"
		}
		local, domain, ok := strings.Cut(addr, "@")
		if !ok || local == "" || strings.Contains(domain, "@") || !validHostname(domain) {
			return "is not a mailto: URI of one address (local@domain)"
		}
		return ""
	case strings.EqualFold(scheme, "https"):
		p, err := url.Parse(u)
		if err != nil || p.Host == "" || p.Hostname() == "" || p.User != nil {
			return "is not an https: URL with a host"
		}
		return ""
	}
	return "is neither mailto: nor https:"
}
