package resolver_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/netip"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// exampleZone is what the examples' loopback server answers.
const exampleZone = `
$ORIGIN example.test.
$TTL 300
@     IN SOA   ns1 hostmaster 1 3600 600 86400 60
@     IN NS    ns1
@     IN NS    ns2
@     IN MX    20 mx2
@     IN MX    10 mx1
@     IN TXT   "v=spf1 " "mx -all"
@     IN A     192.0.2.1
@     IN AAAA  2001:db8::1
mx1   IN A     192.0.2.10
mx2   IN A     192.0.2.20
www   IN CNAME @
quiet IN MX    0 .
`

// newExample starts the loopback server and a resolver that asks it. A
// program would call resolver.New(resolver.Config{}) to ask the servers
// of /etc/resolv.conf.
func newExample() (*resolvertest.Server, *resolver.Resolver) {
	srv, err := resolvertest.New(resolvertest.Config{Zone: exampleZone, ServFail: []string{"broken.example.test"}})
	if err != nil {
		log.Fatal(err)
	}
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	return srv, r
}

func ExampleNew() {
	srv, err := resolvertest.New(resolvertest.Config{Zone: exampleZone})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	r, err := resolver.New(resolver.Config{
		Servers:   []string{srv.Addr},
		CacheSize: 1000, // the other fields keep their defaults
	})
	if err != nil {
		log.Fatal(err)
	}
	hosts, err := r.LookupMX(context.Background(), "example.test")
	fmt.Println(hosts, err)

	_, err = resolver.New(resolver.Config{Servers: []string{" "}})
	fmt.Println(errors.Is(err, resolver.ErrNoServers))

	_, err = resolver.New(resolver.Config{Servers: []string{"127.0.0.1:99999"}})
	fmt.Println(errors.Is(err, resolver.ErrInvalidConfig))
	fmt.Println(err)
	// Output:
	// [{mx1.example.test 10} {mx2.example.test 20}] <nil>
	// true
	// true
	// resolver: invalid configuration: Servers[0] "127.0.0.1:99999" has port "99999": a port is a number from 1 to 65535
}

func ExampleResolver_Lookup() {
	srv, r := newExample()
	defer srv.Close()
	ctx := context.Background()

	a, err := r.Lookup(ctx, "www.example.test", dns.TypeA)
	if err != nil {
		log.Fatal(err)
	}
	for _, rr := range a.RRs {
		fmt.Println(dns.TypeToString[rr.Header().Rrtype], rr.Header().Ttl)
	}
	fmt.Println(a.Name, a.TTL, a.Cached)

	// NODATA: the name exists without a record of the type.
	a, err = r.Lookup(ctx, "mx1.example.test", dns.TypeMX)
	fmt.Println(len(a.RRs), err)

	// NXDOMAIN: the Answer comes with the error.
	a, err = r.Lookup(ctx, "nowhere.example.test", dns.TypeA)
	fmt.Println(a.Rcode == dns.RcodeNameError, errors.Is(err, resolver.ErrNXDomain))
	// Output:
	// CNAME 300
	// A 300
	// www.example.test. 5m0s false
	// 0 <nil>
	// true true
}

func ExampleResolver_LookupMX() {
	srv, r := newExample()
	defer srv.Close()
	ctx := context.Background()

	for _, name := range []string{"example.test", "quiet.example.test", "mx1.example.test", "nowhere.example.test", "broken.example.test"} {
		mx, err := r.LookupMX(ctx, name)
		switch {
		case errors.Is(err, resolver.ErrNoData):
			fmt.Println(name, "has no MX records")
		case errors.Is(err, resolver.ErrNXDomain):
			fmt.Println(name, "does not exist")
		case err != nil:
			fmt.Println(name, "failed:", errors.Is(err, resolver.ErrServFail))
		case mx[0].Host == "":
			fmt.Println(name, "takes no mail (null MX)")
		default:
			fmt.Println(name, mx)
		}
	}
	// Output:
	// example.test [{mx1.example.test 10} {mx2.example.test 20}]
	// quiet.example.test takes no mail (null MX)
	// mx1.example.test has no MX records
	// nowhere.example.test does not exist
	// broken.example.test failed: true
}

func ExampleResolver_LookupTXT() {
	srv, r := newExample()
	defer srv.Close()

	txt, err := r.LookupTXT(context.Background(), "example.test")
	fmt.Printf("%q %v\n", txt, err)
	// Output:
	// ["v=spf1 mx -all"] <nil>
}

func ExampleResolver_LookupNS() {
	srv, r := newExample()
	defer srv.Close()

	ns, err := r.LookupNS(context.Background(), "example.test")
	fmt.Println(ns, err)
	// Output:
	// [ns1.example.test ns2.example.test] <nil>
}

func ExampleResolver_LookupCNAME() {
	srv, r := newExample()
	defer srv.Close()
	ctx := context.Background()

	target, err := r.LookupCNAME(ctx, "www.example.test")
	fmt.Println(target, err)
	_, err = r.LookupCNAME(ctx, "example.test")
	fmt.Println(errors.Is(err, resolver.ErrNoData))
	// Output:
	// example.test <nil>
	// true
}

func ExampleResolver_LookupA() {
	srv, r := newExample()
	defer srv.Close()

	addrs, err := r.LookupA(context.Background(), "mx1.example.test")
	fmt.Println(addrs, err)
	// Output:
	// [192.0.2.10] <nil>
}

func ExampleResolver_LookupAAAA() {
	srv, r := newExample()
	defer srv.Close()

	addrs, err := r.LookupAAAA(context.Background(), "www.example.test")
	fmt.Println(addrs, err)
	// Output:
	// [2001:db8::1] <nil>
}

func ExampleResolver_LookupIP() {
	srv, r := newExample()
	defer srv.Close()
	ctx := context.Background()

	addrs, err := r.LookupIP(ctx, "example.test")
	fmt.Println(addrs, err)
	addrs, err = r.LookupIP(ctx, "mx2.example.test") // IPv4 only
	fmt.Println(addrs, err)
	addrs, err = r.LookupIP(ctx, "[2001:db8::25]") // a literal: no query
	fmt.Println(addrs, err)
	// Output:
	// [192.0.2.1 2001:db8::1] <nil>
	// [192.0.2.20] <nil>
	// [2001:db8::25] <nil>
}

func ExampleResolver_LookupPTR() {
	srv, err := resolvertest.New(resolvertest.Config{Zone: `
$ORIGIN 2.0.192.in-addr.arpa.
10 IN PTR mx1.example.test.
$ORIGIN 8.b.d.0.1.0.0.2.ip6.arpa.
1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0 IN PTR WWW.Example.Test.
`})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	names, err := r.LookupPTR(ctx, netip.MustParseAddr("192.0.2.10"))
	fmt.Println(names, err)
	names, err = r.LookupPTR(ctx, netip.MustParseAddr("2001:db8::1"))
	fmt.Println(names, err)
	_, err = r.LookupPTR(ctx, netip.MustParseAddr("192.0.2.99"))
	fmt.Println(errors.Is(err, resolver.ErrNXDomain))
	// Output:
	// [mx1.example.test] <nil>
	// [www.example.test] <nil>
	// true
}

func ExampleResolver_Servers() {
	r, err := resolver.New(resolver.Config{Servers: []string{"192.0.2.53", "[2001:db8::53]:5353"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Servers())
	// Output:
	// [192.0.2.53:53 [2001:db8::53]:5353]
}

// The second lookup of a name is answered from the cache, until the
// answer's TTL runs out.
func ExampleResolver_Stats() {
	srv, r := newExample()
	defer srv.Close()
	ctx := context.Background()

	r.LookupMX(ctx, "example.test")
	r.LookupMX(ctx, "example.test")
	r.LookupMX(ctx, "nowhere.example.test") // negative answers are cached too
	r.LookupMX(ctx, "nowhere.example.test")
	s := r.Stats()
	fmt.Printf("queries %d, hits %d, misses %d, cached %d\n", s.Queries, s.CacheHits, s.CacheMisses, s.Entries)
	fmt.Println(srv.Queries())
	// Output:
	// queries 2, hits 2, misses 2, cached 2
	// 2
}

// A LookupError names the question; its sentinel says what went wrong.
func ExampleLookupError() {
	srv, r := newExample()
	defer srv.Close()

	_, err := r.LookupTXT(context.Background(), "broken.example.test")
	var le *resolver.LookupError
	if errors.As(err, &le) {
		fmt.Println(le.Name, dns.TypeToString[le.Type], errors.Is(err, resolver.ErrServFail))
	}
	fmt.Println(err)
	// Output:
	// broken.example.test. TXT true
	// resolver: lookup broken.example.test. TXT: server failure (SERVFAIL)
}

// A validating resolver answers SERVFAIL for data whose DNSSEC
// signatures do not match, with the Extended DNS Error 6 (DNSSEC
// Bogus). The lookup error wraps ErrServFail and ErrDNSSECBogus, and
// carries the codes.
func ExampleExtendedError() {
	srv, err := resolvertest.New(resolvertest.Config{Zone: exampleZone, Bogus: []string{"example.test"}})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	_, err = r.LookupMX(context.Background(), "example.test")
	fmt.Println(errors.Is(err, resolver.ErrServFail), errors.Is(err, resolver.ErrDNSSECBogus))
	var le *resolver.LookupError
	if errors.As(err, &le) {
		for _, e := range le.ExtendedErrors {
			fmt.Println(e.InfoCode, e.Bogus())
			fmt.Println(e)
		}
	}
	// Output:
	// true true
	// 6 true
	// EDE 6 (DNSSEC Bogus): "validation failure <example.test. MX IN>: signature crypto failed"
}

func ExampleExtendedError_Bogus() {
	for _, e := range []resolver.ExtendedError{
		{InfoCode: dns.ExtendedErrorCodeSignatureExpired},
		{InfoCode: dns.ExtendedErrorCodeNoReachableAuthority, ExtraText: "at delegation example.com."},
	} {
		fmt.Println(e, e.Bogus())
	}
	// Output:
	// EDE 7 (Signature Expired) true
	// EDE 22 (No Reachable Authority): "at delegation example.com." false
}
