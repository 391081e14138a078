package email

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// hostileTXT renders a TXT record of about n bytes in zone-file form:
// prefix, then parts made by part(i) until n bytes, in strings of up to
// 255 bytes, every byte outside printable ASCII written \DDD.
func hostileTXT(n int, prefix string, part func(i int) string) string {
	rec := []byte(prefix)
	for i := 0; len(rec) < n; i++ {
		rec = append(rec, part(i)...)
	}
	rec = rec[:n]
	var b strings.Builder
	for len(rec) > 0 {
		chunk := rec[:min(len(rec), 255)]
		rec = rec[len(chunk):]
		b.WriteString(` "`)
		for _, c := range chunk {
			if c < ' ' || c > '~' || c == '"' || c == '\\' {
				fmt.Fprintf(&b, `\%03d`, c)
			} else {
				b.WriteByte(c)
			}
		}
		b.WriteString(`"`)
	}
	return b.String()
}

// junk is n bytes that JSON escapes six-fold (\u0001): the worst a
// record can do to an answer's size.
func junk(n int) string { return strings.Repeat("\x01", n) }

// hostileZone is a domain that publishes the largest records DNS carries
// at every name domain health asks, made to yield as much text as the
// parsers let through: many terms, tags and URIs of escaped bytes, two
// records where one is allowed, 200 MX hosts of long names, and an MX
// host with 200 PTR names.
func hostileZone(selectors []string) string {
	const size = 30 << 10 // two records at a name must share 64 KiB
	var z strings.Builder
	z.WriteString("$ORIGIN test.\n$TTL 300\n@ SOA ns h 1 3600 600 86400 60\n")
	long := func(i int) string { // a name of 3 labels of 60 characters
		l := strings.Repeat("m", 56) + fmt.Sprintf("%04d", i)
		return l + "." + l + "." + l + ".hostile.test."
	}
	for i := range 200 {
		fmt.Fprintf(&z, "hostile MX %d %s\n", i, long(i))
	}
	fmt.Fprintf(&z, "%s A 192.0.2.1\n", long(0))
	fmt.Fprintf(&z, "%s A 192.0.2.1\n", long(1))
	z.WriteString("mta-sts.hostile A 127.0.0.1\n")
	twice := func(name, prefix string, part func(i int) string) {
		for range 2 {
			fmt.Fprintf(&z, "%s TXT%s\n", name, hostileTXT(size, prefix, part))
		}
	}
	// One SPF record (two would stop at "multiple records"): terms that
	// query nothing, each with a long value.
	fmt.Fprintf(&z, "hostile TXT%s\n", hostileTXT(60<<10, "v=spf1", func(i int) string { return fmt.Sprintf(" x%d%s=%s", i, strings.Repeat("n", 300), junk(700)) }))
	fmt.Fprintf(&z, "_dmarc.hostile TXT%s\n", hostileTXT(60<<10, "v=DMARC1; p=reject; rua=", func(i int) string {
		if i < 40 {
			return fmt.Sprintf("mailto:%s@a.test,", junk(400))
		}
		return fmt.Sprintf("; t%d%s=%s", i, strings.Repeat("n", 300), junk(400))
	}))
	twice("_mta-sts.hostile", "v=STSv1; id=", func(i int) string { return junk(300) + "; " })
	twice("_smtp._tls.hostile", "v=TLSRPTv1; rua=", func(i int) string { return "https://a.test/" + strings.Repeat("r", 400) + "," })
	twice("default._bimi.hostile", "v=BIMI1; l=https://a.test/"+strings.Repeat("l", 2000)+".svg; a=https://a.test/"+strings.Repeat("a", 2000)+";", func(i int) string { return junk(300) + "; " })
	for _, sel := range selectors {
		twice(sel+"._domainkey.hostile", "v=DKIM1; k="+junk(1000)+"; p=", func(i int) string { return junk(300) + "; " })
	}
	z.WriteString("$ORIGIN 2.0.192.in-addr.arpa.\n")
	for i := range 200 {
		fmt.Fprintf(&z, "1 PTR %s\n", long(i))
	}
	return z.String()
}

// hostilePolicy is an MTA-STS policy of 64 KiB: a long version, 100 mx
// patterns of long names and junk lines.
func hostilePolicy() string {
	var b strings.Builder
	b.WriteString("version: STSv1" + strings.Repeat("v", 3000) + "\nmode: enforce\nmax_age: 86400\n")
	for i := 0; b.Len() < 40<<10; i++ {
		l := strings.Repeat("p", 56) + fmt.Sprintf("%04d", i)
		fmt.Fprintf(&b, "mx: %s.%s.%s.hostile.test\n", l, l, l)
	}
	for b.Len() < 64<<10-600 {
		b.WriteString(junk(500) + "\n")
	}
	return b.String()
}

// TestDomainHealthBound: however large and many the records of a domain,
// its result stays under MaxDomainHealthBytes in JSON, the records cut
// and flagged, the lists bounded.
func TestDomainHealthBound(t *testing.T) {
	extra := make([]string, mailauth.MaxDKIMSelectors)
	for i := range extra {
		extra[i] = "x" + strconv.Itoa(i)
	}
	dns := resolvertest.Start(t, resolvertest.Config{Zone: hostileZone(append(mailauth.DefaultDKIMSelectors(), extra...))})
	policy := hostilePolicy()
	https, roots, err := testutil.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(policy))
	}), testutil.Cert{Names: []string{"mta-sts.hostile.test"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(https.Close)
	port, _ := strconv.Atoi(https.URL[strings.LastIndex(https.URL, ":")+1:])
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}, Timeout: 5 * time.Second, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(Config{Resolver: r, MTASTS: mailauth.MTASTSOptions{RootCAs: roots, Port: port, AllowLoopback: true}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.DomainHealth(context.Background(), DomainHealthRequest{Domains: []string{"hostile.test"}, DKIMSelectors: extra})
	if err != nil {
		t.Fatal(err)
	}
	h := res.Results[0]
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("one hostile domain: %d bytes of JSON (bound %d)", len(b), MaxDomainHealthBytes)
	if len(b) > MaxDomainHealthBytes {
		t.Errorf("one domain's result is %d bytes, over MaxDomainHealthBytes (%d)", len(b), MaxDomainHealthBytes)
	}
	// The hostile records were all read and shown cut.
	switch {
	case h.SPF == nil || !h.SPF.RecordTruncated || len(h.SPF.Terms) == 0:
		t.Errorf("spf: %+v", h.SPF)
	case h.DMARC == nil || !h.DMARC.RecordTruncated:
		t.Errorf("dmarc: %+v", h.DMARC)
	case h.MTASTS.Record == nil || !h.MTASTS.Record.RecordTruncated:
		t.Errorf("mta_sts: %+v", h.MTASTS)
	case h.TLSRPT.Record == nil || !h.TLSRPT.Record.RecordTruncated:
		t.Errorf("tls_rpt: %+v", h.TLSRPT)
	case h.BIMI.Record == nil || !h.BIMI.Record.RecordTruncated:
		t.Errorf("bimi: %+v", h.BIMI)
	case len(h.DKIM.Keys) != len(append(mailauth.DefaultDKIMSelectors(), extra...)) || !h.DKIM.Keys[0].RecordTruncated:
		t.Errorf("dkim: %d keys", len(h.DKIM.Keys))
	case len(h.MX.Hosts) != MaxMXHostsListed || h.MX.HostsOmitted != 200-MaxMXHostsListed:
		t.Errorf("mx: %d hosts, %d omitted", len(h.MX.Hosts), h.MX.HostsOmitted)
	case len(h.MXHosts) == 0 || len(h.MXHosts[0].Addresses) == 0 || len(h.MXHosts[0].Addresses[0].PTR) != MaxPTRListed:
		t.Errorf("mx_hosts: %+v", h.MXHosts)
	}
	for _, p := range h.Problems {
		if len(p.Message) > 520 {
			t.Errorf("problem %s: message of %d bytes", p.Code, len(p.Message))
		}
	}
}
