package email

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"net/netip"
	"net/smtp"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/secret"
)

// Defaults of [SMTPOptions].
const (
	DefaultSMTPPort       = 25
	DefaultHeloName       = "localhost"
	DefaultConnectTimeout = 10 * time.Second
	DefaultStepTimeout    = 10 * time.Second
	DefaultSMTPHosts      = 2
	// DefaultHostConnections is the default of
	// SMTPOptions.HostConnections: at most two connections at once to
	// one mail server, as a well-behaved sending server keeps to.
	DefaultHostConnections = 2
	// DefaultHostInterval is the default of SMTPOptions.HostInterval:
	// connections to one mail server start at least a second apart, so
	// that a list of addresses at one provider does not look like a
	// dictionary attack.
	DefaultHostInterval = time.Second
)

// SMTPOptions configure the SMTP mailbox probe. The zero value works.
type SMTPOptions struct {
	// HeloName is the name sent with EHLO. Default DefaultHeloName; set
	// the host's real name, many servers check it.
	HeloName string
	// MailFrom is the reverse path of MAIL FROM. Default "" (the null
	// reverse path <>).
	MailFrom string
	// Port is the SMTP port. Default DefaultSMTPPort (25).
	Port int
	// DialContext opens connections: to the mail server, or to the
	// proxy when Proxy is set. Default: a net.Dialer. It is given an IP
	// address: the MX host is resolved through the Verifier's
	// Config.Resolver. Being a function, it is left out of the JSON form
	// of the options.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error) `json:"-"`
	// Proxy is the URL of a SOCKS5 proxy through which the probe
	// connects, "socks5://user:password@host:port" (the user name and
	// password, RFC 1929, are optional; percent-encode reserved
	// characters). Most clouds block outbound port 25: a proxy on a host
	// that may send mail is then the way out. The MX host is still
	// resolved through Config.Resolver and its address checked against
	// AllowPrivateAddresses; the proxy is asked to connect to that
	// address, and resolves nothing. The proxy's own address may be
	// anything, loopback included. New refuses a URL that is not of this
	// form, wrapping ErrInvalidConfig. The URL holds a password: it never
	// appears in errors, and its printed forms show "[redacted]" (see
	// package secret). Default "": direct connections.
	Proxy secret.String
	// ConnectTimeout bounds the connection and the server's greeting.
	// Default DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// StepTimeout bounds each command (EHLO, MAIL, RCPT, RSET, QUIT).
	// Default DefaultStepTimeout.
	StepTimeout time.Duration
	// SkipCatchAll switches off catch-all detection (a second RCPT TO a
	// random address). Without it a 250 cannot be told from a catch-all,
	// so smtp_verified stays false.
	SkipCatchAll bool
	// MaxHosts is how many MX hosts are tried when connecting fails:
	// the host does not answer in time, refuses the connection, has no
	// address, or resolves to one the probe does not contact. Default
	// DefaultSMTPHosts.
	MaxHosts int
	// AllowPrivateAddresses lets the probe connect to loopback, private,
	// link-local and other non-public addresses. By default an MX that
	// resolves to one is not contacted (reason forbidden_address), so
	// that a domain cannot aim the probe at the server's own network.
	AllowPrivateAddresses bool
	// HostConnections is how many connections the probes and STARTTLS
	// checks of one Verifier may hold at once to one mail server (one IP
	// address), whatever the domain or request: a bulk run waits for its
	// turn instead of opening more. Negative: no limit.
	// Default DefaultHostConnections (2).
	HostConnections int
	// HostInterval is the least time between the starts of two
	// connections of one Verifier to one mail server (one IP address).
	// Waiting for a turn ends with the caller's context. Negative: no
	// gap. Default DefaultHostInterval (1s).
	HostInterval time.Duration
}

// An SMTPStatus is the outcome of the SMTP probe.
type SMTPStatus string

// SMTP probe statuses.
const (
	SMTPVerified SMTPStatus = "verified"  // 250 for the address; the domain is not catch-all
	SMTPRejected SMTPStatus = "rejected"  // the server said the mailbox does not exist or is disabled
	SMTPCatchAll SMTPStatus = "catch_all" // the server accepts any recipient
	SMTPUnknown  SMTPStatus = "unknown"   // the probe could not decide; see Reason
)

// SMTPStatuses returns the statuses of the SMTP probe.
func SMTPStatuses() []SMTPStatus {
	return []SMTPStatus{SMTPVerified, SMTPRejected, SMTPCatchAll, SMTPUnknown}
}

// An SMTPReason says why the SMTP probe could not decide (status
// unknown).
type SMTPReason string

// Why an SMTP probe could not decide.
const (
	SMTPGreylisted      SMTPReason = "greylisted"       // a 4xx reply: try again later
	SMTPBlocked         SMTPReason = "blocked"          // the server refused us (5xx before RCPT)
	SMTPPortUnreachable SMTPReason = "port_unreachable" // no connection to the SMTP port
	SMTPTimeout         SMTPReason = "timeout"          // a step ran out of time
	SMTPNoMailServer    SMTPReason = "no_mail_server"   // no MX host to connect to
	SMTPProtocolError   SMTPReason = "protocol_error"   // the server spoke something else
	SMTPNoCatchAllCheck SMTPReason = "catch_all_unchecked"
	SMTPForbidden       SMTPReason = "forbidden_address"    // the MX resolves to a non-public address
	SMTPNoResolver      SMTPReason = "no_resolver"          // no DNS resolver is configured to find the MX
	SMTPUTF8Unsupported SMTPReason = "smtputf8_unsupported" // a UTF-8 address and a server without SMTPUTF8
	SMTPProxyError      SMTPReason = "proxy_error"          // the SOCKS5 proxy could not be reached or refused us
	// Why, read by [ClassifyReply] (extensions): the server blamed the
	// prober (see [ReplyClass.BlamesSender]), or its refusal named no
	// cause it could read.
	SMTPNeedsReverseDNS = SMTPReason(ReplyNeedsReverseDNS) // the prober's IP address needs reverse DNS
	SMTPRateLimited     = SMTPReason(ReplyRateLimited)     // too many connections or probes: try later
	SMTPRelayDenied     = SMTPReason(ReplyRelayDenied)     // the server refuses to relay for the domain
	SMTPSenderRejected  = SMTPReason(ReplySenderRejected)  // the envelope sender, its domain or the EHLO name was refused
	SMTPUnclassified    = SMTPReason(ReplyUnclassified)    // a refusal naming neither the address nor the sender
	// SMTPMailboxFull: the mailbox exists and is full (mailbox_full is
	// set). An extension.
	SMTPMailboxFull = SMTPReason(ReplyMailboxFull)
	// SMTPProviderUnverifiable: the server accepted the address, but its
	// provider accepts addresses that do not exist (Yahoo, Outlook.com):
	// the 250 proves nothing. An extension.
	SMTPProviderUnverifiable SMTPReason = "provider_unverifiable"
)

// SMTPReasons returns why an SMTP probe may not decide, the extensions
// last.
func SMTPReasons() []SMTPReason {
	return []SMTPReason{
		SMTPGreylisted, SMTPBlocked, SMTPPortUnreachable, SMTPTimeout, SMTPNoMailServer, SMTPProtocolError, SMTPNoCatchAllCheck, SMTPForbidden, SMTPNoResolver, SMTPUTF8Unsupported, SMTPProxyError, SMTPNeedsReverseDNS, SMTPRateLimited, SMTPRelayDenied, SMTPSenderRejected, SMTPUnclassified, SMTPMailboxFull, SMTPProviderUnverifiable,
	}
}

// SMTPResult is the outcome of the SMTP probe.
type SMTPResult struct {
	// Status is verified, rejected, catch_all or unknown.
	Status SMTPStatus `json:"status"`
	// Reason says why the status is unknown: greylisted, blocked,
	// port_unreachable, timeout, no_mail_server, protocol_error,
	// catch_all_unchecked, forbidden_address, no_resolver,
	// smtputf8_unsupported or proxy_error (the SOCKS5 proxy could not be
	// reached, refused the credentials or failed; Message says which);
	// and, as extensions, needs_reverse_dns, rate_limited, relay_denied,
	// sender_rejected, unclassified, mailbox_full or
	// provider_unverifiable. Empty otherwise.
	Reason SMTPReason `json:"reason,omitempty"`
	// Host is the MX host that was probed.
	Host string `json:"host,omitempty"`
	// Code is the server's reply code to the last command that decided
	// the outcome (RCPT TO for the address, usually).
	Code int `json:"code,omitempty"`
	// Message is the server's reply text with that code.
	Message string `json:"message,omitempty"`
	// EnhancedCode is the RFC 3463 enhanced status code that opens
	// Message ("5.1.1"), when there is one. An extension beyond the
	// contract.
	EnhancedCode string `json:"enhanced_code,omitempty" openapi:"extension"`
	// MailboxFull: the server said the mailbox exists and is over its
	// quota (status unknown, reason mailbox_full). An extension beyond
	// the contract.
	MailboxFull bool `json:"mailbox_full" openapi:"extension"`
	// Disabled: the server said the mailbox's account is disabled
	// (status rejected). An extension beyond the contract.
	Disabled bool `json:"disabled" openapi:"extension"`
	// CatchAll reports whether a random recipient was accepted; null when
	// not tested.
	CatchAll *bool `json:"catch_all"`
	// STARTTLS reports whether the server offered STARTTLS in its answer
	// to EHLO; null when the conversation did not get that far. An
	// extension beyond the contract.
	STARTTLS *bool `json:"starttls" openapi:"extension"`
	// Verified is true only for status verified.
	Verified bool `json:"-"`
}

func (o SMTPOptions) withDefaults() SMTPOptions {
	if o.HeloName == "" {
		o.HeloName = DefaultHeloName
	}
	if o.Port <= 0 {
		o.Port = DefaultSMTPPort
	}
	if o.DialContext == nil {
		o.DialContext = (&net.Dialer{}).DialContext
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.StepTimeout <= 0 {
		o.StepTimeout = DefaultStepTimeout
	}
	if o.MaxHosts <= 0 {
		o.MaxHosts = DefaultSMTPHosts
	}
	if o.HostConnections == 0 {
		o.HostConnections = DefaultHostConnections
	}
	if o.HostInterval == 0 {
		o.HostInterval = DefaultHostInterval
	}
	return o
}

// probe asks the domain's best MX hosts whether they accept a.
func (v *Verifier) probe(ctx context.Context, a Address, mx *MX) SMTPResult {
	o := v.cfg.SMTP.withDefaults()
	var hosts []string
	if mx == nil {
		m := v.lookupMX(ctx, a)
		mx = &m
	}
	switch mx.Status {
	case MXFound, MXImplicit, MXLiteral:
		hosts = mx.Hosts
	case MXSkipped:
		return SMTPResult{Status: SMTPUnknown, Reason: SMTPNoResolver}
	case MXTimeout:
		return SMTPResult{Status: SMTPUnknown, Reason: SMTPTimeout, Message: "the MX lookup failed: " + mx.Error}
	default: // no mail host, or (SERVFAIL, other errors) none known
		r := SMTPResult{Status: SMTPUnknown, Reason: SMTPNoMailServer}
		if mx.Error != "" {
			r.Message = "the MX lookup failed: " + mx.Error
		}
		return r
	}
	var res SMTPResult
	for i, host := range hosts {
		if i >= o.MaxHosts {
			break
		}
		res = v.probeHost(ctx, o, host, a)
		if !noConversation(res.Reason) {
			return res
		}
	}
	return res
}

// noConversation reports whether a probe of one host that ended with
// reason had no conversation to read: the host did not answer, has no
// address (a stale MX), or its address is not contacted. The next MX
// host is then tried.
func noConversation(reason SMTPReason) bool {
	switch reason {
	case SMTPPortUnreachable, SMTPTimeout, SMTPNoMailServer, SMTPForbidden:
		return true
	}
	return false
}

// probeHost runs one SMTP conversation: EHLO, MAIL FROM, RCPT TO the
// address, RCPT TO a random address (catch-all check), RSET, QUIT.
func (v *Verifier) probeHost(ctx context.Context, o SMTPOptions, host string, a Address) SMTPResult {
	res := SMTPResult{Status: SMTPUnknown, Host: host}
	c, fail, err := v.hello(ctx, o, host)
	switch {
	case fail != nil:
		res.Reason, res.Message = fail.reason, fail.message
		return res
	case err != nil:
		return decide(res, err, SMTPBlocked)
	}
	defer c.close()
	step := c.step
	starttls, _ := c.Extension("STARTTLS")
	res.STARTTLS = &starttls
	step(o.StepTimeout)
	if err := c.Mail(o.MailFrom); err != nil {
		return decide(res, err, SMTPBlocked)
	}
	if ok, _ := c.Extension("SMTPUTF8"); a.SMTPUTF8 && !ok {
		// RFC 6531 section 3.2: a UTF-8 mailbox is not sent to a server
		// that does not offer SMTPUTF8; its 5xx would not be about the
		// mailbox.
		res.Reason, res.Message = SMTPUTF8Unsupported, "the server does not offer SMTPUTF8, which this address needs"
		return quit(c, o, step, res)
	}
	step(o.StepTimeout)
	err = c.Rcpt(a.Local + "@" + a.ASCIIDomain)
	var te *textproto.Error
	switch {
	case err == nil:
		res.Code, res.Message = 250, ""
	case errors.As(err, &te):
		return quit(c, o, step, recipientRefused(res, te))
	default:
		return decide(res, err, SMTPProtocolError)
	}
	// A 250 for the address: what it proves depends on the provider.
	t, knownNoCatchAll := trustOf(ProviderOf(host), a.ASCIIDomain)
	switch {
	case !t.acceptProves:
		res.Reason = SMTPProviderUnverifiable
	case knownNoCatchAll:
		res.Status, res.Verified = SMTPVerified, true
	case o.SkipCatchAll || t.skipCatchAll:
		res.Reason = SMTPNoCatchAllCheck
	default:
		step(o.StepTimeout)
		random := "quiver-" + strings.ToLower(rand.Text()[:16]) + "@" + a.ASCIIDomain
		err := c.Rcpt(random)
		if err != nil && !(errors.As(err, &te) && te.Code >= 500 && refusesMailbox(ClassifyReply(te.Code, te.Msg).Class)) {
			// 4xx, a refusal of the prober or of the command (too many
			// recipients), or no answer for the random address:
			// undecided.
			r := decide(res, err, SMTPProtocolError)
			r.Code, r.Message, r.EnhancedCode = res.Code, res.Message, res.EnhancedCode
			return quit(c, o, step, r)
		}
		// The server told the two addresses apart: it said the random
		// mailbox does not exist, or is disabled.
		catchAll := err == nil
		if catchAll {
			res.Status = SMTPCatchAll
		} else {
			res.Status, res.Verified = SMTPVerified, true
		}
		res.CatchAll = &catchAll
	}
	return quit(c, o, step, res)
}

// refusesMailbox reports whether a reply of class c says the mailbox
// itself does not exist or is disabled: the only refusals of a random
// address that prove the domain is not catch-all.
func refusesMailbox(c ReplyClass) bool {
	return c == ReplyMailboxNotFound || c == ReplyMailboxDisabled
}

// recipientRefused records the server's refusal of the address, read by
// ClassifyReply: a missing or disabled mailbox is rejected, a full one is
// unknown with mailbox_full; any other class leaves the status unknown
// with the class as its reason (greylisted for a temporary failure).
func recipientRefused(res SMTPResult, te *textproto.Error) SMTPResult {
	r := ClassifyReply(te.Code, te.Msg)
	res.Code, res.Message, res.EnhancedCode = te.Code, te.Msg, r.Enhanced
	switch r.Class {
	case ReplyMailboxNotFound:
		res.Status = SMTPRejected
	case ReplyMailboxDisabled:
		res.Status, res.Disabled = SMTPRejected, true
	case ReplyMailboxFull:
		res.Reason, res.MailboxFull = SMTPMailboxFull, true
	default:
		res.Reason = SMTPReason(r.Class)
	}
	return res
}

// smtpConn is an SMTP session past EHLO, its connection held under the
// pacing of its mail server.
type smtpConn struct {
	*smtp.Client
	conn net.Conn
	done func()
}

// step gives the next command d to complete.
func (s *smtpConn) step(d time.Duration) { s.conn.SetDeadline(time.Now().Add(d)) }

// close closes the connection and frees its turn.
func (s *smtpConn) close() { s.done() }

// hello connects to host (see connect), reads the greeting within
// ConnectTimeout and sends EHLO within StepTimeout. A failure to connect
// is a connectFailure; a greeting or EHLO refused (or not answered) is
// the error, the connection then closed. The session ends when ctx does.
func (v *Verifier) hello(ctx context.Context, o SMTPOptions, host string) (*smtpConn, *connectFailure, error) {
	conn, release, fail := v.connect(ctx, o, host)
	if fail != nil {
		return nil, fail, nil
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	s := &smtpConn{conn: conn, done: func() { stop(); conn.Close(); release() }}
	s.step(o.ConnectTimeout)
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		s.close()
		return nil, nil, err
	}
	s.Client = c
	s.step(o.StepTimeout)
	if err := c.Hello(o.HeloName); err != nil {
		s.close()
		return nil, nil, err
	}
	return s, nil, nil
}

// connectFailure is why no connection to a mail server was opened: a
// probe reason and a message.
type connectFailure struct {
	reason  SMTPReason
	message string
}

// connect opens a connection to the SMTP port of host, which it resolves
// through the resolver (an IP literal is used as is): it checks the
// address against the private-address policy, waits for the address's
// turn (HostConnections, HostInterval), then dials it directly or
// through the proxy within ConnectTimeout. The caller closes the
// connection, then calls release.
func (v *Verifier) connect(ctx context.Context, o SMTPOptions, host string) (net.Conn, func(), *connectFailure) {
	ip, err := v.hostAddr(ctx, host)
	if err != nil {
		return nil, nil, &connectFailure{SMTPNoMailServer, mailauth.LookupText(err)}
	}
	if !o.AllowPrivateAddresses {
		// The same policy as every other outbound connection; the probe
		// then dials the checked address itself (or asks the proxy for
		// it), so DNS cannot rebind it.
		if err := safehttp.NewDialer().CheckAddr(ip); err != nil {
			return nil, nil, &connectFailure{SMTPForbidden, "the MX host resolves to the non-public address " + ip.String()}
		}
	}
	release, err := v.pace.acquire(ctx, ip)
	if err != nil {
		return nil, nil, &connectFailure{SMTPTimeout, "waiting for a turn to connect to " + ip.String() + ": " + err.Error()}
	}
	dial := o.DialContext
	if v.proxyDial != nil {
		dial = v.proxyDial
	}
	dctx, cancel := context.WithTimeout(ctx, o.ConnectTimeout)
	addr := net.JoinHostPort(ip.String(), strconv.Itoa(o.Port))
	conn, err := dial(dctx, "tcp", addr)
	cancel()
	if err != nil {
		release()
		reason := dialReason(err, v.proxyDial != nil)
		return nil, nil, &connectFailure{reason, "connecting to " + addr + ": " + dialText(reason, err)}
	}
	return &boundedConn{Conn: conn, left: MaxSessionBytes}, release, nil
}

// MaxSessionBytes bounds what one SMTP session reads from a mail server:
// 64 KiB. A session reads the greeting and the replies to at most six
// commands, a few lines each; net/textproto reads a line whole, so a
// hostile server could otherwise make the probe hold a reply of any size.
// A server that sends more ends the session as a protocol error.
const MaxSessionBytes = 64 << 10

// errSessionTooLong is why a session that reads past MaxSessionBytes ends.
var errSessionTooLong = errors.New("the mail server sent more than 64 KiB in one session")

// boundedConn is a connection that reads at most left more bytes.
type boundedConn struct {
	net.Conn
	left int64
}

func (c *boundedConn) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errSessionTooLong
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.Conn.Read(p)
	c.left -= int64(n)
	return n, err
}

// dialReason classifies a failed dial. Through a proxy, the proxy's
// report that the mail server refused or could not be reached is the
// server's port_unreachable; any other failure of the proxy (not
// reached, credentials refused, a general failure) is proxy_error.
func dialReason(err error, proxied bool) SMTPReason {
	if r := failReason(err, SMTPPortUnreachable); r == SMTPTimeout || !proxied {
		return r
	}
	var oe *net.OpError
	if errors.As(err, &oe) && strings.HasPrefix(oe.Op, "socks") && oe.Err != nil {
		for _, s := range []string{"connection refused", "host unreachable", "network unreachable", "TTL expired"} {
			if oe.Err.Error() == "unknown error "+s {
				return SMTPPortUnreachable
			}
		}
	}
	return SMTPProxyError
}

// dialText describes err, a failed dial of the reason dialReason gave:
// the cause the innermost network error names ("connection refused"),
// without the socket addresses it names (the proxy's, our own).
func dialText(reason SMTPReason, err error) string {
	why := "refused, or the host cannot be reached"
	switch reason {
	case SMTPTimeout:
		why = "no answer in time"
	case SMTPProxyError:
		why = "the SOCKS5 proxy failed"
	}
	var oe *net.OpError
	for errors.As(err, &oe) && oe.Err != nil {
		err = oe.Err
	}
	if oe == nil || reason == SMTPTimeout {
		return why
	}
	return why + ": " + strings.TrimPrefix(err.Error(), "connect: ")
}

// failText describes err, a failed step of an SMTP session, by its kind:
// never with the socket addresses a network error names.
func failText(err error) string {
	var te *textproto.Error
	switch {
	case errors.As(err, &te):
		return "the server answered " + strconv.Itoa(te.Code) + " " + textcut.Excerpt(te.Msg)
	case errors.Is(err, errSessionTooLong):
		return errSessionTooLong.Error()
	case failReason(err, "") == SMTPTimeout:
		return "no answer in time"
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return "the server closed the connection"
	}
	return "the connection failed"
}

// describedError is an error whose text is text and which wraps err:
// the text describes err in the caller's words.
type describedError struct {
	text string
	err  error
}

func (e *describedError) Error() string { return e.text }
func (e *describedError) Unwrap() error { return e.err }

// quit ends the conversation politely; its errors change nothing.
func quit(c *smtpConn, o SMTPOptions, step func(time.Duration), res SMTPResult) SMTPResult {
	step(o.StepTimeout)
	if c.Reset() == nil {
		step(o.StepTimeout)
		c.Quit()
	}
	return res
}

// decide classifies a failed step before the address was asked (or the
// catch-all test's): a reply that blames the prober gets its class
// (needs_reverse_dns, rate_limited, ...), other 4xx are greylisted, other
// 5xx are fiveXX (blocked: the server refused us); timeouts and broken
// connections are theirs.
func decide(res SMTPResult, err error, fiveXX SMTPReason) SMTPResult {
	var te *textproto.Error
	if errors.As(err, &te) {
		r := ClassifyReply(te.Code, te.Msg)
		res.Code, res.Message, res.EnhancedCode = te.Code, te.Msg, r.Enhanced
		switch {
		case te.Code < 400 || te.Code > 599:
			res.Reason = SMTPProtocolError
		case r.Class.BlamesSender() || r.Class == ReplyGreylisted:
			res.Reason = SMTPReason(r.Class)
		case te.Code < 500:
			res.Reason = SMTPGreylisted
		default:
			res.Reason = fiveXX
		}
		return res
	}
	res.Reason, res.Message = failReason(err, SMTPProtocolError), failText(err)
	return res
}

func failReason(err error, otherwise SMTPReason) SMTPReason {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return SMTPTimeout
	}
	return otherwise
}

// hostAddr resolves an MX host through the resolver (never the system's),
// preferring IPv4. A literal is returned as is.
func (v *Verifier) hostAddr(ctx context.Context, host string) (netip.Addr, error) {
	h := strings.Trim(strings.TrimPrefix(strings.TrimPrefix(host, "[IPv6:"), "["), "]")
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip.Unmap(), nil
	}
	if v.cfg.Resolver == nil {
		return netip.Addr{}, errors.New("no resolver configured to find the MX host's address")
	}
	ips, err := v.cfg.Resolver.LookupIP(ctx, host)
	if err != nil {
		return netip.Addr{}, err
	}
	return ips[0].Unmap(), nil
}
