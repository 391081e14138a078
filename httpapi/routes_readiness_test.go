package httpapi_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/secret"
)

// rsaKeyP is the base64 p= of a fresh RSA public key of the given size,
// built from two primes so that 512 bits can be published.
func rsaKeyP(t *testing.T, bits int) string {
	t.Helper()
	p, err1 := rand.Prime(rand.Reader, bits/2)
	q, err2 := rand.Prime(rand.Reader, bits-bits/2)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	der, err := x509.MarshalPKIXPublicKey(&rsa.PublicKey{N: new(big.Int).Mul(p, q), E: 65537})
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(der)
}

// quoted splits a TXT value into zone-file strings of at most 200 bytes.
func quoted(s string) string {
	var parts []string
	for len(s) > 200 {
		parts = append(parts, strconv.Quote(s[:200]))
		s = s[200:]
	}
	return strings.Join(append(parts, strconv.Quote(s)), " ")
}

// The bulk-sender readiness of six domains, from one that publishes
// everything (with forward-confirmed reverse DNS for its MX host) to one
// that publishes nothing but MX, through the route,
// each response checked against the OpenAPI document.
func TestEmailDomainHealthReadinessRoute(t *testing.T) {
	good, weak := rsaKeyP(t, 2048), rsaKeyP(t, 512)
	zone := `$ORIGIN test.
@ SOA ns h 1 3600 600 86400 60
ready MX 10 mx.ready.test.
mx.ready A 192.0.2.7
7.2.0.192.in-addr.arpa. PTR mx.ready.test.
ready TXT "v=spf1 ip4:192.0.2.0/24 -all"
_dmarc.ready TXT "v=DMARC1; p=reject; rua=mailto:d@ready.test"
google._domainkey.ready TXT ` + quoted("v=DKIM1; k=rsa; p="+good) + `
_mta-sts.ready TXT "v=STSv1; id=1"
mta-sts.ready A 127.0.0.1
notls MX 10 mx.notls.test.
notls TXT "v=spf1 ip4:192.0.2.0/24 -all"
_dmarc.notls TXT "v=DMARC1; p=quarantine; rua=mailto:d@notls.test"
s1._domainkey.notls TXT ` + quoted("v=DKIM1; p="+good) + `
nodkim MX 10 mx.nodkim.test.
nodkim TXT "v=spf1 ip4:192.0.2.0/24 ~all"
_dmarc.nodkim TXT "v=DMARC1; p=none; rua=mailto:d@nodkim.test"
weakdkim MX 10 mx.weakdkim.test.
weakdkim TXT "v=spf1 ip4:192.0.2.0/24 ~all"
_dmarc.weakdkim TXT "v=DMARC1; p=none"
selector1._domainkey.weakdkim TXT ` + quoted("v=DKIM1; p="+weak) + `
nodmarc MX 10 mx.nodmarc.test.
nodmarc TXT "v=spf1 ip4:192.0.2.0/24 ~all"
nothing MX 10 mx.nothing.test.
`
	dns := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	policy := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "version: STSv1\nmode: enforce\nmx: mx.ready.test\nmax_age: 604800\n")
	})
	https, roots, err := testutil.NewTLSServer(policy, testutil.Cert{Names: []string{"mta-sts.ready.test"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(https.Close)
	u, _ := url.Parse(https.URL)
	port, _ := strconv.Atoi(u.Port())
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}, Timeout: time.Second, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Email: verifierT(t, email.Config{Resolver: r,
		MTASTS: mailauth.MTASTSOptions{RootCAs: roots, Port: port, AllowLoopback: true}})})

	body := `{"domains":["ready.test","notls.test","nodkim.test","weakdkim.test","nodmarc.test","nothing.test","gone.test"]}`
	code, env := postJSON(t, h, "/v1/email/domain/health", body)
	if code != 200 {
		t.Fatalf("status %d: %s", code, errorText(env))
	}
	var res email.DomainHealthResult
	if err := json.Unmarshal(env.Data, &res); err != nil {
		t.Fatal(err)
	}
	// Lines in order: spf, dkim, dmarc, dmarc_alignment,
	// forward_reverse_dns, tls; p pass, f fail, u unknown.
	want := []struct {
		lines   string
		verdict email.Verdict
	}{
		{"pppppp", email.VerdictReady},
		{"ppppuu", email.VerdictUnknown},
		{"puppuu", email.VerdictUnknown},
		{"pfppuu", email.VerdictNotReady},
		{"puffuu", email.VerdictNotReady},
		{"fuffuu", email.VerdictNotReady},
		{"ffffff", email.VerdictNotReady},
	}
	for i, w := range want {
		got := res.Results[i].BulkSender
		var lines strings.Builder
		for _, q := range got.Requirements {
			lines.WriteByte(q.Status[0])
			if q.Reason == "" {
				t.Errorf("%s %s: no reason", res.Results[i].Domain, q.ID)
			}
		}
		if lines.String() != w.lines || got.Verdict != w.verdict || len(got.NotShown) == 0 {
			t.Errorf("%s: lines %s verdict %s; want %s %s\n%+v", res.Results[i].Domain, lines.String(), got.Verdict, w.lines, w.verdict, got.Requirements)
		}
	}
	ready := res.Results[0]
	if ready.MTASTS == nil || ready.MTASTS.Policy == nil || ready.MTASTS.Policy.Mode != "enforce" || ready.MTASTS.MXMatch == nil || !*ready.MTASTS.MXMatch ||
		len(ready.DKIM.Keys) != 1 || ready.DKIM.Keys[0].Bits != 2048 || ready.Verdict != email.VerdictReady {
		t.Errorf("ready.test: %s", env.Data)
	}
	if !strings.Contains(string(env.Data), `"code":"dkim_weak_key"`) {
		t.Errorf("the weak key is not a problem: %s", env.Data)
	}

	// The responses, and the extension's request field, match the document.
	router := documentRouter(t, h)
	checkExchange(t, router, h, "POST", "/v1/email/domain/health", body)
	checkExchange(t, router, h, "POST", "/v1/email/domain/health", `{"domains":["nodkim.test"],"dkim_selectors":["custom1","k2"]}`)
	checkExchange(t, router, h, "POST", "/v1/email/domain/health", `{"domains":["nodkim.test"],"dkim_selectors":["bad selector"]}`)

	code, env = postJSON(t, h, "/v1/email/domain/health", `{"domains":["nodkim.test"],"dkim_selectors":["ok","no spaces allowed"]}`)
	if code != 400 || !strings.Contains(errorText(env), "dkim_selectors[1]") {
		t.Errorf("bad selector: status %d, %s", code, errorText(env))
	}
	code, env = postJSON(t, h, "/v1/email/domain/health", `{"domains":["nodkim.test"],"dkim_selectors":["a","b","c","d","e","f","g","h","i","j","k"]}`)
	if code != 400 || !strings.Contains(errorText(env), "at most 10") {
		t.Errorf("too many selectors: status %d, %s", code, errorText(env))
	}
}
