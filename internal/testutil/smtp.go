package testutil

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"io"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"
)

// SMTPOptions shape an [SMTPServer].
type SMTPOptions struct {
	// Addr is the listening address; default "127.0.0.1:0".
	Addr string
	// Known are the accepted recipients (lowercase); others get 550
	// 5.1.1. Nil accepts every recipient (a catch-all server).
	Known map[string]bool
	// STARTTLS makes the server offer STARTTLS (with a certificate made
	// for the test).
	STARTTLS bool
	// Hold keeps each session open this long after its greeting, so
	// that a test can see sessions overlap.
	Hold time.Duration
	// Reply, when set, may refuse a command the server would otherwise
	// take: EHLO (stage "EHLO", the client's name), MAIL FROM ("MAIL",
	// the sender) and RCPT TO ("RCPT", the recipient). A non-nil error
	// is the reply; nil lets the command go on (RCPT TO then follows
	// Known).
	Reply func(stage, arg string) *gosmtp.SMTPError
}

// SMTPServer is a go-smtp server on loopback that records who connected
// and when.
type SMTPServer struct {
	// Addr is the server's "127.0.0.1:port"; Port its port.
	Addr string
	Port int

	opts SMTPOptions

	mu      sync.Mutex
	remotes []string    // RemoteAddr of each session, in order
	starts  []time.Time // when each session began
	active  int         // sessions open now
	peak    int         // the most sessions open at once
	rcpts   []string    // RCPT TO addresses, in order
}

// NewSMTPServer starts a server for the test tb; it is closed when the
// test ends.
func NewSMTPServer(tb testing.TB, o SMTPOptions) *SMTPServer {
	tb.Helper()
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		tb.Fatal(err)
	}
	m := &SMTPServer{Addr: ln.Addr().String(), Port: ln.Addr().(*net.TCPAddr).Port, opts: o}
	s := gosmtp.NewServer(m)
	s.Domain = "mx.test"
	s.ReadTimeout, s.WriteTimeout = 5*time.Second, 5*time.Second
	if o.STARTTLS {
		s.TLSConfig = &tls.Config{Certificates: []tls.Certificate{selfSigned(tb)}}
	}
	go s.Serve(ln)
	tb.Cleanup(func() { s.Close() })
	return m
}

// selfSigned makes a certificate for mx.test.
func selfSigned(tb testing.TB) tls.Certificate {
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), DNSNames: []string{"mx.test"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		tb.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// Remotes returns the remote address of each session, in order.
func (m *SMTPServer) Remotes() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.remotes...)
}

// Starts returns when each session began, in order.
func (m *SMTPServer) Starts() []time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]time.Time(nil), m.starts...)
}

// Peak returns the most sessions that were open at once.
func (m *SMTPServer) Peak() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peak
}

// Recipients returns the RCPT TO addresses asked, in order.
func (m *SMTPServer) Recipients() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.rcpts...)
}

// reply asks Options.Reply about a command; nil goes on.
func (m *SMTPServer) reply(stage, arg string) error {
	if m.opts.Reply != nil {
		if e := m.opts.Reply(stage, arg); e != nil {
			return e
		}
	}
	return nil
}

// NewSession implements gosmtp.Backend.
func (m *SMTPServer) NewSession(c *gosmtp.Conn) (gosmtp.Session, error) {
	if err := m.reply("EHLO", c.Hostname()); err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.remotes = append(m.remotes, c.Conn().RemoteAddr().String())
	m.starts = append(m.starts, time.Now())
	m.active++
	m.peak = max(m.peak, m.active)
	m.mu.Unlock()
	if m.opts.Hold > 0 {
		time.Sleep(m.opts.Hold)
	}
	return &smtpSession{m}, nil
}

type smtpSession struct{ m *SMTPServer }

func (s *smtpSession) Reset() {}

func (s *smtpSession) Logout() error {
	s.m.mu.Lock()
	s.m.active--
	s.m.mu.Unlock()
	return nil
}

func (s *smtpSession) Data(io.Reader) error {
	return &gosmtp.SMTPError{Code: 554, Message: "no data expected"}
}

func (s *smtpSession) Mail(from string, _ *gosmtp.MailOptions) error { return s.m.reply("MAIL", from) }

func (s *smtpSession) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	s.m.mu.Lock()
	s.m.rcpts = append(s.m.rcpts, to)
	s.m.mu.Unlock()
	if err := s.m.reply("RCPT", to); err != nil {
		return err
	}
	if s.m.opts.Known == nil || s.m.opts.Known[strings.ToLower(to)] {
		return nil
	}
	return &gosmtp.SMTPError{Code: 550, EnhancedCode: gosmtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
}
