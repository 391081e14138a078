package email

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/proxy"
)

// redacted stands for a credential in every printed form of a config.
const redacted = "[redacted]"

// maxSOCKSCredential is the longest user name or password that the
// username/password method of SOCKS5 can carry (RFC 1929: one length
// octet).
const maxSOCKSCredential = 255

// parseProxy reads SMTPOptions.Proxy: "socks5://[user[:password]@]host:port".
// Its errors never quote the URL, which may hold a password.
func parseProxy(s string) (addr string, auth *proxy.Auth, err error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", nil, errors.New("is not a URL of the form socks5://user:password@host:port")
	}
	if !strings.EqualFold(u.Scheme, "socks5") {
		return "", nil, errors.New("must use the scheme socks5 (socks5://user:password@host:port)")
	}
	if u.Opaque != "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", nil, errors.New("must be socks5://user:password@host:port, without a path, query or fragment")
	}
	host, port := u.Hostname(), u.Port()
	if host == "" || port == "" {
		return "", nil, errors.New("must name the proxy's host and port (socks5://host:1080)")
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return "", nil, errors.New("has a port that is not a number from 1 to 65535")
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		switch user := u.User.Username(); {
		case user == "":
			return "", nil, errors.New("has credentials without a user name")
		case len(user) > maxSOCKSCredential || len(pass) > maxSOCKSCredential:
			return "", nil, fmt.Errorf("has a user name or password longer than %d bytes (RFC 1929)", maxSOCKSCredential)
		default:
			auth = &proxy.Auth{User: user, Password: pass}
		}
	}
	return net.JoinHostPort(host, port), auth, nil
}

// redactProxy is the proxy URL as it may be printed: the user name and
// password are replaced with "[redacted]"; a URL that does not parse is
// redacted whole.
func redactProxy(s string) string {
	if s == "" {
		return ""
	}
	addr, auth, err := parseProxy(s)
	switch {
	case err != nil:
		return redacted
	case auth != nil:
		return "socks5://" + redacted + "@" + addr
	}
	return "socks5://" + addr
}

// proxyDialer returns the dial function that reaches addresses through
// the SOCKS5 proxy of o, opening the connection to the proxy with
// o.DialContext (a net.Dialer when nil).
func proxyDialer(o SMTPOptions) (func(ctx context.Context, network, addr string) (net.Conn, error), error) {
	addr, auth, err := parseProxy(o.Proxy)
	if err != nil {
		return nil, err
	}
	forward := contextDialer(o.DialContext)
	if forward == nil {
		forward = (&net.Dialer{}).DialContext
	}
	d, err := proxy.SOCKS5("tcp", addr, auth, forward)
	if err != nil {
		return nil, err
	}
	return d.(proxy.ContextDialer).DialContext, nil
}

// contextDialer adapts a dial function to the proxy package's dialers.
type contextDialer func(ctx context.Context, network, addr string) (net.Conn, error)

func (d contextDialer) Dial(network, addr string) (net.Conn, error) {
	return d(context.Background(), network, addr)
}

func (d contextDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return d(ctx, network, addr)
}

// printableSMTP is SMTPOptions as it may be shown: the proxy's
// credentials redacted, the dialer reduced to whether it is set.
type printableSMTP struct {
	HeloName              string
	MailFrom              string
	Port                  int
	DialContext           bool
	Proxy                 string
	ConnectTimeout        string
	StepTimeout           string
	SkipCatchAll          bool
	MaxHosts              int
	AllowPrivateAddresses bool
	HostConnections       int
	HostInterval          string
}

func (o SMTPOptions) printable() printableSMTP {
	return printableSMTP{
		HeloName: o.HeloName, MailFrom: o.MailFrom, Port: o.Port, DialContext: o.DialContext != nil,
		Proxy: redactProxy(o.Proxy), ConnectTimeout: o.ConnectTimeout.String(), StepTimeout: o.StepTimeout.String(),
		SkipCatchAll: o.SkipCatchAll, MaxHosts: o.MaxHosts, AllowPrivateAddresses: o.AllowPrivateAddresses,
		HostConnections: o.HostConnections, HostInterval: o.HostInterval.String(),
	}
}

// Format implements fmt.Formatter: every verb prints the options with
// the proxy's user name and password replaced by "[redacted]", and the
// dialer as whether it is set.
func (o SMTPOptions) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), o.printable())
}

// LogValue implements slog.LogValuer: the proxy's credentials are
// redacted.
func (o SMTPOptions) LogValue() slog.Value {
	p := o.printable()
	return slog.GroupValue(
		slog.String("helo_name", p.HeloName), slog.String("mail_from", p.MailFrom), slog.Int("port", p.Port),
		slog.Bool("dial_context", p.DialContext), slog.String("proxy", p.Proxy),
		slog.Duration("connect_timeout", o.ConnectTimeout), slog.Duration("step_timeout", o.StepTimeout),
		slog.Bool("skip_catch_all", p.SkipCatchAll), slog.Int("max_hosts", p.MaxHosts),
		slog.Bool("allow_private_addresses", p.AllowPrivateAddresses),
		slog.Int("host_connections", p.HostConnections), slog.Duration("host_interval", o.HostInterval),
	)
}

// MarshalJSON implements json.Marshaler: the proxy's credentials are
// redacted, and DialContext, a function, is shown as whether it is set.
func (o SMTPOptions) MarshalJSON() ([]byte, error) { return json.Marshal(o.printable()) }

// Format implements fmt.Formatter: a Verifier prints as its type only,
// whatever the verb, so that no verb reaches the credentials of its
// configuration.
func (Verifier) Format(f fmt.State, _ rune) { fmt.Fprint(f, "email.Verifier{}") }
