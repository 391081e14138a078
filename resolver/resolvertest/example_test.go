package resolvertest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/miekg/dns"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// A program (or a test) serves its own zone on loopback and points a
// resolver at it: no network, no testing.T.
func Example() {
	srv, err := resolvertest.NewServer(`
$ORIGIN example.test.
@    300 IN SOA ns.example.test. hostmaster.example.test. 1 3600 600 86400 60
@    300 IN MX  10 mail.example.test.
mail 300 IN A   192.0.2.25
`, resolvertest.WithServFail("broken.example.test"))
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
	// A SERVFAIL is asked again (resolver.Config.Attempts is 2).
	fmt.Println(srv.Queries())
	// Output:
	// mail.example.test 10
	// true
	// true
	// 4
}

// NewServer reports a zone that does not parse, naming the line.
func ExampleNewServer() {
	_, err := resolvertest.NewServer("example.test. 300 IN A 192.0.2.300")
	fmt.Println(err != nil)
	// Output:
	// true
}

// QueriesFor shows what reached the server: here, that the resolver's
// cache answered the second lookup.
func ExampleServer_QueriesFor() {
	srv, err := resolvertest.NewServer("example.test. 300 IN TXT \"hello\"")
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

// WithDrop makes the server silent for a name, so that a client times
// out: the way to test a caller's timeout handling.
func ExampleWithDrop() {
	srv, err := resolvertest.NewServer("example.test. 300 IN A 192.0.2.1", resolvertest.WithDrop("slow.example.test"))
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
