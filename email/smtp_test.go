package email

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"
	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// mailbox is the behaviour of a loopback SMTP server.
type mailbox struct {
	known    map[string]bool // accepted recipients; others get 550 5.1.1
	catchAll bool            // accept every recipient
	greylist bool            // 451 for every recipient
	blockAll bool            // 554 at MAIL FROM
	smtputf8 bool            // advertise SMTPUTF8 (RFC 6531)

	mu   sync.Mutex
	log  []string // commands seen, in order
	helo []string
}

func (m *mailbox) record(s string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.log = append(m.log, s)
}

func (m *mailbox) NewSession(c *gosmtp.Conn) (gosmtp.Session, error) {
	m.mu.Lock()
	m.helo = append(m.helo, c.Hostname())
	m.mu.Unlock()
	return &session{m}, nil
}

type session struct{ m *mailbox }

func (s *session) Reset()        { s.m.record("RSET") }
func (s *session) Logout() error { return nil }
func (s *session) Data(r io.Reader) error {
	return &gosmtp.SMTPError{Code: 554, Message: "no data expected"}
}

func (s *session) Mail(from string, _ *gosmtp.MailOptions) error {
	s.m.record("MAIL " + from)
	if s.m.blockAll {
		return &gosmtp.SMTPError{Code: 554, EnhancedCode: gosmtp.EnhancedCode{5, 7, 1}, Message: "your IP is on a blocklist"}
	}
	return nil
}

func (s *session) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	s.m.record("RCPT " + to)
	switch {
	case s.m.greylist:
		return &gosmtp.SMTPError{Code: 451, EnhancedCode: gosmtp.EnhancedCode{4, 7, 1}, Message: "greylisted, try again later"}
	case s.m.catchAll || s.m.known[strings.ToLower(to)]:
		return nil
	}
	return &gosmtp.SMTPError{Code: 550, EnhancedCode: gosmtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
}

// smtpServer serves m on a loopback port and returns the port.
func smtpServer(t *testing.T, m *mailbox) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := gosmtp.NewServer(m)
	s.Domain = "mx.test"
	s.EnableSMTPUTF8 = m.smtputf8
	s.ReadTimeout, s.WriteTimeout = 5*time.Second, 5*time.Second
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

func TestSMTPProbe(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	known := map[string]bool{"alice@mx.test": true}
	tests := []struct {
		name     string
		box      *mailbox
		addr     string
		opts     SMTPOptions
		status   SMTPStatus
		reason   SMTPReason
		verified bool
		catchAll *bool
		code     int
	}{
		{name: "accept", box: &mailbox{known: known}, addr: "Alice@mx.test", status: SMTPVerified, verified: true, catchAll: new(false), code: 250},
		{name: "reject", box: &mailbox{known: known}, addr: "bob@mx.test", status: SMTPRejected, code: 550},
		{name: "catch-all", box: &mailbox{catchAll: true}, addr: "bob@mx.test", status: SMTPCatchAll, catchAll: new(true), code: 250},
		{name: "catch-all check off", box: &mailbox{known: known}, addr: "alice@mx.test", opts: SMTPOptions{SkipCatchAll: true}, status: SMTPUnknown, reason: SMTPNoCatchAllCheck, code: 250},
		{name: "greylist", box: &mailbox{greylist: true}, addr: "alice@mx.test", status: SMTPUnknown, reason: SMTPGreylisted, code: 451},
		{name: "blocked", box: &mailbox{blockAll: true}, addr: "alice@mx.test", status: SMTPUnknown, reason: SMTPBlocked, code: 554},
		{name: "UTF-8 mailbox, SMTPUTF8 offered", box: &mailbox{known: map[string]bool{"用户@mx.test": true}, smtputf8: true}, addr: "用户@mx.test", status: SMTPVerified, verified: true, catchAll: new(false), code: 250},
		// RFC 6531 section 3.2: a UTF-8 address is not sent to a server
		// without SMTPUTF8, and its refusal would say nothing of the mailbox.
		{name: "UTF-8 mailbox, no SMTPUTF8", box: &mailbox{known: map[string]bool{"用户@mx.test": true}}, addr: "用户@mx.test", status: SMTPUnknown, reason: SMTPUTF8Unsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.opts
			o.Port, o.HeloName, o.MailFrom, o.AllowPrivateAddresses = smtpServer(t, tt.box), "probe.quiver.test", "verify@quiver.test", true
			v := &Verifier{cfg: Config{Resolver: r, SMTP: o}}
			res := v.Validate(context.Background(), tt.addr, Checks{SMTP: true})
			p := res.SMTP
			if p == nil {
				t.Fatal("no SMTP result")
			}
			if p.Status != tt.status || p.Reason != tt.reason || res.SMTPVerified != tt.verified || p.Code != tt.code {
				t.Errorf("got %+v smtp_verified %v; want %s/%s verified %v code %d", *p, res.SMTPVerified, tt.status, tt.reason, tt.verified, tt.code)
			}
			if (p.CatchAll == nil) != (tt.catchAll == nil) || p.CatchAll != nil && *p.CatchAll != *tt.catchAll {
				t.Errorf("catch_all %v, want %v", p.CatchAll, tt.catchAll)
			}
			if p.Host != "mail.mx.test" {
				t.Errorf("host %q, want the best MX", p.Host)
			}
			tt.box.mu.Lock()
			defer tt.box.mu.Unlock()
			if len(tt.box.helo) != 1 || tt.box.helo[0] != "probe.quiver.test" {
				t.Errorf("EHLO names %q", tt.box.helo)
			}
			if len(tt.box.log) == 0 || tt.box.log[0] != "MAIL verify@quiver.test" {
				t.Errorf("commands %q", tt.box.log)
			}
		})
	}
}

func TestSMTPProbeConversation(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	box := &mailbox{known: map[string]bool{"alice@mx.test": true}}
	v := &Verifier{cfg: Config{Resolver: r, SMTP: SMTPOptions{Port: smtpServer(t, box), AllowPrivateAddresses: true}}}
	v.Validate(context.Background(), "alice@mx.test", Checks{SMTP: true})
	box.mu.Lock()
	defer box.mu.Unlock()
	if len(box.log) != 4 || box.log[0] != "MAIL " || box.log[1] != "RCPT alice@mx.test" || !strings.HasPrefix(box.log[2], "RCPT quiver-") || box.log[3] != "RSET" {
		t.Errorf("commands %q; want MAIL <>, RCPT the address, RCPT a random one, RSET", box.log)
	}
}

func TestSMTPProbeUndecided(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	// A closed port: nothing listens.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	// A server that accepts and never greets.
	silent, _ := net.Listen("tcp", "127.0.0.1:0")
	t.Cleanup(func() { silent.Close() })
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	tests := []struct {
		name, addr string
		opts       SMTPOptions
		reason     SMTPReason
	}{
		{"banner 554", "a@mx.test", SMTPOptions{Port: banner(t, "554 5.7.1 go away\r\n")}, SMTPBlocked},
		{"banner 421", "a@mx.test", SMTPOptions{Port: banner(t, "421 4.3.2 busy, try later\r\n")}, SMTPGreylisted},
		{"not SMTP", "a@mx.test", SMTPOptions{Port: banner(t, "HTTP/1.1 400 Bad Request\r\n\r\n")}, SMTPProtocolError},
		{"port unreachable", "a@mx.test", SMTPOptions{Port: closed}, SMTPPortUnreachable},
		{"timeout", "a@mx.test", SMTPOptions{Port: silent.Addr().(*net.TCPAddr).Port, ConnectTimeout: 100 * time.Millisecond}, SMTPTimeout},
		{"no mail server", "a@nullmx.test", SMTPOptions{Port: closed}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.AllowPrivateAddresses = true
			v := &Verifier{cfg: Config{Resolver: r, SMTP: tt.opts}}
			start := time.Now()
			res := v.Validate(context.Background(), tt.addr, Checks{SMTP: true})
			if tt.reason == "" {
				if res.SMTP != nil || res.IsValid {
					t.Errorf("an invalid address was probed: %+v", res)
				}
				return
			}
			if res.SMTP == nil || res.SMTP.Status != SMTPUnknown || res.SMTP.Reason != tt.reason || res.SMTPVerified {
				t.Fatalf("got %+v", res.SMTP)
			}
			// The message says the failure's kind: never our own socket
			// address ("read tcp 127.0.0.1:42168->..."), nor the code.
			if m := res.SMTP.Message; strings.Contains(m, "->") || strings.Contains(m, string(tt.reason)+":") {
				t.Errorf("message %q", m)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// A hostile server's endless reply line is read up to MaxSessionBytes,
// not held whole: the session ends there as a protocol error.
func TestSMTPProbeBoundsWhatItReads(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	for _, greeting := range []string{
		"220 " + strings.Repeat("a", 4<<20),                   // one line that never ends
		strings.Repeat("220-mx.test says hello\r\n", 200_000), // a greeting of endless lines
	} {
		v := &Verifier{cfg: Config{Resolver: r, SMTP: SMTPOptions{Port: banner(t, greeting), AllowPrivateAddresses: true}}}
		res := v.Validate(context.Background(), "a@mx.test", Checks{SMTP: true})
		if p := res.SMTP; p == nil || p.Status != SMTPUnknown || p.Reason != SMTPProtocolError || !strings.Contains(p.Message, "64 KiB") {
			t.Errorf("got %+v; want unknown, protocol_error, a message naming the 64 KiB bound", p)
		}
	}
}

// When the MX lookup itself fails the probe says so: a timeout is a
// timeout, and the DNS error is given, not a bare no_mail_server.
func TestSMTPProbeAfterDNSFailure(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{Drop: []string{"slow.test"}, ServFail: []string{"servfail.test"}})
	v := &Verifier{cfg: Config{Resolver: r, SMTP: SMTPOptions{AllowPrivateAddresses: true}}}
	for _, tt := range []struct {
		addr    string
		reason  SMTPReason
		message string
	}{
		{"a@slow.test", SMTPTimeout, "timeout"},
		{"a@servfail.test", SMTPNoMailServer, "SERVFAIL"},
	} {
		res := v.Validate(context.Background(), tt.addr, Checks{SMTP: true})
		if p := res.SMTP; p == nil || p.Status != SMTPUnknown || p.Reason != tt.reason || !strings.Contains(p.Message, tt.message) {
			t.Errorf("%s: got %+v; want unknown, %s, a message naming %s", tt.addr, p, tt.reason, tt.message)
		}
	}
}

func TestSMTPProbeUsesDialer(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	port := smtpServer(t, &mailbox{catchAll: true})
	var dialed []string
	v := &Verifier{cfg: Config{Resolver: r, SMTP: SMTPOptions{Port: 2525, AllowPrivateAddresses: true, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialed = append(dialed, addr)
		if addr != "127.0.0.1:2525" {
			return nil, errors.New("unexpected address")
		}
		return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+strconv.Itoa(port))
	}}}}
	res := v.Validate(context.Background(), "a@mx.test", Checks{SMTP: true})
	if res.SMTP == nil || res.SMTP.Status != SMTPCatchAll || len(dialed) != 1 {
		t.Errorf("got %+v, dialed %q", res.SMTP, dialed)
	}
}

// banner serves a listener that writes greeting to each connection and
// closes it.
func banner(t *testing.T, greeting string) int { return testutil.NewBanner(t, greeting) }

func TestSMTPProbeRefusesPrivateAddresses(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	box := &mailbox{catchAll: true}
	v := &Verifier{cfg: Config{Resolver: r, SMTP: SMTPOptions{Port: smtpServer(t, box)}}}
	res := v.Validate(context.Background(), "a@mx.test", Checks{SMTP: true})
	if res.SMTP == nil || res.SMTP.Reason != SMTPForbidden || res.SMTPVerified {
		t.Errorf("got %+v", res.SMTP)
	}
	box.mu.Lock()
	defer box.mu.Unlock()
	if len(box.helo) != 0 {
		t.Error("the probe connected to a loopback MX")
	}
	for ip, want := range map[string]bool{
		"8.8.8.8": true, "2606:4700::1111": true, "127.0.0.1": false, "10.1.2.3": false, "192.168.0.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false, "::1": false, "fe80::1": false, "fd00::1": false,
		"192.0.2.1": false, "2001:db8::1": false, "224.0.0.1": false,
	} {
		// The probe's policy is the one of every outbound connection.
		if got := safehttp.NewDialer().CheckAddr(netip.MustParseAddr(ip)) == nil; got != want {
			t.Errorf("probe may dial %s: %v, want %v", ip, got, want)
		}
	}
}

func TestSMTPProbeWithoutResolver(t *testing.T) {
	res := (&Verifier{}).Validate(context.Background(), "a@example.com", Checks{SMTP: true})
	if res.SMTP == nil || res.SMTP.Status != SMTPUnknown || res.SMTP.Reason != SMTPNoResolver {
		t.Errorf("got %+v", res.SMTP)
	}
}
