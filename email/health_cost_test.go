package email

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// fullZone returns a zone of n domains d0.bench ... that publish every
// record domain health checks, and the policy host names.
func fullZone(n int) (string, []string) {
	var b strings.Builder
	b.WriteString("$ORIGIN bench.\n$TTL 300\n@ SOA ns h 1 3600 600 86400 60\n")
	var hosts []string
	key := dkimKey(2048)
	for i := range n {
		d := fmt.Sprintf("d%d", i)
		hosts = append(hosts, "mta-sts."+d+".bench")
		fmt.Fprintf(&b, `%[1]s MX 10 mx.%[1]s.bench.
mx.%[1]s A 192.0.2.%[3]d
%[1]s TXT "v=spf1 ip4:192.0.2.0/24 -all"
_dmarc.%[1]s TXT "v=DMARC1; p=reject; rua=mailto:d@%[1]s.bench"
_mta-sts.%[1]s TXT "v=STSv1; id=1"
mta-sts.%[1]s A 127.0.0.1
_smtp._tls.%[1]s TXT "v=TLSRPTv1; rua=mailto:tls@%[1]s.bench"
default._bimi.%[1]s TXT "v=BIMI1; l=https://%[1]s.bench/l.svg; a=https://%[1]s.bench/a.pem"
google._domainkey.%[1]s TXT %[2]s
%[1]s DNSKEY 257 3 15 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
%[1]s DS 1 15 2 00000000000000000000000000000000
`, d, txt("v=DKIM1; p="+key), i+1)
	}
	b.WriteString("$ORIGIN 2.0.192.in-addr.arpa.\n")
	for i := range n {
		fmt.Fprintf(&b, "%d PTR mx.d%d.bench.\n", i+1, i)
	}
	return b.String(), hosts
}

// fullVerifier serves fullZone with every answer delayed by delay, and
// the policies over HTTPS.
func fullVerifier(tb testing.TB, n int, delay time.Duration) (*Verifier, *resolver.Resolver, *resolvertest.Server, []string) {
	zone, hosts := fullZone(n)
	dns := resolvertest.Start(tb, resolvertest.Config{Zone: zone, Delay: delay})
	https, roots, err := testutil.NewTLSServer(httpPolicy(), testutil.Cert{Names: hosts})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(https.Close)
	port := https.Listener.Addr().(interface{ String() string }).String()
	p := 0
	fmt.Sscanf(port[strings.LastIndex(port, ":")+1:], "%d", &p)
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}, Timeout: 2 * time.Second, Attempts: 1})
	if err != nil {
		tb.Fatal(err)
	}
	v, err := New(Config{Resolver: r, MTASTS: mailauth.MTASTSOptions{RootCAs: roots, Port: p, AllowLoopback: true}})
	if err != nil {
		tb.Fatal(err)
	}
	domains := make([]string, n)
	for i := range domains {
		domains[i] = fmt.Sprintf("d%d.bench", i)
	}
	return v, r, dns, domains
}

// queriesPerDomain is what one domain with every record costs: MX, SPF,
// DMARC, _mta-sts, _smtp._tls, default._bimi, DS, DNSKEY, each default
// DKIM selector, the A and AAAA of the policy host, and the A, AAAA and
// PTR of the MX host (whose forward confirmation the cache answers).
var queriesPerDomain = 8 + len(mailauth.DefaultDKIMSelectors()) + 2 + 3

// Domain health of domains that publish everything asks each question
// once, in MX + one parallel round + the policy fetch: with each answer
// delayed 200 ms, that is three delays (MX, the round, the policy host's
// address) plus TLS. The bound, twenty delays, leaves a saturated
// machine its slack and still fails a check that asks its thirty
// questions one after another.
func TestDomainHealthCost(t *testing.T) {
	const delay = 200 * time.Millisecond
	v, r, dns, domains := fullVerifier(t, 5, delay)
	start := time.Now()
	res, err := v.DomainHealth(context.Background(), DomainHealthRequest{Domains: domains})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Results {
		if h.Verdict != VerdictReady || h.BulkSender.Verdict != VerdictReady || h.MTASTS.Status != mailauth.RecordValid || h.TLSRPT.Status != mailauth.RecordValid || h.DKIM.Status != mailauth.RecordValid || h.BIMI.Status != mailauth.RecordValid || !h.DNSSEC.Signed {
			t.Fatalf("%s: %s %v", h.Domain, h.Verdict, problemCodes(h.Problems))
		}
	}
	want := len(domains) * queriesPerDomain
	t.Logf("%d domains: %v, %d queries (resolver stats %+v)", len(domains), took, dns.Queries(), r.Stats())
	if dns.Queries() != want || r.Stats().Queries != int64(want) {
		t.Errorf("%d queries reached the server, %d sent; want %d", dns.Queries(), r.Stats().Queries, want)
	}
	if took > 20*delay {
		t.Errorf("took %v: more than MX, one round and the policy fetch", took)
	}
	// Asked again, every answer comes from the resolver's cache.
	if _, err := v.DomainHealth(context.Background(), DomainHealthRequest{Domains: domains}); err != nil || dns.Queries() != want {
		t.Errorf("second check: %v, %d queries in all; want the cache to answer", err, dns.Queries())
	}
}

// httpPolicy serves, for mta-sts.<domain>, an enforce policy whose one
// mx pattern is *.<domain>.
func httpPolicy() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "version: STSv1\nmode: enforce\nmx: *.%s\nmax_age: 604800\n", strings.TrimPrefix(host, "mta-sts."))
	})
}

// BenchmarkDomainHealth50AllRecords checks 50 domains that publish every record
// against a loopback DNS server that answers after 20 ms, from a cold
// cache each time, and reports the queries sent.
func BenchmarkDomainHealth50AllRecords(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		v, r, _, domains := fullVerifier(b, 50, 20*time.Millisecond)
		b.StartTimer()
		res, err := v.DomainHealth(context.Background(), DomainHealthRequest{Domains: domains})
		if err != nil || res.Results[49].MTASTS.Status != mailauth.RecordValid {
			b.Fatalf("%v %+v", err, res.Results[49].MTASTS)
		}
		b.ReportMetric(float64(r.Stats().Queries), "queries")
	}
}
