package email_test

import (
	"strings"
	"testing"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/mailauth"
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
			MTASTS: &email.MTASTS{Status: email.RecordValid, Policy: enforce, MXMatch: &f, UnmatchedMX: []string{"mx.x.test"}}},
			email.RequirementTLS, email.RequirementFail, "refuse to deliver to them"},
		{"a usable key and a weak one", email.DomainHealth{Domain: "x.test", MX: email.MX{Status: email.MXFound},
			DKIM: &email.DKIM{Status: email.RecordValid, Keys: []email.DKIMSelectorKey{
				{Selector: "google", KeyType: "rsa", Bits: 2048, Valid: true}, {Selector: "old", KeyType: "rsa", Bits: 512}}}},
			email.RequirementDKIM, email.RequirementPass, "the keys at old are not usable"},
		{"STARTTLS reached one host of two", email.DomainHealth{Domain: "x.test", MX: email.MX{Status: email.MXFound},
			MTASTS:   &email.MTASTS{Status: email.RecordMissing},
			MXHosts:  []email.MXHost{{Host: "mx1.x.test", STARTTLS: &tr}, {Host: "mx2.x.test"}},
			Problems: []email.Problem{{Code: "mx_starttls_unreachable", Severity: "warning", Message: "STARTTLS could not be checked on the MX host mx2.x.test: timeout"}}},
			email.RequirementTLS, email.RequirementUnknown, "STARTTLS could be checked on 1 of 2 MX hosts: STARTTLS could not be checked on the MX host mx2.x.test: timeout"},
	} {
		r := email.BulkSenderReadiness(tc.h)
		for _, q := range r.Requirements {
			if q.ID == tc.id && (q.Status != tc.status || !strings.Contains(q.Reason, tc.reason)) {
				t.Errorf("%s: %s is %s (%s), want %s (%q)", tc.name, q.ID, q.Status, q.Reason, tc.status, tc.reason)
			}
		}
	}
}
