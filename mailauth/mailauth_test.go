package mailauth

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

const zone = `
$ORIGIN test.
$TTL 300
@ IN SOA ns hostmaster 1 3600 600 86400 60
good            TXT "v=spf1 ip4:192.0.2.0/24 include:_spf.provider.test -all"
good            TXT "google-site-verification=abc"
_spf.provider   TXT "v=spf1 ip6:2001:db8::/32 ~all"
_dmarc.good     TXT "v=DMARC1; p=reject; sp=quarantine; pct=100; rua=mailto:a@good.test,mailto:b@good.test; ruf=mailto:f@good.test; adkim=s; aspf=r"
open            TXT "v=spf1 +all"
_dmarc.open     TXT "v=DMARC1; p=none"
soft            TXT "v=spf1 mx a ~all"
soft            MX 10 mail.soft.test.
soft            A 192.0.2.5
mail.soft       A 192.0.2.6
double          TXT "v=spf1 -all"
double          TXT "v=spf1 ~all"
deep            TXT "v=spf1 include:l1.deep.test include:l2.deep.test include:l3.deep.test include:l4.deep.test include:l5.deep.test include:l6.deep.test -all"
l1.deep         TXT "v=spf1 a mx include:l2.deep.test -all"
l2.deep         TXT "v=spf1 a mx -all"
l1.deep         A 192.0.2.1
l1.deep         MX 10 l1.deep.test.
l2.deep         A 192.0.2.1
l2.deep         MX 10 l1.deep.test.
l3.deep         TXT "v=spf1 ip4:192.0.2.1 -all"
l4.deep         TXT "v=spf1 ip4:192.0.2.1 -all"
l5.deep         TXT "v=spf1 ip4:192.0.2.1 -all"
l6.deep         TXT "v=spf1 ip4:192.0.2.1 -all"
voids           TXT "v=spf1 a:nx1.voids.test a:nx2.voids.test exists:nx3.voids.test -all"
loop            TXT "v=spf1 include:loop.test -all"
existsv6        TXT "v=spf1 exists:v6only.existsv6.test a:v6only.existsv6.test -all"
v6only.existsv6 AAAA 2001:db8::1
missing-inc     TXT "v=spf1 include:nothing.test -all"
redir           TXT "v=spf1 redirect=_spf.provider.test"
bad             TXT "v=spf1 ip4:300.1.1.1 foo:bar ~all"
sub.org         A 192.0.2.7
_dmarc.org      TXT "v=DMARC1; p=quarantine; pct=50; rua=mailto:d@org.test"
_dmarc.broken   TXT "v=DMARC1; p=maybe; adkim=x"
_dmarc.ruaonly  TXT "v=DMARC1; rua=mailto:x@ruaonly.test"
`

// newResolver asks a loopback server of zone, served as cfg says
// otherwise.
func newResolver(t *testing.T, cfg resolvertest.Config) *resolver.Resolver {
	t.Helper()
	cfg.Zone = zone
	srv := resolvertest.Start(t, cfg)
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 200 * time.Millisecond, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCheckSPF(t *testing.T) {
	r := newResolver(t, resolvertest.Config{})
	tests := []struct {
		domain        string
		all           string
		lookups, void int
		errs          []string // substrings, in order
		warns         []string
	}{
		{domain: "good.test", all: "-all", lookups: 1},
		{domain: "open.test", all: "+all", warns: []string{"+all"}},
		{domain: "soft.test", all: "~all", lookups: 2},
		{domain: "double.test", all: "-all", errs: []string{"more than one SPF record"}},
		{domain: "deep.test", all: "-all", lookups: 11, errs: []string{"exceed the limit of 10"}},
		{domain: "voids.test", all: "-all", lookups: 3, void: 3, errs: []string{"void lookups exceed the limit of 2"}},
		{domain: "loop.test", all: "-all", lookups: 1, errs: []string{"loops back"}},
		// exists asks for A only (RFC 7208 5.7): an AAAA-only name is void
		// for exists, though a matches it.
		{domain: "existsv6.test", all: "-all", lookups: 2, void: 1},
		{domain: "missing-inc.test", all: "-all", lookups: 1, void: 1, errs: []string{"has no SPF record"}},
		{domain: "redir.test", all: "~all", lookups: 1},
		{domain: "bad.test", all: "~all", errs: []string{"not a valid IPv4", "unknown mechanism"}},
	}
	for _, tt := range tests {
		t.Run(tt.domain, func(t *testing.T) {
			s, err := CheckSPF(context.Background(), r, tt.domain)
			if err != nil {
				t.Fatal(err)
			}
			if s.All != tt.all || s.DNSLookups != tt.lookups || s.VoidLookups != tt.void {
				t.Errorf("all %q lookups %d void %d; want %q %d %d", s.All, s.DNSLookups, s.VoidLookups, tt.all, tt.lookups, tt.void)
			}
			checkContains(t, "errors", s.Errors, tt.errs)
			checkContains(t, "warnings", s.Warnings, tt.warns)
			if s.DNSLookupLimit != 10 || s.VoidLookupLimit != 2 {
				t.Errorf("limits %d %d", s.DNSLookupLimit, s.VoidLookupLimit)
			}
		})
	}
}

func checkContains(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(want) == 0 && what == "errors" && len(got) > 0 {
		t.Errorf("unexpected %s: %q", what, got)
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, w) }) {
			t.Errorf("%s %q: none contains %q", what, got, w)
		}
	}
}

func TestCheckSPFAbsentAndFailing(t *testing.T) {
	r := newResolver(t, resolvertest.Config{ServFail: []string{"fail.test"}})
	ctx := context.Background()
	for _, d := range []string{"nothing.test", "sub.org.test"} {
		if _, err := CheckSPF(ctx, r, d); !errors.Is(err, ErrNoRecord) {
			t.Errorf("%s: err = %v, want ErrNoRecord", d, err)
		}
	}
	if _, err := CheckSPF(ctx, r, "fail.test"); !errors.Is(err, resolver.ErrServFail) {
		t.Errorf("err = %v, want SERVFAIL", err)
	}
}

func TestParseSPFTerms(t *testing.T) {
	terms, err := ParseSPF("v=spf1 -ip4:192.0.2.0/24 ~a/24 mx:example.com/24//64 ?exists:%{i}.x.test redirect=x.test exp=e.test -ALL")
	if err != nil {
		t.Fatal(err)
	}
	want := []SPFTerm{
		{Type: "mechanism", Qualifier: "-", Name: "ip4", Value: "192.0.2.0/24"},
		{Type: "mechanism", Qualifier: "~", Name: "a", Value: "/24"},
		{Type: "mechanism", Qualifier: "+", Name: "mx", Value: "example.com/24//64"},
		{Type: "mechanism", Qualifier: "?", Name: "exists", Value: "%{i}.x.test"},
		{Type: "modifier", Name: "redirect", Value: "x.test"},
		{Type: "modifier", Name: "exp", Value: "e.test"},
		{Type: "mechanism", Qualifier: "-", Name: "all"},
	}
	if diff := cmp.Diff(want, terms); diff != "" {
		t.Errorf("terms (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"v=spf10 -all", "spf1 -all", "v=spf1 include", "v=spf1 ip6:192.0.2.1", "v=spf1 all:x", "v=spf1 9x=y"} {
		if _, err := ParseSPF(bad); err == nil {
			t.Errorf("ParseSPF(%q) accepted", bad)
		}
	}
}

func TestCheckDMARC(t *testing.T) {
	r := newResolver(t, resolvertest.Config{ServFail: []string{"_dmarc.fail.test"}})
	ctx := context.Background()

	d, err := CheckDMARC(ctx, r, "good.test")
	if err != nil {
		t.Fatal(err)
	}
	want := &DMARC{Record: d.Record, Domain: "good.test", Policy: "reject", SubdomainPolicy: "quarantine", Percent: 100,
		RUA: []string{"mailto:a@good.test", "mailto:b@good.test"}, RUF: []string{"mailto:f@good.test"}, ADKIM: "s", ASPF: "r",
		Tags: d.Tags, Errors: []string{}, Warnings: []string{}, Problems: []Problem{}}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("good.test (-want +got):\n%s", diff)
	}

	tests := []struct {
		domain, at, policy string
		errs, warns        []string
	}{
		{domain: "open.test", at: "open.test", policy: "none", warns: []string{"p=none", "no rua"}},
		{domain: "sub.org.test", at: "org.test", policy: "quarantine", warns: []string{"pct=50"}},
		{domain: "broken.test", at: "broken.test", errs: []string{"p=maybe", "adkim=x", "p tag is missing"}},
		{domain: "ruaonly.test", at: "ruaonly.test", policy: "none", warns: []string{"treated as p=none"}},
	}
	for _, tt := range tests {
		t.Run(tt.domain, func(t *testing.T) {
			d, err := CheckDMARC(ctx, r, tt.domain)
			if err != nil {
				t.Fatal(err)
			}
			if d.Domain != tt.at || d.Policy != tt.policy {
				t.Errorf("found at %q with p=%q; want %q, %q", d.Domain, d.Policy, tt.at, tt.policy)
			}
			checkContains(t, "errors", d.Errors, tt.errs)
			checkContains(t, "warnings", d.Warnings, tt.warns)
		})
	}
	if _, err := CheckDMARC(ctx, r, "nothing.test"); !errors.Is(err, ErrNoRecord) {
		t.Errorf("err = %v, want ErrNoRecord", err)
	}
	if _, err := CheckDMARC(ctx, r, "fail.test"); !errors.Is(err, resolver.ErrServFail) {
		t.Errorf("err = %v, want SERVFAIL", err)
	}
}

// The bound on tags counts tags: empty parts do not use it up, and parts
// without a value do not get past it.
func TestParseDMARCTagBound(t *testing.T) {
	d := ParseDMARC("v=DMARC1;" + strings.Repeat(";", 100) + "p=reject; rua=mailto:d@x.test")
	if !d.Valid() || d.Policy != "reject" {
		t.Errorf("empty parts counted as tags: p=%q errors %q", d.Policy, d.Errors)
	}
	d = ParseDMARC("v=DMARC1; p=reject" + strings.Repeat("; x", 10000))
	if n := len(d.Errors) + len(d.Warnings); n > maxDMARCTags+10 {
		t.Errorf("%d errors and warnings from one record; the tag bound is %d", n, maxDMARCTags)
	}
}

// The bound on terms counts the invalid ones too: a hostile record
// cannot produce an error per term.
func TestParseSPFTermBound(t *testing.T) {
	terms, err := ParseSPF("v=spf1" + strings.Repeat(" bad!term", 10000) + " -all")
	if n := strings.Count(err.Error(), "\n") + 1; len(terms) != 0 || n > maxSPFTerms+1 {
		t.Errorf("%d terms and %d errors; the bound is %d", len(terms), n, maxSPFTerms)
	}
	terms, err = ParseSPF("v=spf1" + strings.Repeat(" a", maxSPFTerms))
	if err != nil || len(terms) != maxSPFTerms {
		t.Errorf("%d terms at the bound: %v", len(terms), err)
	}
}

func FuzzParseSPF(f *testing.F) {
	f.Add("v=spf1 ip4:192.0.2.0/24 include:x.test -all")
	f.Add("v=spf1 redirect=x.test")
	f.Fuzz(func(t *testing.T, s string) {
		terms, err := ParseSPF(s)
		if len(terms) > maxSPFTerms {
			t.Fatalf("%d terms", len(terms))
		}
		if err != nil && strings.Count(err.Error(), "\n") > maxSPFTerms {
			t.Fatalf("%d errors", strings.Count(err.Error(), "\n")+1)
		}
	})
}

func FuzzParseDMARC(f *testing.F) {
	f.Add("v=DMARC1; p=reject; rua=mailto:a@b.test")
	f.Fuzz(func(t *testing.T, s string) {
		d := ParseDMARC(s)
		if d.Percent < 0 || d.Percent > 100 {
			t.Fatalf("pct %d", d.Percent)
		}
	})
}

// Each finding carries the code that names it, and the messages of
// Errors and Warnings are those of the Problems of each severity (issue
// 13: domain health matched the text of the messages to find the codes).
func TestProblemCodes(t *testing.T) {
	r := newResolver(t, resolvertest.Config{})
	ctx := context.Background()
	spf := []struct {
		domain string
		want   []Code
	}{
		{"good.test", nil},
		{"open.test", []Code{CodeSPFPlusAll}},
		{"double.test", []Code{CodeSPFMultipleRecords}},
		{"deep.test", []Code{CodeSPFTooManyLookups}},
		{"voids.test", []Code{CodeSPFTooManyVoidLookups}},
		{"loop.test", []Code{CodeSPFLoop}},
		{"missing-inc.test", []Code{CodeSPFIncludeMissing}},
		{"bad.test", []Code{CodeSPFSyntax, CodeSPFSyntax}},
	}
	for _, tt := range spf {
		s, err := CheckSPF(ctx, r, tt.domain)
		if err != nil {
			t.Fatal(err)
		}
		checkProblems(t, tt.domain, s.Problems, s.Errors, s.Warnings, tt.want)
	}
	dmarc := []struct {
		domain string
		want   []Code
	}{
		{"good.test", nil},
		{"open.test", []Code{CodeDMARCPolicyNone, CodeDMARCNoRUA}},
		{"sub.org.test", []Code{CodeDMARCPartial}},
		{"broken.test", []Code{CodeDMARCSyntax, CodeDMARCSyntax, CodeDMARCNoPolicy, CodeDMARCNoRUA}},
		{"ruaonly.test", []Code{CodeDMARCImplicitNone, CodeDMARCPolicyNone}},
	}
	for _, tt := range dmarc {
		d, err := CheckDMARC(ctx, r, tt.domain)
		if err != nil {
			t.Fatal(err)
		}
		checkProblems(t, "_dmarc."+tt.domain, d.Problems, d.Errors, d.Warnings, tt.want)
	}
	d := ParseDMARC("v=DMARC1; p=reject; sp=none; rua=mailto:a@x.test; p=none; zz=1")
	checkProblems(t, "ParseDMARC", d.Problems, d.Errors, d.Warnings, []Code{CodeDMARCDuplicateTag, CodeDMARCUnknownTag, CodeDMARCSubdomainNone})
}

func checkProblems(t *testing.T, what string, got []Problem, errs, warns []string, want []Code) {
	t.Helper()
	var codes []Code
	var gotErrs, gotWarns []string
	for _, p := range got {
		codes = append(codes, p.Code)
		switch p.Severity {
		case SeverityError:
			gotErrs = append(gotErrs, p.Message)
		case SeverityWarning:
			gotWarns = append(gotWarns, p.Message)
		default:
			t.Errorf("%s: problem %q has severity %q", what, p.Code, p.Severity)
		}
	}
	if diff := cmp.Diff(want, codes); diff != "" {
		t.Errorf("%s: codes (-want +got):\n%s", what, diff)
	}
	if !slices.Equal(gotErrs, errs) || !slices.Equal(gotWarns, warns) {
		t.Errorf("%s: problems %q do not match errors %q and warnings %q", what, got, errs, warns)
	}
}

// A message quotes at most about 100 characters of what a record holds
// (issue 13).
func TestMessagesQuoteBoundedInput(t *testing.T) {
	long := strings.Repeat("x", 5000)
	_, err := ParseSPF("v=spf1 " + long + ":y -all")
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("ParseSPF error is %d bytes", len(err.Error()))
	}
	d := ParseDMARC("v=DMARC1; p=" + long + "; rua=" + long + "; " + long)
	for _, m := range append(d.Errors, d.Warnings...) {
		if len(m) > 300 {
			t.Errorf("ParseDMARC message is %d bytes: %.80s...", len(m), m)
		}
	}
}
