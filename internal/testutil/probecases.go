package testutil

import (
	"net"
	"strings"
	"testing"

	gosmtp "github.com/emersion/go-smtp"
)

// ProbeCase is one class of SMTP reply a mail server gives the mailbox
// probe, the server that gives it, and what the probe and the verdict
// must make of it. Package email's tests run each through Validate,
// package httpapi's through the validate route.
type ProbeCase struct {
	Name string
	// EHLO, Mail and Other are the server's replies to EHLO, MAIL FROM
	// and the recipients not in Known (nil: accepted).
	EHLO, Mail, Other *gosmtp.SMTPError
	Known             []string
	// Banner, when set, is the greeting of a server that says nothing
	// else (it takes the place of the go-smtp server).
	Banner string
	// Addr is the address probed, at mx.test.
	Addr string
	// Status, Reason, Code, MailboxFull and Disabled are the probe's
	// outcome (smtp.status, .reason, .code, .mailbox_full, .disabled).
	Status, Reason string
	Code           int
	MailboxFull    bool
	Disabled       bool
	// Rcpts is how many RCPT TO the server must see (-1: not counted).
	Rcpts int
	// Reach and Why are the verdict and its reasons.
	Reach string
	Why   []string
}

// Start serves the case on loopback and returns the port, and the
// server (nil for a banner).
func (c ProbeCase) Start(tb testing.TB) (int, *SMTPServer) {
	tb.Helper()
	if c.Banner != "" {
		return NewBanner(tb, c.Banner), nil
	}
	known := map[string]bool{}
	for _, k := range c.Known {
		known[k] = true
	}
	opts := SMTPOptions{Known: known}
	if c.Other == nil {
		opts.Known = nil // every recipient is accepted: a catch-all server
	}
	opts.Reply = func(stage, arg string) *gosmtp.SMTPError {
		switch {
		case stage == "EHLO":
			return c.EHLO
		case stage == "MAIL":
			return c.Mail
		case known[strings.ToLower(arg)]:
			return nil
		}
		return c.Other
	}
	srv := NewSMTPServer(tb, opts)
	return srv.Port, srv
}

// Reply is an SMTP error reply; enhanced nil sends none.
func Reply(code int, enhanced []int, msg string) *gosmtp.SMTPError {
	e := &gosmtp.SMTPError{Code: code, EnhancedCode: gosmtp.NoEnhancedCode, Message: msg}
	if enhanced != nil {
		e.EnhancedCode = gosmtp.EnhancedCode{enhanced[0], enhanced[1], enhanced[2]}
	}
	return e
}

// ProbeCases cover every class of reply at each step: blocklists at the
// greeting, EHLO, MAIL FROM and RCPT TO; full and disabled mailboxes with
// and without enhanced status codes; catch-all; the sender's other faults.
// The replies are written after the documents package email's reply
// table cites.
func ProbeCases() []ProbeCase {
	known := []string{"ana@mx.test"}
	noUser := Reply(550, []int{5, 1, 1}, "<x@mx.test>: Recipient address rejected: User unknown in local recipient table")
	undecided := []string{"probe_undecided"}
	return []ProbeCase{
		{Name: "verified", Known: known, Other: noUser, Addr: "ana@mx.test",
			Status: "verified", Code: 250, Rcpts: 2, Reach: "safe", Why: []string{}},
		{Name: "no such user", Known: known, Other: noUser, Addr: "bob@mx.test",
			Status: "rejected", Code: 550, Rcpts: 1, Reach: "invalid", Why: []string{"mailbox_not_found"}},
		{Name: "no such user, no enhanced code", Other: Reply(550, nil, "<bob@mx.test>... User unknown"), Addr: "bob@mx.test",
			Status: "rejected", Code: 550, Rcpts: 1, Reach: "invalid", Why: []string{"mailbox_not_found"}},
		{Name: "no such user, the echoed address has a blaming word", Other: Reply(550, []int{5, 1, 1}, "<reputation@mx.test>: Recipient address rejected: User unknown"), Addr: "reputation@mx.test",
			Status: "rejected", Code: 550, Rcpts: 1, Reach: "invalid", Why: []string{"mailbox_not_found"}},
		{Name: "catch-all", Addr: "bob@mx.test",
			Status: "catch_all", Code: 250, Rcpts: 2, Reach: "risky", Why: []string{"catch_all"}},

		{Name: "blocklist at RCPT", Other: Reply(554, []int{5, 7, 1}, "Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "blocked", Code: 554, Rcpts: 1, Reach: "unknown", Why: undecided},
		{Name: "blocklist at RCPT, no enhanced code", Other: Reply(554, nil, "Service unavailable; Client host [127.0.0.1] blocked using bl.spamcop.net"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "blocked", Code: 554, Rcpts: 1, Reach: "unknown", Why: undecided},
		{Name: "reputation at RCPT with a 5.1.1 code", Other: Reply(550, []int{5, 1, 1}, "Mail from 127.0.0.1 refused: poor reputation sender"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "blocked", Code: 550, Rcpts: 1, Reach: "unknown", Why: undecided},
		{Name: "administratively denied at RCPT", Other: Reply(553, nil, "sorry, mail from your location [127.0.0.1] is administratively denied (#5.7.1)"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "blocked", Code: 553, Rcpts: 1, Reach: "unknown", Why: undecided},
		{Name: "blocklist at MAIL FROM", Mail: Reply(550, []int{5, 7, 1}, "Mail from 127.0.0.1 refused, listed at dnsbl.example.org"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "blocked", Code: 550, Rcpts: 0, Reach: "unknown", Why: undecided},
		{Name: "blocklist at EHLO", EHLO: Reply(554, []int{5, 7, 1}, "Unfortunately, messages from 127.0.0.1 weren't sent: part of their network is on our block list"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "blocked", Code: 554, Rcpts: 0, Reach: "unknown", Why: undecided},
		{Name: "blocklist at the greeting", Banner: "554 5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org\r\n",
			Addr: "ana@mx.test", Status: "unknown", Reason: "blocked", Code: 554, Rcpts: -1, Reach: "unknown", Why: undecided},
		{Name: "rate limit at the greeting", Banner: "421 4.7.0 mx.test Error: too many connections from 127.0.0.1\r\n",
			Addr: "ana@mx.test", Status: "unknown", Reason: "rate_limited", Code: 421, Rcpts: -1, Reach: "unknown", Why: undecided},
		{Name: "reverse DNS at RCPT", Other: Reply(450, []int{4, 7, 25}, "Client host rejected: cannot find your hostname, [127.0.0.1]"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "needs_reverse_dns", Code: 450, Rcpts: 1, Reach: "unknown", Why: undecided},
		{Name: "relay denied at RCPT", Other: Reply(554, []int{5, 7, 1}, "<ana@mx.test>: Relay access denied"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "relay_denied", Code: 554, Rcpts: 1, Reach: "unknown", Why: undecided},
		{Name: "sender domain at MAIL FROM", Mail: Reply(553, []int{5, 1, 8}, "<verify@quiver.test>: Sender address rejected: Domain not found"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "sender_rejected", Code: 553, Rcpts: 0, Reach: "unknown", Why: undecided},
		{Name: "greylisted", Other: Reply(450, []int{4, 2, 0}, "<ana@mx.test>: Recipient address rejected: Greylisted"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "greylisted", Code: 450, Rcpts: 1, Reach: "unknown", Why: undecided},
		{Name: "unclassified refusal", Other: Reply(550, nil, "Rejected"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "unclassified", Code: 550, Rcpts: 1, Reach: "unknown", Why: undecided},
		{Name: "the prober's access disabled", Other: Reply(554, nil, "Your access to this mail system has been disabled"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "unclassified", Code: 554, Rcpts: 1, Reach: "unknown", Why: undecided},
		{Name: "random recipient refused for rate", Known: known, Other: Reply(550, []int{5, 7, 1}, "Rate limit exceeded, try later"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "rate_limited", Code: 250, Rcpts: 2, Reach: "unknown", Why: undecided},
		// RFC 5321 section 4.5.3.1.10: a 552 for too many recipients is
		// to be treated as temporary; it says nothing of the mailbox.
		{Name: "random recipient refused as too many recipients", Known: known, Other: Reply(552, []int{5, 5, 3}, "Too many recipients"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "protocol_error", Code: 250, Rcpts: 2, Reach: "unknown", Why: undecided},
		{Name: "random recipient refused as too many recipients, no enhanced code", Known: known, Other: Reply(552, nil, "Too many recipients"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "protocol_error", Code: 250, Rcpts: 2, Reach: "unknown", Why: undecided},

		{Name: "full, enhanced code", Other: Reply(552, []int{5, 2, 2}, "Mailbox full"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "mailbox_full", Code: 552, MailboxFull: true, Rcpts: 1, Reach: "risky", Why: []string{"mailbox_full"}},
		{Name: "full, temporary", Other: Reply(452, []int{4, 2, 2}, "The email account that you tried to reach is over quota."),
			Addr: "ana@mx.test", Status: "unknown", Reason: "mailbox_full", Code: 452, MailboxFull: true, Rcpts: 1, Reach: "risky", Why: []string{"mailbox_full"}},
		{Name: "full, no enhanced code", Other: Reply(552, nil, "Requested mail action aborted: exceeded storage allocation"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "mailbox_full", Code: 552, MailboxFull: true, Rcpts: 1, Reach: "risky", Why: []string{"mailbox_full"}},
		{Name: "full, too many messages", Other: Reply(550, nil, "user has too many messages on the server"),
			Addr: "ana@mx.test", Status: "unknown", Reason: "mailbox_full", Code: 550, MailboxFull: true, Rcpts: 1, Reach: "risky", Why: []string{"mailbox_full"}},
		{Name: "disabled, enhanced code", Other: Reply(550, []int{5, 2, 1}, "The email account that you tried to reach is disabled."),
			Addr: "ana@mx.test", Status: "rejected", Code: 550, Disabled: true, Rcpts: 1, Reach: "invalid", Why: []string{"mailbox_disabled"}},
		{Name: "disabled, no enhanced code", Other: Reply(554, nil, "delivery error: dd This account has been disabled or discontinued"),
			Addr: "ana@mx.test", Status: "rejected", Code: 554, Disabled: true, Rcpts: 1, Reach: "invalid", Why: []string{"mailbox_disabled"}},
	}
}

// NewBanner serves, on loopback for the test tb, a listener that writes
// greeting to each connection and closes it, and returns its port.
func NewBanner(tb testing.TB, greeting string) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte(greeting))
			c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}
