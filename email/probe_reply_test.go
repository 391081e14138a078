package email

import (
	"context"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/resolver"
)

// scripted is a go-smtp server on loopback whose replies a test sets: at
// EHLO (the session's start), at MAIL FROM, and per recipient.
type scripted struct {
	ehlo  *gosmtp.SMTPError
	mail  *gosmtp.SMTPError
	known map[string]bool              // recipients accepted
	rcpt  map[string]*gosmtp.SMTPError // replies to given recipients
	other *gosmtp.SMTPError            // to other recipients; nil accepts them (catch-all)

	mu    sync.Mutex
	rcpts []string
}

func (s *scripted) NewSession(*gosmtp.Conn) (gosmtp.Session, error) {
	if s.ehlo != nil {
		return nil, s.ehlo
	}
	return &scriptedSession{s}, nil
}

// recipients returns the RCPT TO addresses the server was asked, in order.
func (s *scripted) recipients() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.rcpts...)
}

type scriptedSession struct{ s *scripted }

func (x *scriptedSession) Reset()        {}
func (x *scriptedSession) Logout() error { return nil }
func (x *scriptedSession) Data(io.Reader) error {
	return &gosmtp.SMTPError{Code: 554, Message: "no data expected"}
}

func (x *scriptedSession) Mail(string, *gosmtp.MailOptions) error {
	if x.s.mail != nil {
		return x.s.mail
	}
	return nil
}

func (x *scriptedSession) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	x.s.mu.Lock()
	x.s.rcpts = append(x.s.rcpts, to)
	x.s.mu.Unlock()
	to = strings.ToLower(to)
	if x.s.known[to] {
		return nil
	}
	if e, ok := x.s.rcpt[to]; ok {
		return e
	}
	if x.s.other != nil {
		return x.s.other
	}
	return nil
}

// serve starts s on a loopback port and returns the port.
func (s *scripted) serve(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := gosmtp.NewServer(s)
	srv.Domain = "mx.test"
	srv.ReadTimeout, srv.WriteTimeout = 5*time.Second, 5*time.Second
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

// smtpErr is a reply of the scripted server; enhanced nil sends none.
func smtpErr(code int, enhanced []int, msg string) *gosmtp.SMTPError {
	e := &gosmtp.SMTPError{Code: code, EnhancedCode: gosmtp.NoEnhancedCode, Message: msg}
	if enhanced != nil {
		e.EnhancedCode = gosmtp.EnhancedCode{enhanced[0], enhanced[1], enhanced[2]}
	}
	return e
}

// probeCase is one class of reply and what the probe makes of it.
type probeCase struct {
	name   string
	box    *scripted // nil: greeting answers the banner
	banner string
	addr   string
	status string
	reason string
	code   int
	full   bool
	off    bool // disabled
	// rcpts is how many RCPT TO the server must see (-1: any).
	rcpts int
	// reach and why are the verdict and its reasons.
	reach Reachability
	why   []ReachabilityReason
}

// probeCases cover every class of reply at each step: blocklists at the
// greeting, EHLO, MAIL FROM and RCPT; full and disabled mailboxes with and
// without enhanced codes; catch-all; the sender's other faults.
func probeCases() []probeCase {
	known := map[string]bool{"ana@mx.test": true}
	noUser := smtpErr(550, []int{5, 1, 1}, "<x@mx.test>: Recipient address rejected: User unknown in local recipient table")
	return []probeCase{
		{name: "verified", box: &scripted{known: known, other: noUser}, addr: "ana@mx.test",
			status: SMTPVerified, code: 250, rcpts: 2, reach: ReachabilitySafe, why: []ReachabilityReason{}},
		{name: "no such user", box: &scripted{known: known, other: noUser}, addr: "bob@mx.test",
			status: SMTPRejected, code: 550, rcpts: 1, reach: ReachabilityInvalid, why: []ReachabilityReason{ReachMailboxNotFound}},
		{name: "no such user, no enhanced code", box: &scripted{other: smtpErr(550, nil, "<bob@mx.test>... User unknown")}, addr: "bob@mx.test",
			status: SMTPRejected, code: 550, rcpts: 1, reach: ReachabilityInvalid, why: []ReachabilityReason{ReachMailboxNotFound}},
		{name: "catch-all", box: &scripted{}, addr: "bob@mx.test",
			status: SMTPCatchAll, code: 250, rcpts: 2, reach: ReachabilityRisky, why: []ReachabilityReason{ReachCatchAll}},

		{name: "blocklist at RCPT", box: &scripted{other: smtpErr(554, []int{5, 7, 1}, "Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPBlocked, code: 554, rcpts: 1,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "blocklist at RCPT, no enhanced code", box: &scripted{other: smtpErr(554, nil, "Service unavailable; Client host [127.0.0.1] blocked using bl.spamcop.net")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPBlocked, code: 554, rcpts: 1,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "reputation at RCPT with a 5.1.1 code", box: &scripted{other: smtpErr(550, []int{5, 1, 1}, "Mail from 127.0.0.1 refused: poor reputation sender")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPBlocked, code: 550, rcpts: 1,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "administratively denied at RCPT", box: &scripted{other: smtpErr(553, nil, "sorry, mail from your location [127.0.0.1] is administratively denied (#5.7.1)")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPBlocked, code: 553, rcpts: 1,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "blocklist at MAIL FROM", box: &scripted{mail: smtpErr(550, []int{5, 7, 1}, "Mail from 127.0.0.1 refused, listed at dnsbl.example.org")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPBlocked, code: 550, rcpts: 0,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "blocklist at EHLO", box: &scripted{ehlo: smtpErr(554, []int{5, 7, 1}, "Unfortunately, messages from 127.0.0.1 weren't sent: part of their network is on our block list")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPBlocked, code: 554, rcpts: 0,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "blocklist at the greeting", banner: "554 5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org\r\n",
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPBlocked, code: 554, rcpts: -1,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "rate limit at the greeting", banner: "421 4.7.0 mx.test Error: too many connections from 127.0.0.1\r\n",
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPRateLimited, code: 421, rcpts: -1,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "reverse DNS at RCPT", box: &scripted{other: smtpErr(450, []int{4, 7, 25}, "Client host rejected: cannot find your hostname, [127.0.0.1]")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPNeedsReverseDNS, code: 450, rcpts: 1,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "relay denied at RCPT", box: &scripted{other: smtpErr(554, []int{5, 7, 1}, "<ana@mx.test>: Relay access denied")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPRelayDenied, code: 554, rcpts: 1,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "sender domain at MAIL FROM", box: &scripted{mail: smtpErr(553, []int{5, 1, 8}, "<verify@quiver.test>: Sender address rejected: Domain not found")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPSenderRejected, code: 553, rcpts: 0,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "greylisted", box: &scripted{other: smtpErr(450, []int{4, 2, 0}, "<ana@mx.test>: Recipient address rejected: Greylisted")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPGreylisted, code: 450, rcpts: 1,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "unclassified refusal", box: &scripted{other: smtpErr(550, nil, "Rejected")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPUnclassified, code: 550, rcpts: 1,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},
		{name: "random recipient refused for rate", box: &scripted{known: known, other: smtpErr(550, []int{5, 7, 1}, "Rate limit exceeded, try later")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPRateLimited, code: 250, rcpts: 2,
			reach: ReachabilityUnknown, why: []ReachabilityReason{ReachProbeUndecided}},

		{name: "full, enhanced code", box: &scripted{other: smtpErr(552, []int{5, 2, 2}, "Mailbox full")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPMailboxFull, code: 552, full: true, rcpts: 1,
			reach: ReachabilityRisky, why: []ReachabilityReason{ReachMailboxFull}},
		{name: "full, temporary", box: &scripted{other: smtpErr(452, []int{4, 2, 2}, "The email account that you tried to reach is over quota.")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPMailboxFull, code: 452, full: true, rcpts: 1,
			reach: ReachabilityRisky, why: []ReachabilityReason{ReachMailboxFull}},
		{name: "full, no enhanced code", box: &scripted{other: smtpErr(552, nil, "Requested mail action aborted: exceeded storage allocation")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPMailboxFull, code: 552, full: true, rcpts: 1,
			reach: ReachabilityRisky, why: []ReachabilityReason{ReachMailboxFull}},
		{name: "full, too many messages", box: &scripted{other: smtpErr(550, nil, "user has too many messages on the server")},
			addr: "ana@mx.test", status: SMTPUnknown, reason: SMTPMailboxFull, code: 550, full: true, rcpts: 1,
			reach: ReachabilityRisky, why: []ReachabilityReason{ReachMailboxFull}},
		{name: "disabled, enhanced code", box: &scripted{other: smtpErr(550, []int{5, 2, 1}, "The email account that you tried to reach is disabled.")},
			addr: "ana@mx.test", status: SMTPRejected, code: 550, off: true, rcpts: 1,
			reach: ReachabilityInvalid, why: []ReachabilityReason{ReachMailboxDisabled}},
		{name: "disabled, no enhanced code", box: &scripted{other: smtpErr(554, nil, "delivery error: dd This account has been disabled or discontinued")},
			addr: "ana@mx.test", status: SMTPRejected, code: 554, off: true, rcpts: 1,
			reach: ReachabilityInvalid, why: []ReachabilityReason{ReachMailboxDisabled}},
	}
}

// start serves a probe case on loopback and returns its port.
func (pc probeCase) start(t *testing.T) int {
	if pc.box == nil {
		return banner(t, pc.banner)
	}
	return pc.box.serve(t)
}

// checkProbe compares a probe outcome with the case.
func (pc probeCase) checkProbe(t *testing.T, p *SMTPResult) {
	t.Helper()
	if p == nil {
		t.Fatal("no SMTP result")
	}
	if p.Status != pc.status || p.Reason != pc.reason || p.Code != pc.code || p.MailboxFull != pc.full || p.Disabled != pc.off {
		t.Errorf("smtp = %+v; want status %s, reason %q, code %d, mailbox_full %v, disabled %v", *p, pc.status, pc.reason, pc.code, pc.full, pc.off)
	}
	if pc.box != nil && pc.rcpts >= 0 {
		if got := pc.box.recipients(); len(got) != pc.rcpts {
			t.Errorf("the server was asked %d recipients %q, want %d", len(got), got, pc.rcpts)
		}
	}
}

// checkVerdict compares the verdict on a validation with the case.
func (pc probeCase) checkVerdict(t *testing.T, v *Validation) {
	t.Helper()
	reach, why := ReachabilityOf(v)
	if reach != pc.reach || !slices.Equal(why, pc.why) || why == nil {
		t.Errorf("ReachabilityOf = %s %q; want %s %q", reach, why, pc.reach, pc.why)
	}
	if v.Reachability != pc.reach || !slices.Equal(v.ReachabilityReasons, pc.why) {
		t.Errorf("result fields %s %q; want %s %q", v.Reachability, v.ReachabilityReasons, pc.reach, pc.why)
	}
	// The CSV row of the result ends with the verdict.
	row := AppendCSVResult(nil, &v.Result)
	if got, want := row[len(row)-2:], []string{string(pc.reach), joinReasons(pc.why)}; !slices.Equal(got, want) {
		t.Errorf("CSV columns %q, want %q", got, want)
	}
}

// Each class of reply, through Validate with the probe on.
func TestProbeReadsReplies(t *testing.T) {
	_, r := fixture(t)
	for _, pc := range probeCases() {
		t.Run(pc.name, func(t *testing.T) {
			o := SMTPOptions{Port: pc.start(t), HeloName: "probe.quiver.test", MailFrom: "verify@quiver.test", AllowPrivateAddresses: true}
			v := &Verifier{cfg: Config{Resolver: r, SMTP: o}}
			res := v.Validate(context.Background(), pc.addr, Checks{SMTP: true})
			pc.checkProbe(t, res.SMTP)
			if res.SMTPVerified != (pc.status == SMTPVerified) || !res.IsValid {
				t.Errorf("smtp_verified %v, is_valid %v", res.SMTPVerified, res.IsValid)
			}
			pc.checkVerdict(t, &res)
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
	srv := testutil.DNSServer(t, providerZone)
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
	noUser := smtpErr(550, []int{5, 1, 1}, "The email account that you tried to reach does not exist.")
	for _, tt := range []struct {
		name, addr string
		box        *scripted
		provider   Provider
		status     string
		reason     string
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
		{"microsoft 365 verified", "ana@tenant.test", &scripted{known: map[string]bool{"ana@tenant.test": true}, other: noUser}, ProviderMicrosoft365,
			SMTPVerified, "", 2, ReachabilitySafe, []ReachabilityReason{}},
		{"gmail.com: no catch-all, no test", "ana@gmail.com", &scripted{known: map[string]bool{"ana@gmail.com": true}, other: noUser}, ProviderGoogle,
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
			if got := tt.box.recipients(); len(got) != tt.rcpts {
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
