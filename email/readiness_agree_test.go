package email_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// BulkSenderReadiness, called on a DomainHealth as a library user builds
// or decodes one, agrees with the domain's own findings: an enforce
// policy that names none of the MX hosts fails the tls line; a DKIM key
// that is not usable is named even when another key passes; a STARTTLS
// check that reached some hosts only says so.
func TestBulkSenderReadinessAgreesWithFindings(t *testing.T) {
	f, tr := false, true
	enforce := &mailauth.MTASTSPolicy{Version: "STSv1", Mode: "enforce", MaxAge: 604800, MX: []string{"mx.elsewhere.example"}}
	for _, tc := range []struct {
		name   string
		h      email.DomainHealth
		id     email.RequirementID
		status email.RequirementStatus
		reason string
	}{
		{"enforce policy without the MX host", email.DomainHealth{Domain: "x.test", MX: email.MX{Status: email.MXFound, Hosts: []string{"mx.x.test"}},
			MTASTS: &mailauth.MTASTS{Status: mailauth.RecordValid, Policy: enforce, MXMatch: &f, UnmatchedMX: []string{"mx.x.test"}}},
			email.RequirementTLS, email.RequirementFail, "names none of the MX hosts mx.x.test (mta_sts_mx_mismatch): senders that apply MTA-STS refuse to deliver to them"},
		// The line fails with the domain's error, and says that senders
		// still deliver to the host the policy names.
		{"enforce policy naming one MX host of two", email.DomainHealth{Domain: "x.test", MX: email.MX{Status: email.MXFound, Hosts: []string{"mx1.x.test", "mx2.x.test"}},
			MTASTS: &mailauth.MTASTS{Status: mailauth.RecordValid, Policy: enforce, MXMatch: &f, UnmatchedMX: []string{"mx2.x.test"}}},
			email.RequirementTLS, email.RequirementFail, "does not name the MX hosts mx2.x.test (mta_sts_mx_mismatch): senders that apply MTA-STS refuse to deliver to them, and deliver to the others only"},
		{"a usable key and a weak one", email.DomainHealth{Domain: "x.test", MX: email.MX{Status: email.MXFound},
			DKIM: &mailauth.DKIM{Status: mailauth.RecordValid, Keys: []mailauth.DKIMSelectorKey{
				{Selector: "google", KeyType: "rsa", Bits: 2048, Valid: true}, {Selector: "old", KeyType: "rsa", Bits: 512}}}},
			email.RequirementDKIM, email.RequirementPass, "the keys at old are not usable"},
		{"STARTTLS reached one host of two", email.DomainHealth{Domain: "x.test", MX: email.MX{Status: email.MXFound},
			MTASTS:   &mailauth.MTASTS{Status: mailauth.RecordMissing},
			MXHosts:  []email.MXHost{{Host: "mx1.x.test", STARTTLS: &tr}, {Host: "mx2.x.test"}},
			Problems: []email.Problem{{Code: "mx_starttls_unreachable", Severity: "warning", Message: "STARTTLS could not be checked on the MX host mx2.x.test: greeting or EHLO: no answer in time"}}},
			email.RequirementTLS, email.RequirementUnknown, "STARTTLS could be checked on 1 of 2 MX hosts, not on mx2.x.test: greeting or EHLO: no answer in time;"},
	} {
		r := email.BulkSenderReadiness(tc.h)
		for _, q := range r.Requirements {
			if q.ID == tc.id && (q.Status != tc.status || !strings.Contains(q.Reason, tc.reason)) {
				t.Errorf("%s: %s is %s (%s), want %s (%q)", tc.name, q.ID, q.Status, q.Reason, tc.status, tc.reason)
			}
		}
	}
}

// A record that fails DNSSEC validation past the apex questions of the
// DNSSEC check, an SPF include target or the organizational domain's
// _dmarc, makes the verdict not_ready (dnssec_bogus), and the spf or
// dmarc line says why: it does not say the lookup failed.
func TestBulkSenderReadinessBogusPastTheApex(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: `
$ORIGIN test.
$TTL 300
@          SOA ns hostmaster 1 3600 600 86400 60
x          MX 10 mail.x.test.
x          TXT "v=spf1 include:inc.x.test -all"
inc.x      TXT "v=spf1 ip4:192.0.2.10 -all"
_dmarc.x   TXT "v=DMARC1; p=reject; rua=mailto:d@x.test"
a.org      MX 10 mail.x.test.
a.org      TXT "v=spf1 ip4:192.0.2.10 -all"
_dmarc.org TXT "v=DMARC1; p=reject; rua=mailto:d@org.test"
mail.x     A 192.0.2.10
`, Bogus: []string{"inc.x.test", "_dmarc.org.test"}})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	v, err := email.New(email.Config{Resolver: r})
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.DomainHealth(context.Background(), email.DomainHealthRequest{Domains: []string{"x.test", "a.org.test"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []email.RequirementID{email.RequirementSPF, email.RequirementDMARC} {
		h := res.Results[i]
		if h.Verdict != email.VerdictNotReady {
			t.Errorf("%s: verdict %s, want not_ready; problems %+v", h.Domain, h.Verdict, h.Problems)
		}
		for _, q := range h.BulkSender.Requirements {
			if q.ID == want && (q.Status != email.RequirementFail || !strings.Contains(q.Reason, "fails DNSSEC validation (dnssec_bogus)")) {
				t.Errorf("%s: %s is %s (%s), want fail for DNSSEC", h.Domain, q.ID, q.Status, q.Reason)
			}
		}
	}
}
