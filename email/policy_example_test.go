package email_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"strconv"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// secureZone is a domain that publishes every record domain health
// checks, shared with the examples of mailauth.
func secureZone() string {
	b, err := os.ReadFile("../mailauth/testdata/secure.zone")
	if err != nil {
		log.Fatal(err)
	}
	return string(b)
}

// newSecure starts a loopback DNS server for secureZone, validating as a
// DNSSEC resolver would, and an HTTPS server for its MTA-STS policy with
// a certificate of a CA made for it, and returns a Verifier that trusts
// that CA and may reach loopback.
func newSecure() (*email.Verifier, func()) {
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
	v, err := email.New(email.Config{Resolver: r, MTASTS: mailauth.MTASTSOptions{RootCAs: roots, Port: port, AllowLoopback: true}})
	if err != nil {
		log.Fatal(err)
	}
	return v, func() { https.Close(); dns.Close() }
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
