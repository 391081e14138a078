package email

import (
	"strings"
	"testing"

	"github.com/quiverkit/quiver/mailauth"
)

// BulkSenderReadiness on results built by hand, for the cases the
// loopback zones do not reach.
func TestBulkSenderReadinessLines(t *testing.T) {
	dmarc := mailauth.ParseDMARC("v=DMARC1; p=none; rua=mailto:d@x.test")
	dmarc.Domain = "x.test"
	validSPF := &mailauth.SPF{All: "-all", Errors: []string{}}
	plusAll := &mailauth.SPF{All: "+all", Errors: []string{}}
	tests := []struct {
		name  string
		h     DomainHealth
		lines string
		want  string // part of a reason
	}{
		{"timeout", DomainHealth{MX: MX{Status: MXTimeout}}, "uuuuuu", "did not answer"},
		{"nxdomain", DomainHealth{MX: MX{Status: MXNXDomain}}, "ffffff", "does not exist"},
		{"plus all", DomainHealth{MX: MX{Status: MXFound}, SPF: plusAll, DMARC: dmarc, DKIM: &mailauth.DKIM{Status: mailauth.RecordMissing}, MTASTS: &mailauth.MTASTS{Status: mailauth.RecordMissing}}, "fupuuu", "+all"},
		{"nothing of its own to align", DomainHealth{MX: MX{Status: MXFound}, DMARC: dmarc, DKIM: &mailauth.DKIM{Status: mailauth.RecordMissing}, MTASTS: &mailauth.MTASTS{Status: mailauth.RecordMissing}, Problems: []Problem{{Code: "spf_missing"}}}, "fupuuu", "subdomain"},
		{"dns failures", DomainHealth{MX: MX{Status: MXFound}, DKIM: &mailauth.DKIM{Status: mailauth.RecordError, Error: "SERVFAIL"}, MTASTS: &mailauth.MTASTS{Status: mailauth.RecordError}, Problems: []Problem{{Code: "dns_error"}}}, "uuuuuu", "SERVFAIL"},
		{"fcrdns and starttls", DomainHealth{MX: MX{Status: MXFound}, SPF: validSPF, DMARC: dmarc, DKIM: &mailauth.DKIM{Status: mailauth.RecordMissing}, MTASTS: &mailauth.MTASTS{Status: mailauth.RecordMissing},
			MXHosts: []MXHost{{Host: "mx1.x.test", Addresses: []MXAddress{{IP: "192.0.2.1", FCrDNS: true}}, STARTTLS: new(true)}, {Host: "mx2.x.test", Addresses: []MXAddress{{IP: "192.0.2.2", FCrDNS: true}}, STARTTLS: new(true)}}}, "pupppp", "every MX host offers STARTTLS"},
		{"no fcrdns, no starttls", DomainHealth{MX: MX{Status: MXFound}, SPF: validSPF, DMARC: dmarc, DKIM: &mailauth.DKIM{Status: mailauth.RecordMissing}, MTASTS: &mailauth.MTASTS{Status: mailauth.RecordMissing},
			MXHosts: []MXHost{{Host: "mx1.x.test", Addresses: []MXAddress{{IP: "192.0.2.1"}, {IP: "2001:db8::1", FCrDNS: true}}, STARTTLS: new(false)}}}, "puppff", "1 of 2 MX host addresses lack"},
		{"mta-sts none", DomainHealth{MX: MX{Status: MXFound}, SPF: validSPF, DMARC: dmarc, DKIM: &mailauth.DKIM{Status: mailauth.RecordMissing}, MTASTS: &mailauth.MTASTS{Status: mailauth.RecordValid, Policy: &mailauth.MTASTSPolicy{Mode: "none"}}}, "puppuu", "adkim=r"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := BulkSenderReadiness(tt.h)
			var lines strings.Builder
			var reasons []string
			for _, q := range r.Requirements {
				lines.WriteByte(q.Status[0])
				reasons = append(reasons, q.Reason)
			}
			if lines.String() != tt.lines || !strings.Contains(strings.Join(reasons, "|"), tt.want) {
				t.Errorf("lines %s, reasons %q; want %s and %q", lines.String(), reasons, tt.lines, tt.want)
			}
			want := VerdictUnknown
			if strings.Contains(tt.lines, "f") {
				want = VerdictNotReady
			}
			if r.Verdict != want || len(r.NotShown) == 0 {
				t.Errorf("verdict %s, %d not shown", r.Verdict, len(r.NotShown))
			}
		})
	}
}
