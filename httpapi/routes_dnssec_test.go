package httpapi_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/internal/dnssectest"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/secret"
)

// Domain health through a real validating Unbound, over zones NSD
// serves signed by ldns-signzone: a zone whose MX and SPF records were
// changed after signing, and one whose signatures have expired, are
// DNSSEC errors (dnssec_bogus, with the resolver's Extended DNS Error)
// and verdict not_ready, not an unknown verdict made of dns_error
// problems; the correctly signed zone is validated.
func TestEmailDomainHealthDNSSECBogusRoute(t *testing.T) {
	peers := dnssectest.Start(t, dnssectest.MailZones()...)
	for _, ede := range []bool{true, false} {
		r, err := resolver.New(resolver.Config{Servers: []string{peers.Validator(t, ede)}, Timeout: 10 * time.Second, Attempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Email: verifierT(t, email.Config{Resolver: r})})
		code, env := postJSON(t, h, "/v1/email/domain/health", `{"domains":["good.example","bogus.example","expired.example"]}`)
		if code != 200 {
			t.Fatalf("status %d: %s", code, errorText(env))
		}
		var res email.DomainHealthResult
		if err := json.Unmarshal(env.Data, &res); err != nil {
			t.Fatal(err)
		}
		var raw struct{ Results []json.RawMessage }
		json.Unmarshal(env.Data, &raw)
		for i, want := range []struct {
			verdict email.Verdict
			bogus   []string // dnssec.bogus
			ede     []string // one is in each dnssec_bogus problem, with ede
		}{
			{email.VerdictReady, nil, nil},
			{email.VerdictNotReady, []string{"bogus.example MX", "bogus.example TXT"}, []string{"EDE 6 (DNSSEC Bogus)"}},
			// Unbound answers from its cache of bogus data with EDE 6.
			{email.VerdictNotReady, []string{"expired.example DNSKEY", "expired.example MX", "expired.example TXT", "_dmarc.expired.example TXT"},
				[]string{"EDE 7 (Signature Expired)", "EDE 6 (DNSSEC Bogus)"}},
		} {
			d := res.Results[i]
			if testing.Verbose() {
				var b bytes.Buffer
				json.Indent(&b, raw.Results[i], "", "  ")
				t.Logf("ede %v, %s:\n%s", ede, d.Domain, b.String())
			}
			if d.Verdict != want.verdict {
				t.Errorf("%s (ede %v): verdict %s, want %s: %+v", d.Domain, ede, d.Verdict, want.verdict, d.Problems)
			}
			if d.DNSSEC == nil || !d.DNSSEC.Signed || d.DNSSEC.Validated != (want.bogus == nil) {
				t.Errorf("%s (ede %v): dnssec %+v, want signed, validated %v", d.Domain, ede, d.DNSSEC, want.bogus == nil)
				continue
			}
			for _, q := range want.bogus {
				if !strings.Contains(strings.Join(d.DNSSEC.Bogus, ","), q) {
					t.Errorf("%s (ede %v): dnssec.bogus %q lacks %q", d.Domain, ede, d.DNSSEC.Bogus, q)
				}
			}
			bogus := 0
			for _, p := range d.Problems {
				switch {
				case p.Code == "dns_error" || p.Code == "mx_dns_error":
					t.Errorf("%s (ede %v): a DNSSEC failure reported as %s: %s", d.Domain, ede, p.Code, p.Message)
				case p.Code == "dnssec_bogus":
					bogus++
					if p.Severity != "error" || ede && !slices.ContainsFunc(want.ede, func(e string) bool { return strings.Contains(p.Message, e) }) {
						t.Errorf("%s (ede %v): %+v, want an error naming %s", d.Domain, ede, p, want.ede)
					}
				}
			}
			if (bogus > 0) != (want.bogus != nil) {
				t.Errorf("%s (ede %v): %d dnssec_bogus problems: %+v", d.Domain, ede, bogus, d.Problems)
			}
		}
		// The bulk-sender lines of what cannot be read are failures, as
		// for validating receivers: SPF and DMARC of the expired zone
		// (and so DMARC alignment), SPF of the tampered one (its DMARC
		// record validates).
		for i, fails := range []map[email.RequirementID]string{
			{},
			{email.RequirementSPF: "DNSSEC"},
			{email.RequirementSPF: "DNSSEC", email.RequirementDMARC: "DNSSEC", email.RequirementDMARCAlignment: "no valid DMARC policy"},
		} {
			d := res.Results[i]
			for _, q := range d.BulkSender.Requirements {
				reason, fail := fails[q.ID]
				if (q.Status == email.RequirementFail) != fail || !strings.Contains(q.Reason, reason) {
					t.Errorf("%s (ede %v): %s is %s (%s); want fail %v for %q", d.Domain, ede, q.ID, q.Status, q.Reason, fail, reason)
				}
			}
		}
	}
}
