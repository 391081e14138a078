package resolvertest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// A program (or a test) serves its own zone on loopback and points a
// resolver at it: no network, no testing.T.
func Example() {
	srv, err := resolvertest.New(resolvertest.Config{
		Zone: `
$ORIGIN example.test.
@    300 IN SOA ns.example.test. hostmaster.example.test. 1 3600 600 86400 60
@    300 IN MX  10 mail.example.test.
mail 300 IN A   192.0.2.25
`,
		ServFail: []string{"broken.example.test"},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	mx, _ := r.LookupMX(ctx, "example.test")
	fmt.Println(mx[0].Host, mx[0].Pref)
	_, err = r.LookupMX(ctx, "nowhere.example.test")
	fmt.Println(errors.Is(err, resolver.ErrNXDomain))
	_, err = r.LookupMX(ctx, "broken.example.test")
	fmt.Println(errors.Is(err, resolver.ErrServFail))
	// A SERVFAIL is asked again with the CD bit (is the data bogus?),
	// then once more (resolver.Config.Attempts is 2).
	fmt.Println(srv.Queries())
	// Output:
	// mail.example.test 10
	// true
	// true
	// 5
}

// New reports a zone that does not parse, naming the line.
func ExampleNew() {
	_, err := resolvertest.New(resolvertest.Config{Zone: "example.test. 300 IN A 192.0.2.300"})
	fmt.Println(err != nil)
	// Output:
	// true
}

// Start is New for a test: a zone that does not parse fails the test,
// and the server closes when the test ends. (This example only compiles:
// it needs the *testing.T of a test.)
func ExampleStart() {
	testLookup := func(t *testing.T) {
		srv := resolvertest.Start(t, resolvertest.Config{Zone: "example.test. 300 IN A 192.0.2.1"})
		r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.LookupA(context.Background(), "example.test"); err != nil {
			t.Error(err)
		}
	}
	_ = testLookup
}

// QueriesFor shows what reached the server: here, that the resolver's
// cache answered the second lookup.
func ExampleServer_QueriesFor() {
	srv, err := resolvertest.New(resolvertest.Config{Zone: "example.test. 300 IN TXT \"hello\""})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	for range 2 {
		txt, _ := r.LookupTXT(context.Background(), "example.test")
		fmt.Println(txt)
	}
	fmt.Println(srv.QueriesFor("example.test", dns.TypeTXT), srv.Queries())
	// Output:
	// [hello]
	// [hello]
	// 1 1
}

// Config.Drop makes the server silent for a name, so that a client times
// out: the way to test a caller's timeout handling.
func ExampleConfig_drop() {
	srv, err := resolvertest.New(resolvertest.Config{
		Zone: "example.test. 300 IN A 192.0.2.1",
		Drop: []string{"slow.example.test"},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 50 * time.Millisecond, Attempts: 1})
	if err != nil {
		log.Fatal(err)
	}
	_, err = r.LookupA(context.Background(), "slow.example.test")
	fmt.Println(errors.Is(err, resolver.ErrTimeout))
	// Output:
	// true
}

// Config.AuthenticatedData makes the server answer for a signed zone as
// a validating resolver does: with the AD bit, which the resolver reports
// in Answer.AuthenticatedData. Names outside the zone get no AD.
func ExampleConfig_authenticatedData() {
	srv, err := resolvertest.New(resolvertest.Config{
		Zone: `
signed.test.   300 IN DNSKEY 257 3 15 eh93R2/P7/L9PM5yYV2DcgHonsl+uBjPrn2yv5o1fEA=
signed.test.   300 IN MX 10 mx.signed.test.
unsigned.test. 300 IN MX 10 mx.unsigned.test.
`,
		AuthenticatedData: []string{"signed.test"},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	for _, q := range []struct {
		name  string
		qtype uint16
	}{{"signed.test", dns.TypeDNSKEY}, {"signed.test", dns.TypeMX}, {"unsigned.test", dns.TypeMX}} {
		a, err := r.Lookup(context.Background(), q.name, q.qtype)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(q.name, dns.TypeToString[q.qtype], len(a.RRs), a.AuthenticatedData)
	}
	// Output:
	// signed.test DNSKEY 1 true
	// signed.test MX 1 true
	// unsigned.test MX 1 false
}

// LastFlags shows the DNSSEC flags of the last query: the resolver asks
// for the AD bit always, and for DNSSEC records (DO) when configured to.
func ExampleServer_LastFlags() {
	srv, err := resolvertest.New(resolvertest.Config{Zone: "example.test. 300 IN A 192.0.2.1"})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	for _, do := range []bool{false, true} {
		r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, DNSSECOK: do})
		if err != nil {
			log.Fatal(err)
		}
		r.LookupA(context.Background(), "example.test")
		fmt.Printf("%+v\n", srv.LastFlags())
	}
	// Output:
	// {AD:true DO:false CD:false}
	// {AD:true DO:true CD:false}
}
