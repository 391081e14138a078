package email

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/proxy"
)

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

// proxyDialer returns the dial function that reaches addresses through
// the SOCKS5 proxy of o, opening the connection to the proxy with
// o.DialContext (a net.Dialer when nil).
func proxyDialer(o SMTPOptions) (func(ctx context.Context, network, addr string) (net.Conn, error), error) {
	addr, auth, err := parseProxy(o.Proxy.Reveal())
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

// Format implements fmt.Formatter: a Verifier prints as its type only,
// whatever the verb, so that no verb reaches the credentials of its
// configuration.
func (Verifier) Format(f fmt.State, _ rune) { fmt.Fprint(f, "email.Verifier{}") }
