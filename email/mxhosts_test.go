package email

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/miekg/dns"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

func codesOf(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, string(p.Code))
	}
	return out
}

func TestCheckMXHostsFCrDNS(t *testing.T) {
	r, _ := proxyFixture(t)
	v := mustVerifier(t, Config{Resolver: r})
	tests := []struct {
		domain string
		want   []MXHost
		codes  []string
	}{
		{"pass.test", []MXHost{{Host: "mail.pass.test", Addresses: []MXAddress{
			{IP: "192.0.2.20", PTR: []string{"mail.pass.test"}, FCrDNS: true, Listed: []string{}},
			{IP: "2001:db8::25", PTR: []string{"mail.pass.test"}, FCrDNS: true, Listed: []string{}},
		}}}, nil},
		{"fail.test", []MXHost{{Host: "mail.fail.test", Addresses: []MXAddress{
			{IP: "192.0.2.21", PTR: []string{"elsewhere.fail.test"}, FCrDNS: false, Listed: []string{}},
		}}}, []string{"mx_no_fcrdns"}},
		{"noptr.test", []MXHost{{Host: "mail.noptr.test", Addresses: []MXAddress{
			{IP: "192.0.2.22", PTR: []string{}, FCrDNS: false, Listed: []string{}},
		}}}, []string{"mx_no_fcrdns"}},
		{"noaddr.test", []MXHost{{Host: "gone.noaddr.test", Addresses: []MXAddress{}}}, []string{"mx_no_address"}},
	}
	for _, tt := range tests {
		t.Run(tt.domain, func(t *testing.T) {
			res, err := v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: tt.domain})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, res.Hosts); d != "" {
				t.Errorf("hosts (-want +got):\n%s", d)
			}
			if got := codesOf(res.Problems); !slices.Equal(got, tt.codes) {
				t.Errorf("problems %v, want %v (%+v)", got, tt.codes, res.Problems)
			}
		})
	}
	// The messages say which case it is.
	res, _ := v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: "fail.test"})
	if m := res.Problems[0].Message; !strings.Contains(m, "elsewhere.fail.test") || !strings.Contains(m, "do not resolve back") {
		t.Errorf("message %q", m)
	}
	res, _ = v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: "noptr.test"})
	if m := res.Problems[0].Message; !strings.Contains(m, "has no PTR record") {
		t.Errorf("message %q", m)
	}
}

func TestCheckMXHostsBounds(t *testing.T) {
	r, queries := proxyFixture(t)
	v := mustVerifier(t, Config{Resolver: r, DNSBLZones: []string{"bl.test"}})
	res, err := v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: "many.test"})
	if err != nil {
		t.Fatal(err)
	}
	var hosts []string
	for _, h := range res.Hosts {
		hosts = append(hosts, h.Host)
		if len(h.Addresses) > MaxMXAddresses {
			t.Errorf("%s: %d addresses checked", h.Host, len(h.Addresses))
		}
	}
	if want := []string{"a.many.test", "b.many.test", "c.many.test"}; !slices.Equal(hosts, want) {
		t.Errorf("hosts %v, want the first %d by preference %v", hosts, MaxMXHostsChecked, want)
	}
	// MX; A and AAAA of 3 hosts; for 4 addresses (one shared by three
	// hosts, asked once thanks to the cache) PTR, DNSBL, and the listing's
	// TXT; at most one forward lookup per PTR name.
	if n := queries(); n > 1+6+2*3+1+2 {
		t.Errorf("%d queries", n)
	}
}

// A DNSBL zone lists one MX address; another answers Spamhaus's error
// code for queries through public resolvers, which is no listing.
func TestCheckMXHostsDNSBL(t *testing.T) {
	r, _ := proxyFixture(t)
	v := mustVerifier(t, Config{Resolver: r, DNSBLZones: []string{"BL.test.", "bl.test"}})
	res, err := v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: "pass.test"})
	if err != nil {
		t.Fatal(err)
	}
	addrs := res.Hosts[0].Addresses
	if !slices.Equal(addrs[0].Listed, []string{"bl.test"}) || !slices.Equal(addrs[1].Listed, []string{"bl.test"}) {
		t.Errorf("listed: %+v", addrs)
	}
	if got := codesOf(res.Problems); !slices.Equal(got, []string{"mx_listed", "mx_listed"}) {
		t.Fatalf("problems %+v", res.Problems)
	}
	p := res.Problems[0]
	if p.Severity != "error" || !strings.Contains(p.Message, "127.0.0.2") || !strings.Contains(p.Message, "Listed for spam: see https://bl.test/q?ip=192.0.2.20") {
		t.Errorf("problem %+v; want the code and the cleaned TXT reason", p)
	}

	res, _ = v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: "fail.test"})
	if len(res.Hosts[0].Addresses[0].Listed) != 0 || !slices.Contains(codesOf(res.Problems), "dnsbl_error") || slices.Contains(codesOf(res.Problems), "mx_listed") {
		t.Errorf("a refused query: %+v", res)
	}
	for _, p := range res.Problems {
		if p.Code == "dnsbl_error" && !strings.Contains(p.Message, "127.255.255.254") {
			t.Errorf("message %q", p.Message)
		}
	}

	listings, err := v.CheckDNSBL(context.Background(), netip.MustParseAddr("192.0.2.20"))
	if err != nil || len(listings) != 1 || !listings[0].Listed || listings[0].Zone != "bl.test" || !slices.Equal(listings[0].Codes, []string{"127.0.0.2"}) || listings[0].Err != nil {
		t.Errorf("CheckDNSBL: %+v, %v", listings, err)
	}
	listings, _ = v.CheckDNSBL(context.Background(), netip.MustParseAddr("192.0.2.99"))
	if len(listings) != 1 || listings[0].Listed || listings[0].Err != nil {
		t.Errorf("an address not listed: %+v", listings)
	}
	// The JSON form: snake_case names, codes never null, the error's
	// message (Err itself would encode as {}).
	b, _ := json.Marshal(listings)
	if string(b) != `[{"zone":"bl.test","listed":false,"codes":[],"reason":""}]` {
		t.Errorf("JSON %s", b)
	}
	listings, _ = v.CheckDNSBL(context.Background(), netip.MustParseAddr("192.0.2.21"))
	b, _ = json.Marshal(listings)
	if len(listings) != 1 || listings[0].Err == nil || listings[0].Error != listings[0].Err.Error() ||
		!strings.HasPrefix(string(b), `[{"zone":"bl.test","listed":false,"codes":["127.255.255.254"],"reason":"","error":"the zone answered an error code`) {
		t.Errorf("an error code: JSON %s", b)
	}
}

func TestDNSBLVerdict(t *testing.T) {
	for _, tt := range []struct {
		ips    []string
		listed bool
		err    string
	}{
		{[]string{"127.0.0.2"}, true, ""},
		{[]string{"127.0.0.4", "127.0.0.10"}, true, ""},
		{[]string{"127.255.255.252"}, false, "mistyped"},
		{[]string{"127.255.255.254"}, false, "public or open resolvers"},
		{[]string{"127.255.255.255"}, false, "too many queries"},
		{[]string{"127.0.0.2", "127.255.255.254"}, false, "error code"},
		{[]string{"192.0.2.1"}, false, "outside 127.0.0.0/8"},
		{nil, false, ""},
	} {
		var ips []netip.Addr
		for _, s := range tt.ips {
			ips = append(ips, netip.MustParseAddr(s))
		}
		listed, _, err := dnsblVerdict(ips)
		if listed != tt.listed || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%v: listed %v, err %v", tt.ips, listed, err)
		}
	}
	if got := dnsblName(netip.MustParseAddr("192.0.2.20"), "bl.test"); got != "20.2.0.192.bl.test" {
		t.Errorf("IPv4 name %s", got)
	}
	if got := dnsblName(netip.MustParseAddr("2001:db8::25"), "bl.test"); got != "5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.bl.test" {
		t.Errorf("IPv6 name %s", got)
	}
	if got := dnsblName(netip.MustParseAddr("::ffff:192.0.2.20"), "bl.test"); got != "20.2.0.192.bl.test" {
		t.Errorf("mapped IPv4 name %s", got)
	}
}

func TestNewRefusesBadDNSBLZones(t *testing.T) {
	for _, zones := range [][]string{
		{"bl"}, {""}, {"bad zone.test"}, {"a..b"},
		{"a.test", "b.test", "c.test", "d.test", "e.test", "f.test", "g.test", "h.test", "i.test"},
	} {
		if _, err := New(Config{DNSBLZones: zones}); err == nil || !strings.Contains(err.Error(), "DNSBLZones") {
			t.Errorf("%q: err = %v", zones, err)
		}
	}
	v, err := New(Config{DNSBLZones: []string{" Zen.Spamhaus.org. ", "zen.spamhaus.org"}})
	if err != nil || !slices.Equal(v.dnsbl, []string{"zen.spamhaus.org"}) {
		t.Errorf("zones %v, %v", v.dnsbl, err)
	}
}

func TestCheckSTARTTLS(t *testing.T) {
	r, _ := proxyFixture(t)
	for _, offered := range []bool{true, false} {
		mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{STARTTLS: offered})
		v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: mail.Port, AllowPrivateAddresses: true, HostInterval: -1}})
		ok, err := v.CheckSTARTTLS(context.Background(), "mail.mx.test")
		if err != nil || ok != offered {
			t.Errorf("offered %v: got %v, %v", offered, ok, err)
		}
		res, err := v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: "mx.test", CheckSTARTTLS: true})
		if err != nil || res.Hosts[0].STARTTLS == nil || *res.Hosts[0].STARTTLS != offered {
			t.Errorf("offered %v: hosts %+v, %v", offered, res.Hosts, err)
		}
		if got := slices.Contains(codesOf(res.Problems), "mx_no_starttls"); got == offered {
			t.Errorf("offered %v: problems %v", offered, codesOf(res.Problems))
		}
		// Without the caller asking, nothing connects.
		before := len(mail.Remotes())
		res, _ = v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: "mx.test"})
		if res.Hosts[0].STARTTLS != nil || len(mail.Remotes()) != before {
			t.Errorf("not asked: %+v, %d sessions", res.Hosts, len(mail.Remotes())-before)
		}
	}
	// The probe's address policy holds: a loopback MX is not contacted.
	mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{STARTTLS: true})
	v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: mail.Port}})
	if _, err := v.CheckSTARTTLS(context.Background(), "mail.mx.test"); !errors.Is(err, ErrForbiddenAddress) || strings.Contains(err.Error(), string(SMTPForbidden)) {
		t.Errorf("loopback MX: err = %v", err)
	}
	res, _ := v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: "mx.test", CheckSTARTTLS: true})
	if res.Hosts[0].STARTTLS != nil || len(mail.Remotes()) != 0 {
		t.Errorf("loopback MX: %+v", res.Hosts)
	}
}

// DomainHealth reports mx_hosts; with check_starttls a host serving
// several domains is contacted once.
func TestDomainHealthMXHosts(t *testing.T) {
	r, _ := proxyFixture(t)
	mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{})
	v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: mail.Port, AllowPrivateAddresses: true}})
	// Only MX hosts on loopback are asked for STARTTLS: tests reach
	// nothing else.
	res, err := v.DomainHealth(context.Background(), DomainHealthRequest{Domains: []string{"mx.test", "other.test", "third.test"}, CheckSTARTTLS: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Results[:3] {
		if len(h.MXHosts) != 1 || h.MXHosts[0].STARTTLS == nil || *h.MXHosts[0].STARTTLS || !h.MXHosts[0].Addresses[0].FCrDNS {
			t.Errorf("%s: %+v", h.Domain, h.MXHosts)
		}
		if !slices.Contains(codesOf(h.Problems), "mx_no_starttls") {
			t.Errorf("%s: problems %v", h.Domain, codesOf(h.Problems))
		}
	}
	if n := len(mail.Remotes()); n != 1 {
		t.Errorf("the shared MX host was contacted %d times", n)
	}
	b, _ := json.Marshal(res.Results[0])
	if !strings.Contains(string(b), `"mx_hosts":[{"host":"mail.mx.test","addresses":[{"ip":"127.0.0.1","ptr":["mail.mx.test"],"fcrdns":true,"listed":[]}],"starttls":false}]`) {
		t.Errorf("JSON %s", b)
	}
	// Without check_starttls, DNS only; a domain without mail hosts has
	// an empty list, not null.
	res, _ = v.DomainHealth(context.Background(), DomainHealthRequest{Domains: []string{"noptr.test", "missing.test"}})
	if h := res.Results[0]; !slices.Contains(codesOf(h.Problems), "mx_no_fcrdns") || h.MXHosts[0].STARTTLS != nil {
		t.Errorf("noptr.test: %+v", h)
	}
	if b, _ := json.Marshal(res.Results[1]); !strings.Contains(string(b), `"mx_hosts":[]`) {
		t.Errorf("JSON %s", b)
	}
	if n := len(mail.Remotes()); n != 1 {
		t.Errorf("%d sessions after a check without check_starttls", n)
	}
}

// A failed lookup of the MX hosts check is a warning of its own, not a
// missing PTR.
func TestCheckMXHostsDNSFailures(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: proxyZone, ServFail: []string{"22.2.0.192.in-addr.arpa", "mail.fail.test"}})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 200e6, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := mustVerifier(t, Config{Resolver: r})
	for domain, want := range map[string]string{"noptr.test": "mx_dns_error", "fail.test": "mx_dns_error"} {
		res, _ := v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: domain})
		if got := codesOf(res.Problems); !slices.Equal(got, []string{want}) {
			t.Errorf("%s: problems %+v", domain, res.Problems)
		}
	}
	if _, err := (&Verifier{}).CheckMXHosts(context.Background(), MXHostsRequest{Domain: "a.test"}); envelope.From(err).Code != envelope.CodeServiceUnavailable {
		t.Errorf("without a resolver: %v", err)
	}
	if _, err := v.CheckMXHosts(context.Background(), MXHostsRequest{Domain: "bad_domain"}); envelope.From(err).Code != envelope.CodeInvalidRequest {
		t.Errorf("a bad domain: %v", err)
	}
}

func TestDNSBLReason(t *testing.T) {
	for in, want := range map[string]string{
		"Listed\tfor spam":                "Listed for spam",
		"  see https://bl.test/?a=1\\b  ": `see https://bl.test/?a=1\b`,
		"bidi\u202eover\u0000ride\x7f":    "bidioverride",
		`"quoted"`:                        `"quoted"`,
		"\xff\xfebad UTF-8":               "bad UTF-8",
		strings.Repeat("é", 300):          strings.Repeat("é", MaxDNSBLReason/2),
		// The cut falls after a space and before a character: no
		// trailing space (found by FuzzDNSBLReason).
		strings.Repeat("a", MaxDNSBLReason-1) + " é": strings.Repeat("a", MaxDNSBLReason-1),
	} {
		if got := dnsblReason(in); got != want {
			t.Errorf("dnsblReason(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzDNSBLReason: whatever a DNSBL puts in its TXT record, the reason
// is short, valid UTF-8, printable and trimmed. (Decoding the TXT
// presentation form is the resolver's, fuzzed there.)
func FuzzDNSBLReason(f *testing.F) {
	for _, s := range []string{"Listed\tfor spam", `\\\`, "a\u202eb", strings.Repeat("A", 300), "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, txt string) {
		r := dnsblReason(txt)
		if len(r) > MaxDNSBLReason || !utf8.ValidString(r) || strings.TrimSpace(r) != r || strings.Contains(r, "  ") {
			t.Fatalf("dnsblReason(%q) = %q", txt, r)
		}
		for _, c := range r {
			if c != ' ' && (!unicode.IsPrint(c) || unicode.Is(unicode.Cf, c)) {
				t.Fatalf("dnsblReason(%q) = %q holds %U", txt, r, c)
			}
		}
	})
}

// FuzzDNSBLName: the name asked of a DNSBL is the address's reverse
// name under the zone, the form miekg/dns makes for in-addr.arpa and
// ip6.arpa.
func FuzzDNSBLName(f *testing.F) {
	f.Add([]byte{192, 0, 2, 20})
	f.Add([]byte{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x25})
	f.Fuzz(func(t *testing.T, b []byte) {
		ip, ok := netip.AddrFromSlice(b)
		if !ok {
			return
		}
		arpa, err := dns.ReverseAddr(ip.Unmap().String())
		if err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(arpa, "."), "in-addr.arpa"), "ip6.arpa") + "bl.test"
		if got := dnsblName(ip, "bl.test"); got != want {
			t.Fatalf("dnsblName(%s) = %s, want %s", ip, got, want)
		}
	})
}

// healthZone50 is 50 domains with every record domain health asks for:
// MX, its A, the PTR of that address, SPF and DMARC; with dnsbl, a
// DNSBL zone that lists none of them.
func healthZone50() (zone string, domains []string) {
	var b strings.Builder
	b.WriteString("$ORIGIN test.\n@ SOA ns hostmaster 1 3600 600 86400 60\n")
	for i := range 50 {
		d := fmt.Sprintf("d%d", i)
		domains = append(domains, d+".test")
		fmt.Fprintf(&b, "%s MX 10 mx.%s.test.\nmx.%s A 192.0.2.%d\n%s TXT \"v=spf1 mx -all\"\n_dmarc.%s TXT \"v=DMARC1; p=reject; rua=mailto:d@%s.test\"\n", d, d, d, i+1, d, d, d)
	}
	b.WriteString("$ORIGIN 2.0.192.in-addr.arpa.\n")
	for i := range 50 {
		fmt.Fprintf(&b, "%d PTR mx.d%d.test.\n", i+1, i)
	}
	return b.String(), domains
}

// BenchmarkDomainHealth50 checks 50 fully published domains against a
// loopback DNS server that answers after 20 ms, with a cold cache each
// time, and reports the queries each run sends.
func BenchmarkDomainHealth50(b *testing.B) {
	zone, domains := healthZone50()
	for _, zones := range [][]string{nil, {"bl.test"}} {
		b.Run(fmt.Sprintf("dnsbl=%d", len(zones)), func(b *testing.B) {
			srv := resolvertest.Start(b, resolvertest.Config{Zone: zone, Delay: 20e6})
			var queries int
			for b.Loop() {
				r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 2e9})
				if err != nil {
					b.Fatal(err)
				}
				v := mustVerifier(b, Config{Resolver: r, DNSBLZones: zones})
				before := srv.Queries()
				res, err := v.DomainHealth(context.Background(), DomainHealthRequest{Domains: domains})
				if err != nil || res.Results[49].Verdict != VerdictReady {
					b.Fatalf("%v %+v", err, res.Results[49])
				}
				queries = srv.Queries() - before
			}
			b.ReportMetric(float64(queries), "queries/op")
		})
	}
}

// TestDomainHealthSTARTTLSBound: one DomainHealth call connects to at
// most MaxSTARTTLSHosts distinct MX hosts; the domains of the others get
// starttls null and one mx_starttls_bound warning each.
func TestDomainHealthSTARTTLSBound(t *testing.T) {
	n := MaxSTARTTLSHosts + 5
	var zone strings.Builder
	zone.WriteString("$ORIGIN test.\n$TTL 300\n@ SOA ns hostmaster 1 3600 600 86400 60\n")
	domains := make([]string, n)
	for i := range domains {
		domains[i] = fmt.Sprintf("bound%d.test", i)
		fmt.Fprintf(&zone, "bound%[1]d MX 10 mail.bound%[1]d.test.\nmail.bound%[1]d A 127.0.0.1\n", i)
	}
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone.String()})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{STARTTLS: true})
	v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: mail.Port, AllowPrivateAddresses: true, HostInterval: -1}})
	res, err := v.DomainHealth(context.Background(), DomainHealthRequest{Domains: domains, CheckSTARTTLS: true})
	if err != nil {
		t.Fatal(err)
	}
	checked, bounded := 0, 0
	for _, h := range res.Results {
		if len(h.MXHosts) != 1 {
			t.Fatalf("%s: %+v", h.Domain, h.MXHosts)
		}
		warned := slices.Contains(codesOf(h.Problems), "mx_starttls_bound")
		switch s := h.MXHosts[0].STARTTLS; {
		case s != nil && *s && !warned:
			checked++
		case s == nil && warned:
			bounded++
		default:
			t.Errorf("%s: starttls %v, problems %v", h.Domain, s, codesOf(h.Problems))
		}
	}
	if checked != MaxSTARTTLSHosts || bounded != n-MaxSTARTTLSHosts || len(mail.Remotes()) != MaxSTARTTLSHosts {
		t.Errorf("%d checked, %d bounded, %d SMTP sessions; want %d, %d, %d", checked, bounded, len(mail.Remotes()), MaxSTARTTLSHosts, n-MaxSTARTTLSHosts, MaxSTARTTLSHosts)
	}
}
