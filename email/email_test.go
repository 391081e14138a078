package email

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/miekg/dns"
	"golang.org/x/net/idna"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// fixtureZone serves every DNS case the tests need under .test.
const fixtureZone = `
$ORIGIN test.
$TTL 300
@              SOA ns hostmaster 1 3600 600 86400 60
mx             MX 10 mail.mx.test.
mx             MX 20 backup.mx.test.
mail.mx        A 127.0.0.1
backup.mx      A 127.0.0.1
nullmx         MX 0 .
implicit       A 192.0.2.1
implicit6      AAAA 2001:db8::1
nomail         TXT "just text"
; domain health fixtures
good           MX 10 mail.good.test.
mail.good      A 192.0.2.10
good           TXT "v=spf1 mx -all"
_dmarc.good    TXT "v=DMARC1; p=reject; rua=mailto:dmarc@good.test"
weak           MX 10 mail.good.test.
weak           TXT "v=spf1 +all"
_dmarc.weak    TXT "v=DMARC1; p=none"
twospf         MX 10 mail.good.test.
twospf         TXT "v=spf1 -all"
twospf         TXT "v=spf1 ~all"
_dmarc.twospf  TXT "v=DMARC1; p=quarantine; pct=25; rua=mailto:d@twospf.test"
manyspf        MX 10 mail.good.test.
manyspf        TXT "v=spf1 a:mail.good.test a:mail.good.test a:mail.good.test a:mail.good.test a:mail.good.test a:mail.good.test a:mail.good.test a:mail.good.test a:mail.good.test a:mail.good.test a:mail.good.test -all"
_dmarc.manyspf TXT "v=DMARC1; p=reject; rua=mailto:d@manyspf.test"
voidspf        MX 10 mail.good.test.
voidspf        TXT "v=spf1 a:gone1.voidspf.test a:gone2.voidspf.test a:gone3.voidspf.test -all"
_dmarc.voidspf TXT "v=DMARC1; p=reject; rua=mailto:d@voidspf.test"
; reverse DNS of the domain health fixtures' MX
$ORIGIN 2.0.192.in-addr.arpa.
10             PTR mail.good.test.
`

// fixture serves fixtureZone, as cfg says otherwise, and returns a
// resolver that asks it.
func fixture(t testing.TB, cfg resolvertest.Config) (*resolvertest.Server, *resolver.Resolver) {
	t.Helper()
	cfg.Zone = fixtureZone
	srv := resolvertest.Start(t, cfg)
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 150 * time.Millisecond, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	return srv, r
}

func TestValidateMXRules(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{ServFail: []string{"servfail.test"}, Drop: []string{"slow.test"}})
	v := &Verifier{cfg: Config{Resolver: r}}
	tests := []struct {
		addr    string
		status  MXStatus
		hosts   []string
		valid   bool
		hasMX   bool
		reason  Reason
		errPart string
	}{
		{addr: "a@mx.test", status: MXFound, hosts: []string{"mail.mx.test", "backup.mx.test"}, valid: true, hasMX: true},
		{addr: "a@nullmx.test", status: MXNull, hosts: []string{}, reason: ReasonNullMX},
		{addr: "a@implicit.test", status: MXImplicit, hosts: []string{"implicit.test"}, valid: true},
		{addr: "a@implicit6.test", status: MXImplicit, hosts: []string{"implicit6.test"}, valid: true},
		{addr: "a@nomail.test", status: MXNone, hosts: []string{}, reason: ReasonNoMailServer},
		{addr: "a@missing.test", status: MXNXDomain, hosts: []string{}, reason: ReasonDomainNotFound},
		{addr: "a@servfail.test", status: MXServFail, hosts: []string{}, valid: true, errPart: "SERVFAIL"},
		{addr: "a@slow.test", status: MXTimeout, hosts: []string{}, valid: true, errPart: "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			res := v.Validate(context.Background(), tt.addr, Checks{})
			if res.MX == nil {
				t.Fatal("no MX result")
			}
			if res.MX.Status != tt.status || !cmp.Equal(res.MX.Hosts, tt.hosts) {
				t.Errorf("MX = %+v; want %s %v", *res.MX, tt.status, tt.hosts)
			}
			if res.IsValid != tt.valid || res.HasMXRecords != tt.hasMX {
				t.Errorf("is_valid %v has_mx %v; want %v %v", res.IsValid, res.HasMXRecords, tt.valid, tt.hasMX)
			}
			if tt.reason != "" && (res.Reason == nil || *res.Reason != tt.reason || res.Email != nil) {
				t.Errorf("reason %v email %v; want %q and no email", res.Reason, res.Email, tt.reason)
			}
			if tt.reason == "" && res.Reason != nil {
				t.Errorf("unexpected reason %q", *res.Reason)
			}
			if !strings.Contains(res.MX.Error, tt.errPart) {
				t.Errorf("MX error %q does not mention %q", res.MX.Error, tt.errPart)
			}
			// It is for the caller: the question and the failure, not the
			// resolver's package name or its own address.
			if tt.errPart != "" && (!strings.HasPrefix(res.MX.Error, strings.TrimPrefix(tt.addr, "a@")+" MX: ") ||
				strings.Contains(res.MX.Error, "resolver:") || strings.Contains(res.MX.Error, "127.0.0.1")) {
				t.Errorf("MX error %q is not the question and its failure", res.MX.Error)
			}
		})
	}
}

func TestValidateWithoutResolver(t *testing.T) {
	res := Validate("User@Example.com")
	if !res.IsValid || res.MX == nil || res.MX.Status != MXSkipped || *res.Email != "User@example.com" {
		t.Errorf("got %+v", res)
	}
	res = (&Verifier{}).Validate(context.Background(), "a@example.com", Checks{SkipMX: true})
	if res.MX != nil {
		t.Errorf("SkipMX still reported MX %+v", res.MX)
	}
}

func TestValidateLists(t *testing.T) {
	v := &Verifier{cfg: Config{Lists: DefaultLists().WithAllowed("allowed.mailinator.com")}}
	tests := []struct {
		addr                   string
		disposable, free, role bool
		dym                    string
	}{
		{addr: "x@mailinator.com", disposable: true},
		{addr: "x@MAILINATOR.com", disposable: true},
		{addr: "x@inbox.sub.mailinator.com", disposable: true},
		{addr: "x@allowed.mailinator.com"},
		{addr: "x@mailinator.com.example.org"},
		{addr: "x@gmail.com", free: true},
		{addr: "x@gmial.com", disposable: true, dym: "x@gmail.com"}, // typo domains are listed too
		{addr: "x@gmail.con", dym: "x@gmail.com"},
		{addr: "Jane@hotmial.com", disposable: true, dym: "Jane@hotmail.com"},
		{addr: "x@yahooo.com", disposable: true, dym: "x@yahoo.com"},
		{addr: "x@outlook.cmo", dym: "x@outlook.com"},
		{addr: "x@example.com"},
		{addr: "support@example.com", role: true},
		{addr: "Support@example.com", role: true},
		{addr: "SUPPORT+billing@example.com", role: true},
		{addr: "no-reply@example.com", role: true},
		{addr: "noreply+x@example.com", role: true},
		{addr: "postmaster@example.com", role: true},
		{addr: `"info"@example.com`, role: true},
		{addr: "jane.doe@example.com"},
		{addr: "supporter@example.com"},
	}
	for _, tt := range tests {
		res := v.Validate(context.Background(), tt.addr, Checks{SkipMX: true})
		dym := ""
		if res.DidYouMean != nil {
			dym = *res.DidYouMean
		}
		if res.IsDisposable != tt.disposable || res.IsFreeProvider != tt.free || res.IsRoleAccount != tt.role || dym != tt.dym {
			t.Errorf("%s: disposable %v free %v role %v dym %q; want %v %v %v %q",
				tt.addr, res.IsDisposable, res.IsFreeProvider, res.IsRoleAccount, dym, tt.disposable, tt.free, tt.role, tt.dym)
		}
	}
	res := v.Validate(context.Background(), "support@mailinator.com", Checks{SkipMX: true, SkipDisposable: true, SkipRole: true})
	if res.IsDisposable || res.IsRoleAccount {
		t.Errorf("skipped checks ran: %+v", res)
	}
}

func TestListsLoadedAtRunTime(t *testing.T) {
	l, err := DefaultLists().WithDisposable(strings.NewReader("# newer list\nbrand-new-throwaway.example\n*.wild.example\nbücher-trash.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	for d, want := range map[string]bool{
		"brand-new-throwaway.example": true, "x.wild.example": true, mustASCII(t, "bücher-trash.example"): true,
		"mailinator.com": false, // replaced, not merged
	} {
		if got := l.IsDisposable(d); got != want {
			t.Errorf("IsDisposable(%s) = %v, want %v", d, got, want)
		}
	}
	if _, err := DefaultLists().WithDisposable(strings.NewReader("ok.example\nnot a domain\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad list: err = %v, want one naming line 2", err)
	}
	d, f, r := DefaultLists().Len()
	if d < 50000 || f < 1000 || r < 100 {
		t.Errorf("embedded lists too small: %d disposable, %d free, %d roles", d, f, r)
	}
}

func mustASCII(t *testing.T, d string) string {
	a, err := idna.Lookup.ToASCII(d)
	if err != nil || a == d {
		t.Fatalf("ToASCII(%q) = %q, %v", d, a, err)
	}
	return a
}

func TestValidateBulk(t *testing.T) {
	srv, r := fixture(t, resolvertest.Config{})
	v := &Verifier{cfg: Config{Resolver: r}}
	emails := []string{
		"a@mx.test", "B@MX.test", "a@mx.test", " a@mx.test ", "bad", "bad",
		"x@mailinator.com", "support@implicit.test", "a@nullmx.test", "A@mx.test",
	}
	res, err := v.ValidateBulk(context.Background(), BulkRequest{Emails: emails, CheckMX: new(true)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != len(emails) {
		t.Fatalf("%d results", len(res.Results))
	}
	for i, it := range res.Results {
		if it.Input != emails[i] {
			t.Errorf("result %d is for %q, want %q (input order)", i, it.Input, emails[i])
		}
	}
	// mailinator.com does not exist in the fixture DNS: NXDOMAIN.
	want := Summary{Total: 10, Valid: 6, Invalid: 4, Disposable: 1, RoleAccounts: 1, DomainsWithMX: 1, Duplicates: 3}
	if diff := cmp.Diff(want, res.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if n := srv.QueriesFor("mx.test", dns.TypeMX); n != 1 {
		t.Errorf("mx.test MX queried %d times, want 1", n)
	}

	// The switches.
	res, _ = v.ValidateBulk(context.Background(), BulkRequest{Emails: []string{"support@mailinator.com"}, CheckMX: new(false), CheckDisposable: new(false), CheckRoleAccount: new(false)})
	if it := res.Results[0]; it.MX != nil || it.IsDisposable || it.IsRoleAccount || it.HasMXRecords {
		t.Errorf("checks switched off still ran: %+v", it)
	}

	for _, n := range []int{0, 501} {
		_, err := v.ValidateBulk(context.Background(), BulkRequest{Emails: make([]string, n)})
		var ve *envelope.ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), "emails") {
			t.Errorf("%d emails: err = %v, want a validation error on emails", n, err)
		}
	}
}

func TestValidateCSV(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	v := &Verifier{cfg: Config{Resolver: r}}
	tests := []struct {
		name, file, column string
		inputs             []string
	}{
		{"email column", "name,Email\nAnn,a@mx.test\nBob,b@mx.test\n", "Email", []string{"a@mx.test", "b@mx.test"}},
		{"first column", "address,name\na@mx.test,Ann\n", "address", []string{"a@mx.test"}},
		{"BOM and CRLF", "\xef\xbb\xbfEMAIL\r\na@mx.test\r\nb@mx.test\r\n", "EMAIL", []string{"a@mx.test", "b@mx.test"}},
		{"quoted", "email,note\n\"a@mx.test\",\"x, y\"\n\"\"\"q\"\"@mx.test\",\"multi\nline\"\n", "email", []string{"a@mx.test", `"q"@mx.test`}},
		{"short rows and blank lines", "id,email\n1,a@mx.test\n\n2\n", "email", []string{"a@mx.test", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := v.ValidateCSV(context.Background(), strings.NewReader(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var inputs []string
			for _, it := range res.Results {
				inputs = append(inputs, it.Input)
			}
			if res.Column != tt.column || !cmp.Equal(inputs, tt.inputs) || res.Rows != len(tt.inputs) {
				t.Errorf("column %q inputs %q rows %d; want %q %q", res.Column, inputs, res.Rows, tt.column, tt.inputs)
			}
		})
	}
	if res, _ := v.ValidateCSV(context.Background(), strings.NewReader("email\na@mx.test\n")); !res.Results[0].HasMXRecords {
		t.Error("CSV validation did not check MX")
	}

	rows := func(n int) string {
		var b strings.Builder
		b.WriteString("email\n")
		for i := range n {
			fmt.Fprintf(&b, "u%d@mx.test\n", i)
		}
		return b.String()
	}
	if _, err := v.ValidateCSV(context.Background(), strings.NewReader(rows(1000))); err != nil {
		t.Errorf("1000 rows refused: %v", err)
	}
	errCases := []struct {
		name, file, want string
	}{
		{"too many rows", rows(1001), "more than the limit of 1000 data rows"},
		{"too large", "email\n" + strings.Repeat("x", MaxCSVBytes), "larger than the limit of 524288 bytes"},
		{"empty", "", "a header row is required"},
		{"header only", "email\r\n", "no data rows"},
		{"bad quote", "email\na@mx.test\n\"b@mx.test\n", "row 2"},
		{"bare quote", "email\na\"b@mx.test\n", "row 1"},
	}
	for _, tt := range errCases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := v.ValidateCSV(context.Background(), strings.NewReader(tt.file))
			var ve *envelope.ValidationError
			if !errors.As(err, &ve) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "file") {
				t.Errorf("err = %v; want a validation error on file mentioning %q", err, tt.want)
			}
		})
	}
}

func TestDomainHealth(t *testing.T) {
	srv, _ := fixture(t, resolvertest.Config{ServFail: []string{"servfail.test"}})
	// Each domain asks some 30 questions at once: a generous timeout keeps
	// a saturated machine from turning a slow answer into a dns_error.
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 2 * time.Second, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := &Verifier{cfg: Config{Resolver: r}}
	res, err := v.DomainHealth(context.Background(), DomainHealthRequest{Domains: []string{"good.test", "weak.test", "twospf.test", "missing.test", "nullmx.test", "GOOD.test.", "servfail.test", "manyspf.test", "voidspf.test"}})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		verdict Verdict
		codes   []string
	}
	wants := []want{
		{VerdictReady, nil},
		{VerdictNotReady, []string{"spf_plus_all", "dmarc_p_none", "dmarc_no_rua"}},
		{VerdictNotReady, []string{"spf_invalid", "dmarc_pct"}},
		{VerdictNotReady, []string{"domain_not_found"}},
		{VerdictNotReady, []string{"null_mx", "spf_missing", "dmarc_missing"}},
		{VerdictUnknown, []string{"dns_error"}},
		{VerdictNotReady, []string{"spf_too_many_lookups"}},
		{VerdictNotReady, []string{"spf_too_many_void_lookups"}},
	}
	for i, w := range wants {
		h := res.Results[i]
		var codes []string
		for _, p := range h.Problems {
			codes = append(codes, string(p.Code))
		}
		if h.Verdict != w.verdict {
			t.Errorf("%s: verdict %s, want %s (problems %v)", h.Domain, h.Verdict, w.verdict, codes)
		}
		for _, c := range w.codes {
			if !strings.Contains(strings.Join(codes, " "), c) {
				t.Errorf("%s: problems %v lack %s", h.Domain, codes, c)
			}
		}
	}
	g := res.Results[0]
	if g.SPF == nil || g.SPF.All != "-all" || g.SPF.DNSLookups != 1 || g.DMARC == nil || g.DMARC.Policy != "reject" || !cmp.Equal(g.MX.Hosts, []string{"mail.good.test"}) {
		t.Errorf("good.test: %+v", g)
	}
	// The records good.test does not publish are reported missing, not
	// as problems; a domain that does not exist is not asked for them.
	if g.MTASTS == nil || g.MTASTS.Status != mailauth.RecordMissing || g.TLSRPT.Status != mailauth.RecordMissing || g.DKIM.Status != mailauth.RecordMissing ||
		g.BIMI.Status != mailauth.RecordMissing || g.DNSSEC.Signed || len(g.BulkSender.Requirements) != 6 {
		t.Errorf("good.test extensions: %+v %+v %+v %+v %+v", g.MTASTS, g.TLSRPT, g.DKIM, g.BIMI, g.DNSSEC)
	}
	if m := res.Results[3]; m.MTASTS != nil || m.DKIM != nil || m.DNSSEC != nil || m.BulkSender.Verdict != VerdictNotReady {
		t.Errorf("missing.test was checked further: %+v", m)
	}
	// GOOD.test. is good.test: answered once, by the first result.
	if len(res.Results) != len(wants) || !cmp.Equal(res.Results[0].Inputs, []int{0, 5}) || !cmp.Equal(res.Results[5].Inputs, []int{6}) {
		t.Errorf("%d results, inputs %v and %v; want %d, [0 5] and [6]", len(res.Results), res.Results[0].Inputs, res.Results[5].Inputs, len(wants))
	}

	_, err = v.DomainHealth(context.Background(), DomainHealthRequest{Domains: []string{"ok.test", "bad_domain.test", ""}})
	if err == nil || !strings.Contains(err.Error(), "domains[1]") || !strings.Contains(err.Error(), "domains[2]") {
		t.Errorf("err = %v; want errors naming domains[1] and domains[2]", err)
	}
	_, err = (&Verifier{}).DomainHealth(context.Background(), DomainHealthRequest{Domains: []string{"ok.test"}})
	if e := envelope.From(err); e.Code != envelope.CodeServiceUnavailable {
		t.Errorf("without a resolver: %v", err)
	}
}

// A domain whose DNS does not answer costs one timeout, not one per
// record: after the MX lookup times out, SPF and DMARC are not asked.
func TestDomainHealthTimeoutAsksOnce(t *testing.T) {
	srv, r := fixture(t, resolvertest.Config{Drop: []string{"slow.test", "_dmarc.slow.test"}})
	v := &Verifier{cfg: Config{Resolver: r}}
	res, err := v.DomainHealth(context.Background(), DomainHealthRequest{Domains: []string{"slow.test"}})
	if err != nil {
		t.Fatal(err)
	}
	h := res.Results[0]
	if h.Verdict != VerdictUnknown || h.MX.Status != MXTimeout || len(h.Problems) != 1 || h.Problems[0].Code != "dns_error" {
		t.Errorf("got %+v", h)
	}
	if n := srv.QueriesFor("slow.test", dns.TypeTXT) + srv.QueriesFor("_dmarc.slow.test", dns.TypeTXT); n != 0 {
		t.Errorf("%d SPF and DMARC queries after the MX lookup timed out", n)
	}
}

func TestCheckDisposableAndRoles(t *testing.T) {
	v := &Verifier{}
	d, err := v.CheckDisposable(context.Background(), ListRequest{Emails: []string{"a@yopmail.com", "a@gmail.com", "nope"}})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Results[0].IsDisposable || d.Results[1].IsDisposable || !d.Results[1].IsFreeProvider || d.Results[2].Reason == nil {
		t.Errorf("disposable results: %+v", d.Results)
	}
	if d.Summary != (ListSummary{Total: 3, Matched: 1, Invalid: 1}) {
		t.Errorf("summary %+v", d.Summary)
	}
	ro, err := v.CheckRoleAccounts(context.Background(), ListRequest{Emails: []string{"Info+News@x.com", "jane@x.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if !ro.Results[0].IsRoleAccount || *ro.Results[0].Role != "info" || ro.Results[1].IsRoleAccount || ro.Results[1].Role != nil {
		t.Errorf("role results: %+v", ro.Results)
	}
	if _, err := v.CheckRoleAccounts(context.Background(), ListRequest{}); err == nil {
		t.Error("empty list accepted")
	}
}

func TestValidateEmailRequest(t *testing.T) {
	v := &Verifier{}
	if _, err := v.ValidateEmail(context.Background(), ValidateRequest{}); err == nil || !strings.Contains(err.Error(), "email") {
		t.Errorf("missing email: %v", err)
	}
	res, err := v.ValidateEmail(context.Background(), ValidateRequest{Email: "a@b"})
	if err != nil || res.IsValid || *res.Reason != ReasonDomainNoDot {
		t.Errorf("got %+v, %v", res, err)
	}
}

// BenchmarkValidateBulk validates 500 addresses over 50 domains against a
// loopback DNS server that answers after 20 ms, and reports the queries
// the server received.
func BenchmarkValidateBulk(b *testing.B) {
	var zone bytes.Buffer
	zone.WriteString("$ORIGIN bench.\n@ SOA ns h 1 3600 600 86400 60\n")
	for d := range 50 {
		fmt.Fprintf(&zone, "d%d MX 10 mx.d%d.bench.\n", d, d)
	}
	emails := make([]string, 500)
	for i := range emails {
		emails[i] = fmt.Sprintf("user%d@d%d.bench", i, i%50)
	}
	for b.Loop() {
		b.StopTimer()
		srv := resolvertest.Start(b, resolvertest.Config{Zone: zone.String(), Delay: 20 * time.Millisecond})
		r, _ := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: time.Second})
		v := &Verifier{cfg: Config{Resolver: r}}
		b.StartTimer()
		res, err := v.ValidateBulk(context.Background(), BulkRequest{Emails: emails})
		if err != nil || res.Summary.DomainsWithMX != 50 {
			b.Fatalf("summary %+v, %v", res.Summary, err)
		}
		b.ReportMetric(float64(srv.Queries()), "queries")
	}
}

func TestValidateSlowServerTimesOut(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: fixtureZone, Delay: 500 * time.Millisecond})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 100 * time.Millisecond, Attempts: 2})
	if err != nil {
		t.Fatal(err)
	}
	DefaultLists() // loaded once per process: keep it out of the timing
	start := time.Now()
	res := (&Verifier{cfg: Config{Resolver: r}}).Validate(context.Background(), "a@mx.test", Checks{})
	if res.MX == nil || res.MX.Status != MXTimeout || !res.IsValid || res.HasMXRecords {
		t.Errorf("got %+v, MX %+v", res, res.MX)
	}
	if d := time.Since(start); d > 400*time.Millisecond {
		t.Errorf("took %v; two attempts of 100ms should bound it", d)
	}
}

func FuzzValidateCSV(f *testing.F) {
	f.Add("email\na@b.co\n")
	f.Add("\xef\xbb\xbfName,EMAIL\r\n\"x, y\",a@b.co\r\n")
	f.Add("email\n\"a\n")
	v := &Verifier{}
	f.Fuzz(func(t *testing.T, file string) {
		res, err := v.ValidateCSV(context.Background(), strings.NewReader(file))
		if err != nil {
			var ve *envelope.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %v is not a validation error", err)
			}
			return
		}
		if res.Rows < 1 || res.Rows > MaxCSVRows || len(res.Results) != res.Rows || res.Summary.Total != res.Rows {
			t.Fatalf("rows %d, %d results, summary %+v", res.Rows, len(res.Results), res.Summary)
		}
	})
}

func BenchmarkDecodeLists(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		mustLines(gunzip(disposableGz))
	}
}

func BenchmarkIsDisposable(b *testing.B) {
	l := DefaultLists()
	for b.Loop() {
		l.IsDisposable("inbox.sub.example.com")
	}
}

func TestValidateBulkBoundsConcurrency(t *testing.T) {
	var zone strings.Builder
	zone.WriteString("$ORIGIN bench.\n@ SOA ns h 1 3600 600 86400 60\n")
	emails := make([]string, 40)
	for d := range emails {
		fmt.Fprintf(&zone, "d%d MX 10 mx.d%d.bench.\n", d, d)
		emails[d] = fmt.Sprintf("u@d%d.bench", d)
	}
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone.String(), Delay: 20 * time.Millisecond})
	r, _ := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: time.Second})
	v := &Verifier{cfg: Config{Resolver: r, Concurrency: 4}}
	start := time.Now()
	res, _ := v.ValidateBulk(context.Background(), BulkRequest{Emails: emails})
	// 40 domains, 4 at a time, 20 ms each: at least 10 rounds.
	if d := time.Since(start); d < 190*time.Millisecond {
		t.Errorf("took %v; 4 lookups at a time cannot finish 40 in under 200ms", d)
	}
	if res.Summary.DomainsWithMX != 40 || srv.Queries() != 40 {
		t.Errorf("summary %+v, %d queries", res.Summary, srv.Queries())
	}
}

// Domain health takes the code of an SPF error from mailauth's Code, not
// from the wording of its message (issue 13): a message that does not
// mention the limit keeps its code, and one that mentions it without the
// code does not get it.
func TestDomainHealthSPFCodesFromMailauth(t *testing.T) {
	tests := []struct {
		code mailauth.Code
		msg  string
		want string
	}{
		{mailauth.CodeSPFTooManyLookups, "eleven lookups", "spf_too_many_lookups"},
		{mailauth.CodeSPFTooManyVoidLookups, "three void answers", "spf_too_many_void_lookups"},
		{mailauth.CodeSPFSyntax, "syntax: 12 DNS-querying terms exceed the limit, says the record", "spf_invalid"},
		{mailauth.CodeSPFLoop, "include:x.test: 3 void lookups exceed", "spf_invalid"},
	}
	for _, tt := range tests {
		s := &mailauth.SPF{All: "-all", Errors: []string{tt.msg}, Problems: []mailauth.Problem{{Code: tt.code, Severity: mailauth.SeverityError, Message: tt.msg}}}
		var got []string
		spfProblems(s, func(sev mailauth.Severity, code ProblemCode, msg string) {
			if sev != mailauth.SeverityError || msg != tt.msg {
				t.Errorf("%s: problem %s %s %q", tt.code, sev, code, msg)
			}
			got = append(got, string(code))
		})
		if !slices.Equal(got, []string{tt.want}) {
			t.Errorf("%s %q: codes %q, want %q", tt.code, tt.msg, got, tt.want)
		}
	}
}

func TestNewRejectsSMTPSettingsThatCannotWork(t *testing.T) {
	tests := []struct {
		name string
		smtp SMTPOptions
		ok   bool
	}{
		{"zero", SMTPOptions{}, true},
		{"set", SMTPOptions{HeloName: "mx.example.org", MailFrom: "probe@example.org", Port: 2525}, true},
		{"port over 65535", SMTPOptions{Port: 65536}, false},
		{"helo with CRLF", SMTPOptions{HeloName: "a\r\nMAIL FROM:<x@y>"}, false},
		{"helo with a space", SMTPOptions{HeloName: "a b"}, false},
		{"mail from with LF", SMTPOptions{MailFrom: "a@b\nRCPT TO:<c@d>"}, false},
	}
	for _, tt := range tests {
		v, err := New(Config{SMTP: tt.smtp})
		if tt.ok != (err == nil) || tt.ok != (v != nil) {
			t.Errorf("%s: New = %v, %v", tt.name, v, err)
		}
		if !tt.ok && !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%s: err %v does not wrap ErrInvalidConfig", tt.name, err)
		}
	}
}

// Messages quote at most about 100 characters of what they were given
// (issue 13): a list line or a column name of a megabyte stays out.
func TestMessagesQuoteBoundedInput(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	_, err := DefaultLists().WithDisposable(strings.NewReader(long + "\n"))
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("WithDisposable: a %d-byte error", len(fmt.Sprint(err)))
	}
	_, err = (&Verifier{}).VerifyCSV(context.Background(), strings.NewReader("email\na@b.test\n"), io.Discard, StreamOptions{Column: long})
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("VerifyCSV: a %d-byte error", len(fmt.Sprint(err)))
	}
}
