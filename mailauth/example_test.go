package mailauth_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// exampleZone is what the examples' loopback DNS server answers.
const exampleZone = `
$ORIGIN example.test.
$TTL 300
@              IN SOA ns1 hostmaster 1 3600 600 86400 60
@              IN TXT "v=spf1 ip4:192.0.2.0/24 include:_spf.mail.example.test ~all"
_spf.mail      IN TXT "v=spf1 ip6:2001:db8::/32 -all"
open           IN TXT "v=spf1 a:nx1.example.test a:nx2.example.test a:nx3.example.test +all"
_dmarc         IN TXT "v=DMARC1; p=quarantine; pct=50; rua=mailto:reports@example.test"
`

// newResolver starts the loopback server and a resolver that asks it.
func newResolver() (*resolvertest.Server, *resolver.Resolver) {
	srv, err := resolvertest.New(resolvertest.Config{Zone: exampleZone})
	if err != nil {
		log.Fatal(err)
	}
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	return srv, r
}

func ExampleCheckSPF() {
	srv, r := newResolver()
	defer srv.Close()
	ctx := context.Background()

	for _, domain := range []string{"example.test", "open.example.test"} {
		spf, err := mailauth.CheckSPF(ctx, r, domain)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %s, %d of %d lookups, %d void, valid %v\n",
			domain, spf.All, spf.DNSLookups, spf.DNSLookupLimit, spf.VoidLookups, spf.Valid())
		for _, p := range spf.Problems {
			fmt.Printf("  %s %s: %s\n", p.Severity, p.Code, p.Message)
		}
	}
	_, err := mailauth.CheckSPF(ctx, r, "_spf.nowhere.example.test")
	fmt.Println(errors.Is(err, mailauth.ErrNoRecord))
	// Output:
	// example.test: ~all, 1 of 10 lookups, 0 void, valid true
	// open.example.test: +all, 3 of 10 lookups, 3 void, valid false
	//   error spf_too_many_void_lookups: 3 void lookups exceed the limit of 2 (RFC 7208 section 4.6.4: permerror)
	//   warning spf_plus_all: +all lets any host send mail for the domain
	// true
}

// A subdomain without a record of its own falls under the record of its
// organizational domain.
func ExampleCheckDMARC() {
	srv, r := newResolver()
	defer srv.Close()

	d, err := mailauth.CheckDMARC(context.Background(), r, "news.example.test")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Domain, d.Policy, d.Percent, d.RUA, d.Valid())
	for _, p := range d.Problems {
		fmt.Printf("%s %s: %s\n", p.Severity, p.Code, p.Message)
	}
	// Output:
	// example.test quarantine 50 [mailto:reports@example.test] true
	// warning dmarc_pct: pct=50 applies the policy to part of the failing mail only
}

func ExampleParseSPF() {
	terms, err := mailauth.ParseSPF("v=spf1 ip4:192.0.2.0/24 include:_spf.example.com ~all")
	for _, t := range terms {
		fmt.Printf("%s %s%s:%s\n", t.Type, t.Qualifier, t.Name, t.Value)
	}
	fmt.Println(err)

	_, err = mailauth.ParseSPF("v=spf1 ip4:192.0.2.300 -all")
	fmt.Println(err)
	// Output:
	// mechanism +ip4:192.0.2.0/24
	// mechanism +include:_spf.example.com
	// mechanism ~all:
	// <nil>
	// ip4:192.0.2.300 is not a valid IPv4 address
}

func ExampleParseDMARC() {
	d := mailauth.ParseDMARC("v=DMARC1; p=none; pct=50")
	fmt.Println(d.Policy, d.Percent, d.ADKIM, d.Valid())
	for _, p := range d.Problems {
		fmt.Printf("%s %s: %s\n", p.Severity, p.Code, p.Message)
	}
	// Output:
	// none 50 r true
	// warning dmarc_p_none: p=none only monitors: failing mail is delivered
	// warning dmarc_pct: pct=50 applies the policy to part of the failing mail only
	// warning dmarc_no_rua: no rua: the domain receives no aggregate reports
}

func ExampleSeverities() {
	fmt.Println(mailauth.Severities())
	// Output: [error warning]
}

func ExampleCodes() {
	codes := mailauth.Codes()
	fmt.Println(len(codes), codes[0], codes[len(codes)-1])
	// Output: 47 spf_multiple_records dnssec_bogus
}
