// Package safehttp is Quiver's one way out to user-supplied destinations:
// an HTTP client and a TCP dialer that refuse to reach private, loopback
// and otherwise special-purpose addresses (SSRF protection).
//
// The check runs where it cannot be bypassed: at dial time, on the address
// that is actually dialed, after resolution. A name is resolved once, every
// answer is checked, and the connection goes to a checked address, so a
// DNS rebinding answer cannot slip through between check and use. The
// dialer's Control hook checks the socket address once more. Redirects are
// dialed through the same dialer, so every hop is checked.
//
// Refused: loopback, RFC 1918, CGNAT (100.64.0.0/10), link-local
// (169.254.0.0/16, cloud metadata included), multicast, unspecified,
// reserved, documentation and benchmark ranges, and in IPv6 everything
// outside global unicast (ULA, link-local, IPv4-mapped, NAT64) plus the
// special-purpose blocks inside it (Teredo, 6to4, documentation). The lists
// are those of [code.dny.dev/ssrf], which this package builds on.
//
// URLs must be http or https. Hosts are read as browsers read them
// ([ParseHost]): "2130706433", "0x7f.1" and "0177.0.0.1" are all 127.0.0.1,
// and are refused as such.
//
// Every refusal wraps [ErrDestinationNotAllowed]: test with errors.Is.
package safehttp

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
)

// ErrDestinationNotAllowed is wrapped by every error that refuses a
// destination: a prohibited address, scheme, or host spelling.
var ErrDestinationNotAllowed = errors.New("destination not allowed")

// Resolver resolves host names to addresses. *resolver.Resolver satisfies it;
// [net.Resolver] does through [NetResolver].
type Resolver interface {
	LookupIP(ctx context.Context, host string) ([]netip.Addr, error)
}

// NetResolver adapts a *net.Resolver (nil: net.DefaultResolver) to
// [Resolver].
type NetResolver struct{ R *net.Resolver }

// LookupIP resolves host to its IPv4 and IPv6 addresses.
func (n NetResolver) LookupIP(ctx context.Context, host string) ([]netip.Addr, error) {
	r := n.R
	if r == nil {
		r = net.DefaultResolver
	}
	return r.LookupNetIP(ctx, "ip", host)
}

// Loopback lists the loopback prefixes; pass them to [AllowPrefixes] (or
// use [AllowLoopback]) in tests and internal deployments.
var Loopback = []netip.Prefix{
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("::1/128"),
}

// Dialer dials TCP connections to addresses that pass the SSRF policy.
// Build it with [NewDialer]; it is safe for concurrent use.
type Dialer struct {
	resolver Resolver
	guard    *ssrf.Guardian
	allowed  []netip.Prefix
	timeout  time.Duration
}

// Option configures a [Dialer] or a [Client].
type Option func(*options)

type options struct {
	resolver     Resolver
	allowed      []netip.Prefix
	dialTimeout  time.Duration
	timeout      time.Duration
	maxBody      int64
	maxRedirects int
	roots        *x509.CertPool
	userAgent    string
}

// WithResolver sets the resolver of host names. Default: the system
// resolver through [NetResolver].
func WithResolver(r Resolver) Option { return func(o *options) { o.resolver = r } }

// AllowPrefixes allows destinations in the given prefixes, which would
// otherwise be refused. Tests use it with a single loopback address.
func AllowPrefixes(p ...netip.Prefix) Option {
	return func(o *options) { o.allowed = append(o.allowed, p...) }
}

// AllowLoopback allows the loopback prefixes. Only tests and internal
// deployments should set it; the default refuses loopback.
func AllowLoopback() Option { return AllowPrefixes(Loopback...) }

// WithDialTimeout bounds each dial (resolution included). Default 10s.
func WithDialTimeout(d time.Duration) Option { return func(o *options) { o.dialTimeout = d } }

func newOptions(opts []Option) options {
	o := options{
		dialTimeout:  10 * time.Second,
		timeout:      DefaultTimeout,
		maxBody:      DefaultMaxBodyBytes,
		maxRedirects: DefaultMaxRedirects,
		userAgent:    DefaultUserAgent,
	}
	for _, opt := range opts {
		opt(&o)
	}
	if o.resolver == nil {
		o.resolver = NetResolver{}
	}
	return o
}

// NewDialer returns a dialer enforcing the SSRF policy.
func NewDialer(opts ...Option) *Dialer {
	o := newOptions(opts)
	return newDialer(o)
}

func newDialer(o options) *Dialer {
	var v4, v6 []netip.Prefix
	for _, p := range o.allowed {
		if p.Addr().Is4() {
			v4 = append(v4, p)
		} else {
			v6 = append(v6, p)
		}
	}
	return &Dialer{
		resolver: o.resolver,
		allowed:  o.allowed,
		timeout:  o.dialTimeout,
		guard: ssrf.New(
			ssrf.WithAnyPort(),
			ssrf.WithAllowedV4Prefixes(v4...),
			ssrf.WithAllowedV6Prefixes(v6...),
		),
	}
}

// CheckAddr reports whether addr may be dialed, with an error wrapping
// [ErrDestinationNotAllowed] when it may not.
func (d *Dialer) CheckAddr(addr netip.Addr) error { return d.checkAddr("", addr) }

// checkAddr is CheckAddr of addr, an address of the host name when name
// is not empty: the error then says which name resolves to it, once
// ("destination not allowed: db.internal resolves to 10.0.0.5, which is
// a special-purpose address").
func (d *Dialer) checkAddr(name string, addr netip.Addr) error {
	addr = addr.WithZone("")
	if err := d.guard.SafeAddr(addr); err != nil {
		what := addr.String()
		if name != "" {
			what = name + " resolves to " + what + ", which"
		}
		return fmt.Errorf("%w: %s is a special-purpose address (%v)", ErrDestinationNotAllowed, what, errors.Unwrap(err))
	}
	return nil
}

// Resolve returns the addresses of host (a name or an IP literal in any
// spelling browsers accept), refusing the host when any of them is not
// allowed: a name that resolves to one private address is not dialed at
// all.
func (d *Dialer) Resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	h, err := ParseHost(host)
	if err != nil {
		return nil, err
	}
	if h.IsIP() {
		if err := d.CheckAddr(h.Addr); err != nil {
			return nil, err
		}
		return []netip.Addr{h.Addr}, nil
	}
	addrs, err := d.resolver.LookupIP(ctx, h.Name)
	if err != nil {
		return nil, err // it names the host: *resolver.LookupError and *net.DNSError do
	}
	if len(addrs) == 0 {
		return nil, &net.DNSError{Err: "no addresses", Name: h.Name, IsNotFound: true}
	}
	for _, a := range addrs {
		if err := d.checkAddr(h.Name, a); err != nil {
			return nil, err
		}
	}
	return addrs, nil
}

// DialContext connects to address ("host:port") over network ("tcp",
// "tcp4" or "tcp6"), trying each allowed address of host in turn. It
// satisfies the DialContext field of [net/http.Transport].
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, fmt.Errorf("%w: network %q", ErrDestinationNotAllowed, network)
	}
	host, portStr, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDestinationNotAllowed, err)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil || port == 0 {
		return nil, fmt.Errorf("%w: port %q", ErrDestinationNotAllowed, portStr)
	}
	if d.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d.timeout)
		defer cancel()
	}
	addrs, err := d.Resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	nd := net.Dialer{Control: d.control}
	var firstErr error
	for _, a := range addrs {
		if (network == "tcp4" && !a.Is4()) || (network == "tcp6" && !a.Is6()) {
			continue
		}
		c, err := nd.DialContext(ctx, network, netip.AddrPortFrom(a, uint16(port)).String())
		if err == nil {
			return c, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	if firstErr == nil {
		firstErr = &net.DNSError{Err: "no address of the requested family", Name: host, IsNotFound: true}
	}
	return nil, firstErr
}

// control re-checks the socket address the kernel is about to connect to.
func (d *Dialer) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDestinationNotAllowed, err)
	}
	return d.CheckAddr(ap.Addr())
}
