package webcheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

const dnsZone = `
$ORIGIN example.test.
$TTL 300
@        IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@        IN NS  ns1.example.test.
@        IN NS  ns2.example.test.
@        IN A   192.0.2.10
@        IN A   192.0.2.11
@        IN AAAA 2001:db8::10
@        IN MX  20 mx2.example.test.
@        IN MX  10 mx1.example.test.
@        IN TXT "v=spf1 ip4:192.0.2.0/24 include:_spf.example.test -all"
@        IN TXT "google-site-verification=abc"
_spf     IN TXT "v=spf1 ip4:198.51.100.0/24 ~all"
_dmarc   IN TXT "v=DMARC1; p=quarantine; pct=50; rua=mailto:dmarc@example.test"
www      IN CNAME example.test.
bare     IN A   192.0.2.20
`

// dnsChecker is zoneChecker of dnsZone, served as cfg says otherwise.
func dnsChecker(t *testing.T, cfg resolvertest.Config) *Checker {
	cfg.Zone = dnsZone
	return zoneChecker(t, 300*time.Millisecond, cfg)
}

// zoneChecker is a Checker whose resolver asks a loopback server started
// with cfg.
func zoneChecker(t *testing.T, timeout time.Duration, cfg resolvertest.Config) *Checker {
	ns := resolvertest.Start(t, cfg)
	r, err := resolver.New(resolver.Config{Servers: []string{ns.Addr}, Timeout: timeout, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(Config{Resolver: r})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAnalyzeDNS(t *testing.T) {
	c := dnsChecker(t, resolvertest.Config{})
	res, err := c.AnalyzeDNS(context.Background(), DNSRequest{Domain: "Example.TEST."})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want []string) {
		t.Helper()
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s = %q; want %q", name, got, want)
		}
	}
	if res.Domain != "example.test" {
		t.Errorf("domain = %q", res.Domain)
	}
	check("a_records", res.ARecords, []string{"192.0.2.10", "192.0.2.11"})
	check("aaaa_records", res.AAAARecords, []string{"2001:db8::10"})
	if !slices.Equal(res.MXRecords, []string{"10 mx1.example.test", "20 mx2.example.test"}) {
		t.Errorf("mx_records = %q; want by preference", res.MXRecords)
	}
	check("txt_records", res.TXTRecords, []string{"v=spf1 ip4:192.0.2.0/24 include:_spf.example.test -all", "google-site-verification=abc"})
	check("ns_records", res.NSRecords, []string{"ns1.example.test", "ns2.example.test"})
	check("cname_records", res.CNAMERecords, nil)
	if res.SPF == nil || res.SPF.All != "-all" || res.SPF.DNSLookups != 1 || len(res.SPF.Terms) != 3 {
		t.Errorf("spf = %+v", res.SPF)
	}
	if res.DMARC == nil || res.DMARC.Policy != "quarantine" || res.DMARC.Percent != 50 || len(res.DMARC.Warnings) == 0 {
		t.Errorf("dmarc = %+v", res.DMARC)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings = %q", res.Warnings)
	}

	res, err = c.AnalyzeDNS(context.Background(), DNSRequest{Domain: "www.example.test"})
	if err != nil || !slices.Equal(res.CNAMERecords, []string{"example.test"}) {
		t.Errorf("www: cname=%q err=%v", res.CNAMERecords, err)
	}

	res, err = c.AnalyzeDNS(context.Background(), DNSRequest{Domain: "bare.example.test"})
	if err != nil || res.SPF != nil || res.DMARC == nil || res.DMARC.Domain != "example.test" {
		// DMARC falls back to the organizational domain (RFC 7489 6.6.3).
		t.Errorf("bare: spf=%+v dmarc=%+v err=%v", res.SPF, res.DMARC, err)
	}

	res, err = c.AnalyzeDNS(context.Background(), DNSRequest{Domain: "missing.test"})
	if err != nil || res.SPF != nil || res.DMARC != nil || len(res.ARecords) != 0 {
		t.Errorf("nxdomain: %+v %v", res, err)
	}
	assertWarning(t, res.Warnings, "NXDOMAIN")
}

func TestAnalyzeDNSFailures(t *testing.T) {
	c := dnsChecker(t, resolvertest.Config{Drop: []string{"slow.test"}, ServFail: []string{"broken.test"}})
	_, err := c.AnalyzeDNS(context.Background(), DNSRequest{Domain: "slow.test"})
	var ee *envelope.Error
	if !errors.As(err, &ee) || ee.Code != envelope.CodeUpstreamTimeout {
		t.Errorf("dropped queries: err = %v; want UPSTREAM_TIMEOUT", err)
	}
	// The message does not name the domain: the cause, the resolver's
	// error, does.
	if err == nil || strings.Count(err.Error(), "slow.test") != 1 {
		t.Errorf("dropped queries: err = %v; want the domain named once", err)
	}
	_, err = c.AnalyzeDNS(context.Background(), DNSRequest{Domain: "broken.test"})
	if !errors.As(err, &ee) || ee.Code != envelope.CodeUpstreamError {
		t.Errorf("SERVFAIL: err = %v; want UPSTREAM_ERROR", err)
	}
	if err == nil || strings.Count(err.Error(), "broken.test") != 1 || !errors.Is(err, resolver.ErrServFail) {
		t.Errorf("SERVFAIL: err = %v; want the domain named once, wrapping resolver.ErrServFail", err)
	}
	for _, tt := range []struct{ in, want string }{
		{"", "domain: is required"},
		{"192.0.2.1", "not an IP address"},
		{"localhost-only", "at least two labels"},
		{"exa mple.com", "not a valid domain name"},
	} {
		_, err := c.AnalyzeDNS(context.Background(), DNSRequest{Domain: tt.in})
		assertInvalid(t, err, tt.want)
	}
}

// TestAnalyzeDNSBounds: a domain that publishes more records than one
// answer is worth listing gets MaxDNSRecordsListed of each kind, its long
// TXT record cut, and a warning counting the rest.
func TestAnalyzeDNSBounds(t *testing.T) {
	var z strings.Builder
	z.WriteString("$ORIGIN big.test.\n$TTL 300\n@ SOA ns h 1 3600 600 86400 60\n@ TXT")
	for range 80 {
		z.WriteString(` "` + strings.Repeat("t", 250) + `"`) // 20,000 bytes
	}
	z.WriteString("\n")
	for i := range 60 {
		fmt.Fprintf(&z, "@ TXT \"record %d %s\"\n", i, strings.Repeat("r", 400))
	}
	for i := range 200 {
		fmt.Fprintf(&z, "@ A 192.0.2.%d\n@ MX %d mx%d.big.test.\n", i, i, i)
	}
	c := zoneChecker(t, 2*time.Second, resolvertest.Config{Zone: z.String()})
	res, err := c.AnalyzeDNS(context.Background(), DNSRequest{Domain: "big.test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.TXTRecords) != MaxDNSRecordsListed || len(res.ARecords) != MaxDNSRecordsListed || len(res.MXRecords) != MaxDNSRecordsListed {
		t.Errorf("%d TXT, %d A, %d MX records listed; want %d each", len(res.TXTRecords), len(res.ARecords), len(res.MXRecords), MaxDNSRecordsListed)
	}
	if res.MXRecords[0] != "0 mx0.big.test" {
		t.Errorf("MX records not by preference: %q", res.MXRecords[:2])
	}
	cut := 0
	for _, txt := range res.TXTRecords {
		if len(txt) > mailauth.MaxRecordBytes+len("…") {
			t.Errorf("a TXT record of %d bytes", len(txt))
		}
		if strings.HasSuffix(txt, "…") {
			cut++
		}
	}
	want := []string{"29 more TXT records are not listed", "168 more A records are not listed", "168 more MX records are not listed"}
	for _, w := range want {
		if !slices.Contains(res.Warnings, w) {
			t.Errorf("warnings %q lack %q", res.Warnings, w)
		}
	}
	if cut != 1 {
		t.Errorf("%d TXT records cut; the zone has one long one, listed first", cut)
	}
}

// TestRefusalSaysItsCauseOnce: a refused destination says "destination
// not allowed" once, then which address was refused, and still wraps the
// refusal for errors.Is.
func TestRefusalSaysItsCauseOnce(t *testing.T) {
	c := dnsChecker(t, resolvertest.Config{})
	_, err := c.AnalyzeRobots(context.Background(), RobotsRequest{URL: "http://127.0.0.1/"})
	want := "INVALID_REQUEST: destination not allowed: url must point to a public address: 127.0.0.1 is a special-purpose address (prohibited IP address)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\n\twant %s", err, want)
	}
	if !isRefused(err) {
		t.Errorf("err = %v does not wrap the refusal", err)
	}
	var ee *envelope.Error
	if !errors.As(err, &ee) || len(ee.Details) != 1 || ee.Details[0].Field != "url" {
		t.Errorf("err = %#v: want one detail, for url", err)
	}
}
