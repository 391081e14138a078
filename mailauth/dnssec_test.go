package mailauth_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/dnssectest"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
)

// CheckDNSSEC through a real validating Unbound: a signed zone whose MX
// and SPF records were changed after signing, or whose signatures have
// expired, is not validated, lists the records that fail validation, and
// has a dnssec_bogus error for each; the correctly signed zone is
// validated.
func TestCheckDNSSECBogusFromUnbound(t *testing.T) {
	peers := dnssectest.Start(t, dnssectest.MailZones()...)
	r, err := resolver.New(resolver.Config{Servers: []string{peers.Validator(t, true)}, Timeout: 10 * time.Second, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		domain string
		bogus  []string
	}{
		{"good.example", []string{}},
		{"bogus.example", []string{"bogus.example MX", "bogus.example TXT"}},
		{"expired.example", []string{"expired.example DNSKEY", "expired.example MX", "expired.example TXT", "_dmarc.expired.example TXT"}},
	} {
		d, err := mailauth.CheckDNSSEC(context.Background(), r, tc.domain)
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, p := range d.Problems {
			codes = append(codes, string(p.Severity)+":"+string(p.Code))
		}
		if !d.Signed || d.Validated != (len(tc.bogus) == 0) || !slices.Equal(d.Bogus, tc.bogus) ||
			!slices.Equal(codes, slices.Repeat([]string{"error:dnssec_bogus"}, len(tc.bogus))) {
			t.Errorf("%s: %+v; want signed, validated %v, bogus %q, one dnssec_bogus each", tc.domain, d, len(tc.bogus) == 0, tc.bogus)
		}
	}
}
