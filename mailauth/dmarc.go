package mailauth

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/resolver"
)

// DMARC is the DMARC policy (RFC 7489) that applies to a domain, as
// [CheckDMARC] finds it or [ParseDMARC] reads it.
type DMARC struct {
	// Record is the _dmarc TXT record, up to MaxRecordBytes.
	Record string `json:"record"`
	// RecordTruncated reports a record longer than MaxRecordBytes, of
	// which Record shows the first MaxRecordBytes bytes. Every check
	// applies to the whole record. An extension beyond the contract.
	RecordTruncated bool `json:"record_truncated,omitempty" openapi:"extension"`

	// Domain is where the record was found: the domain itself or, when it
	// has none, its organizational domain (RFC 7489 section 6.6.3). Empty
	// from ParseDMARC.
	Domain string `json:"domain"`
	// Policy is p, lowercased: "none", "quarantine" or "reject"; "none"
	// when p is missing but rua is set; "" when the record has no valid
	// policy (an error).
	Policy string `json:"p"`
	// SubdomainPolicy is sp, lowercased; "" when absent, and p then
	// applies to subdomains.
	SubdomainPolicy string `json:"sp"`
	// Percent is pct, the share of failing mail the policy applies to,
	// 0 to 100; 100 when absent.
	Percent int `json:"pct"`
	// RUA are the aggregate-report URIs, in order, at most 16, each up
	// to MaxValueBytes. Never nil.
	RUA []string `json:"rua"`
	// RUF are the failure-report URIs, as RUA. Never nil.
	RUF []string `json:"ruf"`
	// ADKIM is DKIM alignment: "r" (relaxed, the default) or "s" (strict).
	ADKIM string `json:"adkim"`
	// ASPF is SPF alignment: "r" (relaxed, the default) or "s" (strict).
	ASPF string `json:"aspf"`
	// Tags are all the record's tags as published, in order, at most 64,
	// each name and value up to MaxValueBytes. Never nil.
	Tags []DMARCTag `json:"tags"`
	// Errors are the messages of the problems that make the record
	// invalid or ignored. Never nil.
	Errors []string `json:"errors"`
	// Warnings are the messages of the weaknesses: p=none, pct below 100,
	// no rua, ... Never nil.
	Warnings []string `json:"warnings"`
	// Problems are the errors and warnings with their Code and Severity,
	// in the order found; their messages are also in Errors and
	// Warnings. Never nil. An extension beyond the contract in the
	// answers of the HTTP API.
	Problems []Problem `json:"problems" openapi:"extension"`
}

func (d *DMARC) findings() findings {
	return findings{errors: &d.Errors, warnings: &d.Warnings, problems: &d.Problems}
}

// A DMARCTag is one tag=value pair of a DMARC record.
type DMARCTag struct {
	// Name is the tag name, lowercased ("p", "rua", ...).
	Name string `json:"name"`
	// Value is the tag's value with surrounding spaces removed.
	Value string `json:"value"`
}

// Valid reports whether the record has no errors.
func (d *DMARC) Valid() bool { return len(d.Errors) == 0 }

// maxDMARCTags bounds the tags read from one record (RFC 7489 defines
// eleven).
const maxDMARCTags = 64

func isDMARC(txt string) bool {
	t := strings.TrimSpace(txt)
	name, value, ok := strings.Cut(t, "=")
	if !ok || !strings.EqualFold(strings.TrimSpace(name), "v") {
		return false
	}
	v, _, _ := strings.Cut(value, ";")
	return strings.TrimSpace(v) == "DMARC1"
}

// ParseDMARC parses a DMARC record, without DNS. Problems are reported in
// the result's Problems, never as a failure: the result is always usable.
// At most 64 tags are read, and 16 URIs of each of rua and ruf. At most
// ten problems are listed, the rest counted in one last problem.
func ParseDMARC(record string) *DMARC {
	d := &DMARC{Percent: 100, ADKIM: "r", ASPF: "r", RUA: []string{}, RUF: []string{}, Tags: []DMARCTag{}, Errors: []string{}, Warnings: []string{}, Problems: []Problem{}}
	d.Record, d.RecordTruncated = shownRecord(record)
	f := d.findings().capped()
	defer f.flush()
	seen := map[string]bool{}
	tags := 0
	for part := range strings.SplitSeq(record, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if tags++; tags > maxDMARCTags {
			f.fail(CodeDMARCSyntax, fmt.Sprintf("more than %d tags", maxDMARCTags))
			break
		}
		name, value, ok := strings.Cut(part, "=")
		name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
		if !ok {
			f.fail(CodeDMARCSyntax, fmt.Sprintf("tag %s has no value", textcut.Quote(part)))
			continue
		}
		d.Tags = append(d.Tags, DMARCTag{Name: shownValue(name), Value: shownValue(value)})
		if tags == 1 {
			if name != "v" || value != "DMARC1" {
				f.fail(CodeDMARCSyntax, `the record must start with "v=DMARC1"`)
			}
			continue
		}
		if seen[name] {
			f.warn(CodeDMARCDuplicateTag, fmt.Sprintf("tag %s appears more than once; the first is used", textcut.Excerpt(name)))
			continue
		}
		seen[name] = true
		switch name {
		case "p", "sp":
			v := strings.ToLower(value)
			if v != "none" && v != "quarantine" && v != "reject" {
				f.fail(CodeDMARCSyntax, fmt.Sprintf("%s=%s is not none, quarantine or reject", name, textcut.Excerpt(value)))
				continue
			}
			if name == "p" {
				d.Policy = v
			} else {
				d.SubdomainPolicy = v
			}
		case "pct":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 || n > 100 {
				f.fail(CodeDMARCSyntax, fmt.Sprintf("pct=%s is not an integer from 0 to 100", textcut.Excerpt(value)))
				continue
			}
			d.Percent = n
		case "rua", "ruf":
			var uris []string
			n := 0
			for u := range strings.SplitSeq(value, ",") {
				if n == maxRUA {
					f.warn(CodeDMARCSyntax, fmt.Sprintf("more than %d %s URIs; the rest are not read", maxRUA, name))
					break
				}
				n++
				u = strings.TrimSpace(u)
				if !strings.Contains(u, ":") {
					f.fail(CodeDMARCSyntax, fmt.Sprintf("%s URI %s is not a URI (mailto:...)", name, textcut.Quote(u)))
					continue
				}
				uris = append(uris, shownValue(u))
			}
			if name == "rua" {
				d.RUA = append(d.RUA, uris...)
			} else {
				d.RUF = append(d.RUF, uris...)
			}
		case "adkim", "aspf":
			v := strings.ToLower(value)
			if v != "r" && v != "s" {
				f.fail(CodeDMARCSyntax, fmt.Sprintf("%s=%s is not r or s", name, textcut.Excerpt(value)))
				continue
			}
			if name == "adkim" {
				d.ADKIM = v
			} else {
				d.ASPF = v
			}
		case "fo", "rf", "ri", "v":
		default:
			f.warn(CodeDMARCUnknownTag, fmt.Sprintf("unknown tag %s is ignored", textcut.Excerpt(name)))
		}
	}
	if d.Policy == "" {
		// RFC 7489 section 6.6.3: without a valid p, a record with a valid
		// rua is treated as p=none; otherwise it is ignored.
		if len(d.RUA) > 0 {
			d.Policy = "none"
			f.warn(CodeDMARCImplicitNone, "p is missing; treated as p=none because rua is set")
		} else {
			f.fail(CodeDMARCNoPolicy, "the required p tag is missing or invalid")
		}
	}
	switch d.Policy {
	case "none":
		f.warn(CodeDMARCPolicyNone, "p=none only monitors: failing mail is delivered")
	}
	if d.Percent < 100 {
		f.warn(CodeDMARCPartial, fmt.Sprintf("pct=%d applies the policy to part of the failing mail only", d.Percent))
	}
	if len(d.RUA) == 0 {
		f.warn(CodeDMARCNoRUA, "no rua: the domain receives no aggregate reports")
	}
	if d.SubdomainPolicy == "none" && d.Policy != "none" {
		f.warn(CodeDMARCSubdomainNone, "sp=none leaves subdomains unprotected")
	}
	return d
}

// CheckDMARC finds the DMARC record of domain at _dmarc.<domain>, else at
// _dmarc.<organizational domain>, and parses it as ParseDMARC does. It
// returns ErrNoRecord when neither has one, and an error wrapping a
// resolver sentinel when DNS failed.
func CheckDMARC(ctx context.Context, r Resolver, domain string) (*DMARC, error) {
	domain = strings.ToLower(strings.TrimSuffix(domain, "."))
	candidates := []string{domain}
	if org, err := publicsuffix.EffectiveTLDPlusOne(domain); err == nil && org != domain {
		candidates = append(candidates, org)
	}
	for _, c := range candidates {
		txts, err := r.LookupTXT(ctx, "_dmarc."+c)
		if errors.Is(err, resolver.ErrNXDomain) || errors.Is(err, resolver.ErrNoData) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var found []string
		for _, t := range txts {
			if isDMARC(t) {
				found = append(found, t)
			}
		}
		switch len(found) {
		case 0:
			continue
		case 1:
			d := ParseDMARC(found[0])
			d.Domain = c
			return d, nil
		default:
			d := ParseDMARC(found[0])
			d.Domain = c
			d.findings().fail(CodeDMARCMultipleRecords, "more than one DMARC record is published; receivers ignore them all (RFC 7489 section 6.6.3)")
			return d, nil
		}
	}
	return nil, ErrNoRecord
}
