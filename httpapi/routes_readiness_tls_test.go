package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net"
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

// domainHealth posts one domain-health request to h and returns its
// results.
func domainHealth(t *testing.T, h http.Handler, body string) []email.DomainHealth {
	t.Helper()
	code, env := postJSON(t, h, "/v1/email/domain/health", body)
	if code != 200 {
		t.Fatalf("%s: status %d: %s", body, code, errorText(env))
	}
	var res email.DomainHealthResult
	if err := json.Unmarshal(env.Data, &res); err != nil {
		t.Fatal(err)
	}
	return res.Results
}

// requirement returns the bulk-sender line id of d.
func requirement(t *testing.T, d email.DomainHealth, id email.RequirementID) email.Requirement {
	t.Helper()
	for _, q := range d.BulkSender.Requirements {
		if q.ID == id {
			return q
		}
	}
	t.Fatalf("%s: no %s line in %+v", d.Domain, id, d.BulkSender)
	return email.Requirement{}
}

// hasProblem reports whether d has a problem of the code and severity.
func hasProblem(d email.DomainHealth, code email.ProblemCode, severity mailauth.Severity) bool {
	for _, p := range d.Problems {
		if p.Code == code && p.Severity == severity {
			return true
		}
	}
	return false
}

// The tls line of bulk_sender agrees with the domain's own MTA-STS
// findings: an enforce policy that names none of the MX hosts, which
// the domain reports as the error mta_sts_mx_mismatch (senders that apply
// MTA-STS refuse delivery), fails; a testing policy that names none
// passes nothing; a policy that covers the MX host passes.
func TestEmailReadinessTLSAgreesWithMTASTS(t *testing.T) {
	zone := `$ORIGIN test.
@ SOA ns h 1 3600 600 86400 60
`
	for _, d := range []string{"enforce-mismatch", "testing-mismatch", "enforce-match"} {
		zone += fmt.Sprintf("%[1]s MX 10 mx.%[1]s.test.\nmx.%[1]s A 192.0.2.7\n_mta-sts.%[1]s TXT \"v=STSv1; id=1\"\nmta-sts.%[1]s A 127.0.0.1\n", d)
	}
	dns := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	policy := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		host, _, _ := net.SplitHostPort(r.Host)
		domain := strings.TrimPrefix(host, "mta-sts.")
		mode, match, _ := strings.Cut(domain, "-")
		mx := "mx." + domain
		if match == "mismatch.test" {
			mx = "mx.elsewhere.example"
		}
		fmt.Fprintf(w, "version: STSv1\nmode: %s\nmx: %s\nmax_age: 604800\n", mode, mx)
	})
	https, roots, err := testutil.NewTLSServer(policy, testutil.Cert{Names: []string{"mta-sts.enforce-mismatch.test", "mta-sts.testing-mismatch.test", "mta-sts.enforce-match.test"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(https.Close)
	u, _ := url.Parse(https.URL)
	port, _ := strconv.Atoi(u.Port())
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Email: verifierT(t, email.Config{Resolver: r,
		MTASTS: mailauth.MTASTSOptions{RootCAs: roots, Port: port, AllowLoopback: true}})})
	res := domainHealth(t, h, `{"domains":["enforce-mismatch.test","testing-mismatch.test","enforce-match.test"]}`)
	for i, want := range []struct {
		status  email.RequirementStatus
		reason  string
		problem mailauth.Severity
	}{
		{email.RequirementFail, "refuse to deliver", "error"},
		{email.RequirementUnknown, "mode testing names none of the MX hosts", "warning"},
		{email.RequirementPass, "MTA-STS policy in mode enforce", ""},
	} {
		d := res[i]
		if d.MTASTS == nil || d.MTASTS.Status != mailauth.RecordValid {
			t.Fatalf("%s: mta_sts %+v", d.Domain, d.MTASTS)
		}
		tls := requirement(t, d, email.RequirementTLS)
		if tls.Status != want.status || !strings.Contains(tls.Reason, want.reason) {
			t.Errorf("%s: tls %s (%s), want %s (%q)", d.Domain, tls.Status, tls.Reason, want.status, want.reason)
		}
		if want.problem != "" && !hasProblem(d, email.ProblemMTASTSMXMismatch, want.problem) {
			t.Errorf("%s: no mta_sts_mx_mismatch %s: %+v", d.Domain, want.problem, d.Problems)
		}
	}
}

// A STARTTLS check that could not be done says so: starttls stays null,
// an mx_starttls_unreachable warning gives the reason, and the tls line
// of bulk_sender says STARTTLS could not be checked, not that it was not
// asked for. One mail server refuses the connection; another accepts it
// and never greets.
func TestEmailSTARTTLSUnreachableRoute(t *testing.T) {
	refusing, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedPort := refusing.Addr().(*net.TCPAddr).Port
	refusing.Close() // nothing listens there now: connections are refused
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() }) // accepted, never greeted
		}
	}()
	dns := resolvertest.Start(t, resolvertest.Config{Zone: `$ORIGIN test.
@ SOA ns h 1 3600 600 86400 60
mail MX 10 mx.mail.test.
mx.mail A 127.0.0.1
`})
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		port   int
		reason string // the failure's kind, in the messages
	}{
		{"refused", refusedPort, "refused, or the host cannot be reached"},
		{"silent", silent.Addr().(*net.TCPAddr).Port, "greeting or EHLO: no answer in time"},
	} {
		h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Email: verifierT(t, email.Config{Resolver: r,
			SMTP: email.SMTPOptions{Port: tc.port, AllowPrivateAddresses: true, ConnectTimeout: time.Second, StepTimeout: time.Second, HostInterval: -1}})})
		d := domainHealth(t, h, `{"domains":["mail.test"],"check_starttls":true}`)[0]
		if len(d.MXHosts) != 1 || d.MXHosts[0].STARTTLS != nil {
			t.Fatalf("%s: mx_hosts %+v, want one host with starttls null", tc.name, d.MXHosts)
		}
		var found bool
		for _, p := range d.Problems {
			if p.Code == email.ProblemMXSTARTTLSUnreachable {
				found = true
				if p.Severity != "warning" || !strings.Contains(p.Message, "mx.mail.test") || !strings.Contains(p.Message, tc.reason) {
					t.Errorf("%s: %+v, want a warning naming the host and %q", tc.name, p, tc.reason)
				}
				// The failure by its kind: not the socket addresses of a
				// network error (our own), nor a snake-case reason code.
				if strings.Contains(p.Message, "->") || strings.Contains(p.Message, "_") {
					t.Errorf("%s: message %q names a socket address or a code", tc.name, p.Message)
				}
			}
		}
		if !found {
			t.Errorf("%s: no mx_starttls_unreachable problem: %+v", tc.name, d.Problems)
		}
		tls := requirement(t, d, email.RequirementTLS)
		if tls.Status != email.RequirementUnknown || strings.Contains(tls.Reason, "not probed") || !strings.Contains(tls.Reason, "could be checked on 0 of 1 MX hosts") ||
			strings.Count(tls.Reason, "could") != 1 || !strings.Contains(tls.Reason, tc.reason) {
			t.Errorf("%s: tls %s: %s", tc.name, tls.Status, tls.Reason)
		}
	}
}
