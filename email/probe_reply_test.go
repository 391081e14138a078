package email

import (
	"context"
	"errors"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// scripted is a go-smtp server on loopback whose replies a test sets:
// a testutil.ProbeCase without a banner.
type scripted struct {
	known []string
	other *gosmtp.SMTPError
	srv   *testutil.SMTPServer
}

func (s *scripted) serve(t testing.TB) int {
	port, srv := testutil.ProbeCase{Known: s.known, Other: s.other}.Start(t)
	s.srv = srv
	return port
}

// Each class of reply, through Validate with the probe on: the probe's
// outcome, the verdict (ReachabilityOf and the result's fields) and the
// result's CSV row.
func TestProbeReadsReplies(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	for _, pc := range testutil.ProbeCases() {
		t.Run(pc.Name, func(t *testing.T) {
			port, srv := pc.Start(t)
			o := SMTPOptions{Port: port, HeloName: "probe.quiver.test", MailFrom: "verify@quiver.test", AllowPrivateAddresses: true}
			v := &Verifier{cfg: Config{Resolver: r, SMTP: o}}
			res := v.Validate(context.Background(), pc.Addr, Checks{SMTP: true})
			p := res.SMTP
			if p == nil {
				t.Fatal("no SMTP result")
			}
			if string(p.Status) != pc.Status || string(p.Reason) != pc.Reason || p.Code != pc.Code || p.MailboxFull != pc.MailboxFull || p.Disabled != pc.Disabled {
				t.Errorf("smtp = %+v; want status %s, reason %q, code %d, mailbox_full %v, disabled %v", *p, pc.Status, pc.Reason, pc.Code, pc.MailboxFull, pc.Disabled)
			}
			if srv != nil && pc.Rcpts >= 0 {
				if got := srv.Recipients(); len(got) != pc.Rcpts {
					t.Errorf("the server was asked %d recipients %q, want %d", len(got), got, pc.Rcpts)
				}
			}
			if res.SMTPVerified != (pc.Status == string(SMTPVerified)) || !res.IsValid {
				t.Errorf("smtp_verified %v, is_valid %v", res.SMTPVerified, res.IsValid)
			}
			reach, why := ReachabilityOf(&res)
			if string(reach) != pc.Reach || why == nil || joinReasons(why) != strings.Join(pc.Why, ";") {
				t.Errorf("ReachabilityOf = %s %q; want %s %q", reach, why, pc.Reach, pc.Why)
			}
			if res.Reachability != reach || !slices.Equal(res.ReachabilityReasons, why) {
				t.Errorf("result fields %s %q; ReachabilityOf %s %q", res.Reachability, res.ReachabilityReasons, reach, why)
			}
			// The CSV row of the result ends with the verdict.
			row := AppendCSVResult(nil, &res.Result)
			if got, want := row[len(row)-2:], []string{pc.Reach, strings.Join(pc.Why, ";")}; !slices.Equal(got, want) {
				t.Errorf("CSV columns %q, want %q", got, want)
			}
		})
	}
}

// providerZone names MX hosts after the providers: every host is the
// loopback SMTP server.
const providerZone = `
$ORIGIN test.
$TTL 300
@              SOA ns hostmaster 1 3600 600 86400 60
yahoo          MX 1 mta5.am0.yahoodns.net.
hotmail        MX 1 hotmail-test.olc.protection.outlook.com.
tenant         MX 0 tenant-test.mail.protection.outlook.com.
workspace      MX 1 smtp.google.com.
$ORIGIN com.
gmail          MX 5 gmail-smtp-in.l.google.com.
$ORIGIN net.
mta5.am0.yahoodns A 127.0.0.1
$ORIGIN com.
hotmail-test.olc.protection.outlook A 127.0.0.1
tenant-test.mail.protection.outlook A 127.0.0.1
smtp.google A 127.0.0.1
gmail-smtp-in.l.google A 127.0.0.1
`

func providerFixture(t testing.TB) *resolver.Resolver {
	t.Helper()
	srv := resolvertest.Start(t, resolvertest.Config{Zone: providerZone})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: time.Second, Attempts: 2})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The provider decides what a 250 proves and whether the catch-all test
// runs.
func TestProbeProviders(t *testing.T) {
	r := providerFixture(t)
	noUser := testutil.Reply(550, []int{5, 1, 1}, "The email account that you tried to reach does not exist.")
	for _, tt := range []struct {
		name, addr string
		box        *scripted
		provider   Provider
		status     SMTPStatus
		reason     SMTPReason
		rcpts      int
		reach      Reachability
		why        []ReachabilityReason
	}{
		{"yahoo accepts: no proof, no catch-all test", "ana@yahoo.test", &scripted{}, ProviderYahoo,
			SMTPUnknown, SMTPProviderUnverifiable, 1, ReachabilityRisky, []ReachabilityReason{ReachProviderUnverifiable}},
		{"yahoo rejects: still a rejection", "bob@yahoo.test", &scripted{other: noUser}, ProviderYahoo,
			SMTPRejected, "", 1, ReachabilityInvalid, []ReachabilityReason{ReachMailboxNotFound}},
		{"outlook.com accepts", "ana@hotmail.test", &scripted{}, ProviderOutlookConsumer,
			SMTPUnknown, SMTPProviderUnverifiable, 1, ReachabilityRisky, []ReachabilityReason{ReachProviderUnverifiable}},
		{"microsoft 365 catch-all tenant", "ana@tenant.test", &scripted{}, ProviderMicrosoft365,
			SMTPCatchAll, "", 2, ReachabilityRisky, []ReachabilityReason{ReachCatchAll}},
		{"microsoft 365 verified", "ana@tenant.test", &scripted{known: []string{"ana@tenant.test"}, other: noUser}, ProviderMicrosoft365,
			SMTPVerified, "", 2, ReachabilitySafe, []ReachabilityReason{}},
		{"gmail.com: no catch-all, no test", "ana@gmail.com", &scripted{known: []string{"ana@gmail.com"}, other: noUser}, ProviderGoogle,
			SMTPVerified, "", 1, ReachabilitySafe, []ReachabilityReason{}},
		{"google workspace: tested", "ana@workspace.test", &scripted{}, ProviderGoogle,
			SMTPCatchAll, "", 2, ReachabilityRisky, []ReachabilityReason{ReachCatchAll}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := SMTPOptions{Port: tt.box.serve(t), AllowPrivateAddresses: true, HostInterval: -1}
			v := &Verifier{cfg: Config{Resolver: r, SMTP: o}}
			res := v.Validate(context.Background(), tt.addr, Checks{SMTP: true})
			p := res.SMTP
			if p == nil || p.Status != tt.status || p.Reason != tt.reason {
				t.Fatalf("smtp = %+v; want %s/%s", p, tt.status, tt.reason)
			}
			if got := tt.box.srv.Recipients(); len(got) != tt.rcpts {
				t.Errorf("RCPT TO %q; want %d recipients", got, tt.rcpts)
			}
			if res.SMTPVerified != (tt.status == SMTPVerified) {
				t.Errorf("smtp_verified %v", res.SMTPVerified)
			}
			if reach, why := ReachabilityOf(&res); reach != tt.reach || !slices.Equal(why, tt.why) {
				t.Errorf("ReachabilityOf = %s %q; want %s %q", reach, why, tt.reach, tt.why)
			}
			if res.MX == nil || ProviderOf(res.MX.Hosts[0]) != tt.provider {
				t.Errorf("MX %+v, want a host of %s", res.MX, tt.provider)
			}
		})
	}
}

func TestProviderOf(t *testing.T) {
	for host, want := range map[string]Provider{
		"smtp.google.com":                         ProviderGoogle,
		"ASPMX.L.GOOGLE.COM.":                     ProviderGoogle,
		"aspmx2.googlemail.com":                   ProviderGoogle,
		"contoso-com.mail.protection.outlook.com": ProviderMicrosoft365,
		"contoso-com.o-v1.mx.microsoft":           ProviderMicrosoft365,
		"outlook-com.olc.protection.outlook.com.": ProviderOutlookConsumer,
		"eur.olc.protection.outlook.com":          ProviderOutlookConsumer,
		"mta5.am0.yahoodns.net":                   ProviderYahoo,
		"mx-aol.mail.gm0.yahoodns.net":            ProviderYahoo,
		"mx0a-00000000.pphosted.com":              ProviderProofpoint,
		"mx1-us1.ppe-hosted.com":                  ProviderProofpoint,
		"us-smtp-inbound-1.mimecast.com":          ProviderMimecast,
		"mail.example.com":                        ProviderOther,
		"google.com.example.net":                  ProviderOther,
		"notgoogle.com":                           ProviderOther,
		"protection.outlook.com":                  ProviderOther,
		"":                                        ProviderOther,
	} {
		if got := ProviderOf(host); got != want {
			t.Errorf("ProviderOf(%q) = %s, want %s", host, got, want)
		}
	}
}

// staleZone has domains whose best MX host cannot be used: one without
// an address, one on a private address. The next host is the mail server.
const staleZone = `
$ORIGIN test.
$TTL 300
@              SOA ns hostmaster 1 3600 600 86400 60
stale          MX 10 gone.stale.test.
stale          MX 20 mta5.am0.yahoodns.net.
private        MX 10 mx1.private.test.
private        MX 20 mx2.private.test.
mx1.private    A 10.0.0.1
mx2.private    A 1.2.3.4
$ORIGIN net.
mta5.am0.yahoodns A 127.0.0.1
`

// The probe goes on to the next MX host when one has no address or a
// forbidden one, and mailbox_provider names the host that answered,
// whose provider's trust rules read the answer.
func TestProbeSkipsUnusableMXHosts(t *testing.T) {
	dns := resolvertest.Start(t, resolvertest.Config{Zone: staleZone})
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	port, _ := testutil.ProbeCase{Known: []string{"ana@stale.test", "ana@private.test"}, Other: testutil.Reply(550, []int{5, 1, 1}, "User unknown")}.Start(t)

	// A stale MX: gone.stale.test has no address.
	v := &Verifier{cfg: Config{Resolver: r, SMTP: SMTPOptions{Port: port, AllowPrivateAddresses: true}}}
	res := v.Validate(context.Background(), "ana@stale.test", Checks{SMTP: true})
	if p := res.SMTP; p == nil || p.Host != "mta5.am0.yahoodns.net" || p.Reason != SMTPProviderUnverifiable || res.MailboxProvider != ProviderYahoo {
		t.Errorf("stale MX: smtp %+v, mailbox_provider %q; want the Yahoo host, provider_unverifiable, yahoo", p, res.MailboxProvider)
	}

	// A private address: mx1 is not contacted; mx2's public address is
	// dialed, here on loopback.
	var dialed []string
	v = &Verifier{cfg: Config{Resolver: r, SMTP: SMTPOptions{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialed = append(dialed, addr)
		if addr != "1.2.3.4:25" {
			return nil, errors.New("unexpected address")
		}
		return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+strconv.Itoa(port))
	}}}}
	res = v.Validate(context.Background(), "ana@private.test", Checks{SMTP: true})
	if p := res.SMTP; p == nil || p.Host != "mx2.private.test" || p.Status != SMTPVerified || len(dialed) != 1 {
		t.Errorf("private MX: smtp %+v, dialed %q; want mx2.private.test verified, one dial", p, dialed)
	}
}
