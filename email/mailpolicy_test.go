package email

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// dkimKey returns the base64 p= of a fresh RSA public key of the given
// size. The modulus is the product of two primes, so that a 512-bit key,
// which crypto/rsa refuses to generate, can be published as a weak
// domain would.
func dkimKey(bits int) string {
	p, err := rand.Prime(rand.Reader, bits/2)
	if err != nil {
		panic(err)
	}
	q, err := rand.Prime(rand.Reader, bits-bits/2)
	if err != nil {
		panic(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&rsa.PublicKey{N: new(big.Int).Mul(p, q), E: 65537})
	if err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(der)
}

// txt splits a long TXT value into strings of at most 255 bytes, as zone
// files need.
func txt(s string) string {
	var parts []string
	for len(s) > 200 {
		parts = append(parts, `"`+s[:200]+`"`)
		s = s[200:]
	}
	return strings.Join(append(parts, `"`+s+`"`), " ")
}

const validPolicy = "version: STSv1\r\nmode: enforce\r\nmx: mx1.%[1]s\r\nmx: *.backup.%[1]s\r\nmax_age: 604800\r\n"

// policyServer serves the MTA-STS policies of the tests' domains over
// HTTPS on loopback: each case its own answer. Its certificates come
// from a CA made here: one valid for every mta-sts.<domain> but two
// (sts-expired, whose certificate has expired, and sts-wronghost, which
// gets the certificate of another name).
func policyServer(t testing.TB) (mailauth.MTASTSOptions, *httptest.Server) {
	t.Helper()
	var names []string
	for _, d := range []string{"sts-valid", "sts-nopolicy", "sts-oversized", "sts-redirect", "sts-mismatch", "sts-testing", "sts-badpolicy", "sts-html", "ready", "good"} {
		names = append(names, "mta-sts."+d+".test")
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/mta-sts.txt" {
			http.NotFound(w, r)
			return
		}
		host, _, _ := net.SplitHostPort(r.Host)
		domain := strings.TrimPrefix(host, "mta-sts.")
		w.Header().Set("Content-Type", "text/plain")
		switch domain {
		case "sts-nopolicy.test":
			http.NotFound(w, r)
		case "sts-oversized.test":
			fmt.Fprintf(w, validPolicy, domain)
			w.Write([]byte(strings.Repeat("# padding\n", 7000)))
		case "sts-redirect.test":
			http.Redirect(w, r, "https://mta-sts.sts-valid.test/.well-known/mta-sts.txt", http.StatusFound)
		case "sts-testing.test":
			fmt.Fprintf(w, strings.Replace(validPolicy, "enforce", "testing", 1), "elsewhere.test")
		case "sts-mismatch.test":
			fmt.Fprintf(w, validPolicy, "elsewhere.test")
		case "sts-badpolicy.test":
			fmt.Fprint(w, "version: STSv1\nmode: always\n")
		case "sts-html.test":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, validPolicy, domain)
		default:
			fmt.Fprintf(w, validPolicy, domain)
		}
	})
	srv, pool, err := testutil.NewTLSServer(h,
		testutil.Cert{Names: names},
		testutil.Cert{Names: []string{"mta-sts.sts-expired.test"}, NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-24 * time.Hour)},
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	port, _ := strconv.Atoi(srv.URL[strings.LastIndex(srv.URL, ":")+1:])
	return mailauth.MTASTSOptions{RootCAs: pool, Port: port, AllowLoopback: true, Timeout: 5 * time.Second}, srv
}

// policyZone is a zone with each record type of issue 15 in each state,
// made once per test binary (its keys take a while to generate).
var policyZone = sync.OnceValue(func() string {
	ed, _, _ := ed25519.GenerateKey(rand.Reader)
	var b strings.Builder
	b.WriteString("$ORIGIN test.\n$TTL 300\n@ SOA ns hostmaster 1 3600 600 86400 60\n")
	sts := func(d string, records ...string) {
		fmt.Fprintf(&b, "%[1]s MX 10 mx1.%[1]s.test.\n%[1]s MX 20 a.backup.%[1]s.test.\nmta-sts.%[1]s A 127.0.0.1\n", d)
		for _, r := range records {
			fmt.Fprintf(&b, "_mta-sts.%s TXT %q\n", d, r)
		}
	}
	for _, d := range []string{"sts-valid", "sts-expired", "sts-wronghost", "sts-nopolicy", "sts-oversized", "sts-redirect", "sts-mismatch", "sts-testing", "sts-badpolicy", "sts-html", "sts-servfail", "sts-hostservfail"} {
		sts(d, "v=STSv1; id=20240101")
	}
	// A policy host where nothing listens (127.0.0.2: the test server
	// listens on 127.0.0.1 only), and one that does not exist.
	b.WriteString("_mta-sts.sts-refused TXT \"v=STSv1; id=1\"\nmta-sts.sts-refused A 127.0.0.2\n")
	b.WriteString("_mta-sts.sts-nohost TXT \"v=STSv1; id=1\"\n")
	sts("sts-invalid", "v=STSv1; id=not-alnum!")
	sts("sts-multi", "v=STSv1; id=1", "v=STSv1; id=2")
	sts("sts-missing")
	b.WriteString("_mta-sts.sts-missing TXT \"unrelated text\"\n")

	for d, recs := range map[string][]string{
		"rpt-valid":   {"v=TLSRPTv1; rua=mailto:tls@rpt-valid.test,https://reports.rpt-valid.test/tls"},
		"rpt-invalid": {"v=TLSRPTv1; rua=http://reports.rpt-invalid.test/"},
		"rpt-multi":   {"v=TLSRPTv1; rua=mailto:a@rpt-multi.test", "v=TLSRPTv1; rua=mailto:b@rpt-multi.test"},
		"rpt-missing": nil,
	} {
		fmt.Fprintf(&b, "%s MX 10 mx.%s.test.\n", d, d)
		for _, r := range recs {
			fmt.Fprintf(&b, "_smtp._tls.%s TXT %q\n", d, r)
		}
	}

	for d, c := range map[string]struct {
		dmarc string
		recs  []string
	}{
		"bimi-valid":   {"v=DMARC1; p=reject", []string{"v=BIMI1; l=https://bimi-valid.test/logo.svg; a=https://bimi-valid.test/vmc.pem"}},
		"bimi-invalid": {"v=DMARC1; p=reject", []string{"v=BIMI1; l=https://bimi-invalid.test/logo.png"}},
		"bimi-multi":   {"v=DMARC1; p=reject", []string{"v=BIMI1; l=https://a.test/a.svg", "v=BIMI1; l=https://b.test/b.svg"}},
		"bimi-missing": {"v=DMARC1; p=reject", nil},
		"bimi-pnone":   {"v=DMARC1; p=none", []string{"v=BIMI1; l=https://bimi-pnone.test/logo.svg; a=https://bimi-pnone.test/vmc.pem"}},
		"bimi-partial": {"v=DMARC1; p=quarantine; pct=50", []string{"v=BIMI1; l=https://bimi-partial.test/logo.svg; a=https://bimi-partial.test/vmc.pem"}},
	} {
		fmt.Fprintf(&b, "%s MX 10 mx.%s.test.\n_dmarc.%s TXT %q\n", d, d, d, c.dmarc)
		for _, r := range c.recs {
			fmt.Fprintf(&b, "default._bimi.%s TXT %q\n", d, r)
		}
	}

	dk := func(d, sel, rec string) { fmt.Fprintf(&b, "%s._domainkey.%s TXT %s\n", sel, d, txt(rec)) }
	for _, d := range []string{"dkim-2048", "dkim-1024", "dkim-512", "dkim-revoked", "dkim-invalid", "dkim-multi", "dkim-missing", "dkim-custom", "dkim-ed25519"} {
		fmt.Fprintf(&b, "%s MX 10 mx.%s.test.\n", d, d)
	}
	dk("dkim-2048", "google", "v=DKIM1; k=rsa; p="+dkimKey(2048))
	dk("dkim-1024", "selector1", "v=DKIM1; k=rsa; p="+dkimKey(1024))
	dk("dkim-512", "s1", "v=DKIM1; k=rsa; p="+dkimKey(512))
	dk("dkim-revoked", "k1", "v=DKIM1; k=rsa; p=")
	dk("dkim-invalid", "default", "v=DKIM1; k=rsa; p=bm90IGEga2V5")
	dk("dkim-multi", "mail", "v=DKIM1; p="+dkimKey(2048))
	dk("dkim-multi", "mail", "v=DKIM1; p=")
	dk("dkim-custom", "custom2024", "v=DKIM1; p="+dkimKey(2048))
	dk("dkim-ed25519", "fm1", "v=DKIM1; k=ed25519; p="+base64.StdEncoding.EncodeToString(ed))

	key := base64.StdEncoding.EncodeToString(ed)
	for _, d := range []string{"sec-signed", "sec-unvalidated", "sec-nods", "sec-broken", "sec-unsigned"} {
		fmt.Fprintf(&b, "%s MX 10 mx.%s.test.\n", d, d)
		if d != "sec-unsigned" && d != "sec-broken" {
			fmt.Fprintf(&b, "%s DNSKEY 257 3 15 %s\n", d, key)
		}
		if d != "sec-unsigned" && d != "sec-nods" {
			fmt.Fprintf(&b, "%s DS 12345 15 2 %x\n", d, ed[:32])
		}
	}
	return b.String()
})

// policyVerifier serves policyZone (as cfg says otherwise) and the
// policies, and returns a Verifier that asks them.
func policyVerifier(t testing.TB, cfg resolvertest.Config) (*Verifier, *resolvertest.Server) {
	t.Helper()
	mtasts, _ := policyServer(t)
	cfg.Zone = policyZone()
	srv := resolvertest.Start(t, cfg)
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: time.Second, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(Config{Resolver: r, MTASTS: mtasts})
	if err != nil {
		t.Fatal(err)
	}
	return v, srv
}

// checker runs the mailauth record checks as domain health does, with
// the Verifier's resolver and MTA-STS options, on the fixtures of this
// file.
type checker struct{ v *Verifier }

func (c checker) CheckMTASTS(ctx context.Context, domain string) (*mailauth.MTASTS, error) {
	return mailauth.CheckMTASTS(ctx, c.v.cfg.Resolver, domain, c.v.domainMX(ctx, domain).Hosts, c.v.cfg.MTASTS)
}

func (c checker) CheckTLSRPT(ctx context.Context, domain string) (*mailauth.TLSRPT, error) {
	return mailauth.CheckTLSRPT(ctx, c.v.cfg.Resolver, domain)
}

func (c checker) CheckBIMI(ctx context.Context, domain string) (*mailauth.BIMI, error) {
	return mailauth.CheckBIMI(ctx, c.v.cfg.Resolver, domain)
}

func (c checker) CheckDKIM(ctx context.Context, domain string, selectors []string) (*mailauth.DKIM, error) {
	return mailauth.CheckDKIM(ctx, c.v.cfg.Resolver, domain, selectors)
}

func (c checker) CheckDNSSEC(ctx context.Context, domain string) (*mailauth.DNSSEC, error) {
	return mailauth.CheckDNSSEC(ctx, c.v.cfg.Resolver, domain)
}

func problemCodes(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, string(p.Severity)+":"+string(p.Code))
	}
	return out
}

func TestCheckMTASTS(t *testing.T) {
	v, _ := policyVerifier(t, resolvertest.Config{ServFail: []string{"_mta-sts.sts-servfail.test", "mta-sts.sts-hostservfail.test"}})
	tests := []struct {
		domain  string
		status  mailauth.RecordStatus
		mode    string
		match   *bool
		codes   []string
		errPart string
	}{
		{"sts-valid.test", mailauth.RecordValid, "enforce", new(true), nil, ""},
		{"sts-missing.test", mailauth.RecordMissing, "", nil, nil, ""},
		{"sts-invalid.test", mailauth.RecordInvalid, "", nil, []string{"error:mta_sts_syntax"}, ""},
		{"sts-multi.test", mailauth.RecordInvalid, "", nil, []string{"error:mta_sts_multiple_records"}, ""},
		{"sts-expired.test", mailauth.RecordInvalid, "", nil, []string{"error:mta_sts_policy_unavailable"}, "expired"},
		{"sts-wronghost.test", mailauth.RecordInvalid, "", nil, []string{"error:mta_sts_policy_unavailable"}, "not mta-sts.sts-wronghost.test"},
		{"sts-nopolicy.test", mailauth.RecordInvalid, "", nil, []string{"error:mta_sts_policy_unavailable"}, "answers 404"},
		{"sts-oversized.test", mailauth.RecordInvalid, "", nil, []string{"error:mta_sts_policy_unavailable"}, "larger than 65536 bytes"},
		{"sts-redirect.test", mailauth.RecordInvalid, "", nil, []string{"error:mta_sts_policy_unavailable"}, "answers 302, a redirect"},
		{"sts-badpolicy.test", mailauth.RecordInvalid, "", nil, []string{"error:mta_sts_policy_syntax", "error:mta_sts_policy_syntax"}, ""},
		{"sts-mismatch.test", mailauth.RecordValid, "enforce", new(false), []string{"error:mta_sts_mx_mismatch"}, ""},
		{"sts-testing.test", mailauth.RecordValid, "testing", new(false), []string{"warning:mta_sts_mx_mismatch"}, ""},
		{"sts-html.test", mailauth.RecordValid, "enforce", new(true), []string{"warning:mta_sts_policy_content_type"}, ""},
		{"sts-servfail.test", mailauth.RecordError, "", nil, []string{"warning:dns_error"}, "SERVFAIL"},
		// A fetch failing on the network proves nothing about the domain:
		// a warning; a host that does not exist is the domain's error.
		{"sts-refused.test", mailauth.RecordError, "", nil, []string{"warning:mta_sts_policy_unavailable"}, "refused"},
		{"sts-hostservfail.test", mailauth.RecordError, "", nil, []string{"warning:mta_sts_policy_unavailable"}, "SERVFAIL"},
		{"sts-nohost.test", mailauth.RecordInvalid, "", nil, []string{"error:mta_sts_policy_unavailable"}, "mta-sts.sts-nohost.test"},
	}
	for _, tt := range tests {
		t.Run(tt.domain, func(t *testing.T) {
			m, err := checker{v}.CheckMTASTS(context.Background(), tt.domain)
			if err != nil {
				t.Fatal(err)
			}
			mode := ""
			if m.Policy != nil {
				mode = m.Policy.Mode
			}
			if m.Status != tt.status || mode != tt.mode || !slices.Equal(problemCodes(fromMailauth(m.Problems)), tt.codes) || !strings.Contains(m.Error, tt.errPart) ||
				(m.MXMatch == nil) != (tt.match == nil) || m.MXMatch != nil && *m.MXMatch != *tt.match {
				t.Errorf("status %s mode %q match %v problems %v error %q", m.Status, mode, m.MXMatch, m.Problems, m.Error)
			}
			// What the caller reads says its cause once, in its words.
			texts := []string{m.Error}
			for _, p := range m.Problems {
				texts = append(texts, p.Message)
			}
			for _, text := range texts {
				if r := testutil.RepeatedClause(text); r != "" || strings.Contains(text, "resolver:") {
					t.Errorf("%q says %q twice or names the resolver package", text, r)
				}
			}
		})
	}
	m, _ := checker{v}.CheckMTASTS(context.Background(), "sts-valid.test")
	if m.Policy.MaxAge != 604800 || !slices.Equal(m.Policy.MX, []string{"mx1.sts-valid.test", "*.backup.sts-valid.test"}) || m.Record.ID != "20240101" {
		t.Errorf("policy %+v record %+v", m.Policy, m.Record)
	}
	if m, _ := (checker{v}).CheckMTASTS(context.Background(), "sts-mismatch.test"); !slices.Equal(m.UnmatchedMX, []string{"mx1.sts-mismatch.test", "a.backup.sts-mismatch.test"}) {
		t.Errorf("unmatched %v", m.UnmatchedMX)
	}
}

// The policy fetch refuses loopback unless the options allow it: the
// one SSRF-safe client is in the way.
func TestMTASTSFetchRefusesLoopbackByDefault(t *testing.T) {
	opts, _ := policyServer(t)
	srv := resolvertest.Start(t, resolvertest.Config{Zone: policyZone()})
	r, _ := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	opts.AllowLoopback = false
	v, err := New(Config{Resolver: r, MTASTS: opts})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := checker{v}.CheckMTASTS(context.Background(), "sts-valid.test")
	if m.Status != mailauth.RecordError || !strings.Contains(m.Error, "not allowed") || !slices.Equal(problemCodes(fromMailauth(m.Problems)), []string{"warning:mta_sts_policy_unavailable"}) {
		t.Errorf("status %s error %q; want the loopback destination refused", m.Status, m.Error)
	}
}

func TestCheckTLSRPT(t *testing.T) {
	v, _ := policyVerifier(t, resolvertest.Config{})
	tests := []struct {
		domain string
		status mailauth.RecordStatus
		rua    int
		codes  []string
	}{
		{"rpt-valid.test", mailauth.RecordValid, 2, nil},
		{"rpt-invalid.test", mailauth.RecordInvalid, 0, []string{"error:tlsrpt_invalid_rua"}},
		{"rpt-multi.test", mailauth.RecordInvalid, 1, []string{"error:tlsrpt_multiple_records"}},
		{"rpt-missing.test", mailauth.RecordMissing, -1, nil},
	}
	for _, tt := range tests {
		r, err := checker{v}.CheckTLSRPT(context.Background(), tt.domain)
		if err != nil {
			t.Fatal(err)
		}
		rua := -1
		if r.Record != nil {
			rua = len(r.Record.RUA)
		}
		if r.Status != tt.status || rua != tt.rua || !slices.Equal(problemCodes(fromMailauth(r.Problems)), tt.codes) {
			t.Errorf("%s: status %s rua %d problems %v", tt.domain, r.Status, rua, r.Problems)
		}
	}
}

func TestCheckBIMI(t *testing.T) {
	v, _ := policyVerifier(t, resolvertest.Config{})
	tests := []struct {
		domain   string
		status   mailauth.RecordStatus
		enforced bool
		codes    []string
	}{
		{"bimi-valid.test", mailauth.RecordValid, true, nil},
		{"bimi-invalid.test", mailauth.RecordInvalid, true, []string{"error:bimi_syntax"}},
		{"bimi-multi.test", mailauth.RecordInvalid, true, []string{"warning:bimi_no_authority", "error:bimi_multiple_records"}},
		{"bimi-missing.test", mailauth.RecordMissing, true, nil},
		{"bimi-pnone.test", mailauth.RecordValid, false, []string{"warning:bimi_dmarc_not_enforced"}},
		{"bimi-partial.test", mailauth.RecordValid, false, []string{"warning:bimi_dmarc_not_enforced"}},
	}
	for _, tt := range tests {
		b, err := checker{v}.CheckBIMI(context.Background(), tt.domain)
		if err != nil {
			t.Fatal(err)
		}
		if b.Status != tt.status || b.DMARCEnforced != tt.enforced || !slices.Equal(problemCodes(fromMailauth(b.Problems)), tt.codes) {
			t.Errorf("%s: status %s enforced %v problems %v", tt.domain, b.Status, b.DMARCEnforced, b.Problems)
		}
	}
}

func TestCheckDKIM(t *testing.T) {
	v, srv := policyVerifier(t, resolvertest.Config{})
	type key struct {
		sel   string
		typ   string
		bits  int
		valid bool
	}
	tests := []struct {
		domain string
		extra  []string
		status mailauth.RecordStatus
		keys   []key
		codes  []string
	}{
		{"dkim-2048.test", nil, mailauth.RecordValid, []key{{"google", "rsa", 2048, true}}, nil},
		{"dkim-1024.test", nil, mailauth.RecordValid, []key{{"selector1", "rsa", 1024, true}}, []string{"warning:dkim_short_key"}},
		{"dkim-512.test", nil, mailauth.RecordInvalid, []key{{"s1", "rsa", 512, false}}, []string{"error:dkim_weak_key"}},
		{"dkim-revoked.test", nil, mailauth.RecordInvalid, []key{{"k1", "rsa", 0, false}}, []string{"warning:dkim_revoked"}},
		{"dkim-invalid.test", nil, mailauth.RecordInvalid, []key{{"default", "rsa", 0, false}}, []string{"error:dkim_invalid_key"}},
		{"dkim-multi.test", nil, mailauth.RecordInvalid, []key{{"mail", "rsa", 2048, false}}, []string{"error:dkim_multiple_records"}},
		{"dkim-missing.test", nil, mailauth.RecordMissing, nil, nil},
		{"dkim-custom.test", nil, mailauth.RecordMissing, nil, nil},
		{"dkim-custom.test", []string{"Custom2024"}, mailauth.RecordValid, []key{{"custom2024", "rsa", 2048, true}}, nil},
		{"dkim-ed25519.test", nil, mailauth.RecordValid, []key{{"fm1", "ed25519", 256, true}}, nil},
	}
	for _, tt := range tests {
		d, err := checker{v}.CheckDKIM(context.Background(), tt.domain, tt.extra)
		if err != nil {
			t.Fatal(err)
		}
		var keys []key
		for _, k := range d.Keys {
			keys = append(keys, key{k.Selector, k.KeyType, k.Bits, k.Valid})
		}
		if d.Status != tt.status || !slices.Equal(keys, tt.keys) || !slices.Equal(problemCodes(fromMailauth(d.Problems)), tt.codes) {
			t.Errorf("%s %v: status %s keys %+v problems %v", tt.domain, tt.extra, d.Status, keys, d.Problems)
		}
	}
	// Every selector is asked once, the caller's too.
	if n := srv.QueriesFor("custom2024._domainkey.dkim-custom.test", dns.TypeTXT); n != 1 {
		t.Errorf("custom selector asked %d times", n)
	}
	if d, _ := (checker{v}).CheckDKIM(context.Background(), "dkim-missing.test", nil); len(d.Selectors) != len(mailauth.DefaultDKIMSelectors()) {
		t.Errorf("%d selectors probed", len(d.Selectors))
	}

	for _, bad := range [][]string{{"a b"}, {""}, {"-x"}, {strings.Repeat("a", 64)}, {"a..b"}, slices.Repeat([]string{"s"}, mailauth.MaxDKIMSelectors+1)} {
		if _, err := (checker{v}).CheckDKIM(context.Background(), "dkim-missing.test", bad); !errors.Is(err, mailauth.ErrInvalidSelector) {
			t.Errorf("selectors %q: CheckDKIM err = %v; want ErrInvalidSelector", bad, err)
		}
		_, err := checkSelectors("dkim_selectors", bad)
		var ve *envelope.ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), "dkim_selectors") {
			t.Errorf("selectors %q: err = %v; want a validation error on dkim_selectors", bad, err)
		}
	}
}

func TestCheckDNSSEC(t *testing.T) {
	v, _ := policyVerifier(t, resolvertest.Config{AuthenticatedData: []string{"sec-signed.test", "sec-nods.test"}})
	tests := []struct {
		domain                        string
		signed, ds, dnskey, validated bool
		codes                         []string
	}{
		{"sec-signed.test", true, true, true, true, nil},
		{"sec-unvalidated.test", true, true, true, false, nil},
		{"sec-unsigned.test", false, false, false, false, nil},
		{"sec-nods.test", false, false, true, false, []string{"warning:dnssec_no_ds"}},
		{"sec-broken.test", false, true, false, false, []string{"error:dnssec_broken"}},
		{"nowhere.test", false, false, false, false, nil},
	}
	for _, tt := range tests {
		d, err := checker{v}.CheckDNSSEC(context.Background(), tt.domain)
		if err != nil {
			t.Fatal(err)
		}
		if d.Signed != tt.signed || d.DS != tt.ds || d.DNSKEY != tt.dnskey || d.Validated != tt.validated || !slices.Equal(problemCodes(fromMailauth(d.Problems)), tt.codes) {
			t.Errorf("%s: %+v", tt.domain, d)
		}
	}
}
