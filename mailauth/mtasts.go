package mailauth

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/quiverkit/quiver/internal/textcut"
)

// MTA-STS limits (RFC 8461).
const (
	// MTASTSMaxAge is the largest max_age a policy may give, in seconds
	// (RFC 8461 section 3.2: about one year).
	MTASTSMaxAge = 31557600
	// MaxMTASTSPolicyBytes bounds the policy text that is fetched and
	// parsed: 64 KiB. RFC 8461 sets no limit, but a policy is a few lines
	// (one per MX pattern); a larger body is refused rather than read.
	MaxMTASTSPolicyBytes = 64 << 10
	// maxMTASTSMX bounds the mx patterns read from one policy.
	maxMTASTSMX = 100
	// maxMTASTSLines bounds the lines read from one policy, blank or
	// malformed ones included: a policy is a few lines, and a hostile one
	// of 64 KiB would otherwise be read to its end.
	maxMTASTSLines = 1000
	// mtastsShortMaxAge is the max_age under which a warning is given.
	mtastsShortMaxAge = 86400
)

// The codes of MTA-STS problems.
const (
	// CodeMTASTSMultipleRecords (error): more than one _mta-sts record
	// starts with v=STSv1, so senders assume no policy (RFC 8461 section
	// 3.1).
	CodeMTASTSMultipleRecords Code = "mta_sts_multiple_records"
	// CodeMTASTSSyntax (error): the _mta-sts record does not parse, or
	// its id is missing or not 1 to 32 letters and digits.
	CodeMTASTSSyntax Code = "mta_sts_syntax"
	// CodeMTASTSPolicySyntax (error): the policy text lacks a required
	// field or has an invalid value (version, mode, max_age, mx).
	CodeMTASTSPolicySyntax Code = "mta_sts_policy_syntax"
	// CodeMTASTSShortMaxAge (warning): max_age is under a day, so the
	// policy protects little between fetches (RFC 8461 section 3.2
	// recommends weeks).
	CodeMTASTSShortMaxAge Code = "mta_sts_short_max_age"
	// CodeMTASTSDuplicateField (warning): a policy field other than mx
	// appears more than once; the first is used.
	CodeMTASTSDuplicateField Code = "mta_sts_duplicate_field"
)

// MTASTSRecord is the _mta-sts TXT record of a domain (RFC 8461 section
// 3.1), as [ParseMTASTSRecord] reads it.
type MTASTSRecord struct {
	// Record is the TXT record, strings joined, up to MaxRecordBytes.
	Record string `json:"record"`
	// RecordTruncated reports a record longer than MaxRecordBytes, of
	// which Record shows the first MaxRecordBytes bytes. Every check
	// applies to the whole record. An extension beyond the contract.
	RecordTruncated bool `json:"record_truncated,omitempty" openapi:"extension"`
	// ID is the policy id: a change tells senders to fetch the policy
	// again. Up to MaxValueBytes.
	ID string `json:"id"`
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

func (r *MTASTSRecord) findings() findings {
	return findings{errors: &r.Errors, warnings: &r.Warnings, problems: &r.Problems}
}

// Valid reports whether the record has no errors.
func (r *MTASTSRecord) Valid() bool { return len(r.Errors) == 0 }

// ParseMTASTSRecord parses an _mta-sts TXT record ("v=STSv1; id=..."),
// without DNS. Problems are in the result, never a failure. Extension
// tags are allowed and ignored, as RFC 8461 says.
func ParseMTASTSRecord(record string) *MTASTSRecord {
	r := &MTASTSRecord{Errors: []string{}, Warnings: []string{}, Problems: []Problem{}}
	r.Record, r.RecordTruncated = shownRecord(record)
	f := r.findings().capped()
	defer f.flush()
	for _, t := range tagList(record, f, CodeMTASTSSyntax, "STSv1", true) {
		if t.name == "id" {
			r.ID = t.value
		}
	}
	if r.ID == "" {
		f.fail(CodeMTASTSSyntax, "the required id tag is missing")
	} else if !validSTSID(r.ID) {
		f.fail(CodeMTASTSSyntax, fmt.Sprintf("id %s is not 1 to 32 letters and digits", textcut.Quote(r.ID)))
	}
	r.ID = shownValue(r.ID)
	return r
}

func validSTSID(id string) bool {
	if len(id) > 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return id != ""
}

// MTASTSPolicy is an MTA-STS policy (RFC 8461 section 3.2), the text
// served at https://mta-sts.<domain>/.well-known/mta-sts.txt, as
// [ParseMTASTSPolicy] reads it.
type MTASTSPolicy struct {
	// Version is the version field, up to MaxValueBytes; "STSv1" in a
	// valid policy.
	Version string `json:"version"`
	// Mode is "enforce", "testing" or "none"; "" when missing or invalid.
	Mode string `json:"mode"`
	// MaxAge is max_age in seconds, 0 to MTASTSMaxAge; -1 when missing or
	// invalid.
	MaxAge int64 `json:"max_age"`
	// MX are the mx patterns in order: host names, or "*." and a domain
	// (one label of wildcard). Never nil.
	MX []string `json:"mx"`
	// Errors are the messages of the problems that make the policy
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

func (p *MTASTSPolicy) findings() findings {
	return findings{errors: &p.Errors, warnings: &p.Warnings, problems: &p.Problems}
}

// Valid reports whether the policy has no errors.
func (p *MTASTSPolicy) Valid() bool { return len(p.Errors) == 0 }

// ParseMTASTSPolicy parses the text of an MTA-STS policy, without I/O:
// "key: value" lines ending in LF or CRLF. version, mode and max_age are
// required, and at least one mx unless the mode is none; unknown fields
// are ignored (RFC 8461 section 3.2). Text past MaxMTASTSPolicyBytes is an
// error and is not read, nor are lines past the thousandth (an error too)
// nor mx patterns past the hundredth. At most ten problems are listed,
// the rest counted in one last problem.
// Problems are in the result, never a failure.
func ParseMTASTSPolicy(text string) *MTASTSPolicy {
	p := &MTASTSPolicy{MaxAge: -1, MX: []string{}, Errors: []string{}, Warnings: []string{}, Problems: []Problem{}}
	f := p.findings().capped()
	defer f.flush()
	if len(text) > MaxMTASTSPolicyBytes {
		f.fail(CodeMTASTSPolicySyntax, fmt.Sprintf("the policy is larger than %d bytes", MaxMTASTSPolicyBytes))
		text = text[:MaxMTASTSPolicyBytes]
	}
	seen := map[string]bool{}
	tooMany := false
	lines := 0
	for line := range strings.SplitSeq(text, "\n") {
		if lines == maxMTASTSLines {
			f.fail(CodeMTASTSPolicySyntax, fmt.Sprintf("the policy has more than %d lines; the rest are not read", maxMTASTSLines))
			break
		}
		lines++
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		key, value = strings.TrimSpace(key), strings.Trim(value, " \t")
		if !ok || key == "" {
			msg := "" // not formatted when it would be dropped
			if !f.full() {
				msg = fmt.Sprintf("line %s is not a key: value field", textcut.Quote(line))
			}
			f.fail(CodeMTASTSPolicySyntax, msg)
			continue
		}
		if key != "mx" && seen[key] {
			switch key {
			case "version", "mode", "max_age":
				msg := "" // not formatted when it would be dropped
				if !f.full() {
					msg = "field " + key + " appears more than once; the first is used"
				}
				f.warn(CodeMTASTSDuplicateField, msg)
			}
			continue
		}
		seen[key] = true
		switch key {
		case "version":
			p.Version = shownValue(value)
			if value != "STSv1" {
				f.fail(CodeMTASTSPolicySyntax, fmt.Sprintf("version %s is not STSv1", textcut.Quote(value)))
			}
		case "mode":
			switch value {
			case "enforce", "testing", "none":
				p.Mode = value
			default:
				f.fail(CodeMTASTSPolicySyntax, fmt.Sprintf("mode %s is not enforce, testing or none", textcut.Quote(value)))
			}
		case "max_age":
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || n < 0 || n > MTASTSMaxAge || len(value) > 10 || value[0] < '0' || value[0] > '9' {
				f.fail(CodeMTASTSPolicySyntax, fmt.Sprintf("max_age %s is not an integer from 0 to %d", textcut.Quote(value), MTASTSMaxAge))
				continue
			}
			p.MaxAge = n
		case "mx":
			if len(p.MX) == maxMTASTSMX {
				if !tooMany {
					tooMany = true
					f.warn(CodeMTASTSPolicySyntax, fmt.Sprintf("more than %d mx patterns; the rest are not read", maxMTASTSMX))
				}
				continue
			}
			if !validMXPattern(value) {
				msg := "" // not formatted when it would be dropped
				if !f.full() {
					msg = fmt.Sprintf("mx %s is not a host name or *.domain", textcut.Quote(value))
				}
				f.fail(CodeMTASTSPolicySyntax, msg)
				continue
			}
			p.MX = append(p.MX, strings.ToLower(strings.TrimSuffix(value, ".")))
		}
	}
	for _, k := range []string{"version", "mode", "max_age"} {
		if !seen[k] {
			f.fail(CodeMTASTSPolicySyntax, fmt.Sprintf("the required field %s is missing", k))
		}
	}
	if p.Mode != "" && p.Mode != "none" && len(p.MX) == 0 {
		f.fail(CodeMTASTSPolicySyntax, "mode "+p.Mode+" needs at least one mx pattern")
	}
	if p.MaxAge >= 0 && p.MaxAge < mtastsShortMaxAge && p.Mode != "none" {
		f.warn(CodeMTASTSShortMaxAge, fmt.Sprintf("max_age %d is under a day: senders fetch the policy again that often, and an attacker who blocks the fetch defeats it sooner", p.MaxAge))
	}
	return p
}

func validMXPattern(s string) bool {
	if rest, ok := strings.CutPrefix(s, "*."); ok {
		s = rest
	}
	return validHostname(s)
}

// Matches reports whether the MX host matches one of the policy's mx
// patterns (RFC 8461 section 4.1): equal ignoring case and a final dot,
// or "*.domain" matching exactly one more label on the left
// ("*.example.com" matches "mx1.example.com", not "example.com" nor
// "a.b.example.com").
func (p *MTASTSPolicy) Matches(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, pat := range p.MX {
		if suffix, ok := strings.CutPrefix(pat, "*."); ok {
			label, rest, found := strings.Cut(host, ".")
			if found && label != "" && rest == suffix {
				return true
			}
			continue
		}
		if pat == host {
			return true
		}
	}
	return false
}
