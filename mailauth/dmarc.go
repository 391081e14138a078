package mailauth

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/quiverkit/quiver/resolver"
)

// DMARC is the DMARC policy (RFC 7489) that applies to a domain.
type DMARC struct {
	// Record is the _dmarc TXT record.
	Record string `json:"record"`
	// Domain is where the record was found: the domain itself or, when it
	// has none, its organizational domain (RFC 7489 section 6.6.3).
	Domain string `json:"domain"`
	// Policy is p: "none", "quarantine" or "reject".
	Policy string `json:"p"`
	// SubdomainPolicy is sp; when absent, p applies to subdomains.
	SubdomainPolicy string `json:"sp"`
	// Percent is pct, the share of mail the policy applies to; default 100.
	Percent int `json:"pct"`
	// RUA are the aggregate-report URIs.
	RUA []string `json:"rua"`
	// RUF are the failure-report URIs.
	RUF []string `json:"ruf"`
	// ADKIM is DKIM alignment: "r" (relaxed, the default) or "s" (strict).
	ADKIM string `json:"adkim"`
	// ASPF is SPF alignment: "r" (relaxed, the default) or "s" (strict).
	ASPF string `json:"aspf"`
	// Tags are all the record's tags as published, in order.
	Tags []DMARCTag `json:"tags"`
	// Errors are problems that make the record invalid or ignored.
	Errors []string `json:"errors"`
	// Warnings are weaknesses: p=none, pct below 100, no rua, ...
	Warnings []string `json:"warnings"`
}

// A DMARCTag is one tag=value pair of a DMARC record.
type DMARCTag struct {
	Name  string `json:"name"`
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

// ParseDMARC parses a DMARC record. Problems are reported in Errors and
// Warnings, never as a failure: the result is always usable.
func ParseDMARC(record string) *DMARC {
	d := &DMARC{Record: record, Percent: 100, ADKIM: "r", ASPF: "r", RUA: []string{}, RUF: []string{}, Tags: []DMARCTag{}, Errors: []string{}, Warnings: []string{}}
	seen := map[string]bool{}
	tags := 0
	for part := range strings.SplitSeq(record, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if tags++; tags > maxDMARCTags {
			d.Errors = append(d.Errors, fmt.Sprintf("more than %d tags", maxDMARCTags))
			break
		}
		name, value, ok := strings.Cut(part, "=")
		name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
		if !ok {
			d.Errors = append(d.Errors, fmt.Sprintf("tag %q has no value", part))
			continue
		}
		d.Tags = append(d.Tags, DMARCTag{Name: name, Value: value})
		if tags == 1 {
			if name != "v" || value != "DMARC1" {
				d.Errors = append(d.Errors, `the record must start with "v=DMARC1"`)
			}
			continue
		}
		if seen[name] {
			d.Warnings = append(d.Warnings, fmt.Sprintf("tag %s appears more than once; the first is used", name))
			continue
		}
		seen[name] = true
		switch name {
		case "p", "sp":
			v := strings.ToLower(value)
			if v != "none" && v != "quarantine" && v != "reject" {
				d.Errors = append(d.Errors, fmt.Sprintf("%s=%s is not none, quarantine or reject", name, value))
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
				d.Errors = append(d.Errors, fmt.Sprintf("pct=%s is not an integer from 0 to 100", value))
				continue
			}
			d.Percent = n
		case "rua", "ruf":
			var uris []string
			for _, u := range strings.Split(value, ",") {
				u = strings.TrimSpace(u)
				if !strings.Contains(u, ":") {
					d.Errors = append(d.Errors, fmt.Sprintf("%s URI %q is not a URI (mailto:...)", name, u))
					continue
				}
				uris = append(uris, u)
			}
			if name == "rua" {
				d.RUA = append(d.RUA, uris...)
			} else {
				d.RUF = append(d.RUF, uris...)
			}
		case "adkim", "aspf":
			v := strings.ToLower(value)
			if v != "r" && v != "s" {
				d.Errors = append(d.Errors, fmt.Sprintf("%s=%s is not r or s", name, value))
				continue
			}
			if name == "adkim" {
				d.ADKIM = v
			} else {
				d.ASPF = v
			}
		case "fo", "rf", "ri", "v":
		default:
			d.Warnings = append(d.Warnings, fmt.Sprintf("unknown tag %s is ignored", name))
		}
	}
	if d.Policy == "" {
		// RFC 7489 section 6.6.3: without a valid p, a record with a valid
		// rua is treated as p=none; otherwise it is ignored.
		if len(d.RUA) > 0 {
			d.Policy = "none"
			d.Warnings = append(d.Warnings, "p is missing; treated as p=none because rua is set")
		} else {
			d.Errors = append(d.Errors, "the required p tag is missing or invalid")
		}
	}
	switch d.Policy {
	case "none":
		d.Warnings = append(d.Warnings, "p=none only monitors: failing mail is delivered")
	}
	if d.Percent < 100 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("pct=%d applies the policy to part of the failing mail only", d.Percent))
	}
	if len(d.RUA) == 0 {
		d.Warnings = append(d.Warnings, "no rua: the domain receives no aggregate reports")
	}
	if d.SubdomainPolicy == "none" && d.Policy != "none" {
		d.Warnings = append(d.Warnings, "sp=none leaves subdomains unprotected")
	}
	return d
}

// CheckDMARC finds the DMARC record of domain at _dmarc.<domain>, else at
// _dmarc.<organizational domain>, and parses it. It returns ErrNoRecord
// when neither has one, and a resolver error when DNS failed.
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
			d.Errors = append(d.Errors, "more than one DMARC record is published; receivers ignore them all (RFC 7489 section 6.6.3)")
			return d, nil
		}
	}
	return nil, ErrNoRecord
}
