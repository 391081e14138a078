package mailauth

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/quiverkit/quiver/internal/textcut"
)

// The codes of BIMI problems.
const (
	// CodeBIMIMultipleRecords (error): more than one default._bimi record
	// starts with v=BIMI1, so receivers use none.
	CodeBIMIMultipleRecords Code = "bimi_multiple_records"
	// CodeBIMISyntax (error): the record does not parse, l= is not an
	// https: URL of an SVG file, or a= is not an https: URL.
	CodeBIMISyntax Code = "bimi_syntax"
	// CodeBIMINoAuthority (warning): no a= (Verified Mark Certificate):
	// most mailbox providers, Gmail among them, show no logo without one.
	CodeBIMINoAuthority Code = "bimi_no_authority"
)

// BIMIRecord is a BIMI assertion record (Brand Indicators for Message
// Identification, the IETF draft draft-brand-indicators-for-message-
// identification), the TXT record at default._bimi.<domain>, as
// [ParseBIMI] reads it.
type BIMIRecord struct {
	// Record is the TXT record, strings joined, up to MaxRecordBytes.
	Record string `json:"record"`
	// RecordTruncated reports a record longer than MaxRecordBytes, of
	// which Record shows the first MaxRecordBytes bytes. Every check
	// applies to the whole record. An extension beyond the contract.
	RecordTruncated bool `json:"record_truncated,omitempty" openapi:"extension"`
	// Logo is l: the https: URL of the SVG logo, up to MaxValueBytes;
	// "" when the domain declines to show one.
	Logo string `json:"l"`
	// Authority is a: the https: URL of the Verified Mark Certificate
	// (PEM), up to MaxValueBytes; "" when absent.
	Authority string `json:"a"`
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

func (b *BIMIRecord) findings() findings {
	return findings{errors: &b.Errors, warnings: &b.Warnings, problems: &b.Problems}
}

// Valid reports whether the record has no errors.
func (b *BIMIRecord) Valid() bool { return len(b.Errors) == 0 }

// ParseBIMI parses a BIMI record ("v=BIMI1; l=https://...svg;
// a=https://...pem"), without DNS: v first, l an https: URL whose path
// ends in .svg (or empty: a declination), a an https: URL (or empty).
// Problems are in the result, never a failure. Whether receivers honour
// the record also depends on DMARC, which this does not see.
func ParseBIMI(record string) *BIMIRecord {
	b := &BIMIRecord{Errors: []string{}, Warnings: []string{}, Problems: []Problem{}}
	b.Record, b.RecordTruncated = shownRecord(record)
	f := b.findings().capped()
	defer f.flush()
	hasL := false
	for _, t := range tagList(record, f, CodeBIMISyntax, "BIMI1", true) {
		switch t.name {
		case "l":
			hasL = true
			if t.value == "" {
				continue
			}
			if reason := checkHTTPS(t.value, ".svg"); reason != "" {
				f.fail(CodeBIMISyntax, fmt.Sprintf("l=%s %s", textcut.Excerpt(t.value), reason))
				continue
			}
			b.Logo = shownValue(t.value)
		case "a":
			if t.value == "" {
				continue
			}
			if reason := checkHTTPS(t.value, ""); reason != "" {
				f.fail(CodeBIMISyntax, fmt.Sprintf("a=%s %s", textcut.Excerpt(t.value), reason))
				continue
			}
			b.Authority = shownValue(t.value)
		}
	}
	if !hasL {
		f.fail(CodeBIMISyntax, "the required l tag is missing")
	}
	if b.Logo != "" && b.Authority == "" {
		f.warn(CodeBIMINoAuthority, "no a= (Verified Mark Certificate): most mailbox providers show no logo without one")
	}
	return b
}

// checkHTTPS returns why u is not an https: URL with a host whose path
// ends in suffix (any path when suffix is ""), or "".
func checkHTTPS(u, suffix string) string {
	p, err := url.Parse(u)
	if err != nil || !strings.EqualFold(p.Scheme, "https") || p.Hostname() == "" || p.User != nil {
		return "is not an https: URL with a host"
	}
	if suffix != "" && !strings.HasSuffix(strings.ToLower(p.Path), suffix) {
		return "does not name an " + strings.TrimPrefix(suffix, ".") + " file"
	}
	return ""
}
