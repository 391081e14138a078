// Package mailauth parses and evaluates the mail-authentication policies
// a domain publishes in DNS: SPF (RFC 7208) and DMARC (RFC 7489). Quiver's
// email domain-health check and webcheck DNS analysis report its results.
//
// [CheckSPF] finds the domain's SPF record, parses its terms and walks its
// include and redirect chain counting DNS-querying terms and void lookups
// against RFC 7208's limits of 10 and 2 (section 4.6.4); [CheckDMARC]
// finds and parses the _dmarc record, falling back to the organizational
// domain. [ParseSPF] and [ParseDMARC] parse a record without DNS.
//
// The other records of a mail domain have a check each, which looks
// them up and judges them as package email's domain-health check reports
// them: [CheckMTASTS] (the _mta-sts record, the policy fetched through
// Quiver's SSRF-safe client, see [MTASTSOptions], and the MX match),
// [CheckTLSRPT], [CheckDKIM] (probing [DefaultDKIMSelectors] and the
// caller's), [CheckBIMI] (with the DMARC policy it depends on) and
// [CheckDNSSEC]. Their parsers work without I/O, on text a caller
// fetched: the _mta-sts record and the MTA-STS policy of RFC 8461
// ([ParseMTASTSRecord], [ParseMTASTSPolicy], whose [MTASTSPolicy.Matches]
// applies the mx patterns), the TLS-RPT record of RFC 8460
// ([ParseTLSRPT]), DKIM key records ([ParseDKIM]: key type and size) and
// BIMI records ([ParseBIMI]). [RecordVersion] tells a domain's TXT
// records apart. These parsers take untrusted text: they bound what they
// read and never fail, reporting every finding as a Problem. The results
// bound what they show of it too (see [MaxRecordBytes], [MaxValueBytes]
// and [MaxMessageBytes]), so that a result's size does not follow what a
// domain publishes.
//
// Both checks report what they find as data: an [SPF] or [DMARC] whose
// Problems carry a [Code] and a [Severity] for each error and warning,
// in Go and in the JSON form (whose errors and warnings carry the same
// messages). A domain that
// publishes no record is [ErrNoRecord]; only DNS failures that leave the
// answer unknown (SERVFAIL, timeouts) are other errors, wrapping the
// sentinels of package resolver.
package mailauth

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/resolver"
)

// RFC 7208 section 4.6.4 limits.
const (
	MaxDNSLookups  = 10 // terms that cause DNS queries, across includes
	MaxVoidLookups = 2  // lookups answered NXDOMAIN or with no records
	maxMXNames     = 10 // MX hosts looked up for one mx mechanism
	maxSPFDepth    = 10 // bound on include/redirect nesting
	maxSPFTerms    = 100
)

// Resolver is the DNS a check needs; *resolver.Resolver implements it.
// Failures must wrap resolver.ErrNXDomain and resolver.ErrNoData where
// they apply, as the resolver's do.
type Resolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
	LookupMX(ctx context.Context, name string) ([]resolver.MX, error)
	LookupIP(ctx context.Context, host string) ([]netip.Addr, error)
	LookupA(ctx context.Context, host string) ([]netip.Addr, error)
}

// An SPFTerm is one directive or modifier of an SPF record.
type SPFTerm struct {
	// Type is "mechanism" or "modifier".
	Type string `json:"type"`
	// Qualifier of a mechanism: "+", "-", "~" or "?" ("+" when omitted).
	Qualifier string `json:"qualifier,omitempty"`
	// Name is the mechanism (all, include, a, mx, ptr, ip4, ip6, exists)
	// or modifier name (redirect, exp, or another), lowercased.
	Name string `json:"name"`
	// Value is what follows the ":" or "=" (domain-spec, network, ...).
	Value string `json:"value,omitempty"`
}

// SPF is the SPF policy of a domain, as [CheckSPF] evaluates it.
type SPF struct {
	// Record is the SPF TXT record, strings joined, up to
	// MaxRecordBytes.
	Record string `json:"record"`
	// RecordTruncated reports a record longer than MaxRecordBytes, of
	// which Record shows the first MaxRecordBytes bytes. Every check
	// applies to the whole record. An extension beyond the contract.
	RecordTruncated bool `json:"record_truncated,omitempty" openapi:"extension"`
	// Terms are the record's terms in order, at most 100, each Name and
	// Value up to MaxValueBytes.
	Terms []SPFTerm `json:"terms"`
	// All is the record's all mechanism with its qualifier ("-all",
	// "~all", "?all", "+all"), taken from the redirect target when the
	// record has none; "" when there is none at all.
	All string `json:"all"`
	// DNSLookups counts the terms that query DNS (include, a, mx, ptr,
	// exists, redirect), across the include and redirect chain.
	DNSLookups int `json:"dns_lookups"`
	// DNSLookupLimit is RFC 7208's limit on DNSLookups, 10.
	DNSLookupLimit int `json:"dns_lookup_limit"`
	// VoidLookups counts lookups answered NXDOMAIN or without records.
	VoidLookups int `json:"void_lookups"`
	// VoidLookupLimit is RFC 7208's limit on VoidLookups, 2.
	VoidLookupLimit int `json:"void_lookup_limit"`
	// Errors are the messages of the problems that make the policy a
	// permerror: syntax, multiple records, limits exceeded, an include
	// without SPF. Never nil.
	Errors []string `json:"errors"`
	// Warnings are the messages of the weaknesses: +all, ?all, no all,
	// ptr. Never nil.
	Warnings []string `json:"warnings"`
	// Problems are the errors and warnings with their Code and Severity,
	// in the order found; their messages are also in Errors and
	// Warnings. Never nil. An extension beyond the contract in the
	// answers of the HTTP API.
	Problems []Problem `json:"problems" openapi:"extension"`
}

func (s *SPF) findings() findings {
	return findings{errors: &s.Errors, warnings: &s.Warnings, problems: &s.Problems}
}

// Valid reports whether the policy has no errors.
func (s *SPF) Valid() bool { return len(s.Errors) == 0 }

// isSPF reports whether a TXT record is an SPF version 1 record.
func isSPF(txt string) bool {
	t := strings.TrimSpace(txt)
	return len(t) >= 6 && strings.EqualFold(t[:6], "v=spf1") && (len(t) == 6 || t[6] == ' ')
}

var mechanisms = map[string]bool{"all": true, "include": true, "a": true, "mx": true, "ptr": true, "ip4": true, "ip6": true, "exists": true}

// ParseSPF parses an SPF record into its terms, without DNS. Syntax
// problems are returned as the error, one line each (at most one per
// term, and the terms are bounded); the terms that parsed are returned
// with it.
func ParseSPF(record string) ([]SPFTerm, error) {
	terms, errs := parseSPF(record)
	return terms, errors.Join(errs...)
}

// parseSPF is ParseSPF with its syntax problems apart.
func parseSPF(record string) ([]SPFTerm, []error) {
	if !isSPF(record) {
		return nil, []error{errors.New(`the record does not start with "v=spf1"`)}
	}
	var terms []SPFTerm
	var errs []error
	for i, f := range strings.Fields(record)[1:] {
		if i >= maxSPFTerms {
			errs = append(errs, fmt.Errorf("more than %d terms", maxSPFTerms))
			break
		}
		t, err := parseTerm(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		terms = append(terms, t)
	}
	return terms, errs
}

func parseTerm(f string) (SPFTerm, error) {
	// A modifier is name=value where name is ALPHA *( ALPHA / DIGIT / "-" / "_" / "." ).
	if i := strings.IndexByte(f, '='); i > 0 && !strings.ContainsAny(f[:i], ":/") {
		name := strings.ToLower(f[:i])
		if !validName(name) {
			return SPFTerm{}, fmt.Errorf("invalid modifier %s", textcut.Quote(f))
		}
		if (name == "redirect" || name == "exp") && f[i+1:] == "" {
			return SPFTerm{}, fmt.Errorf("%s needs a domain", name)
		}
		return SPFTerm{Type: "modifier", Name: name, Value: f[i+1:]}, nil
	}
	t := SPFTerm{Type: "mechanism", Qualifier: "+"}
	if strings.ContainsRune("+-~?", rune(f[0])) {
		t.Qualifier, f = f[:1], f[1:]
	}
	name, value, hasValue := strings.Cut(f, ":")
	if !hasValue {
		if i := strings.IndexByte(name, '/'); i >= 0 { // a/24, mx/24//64
			name, value = name[:i], name[i:]
		}
	}
	t.Name, t.Value = strings.ToLower(name), value
	if !mechanisms[t.Name] {
		return t, fmt.Errorf("unknown mechanism %s", textcut.Quote(f))
	}
	switch t.Name {
	case "all":
		if value != "" || hasValue {
			return t, errors.New("all takes no value")
		}
	case "include", "exists":
		if value == "" {
			return t, fmt.Errorf("%s needs a domain", t.Name)
		}
	case "ip4", "ip6":
		if err := checkNetwork(t.Name, value); err != nil {
			return t, err
		}
	}
	return t, nil
}

func validName(s string) bool {
	for i, c := range s {
		alpha := c >= 'a' && c <= 'z'
		if !alpha && (i == 0 || !(c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.')) {
			return false
		}
	}
	return s != ""
}

func checkNetwork(kind, v string) error {
	addr, bits, hasBits := strings.Cut(v, "/")
	a, err := netip.ParseAddr(addr)
	if err != nil || (kind == "ip4") != a.Is4() {
		return fmt.Errorf("%s:%s is not a valid %s address", kind, textcut.Excerpt(v), map[string]string{"ip4": "IPv4", "ip6": "IPv6"}[kind])
	}
	if hasBits {
		if _, err := netip.ParsePrefix(addr + "/" + bits); err != nil {
			return fmt.Errorf("%s:%s has an invalid prefix length", kind, textcut.Excerpt(v))
		}
	}
	return nil
}

// ErrNoRecord: the domain publishes no record of the kind asked for.
var ErrNoRecord = errors.New("no record published")

// spfRecord fetches the one SPF record of domain. NXDOMAIN and no record
// are ErrNoRecord (wrapping the DNS error); more than one record is
// errMultiple.
func spfRecord(ctx context.Context, r Resolver, domain string) (string, error) {
	txts, err := r.LookupTXT(ctx, domain)
	if errors.Is(err, resolver.ErrNXDomain) || errors.Is(err, resolver.ErrNoData) {
		return "", fmt.Errorf("%w: %w", ErrNoRecord, err)
	}
	if err != nil {
		return "", err
	}
	var found []string
	for _, t := range txts {
		if isSPF(t) {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return "", ErrNoRecord
	case 1:
		return found[0], nil
	}
	return found[0], errMultiple
}

var errMultiple = errors.New("multiple SPF records")

// CheckSPF finds and evaluates the SPF policy of domain: its one SPF
// record, and the records its include and redirect terms lead to. What is
// wrong with the policy is reported in the result's Problems. CheckSPF
// returns ErrNoRecord when the domain publishes no SPF record, and an
// error wrapping a resolver sentinel when DNS failed.
func CheckSPF(ctx context.Context, r Resolver, domain string) (*SPF, error) {
	rec, err := spfRecord(ctx, r, domain)
	s := &SPF{DNSLookupLimit: MaxDNSLookups, VoidLookupLimit: MaxVoidLookups, Errors: []string{}, Warnings: []string{}, Problems: []Problem{}}
	s.Record, s.RecordTruncated = shownRecord(rec)
	f := s.findings().capped()
	defer f.flush()
	switch {
	case errors.Is(err, errMultiple):
		f.fail(CodeSPFMultipleRecords, "the domain publishes more than one SPF record (RFC 7208 section 4.5: permerror)")
	case err != nil:
		return nil, err
	}
	terms, perrs := parseSPF(rec)
	s.Terms = make([]SPFTerm, len(terms))
	for i, t := range terms {
		t.Name, t.Value = shownValue(t.Name), shownValue(t.Value)
		s.Terms[i] = t
	}
	for _, e := range perrs {
		f.fail(CodeSPFSyntax, "syntax: "+e.Error())
	}
	w := &walker{r: r, s: s, f: f, seen: map[string]bool{strings.ToLower(domain): true}}
	all, err := w.walk(ctx, domain, terms, 0)
	if err != nil {
		return nil, err
	}
	s.All = all
	if s.DNSLookups > MaxDNSLookups {
		f.fail(CodeSPFTooManyLookups, fmt.Sprintf("%d DNS-querying terms exceed the limit of %d (RFC 7208 section 4.6.4: permerror)", s.DNSLookups, MaxDNSLookups))
	}
	if s.VoidLookups > MaxVoidLookups {
		f.fail(CodeSPFTooManyVoidLookups, fmt.Sprintf("%d void lookups exceed the limit of %d (RFC 7208 section 4.6.4: permerror)", s.VoidLookups, MaxVoidLookups))
	}
	switch all {
	case "+all":
		f.warn(CodeSPFPlusAll, "+all lets any host send mail for the domain")
	case "?all":
		f.warn(CodeSPFNeutralAll, "?all is neutral: the policy asserts nothing about other hosts")
	case "":
		f.warn(CodeSPFNoAll, "no all mechanism: mail from unlisted hosts gets a neutral result")
	}
	return s, nil
}

// walker follows include and redirect, counting lookups.
type walker struct {
	r    Resolver
	s    *SPF
	f    findings
	seen map[string]bool
}

// walk counts the lookups of terms (and the records they include) and
// returns the all mechanism that applies at this level.
func (w *walker) walk(ctx context.Context, domain string, terms []SPFTerm, depth int) (string, error) {
	all, redirect := "", ""
	for _, t := range terms {
		if w.s.DNSLookups > MaxDNSLookups && queries(t) {
			continue // permerror already: query no further
		}
		switch t.Name {
		case "all":
			if t.Type == "mechanism" {
				all = t.Qualifier + "all"
			}
		case "ptr":
			w.s.DNSLookups++
			if depth == 0 {
				w.f.warn(CodeSPFPTR, "ptr is slow and unreliable; RFC 7208 says not to use it")
			}
		case "a", "exists":
			w.s.DNSLookups++
			// a matches either family; exists asks for A records only,
			// whatever the client's family (RFC 7208 section 5.7).
			lookup := w.r.LookupIP
			if t.Name == "exists" {
				lookup = w.r.LookupA
			}
			if err := w.void(ctx, domain, t, func(name string) (bool, error) {
				ips, err := lookup(ctx, name)
				return len(ips) > 0, err
			}); err != nil {
				return all, err
			}
		case "mx":
			w.s.DNSLookups++
			if err := w.void(ctx, domain, t, func(name string) (bool, error) {
				mx, err := w.r.LookupMX(ctx, name)
				if len(mx) > maxMXNames {
					w.f.fail(CodeSPFTooManyMXHosts, fmt.Sprintf("mx:%s has %d MX hosts, over the limit of %d", name, len(mx), maxMXNames))
				}
				return len(mx) > 0, err
			}); err != nil {
				return all, err
			}
		case "include":
			w.s.DNSLookups++
			if err := w.include(ctx, t.Value, depth, "include"); err != nil {
				return all, err
			}
		case "redirect":
			if t.Type == "modifier" {
				redirect = t.Value
			}
		}
	}
	if redirect != "" && all == "" {
		// redirect is ignored when the record has an all mechanism.
		w.s.DNSLookups++
		return w.redirect(ctx, redirect, depth)
	}
	return all, nil
}

// queries reports whether evaluating t queries DNS.
func queries(t SPFTerm) bool {
	switch t.Name {
	case "a", "mx", "ptr", "exists", "include", "redirect":
		return true
	}
	return false
}

// void runs the lookup of an a, mx or exists term against its domain (the
// record's own when the term names none; no lookup when the domain-spec
// has macros, which depend on the message) and counts a void answer.
func (w *walker) void(ctx context.Context, domain string, t SPFTerm, lookup func(string) (bool, error)) error {
	name, _, _ := strings.Cut(t.Value, "/")
	if name == "" {
		name = domain
	}
	if strings.Contains(name, "%") {
		return nil
	}
	found, err := lookup(name)
	if err != nil && !errors.Is(err, resolver.ErrNXDomain) && !errors.Is(err, resolver.ErrNoData) {
		return err
	}
	if !found {
		w.s.VoidLookups++
	}
	return nil
}

func (w *walker) include(ctx context.Context, domain string, depth int, kind string) error {
	_, err := w.fetch(ctx, domain, depth, kind)
	return err
}

func (w *walker) redirect(ctx context.Context, domain string, depth int) (string, error) {
	return w.fetch(ctx, domain, depth, "redirect")
}

// fetch evaluates the SPF record of an include or redirect target and
// returns its all mechanism.
func (w *walker) fetch(ctx context.Context, domain string, depth int, kind string) (string, error) {
	if strings.Contains(domain, "%") {
		return "", nil // macro: depends on the message
	}
	key := strings.ToLower(strings.TrimSuffix(domain, "."))
	if w.seen[key] || depth >= maxSPFDepth {
		w.f.fail(CodeSPFLoop, fmt.Sprintf("%s:%s loops back to a record already evaluated", kind, textcut.Excerpt(domain)))
		return "", nil
	}
	w.seen[key] = true
	defer delete(w.seen, key) // the same include twice is fine; a cycle is not
	rec, err := spfRecord(ctx, w.r, domain)
	switch {
	case errors.Is(err, ErrNoRecord):
		if errors.Is(err, resolver.ErrNXDomain) || errors.Is(err, resolver.ErrNoData) {
			w.s.VoidLookups++
		}
		w.f.fail(CodeSPFIncludeMissing, fmt.Sprintf("%s:%s has no SPF record (permerror)", kind, textcut.Excerpt(domain)))
		return "", nil
	case errors.Is(err, errMultiple):
		w.f.fail(CodeSPFMultipleRecords, fmt.Sprintf("%s:%s publishes more than one SPF record (permerror)", kind, textcut.Excerpt(domain)))
		return "", nil
	case err != nil:
		return "", err
	}
	terms, perrs := parseSPF(rec)
	if perrs != nil {
		w.f.fail(CodeSPFSyntax, fmt.Sprintf("%s:%s: %v", kind, textcut.Excerpt(domain), strings.ReplaceAll(errors.Join(perrs...).Error(), "\n", "; ")))
	}
	return w.walk(ctx, domain, terms, depth+1)
}
