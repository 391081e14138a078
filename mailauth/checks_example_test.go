package mailauth_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"strconv"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// secureZone is a domain that publishes every record domain health
// checks (the email examples read it too).
func secureZone() string {
	b, err := os.ReadFile("testdata/secure.zone")
	if err != nil {
		log.Fatal(err)
	}
	return string(b)
}

// newSecure starts a loopback DNS server for secureZone, validating as a
// DNSSEC resolver would, and an HTTPS server for its MTA-STS policy with
// a certificate of a CA made for it, and returns a resolver that asks
// that server and MTA-STS options that trust that CA and may reach
// loopback.
func newSecure() (*resolver.Resolver, mailauth.MTASTSOptions, func()) {
	dns, err := resolvertest.New(resolvertest.Config{Zone: secureZone(), AuthenticatedData: []string{"secure.test"}})
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
	opts := mailauth.MTASTSOptions{RootCAs: roots, Port: port, AllowLoopback: true}
	return r, opts, func() { https.Close(); dns.Close() }
}

func ExampleCheckMTASTS() {
	r, opts, done := newSecure()
	defer done()

	ctx := context.Background()
	mx, err := r.LookupMX(ctx, "secure.test")
	if err != nil {
		log.Fatal(err)
	}
	var hosts []string
	for _, m := range mx {
		hosts = append(hosts, m.Host)
	}
	m, err := mailauth.CheckMTASTS(ctx, r, "secure.test", hosts, opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Status, m.Record.ID)
	fmt.Println(m.Policy.Mode, m.Policy.MaxAge, m.Policy.MX, *m.MXMatch)
	// Output:
	// valid 20240601
	// enforce 1209600 [*.secure.test] true
}

func ExampleCheckTLSRPT() {
	r, _, done := newSecure()
	defer done()

	for _, d := range []string{"secure.test", "mx1.secure.test"} {
		t, err := mailauth.CheckTLSRPT(context.Background(), r, d)
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
func ExampleCheckDKIM() {
	r, _, done := newSecure()
	defer done()

	d, err := mailauth.CheckDKIM(context.Background(), r, "secure.test", []string{"mail2024"})
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

func ExampleCheckBIMI() {
	r, _, done := newSecure()
	defer done()

	b, err := mailauth.CheckBIMI(context.Background(), r, "secure.test")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(b.Status, b.Record.Logo, b.DMARCEnforced)
	// Output:
	// valid https://secure.test/logo.svg true
}

func ExampleCheckDNSSEC() {
	r, _, done := newSecure()
	defer done()

	d, err := mailauth.CheckDNSSEC(context.Background(), r, "secure.test")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("signed %v (DS %v, DNSKEY %v), validated %v\n", d.Signed, d.DS, d.DNSKEY, d.Validated)
	// Output:
	// signed true (DS true, DNSKEY true), validated true
}

func ExampleDefaultDKIMSelectors() {
	sels := mailauth.DefaultDKIMSelectors()
	fmt.Println(len(sels), sels[:3])
	// Output:
	// 20 [google selector1 selector2]
}

func ExampleRecordStatuses() {
	fmt.Println(mailauth.RecordStatuses())
	// Output:
	// [valid invalid missing error]
}

// A selector list is refused whole, naming the selector and the rule.
func ExampleCheckSelectors() {
	sels, err := mailauth.CheckSelectors([]string{" Mail2024 ", "s1"})
	fmt.Println(sels, err)
	_, err = mailauth.CheckSelectors([]string{"ok", "bad selector"})
	var se *mailauth.SelectorError
	fmt.Println(errors.As(err, &se), se.Index, errors.Is(err, mailauth.ErrInvalidSelector))
	fmt.Println(err)
	// Output:
	// [mail2024 s1] <nil>
	// true 1 true
	// selector 1 is not a DKIM selector: only letters, digits, hyphens, underscores and dots are allowed
}
