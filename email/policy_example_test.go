package email_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"strconv"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// secureZone is a domain that publishes every record domain health
// checks. The DKIM key is a 1024-bit RSA key generated for the examples.
const secureZone = `
$ORIGIN secure.test.
$TTL 300
@                 SOA ns1 hostmaster 1 3600 600 86400 60
@                 MX  10 mx1
@                 MX  20 mx2
mx1               A   192.0.2.10
mx2               A   192.0.2.11
@                 TXT "v=spf1 mx -all"
_dmarc            TXT "v=DMARC1; p=reject; rua=mailto:dmarc@secure.test"
_mta-sts          TXT "v=STSv1; id=20240601"
mta-sts           A   127.0.0.1
_smtp._tls        TXT "v=TLSRPTv1; rua=mailto:tls@secure.test"
default._bimi     TXT "v=BIMI1; l=https://secure.test/logo.svg; a=https://secure.test/vmc.pem"
google._domainkey TXT "v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQCV+7h1IVNJYyftq4g92Pj9srkDP/6bIpcWALh/UZLpTV3W4muqcT8cSWmqDp2DAIrY2KCAnTmXXDQTyD776/4XqKJvF8eVQyNSJPHCiKbvhOoX+GF3g32BHFl9whlaMCoeuCnzvEaJrdl7HKy1CiXJx4W1wz7TaWxsiC9JmOF32QIDAQAB"
mail2024._domainkey TXT "v=DKIM1; k=ed25519; p=8hijrs7OnzSOAzag4NQmwjJm42vpE9m5wbL0ci+q3TE="
@                 DNSKEY 257 3 15 8hijrs7OnzSOAzag4NQmwjJm42vpE9m5wbL0ci+q3TE=
$ORIGIN 2.0.192.in-addr.arpa.
10                PTR mx1.secure.test.
11                PTR mx2.secure.test.
$ORIGIN secure.test.
@                 DS  4242 15 2 f218a3aecece9f348e0336a0e0d426c23266e36be913d9b9c1b2f4722faadd31
`

// newSecure starts a loopback DNS server for secureZone, validating as a
// DNSSEC resolver would, and an HTTPS server for its MTA-STS policy with
// a certificate of a CA made for it, and returns a Verifier that trusts
// that CA and may reach loopback.
func newSecure() (*email.Verifier, func()) {
	dns, err := resolvertest.New(resolvertest.Config{Zone: secureZone, AuthenticatedData: []string{"secure.test"}})
	if err != nil {
		log.Fatal(err)
	}
	policy := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "version: STSv1\r\nmode: enforce\r\nmx: *.secure.test\r\nmax_age: 1209600\r\n")
	})
	https, roots, err := testutil.NewTLSServer(policy, testutil.Cert{Names: []string{"mta-sts.secure.test"}})
	if err != nil {
		log.Fatal(err)
	}
	u, _ := url.Parse(https.URL)
	port, _ := strconv.Atoi(u.Port())
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	v, err := email.New(email.Config{Resolver: r, MTASTS: email.MTASTSOptions{RootCAs: roots, Port: port, AllowLoopback: true}})
	if err != nil {
		log.Fatal(err)
	}
	return v, func() { https.Close(); dns.Close() }
}

func ExampleVerifier_CheckMTASTS() {
	v, done := newSecure()
	defer done()

	m, err := v.CheckMTASTS(context.Background(), "secure.test")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Status, m.Record.ID)
	fmt.Println(m.Policy.Mode, m.Policy.MaxAge, m.Policy.MX, *m.MXMatch)
	// Output:
	// valid 20240601
	// enforce 1209600 [*.secure.test] true
}

func ExampleVerifier_CheckTLSRPT() {
	v, done := newSecure()
	defer done()

	for _, d := range []string{"secure.test", "mx1.secure.test"} {
		t, err := v.CheckTLSRPT(context.Background(), d)
		if err != nil {
			log.Fatal(err)
		}
		if t.Record != nil {
			fmt.Println(d, t.Status, t.Record.RUA)
		} else {
			fmt.Println(d, t.Status)
		}
	}
	// Output:
	// secure.test valid [mailto:tls@secure.test]
	// mx1.secure.test missing
}

// The default selectors find the Google Workspace key; the caller's
// selector finds the other.
func ExampleVerifier_CheckDKIM() {
	v, done := newSecure()
	defer done()

	d, err := v.CheckDKIM(context.Background(), "secure.test", []string{"mail2024"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Status, len(d.Selectors), "selectors probed")
	for _, k := range d.Keys {
		fmt.Println(k.Selector, k.KeyType, k.Bits, k.Valid, k.Warnings)
	}
	// Output:
	// valid 21 selectors probed
	// google rsa 1024 true [the RSA key has 1024 bits; 2048 are recommended (RFC 8301)]
	// mail2024 ed25519 256 true []
}

func ExampleVerifier_CheckBIMI() {
	v, done := newSecure()
	defer done()

	b, err := v.CheckBIMI(context.Background(), "secure.test")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(b.Status, b.Record.Logo, b.DMARCEnforced)
	// Output:
	// valid https://secure.test/logo.svg true
}

func ExampleVerifier_CheckDNSSEC() {
	v, done := newSecure()
	defer done()

	d, err := v.CheckDNSSEC(context.Background(), "secure.test")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("signed %v (DS %v, DNSKEY %v), validated %v\n", d.Signed, d.DS, d.DNSKEY, d.Validated)
	// Output:
	// signed true (DS true, DNSKEY true), validated true
}

// Domain health runs every check and judges the bulk-sender
// requirements, forward and reverse DNS on the MX hosts' addresses.
func ExampleBulkSenderReadiness() {
	v, done := newSecure()
	defer done()

	res, err := v.DomainHealth(context.Background(), email.DomainHealthRequest{Domains: []string{"secure.test"}})
	if err != nil {
		log.Fatal(err)
	}
	r := email.BulkSenderReadiness(res.Results[0]) // also in res.Results[0].BulkSender
	fmt.Println(r.Verdict)
	for _, q := range r.Requirements {
		fmt.Println(q.ID, q.Status)
	}
	fmt.Println(len(r.NotShown), "requirements no DNS check shows")
	// Output:
	// ready
	// spf pass
	// dkim pass
	// dmarc pass
	// dmarc_alignment pass
	// forward_reverse_dns pass
	// tls pass
	// 5 requirements no DNS check shows
}

func ExampleDefaultDKIMSelectors() {
	sels := email.DefaultDKIMSelectors()
	fmt.Println(len(sels), sels[:3])
	// Output:
	// 20 [google selector1 selector2]
}
