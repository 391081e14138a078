package safehttp

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/internal/weburl"
)

// ErrInvalidHost is wrapped by the errors of [ParseHost] for hosts that no
// browser would accept.
var ErrInvalidHost = errors.New("invalid host")

// Host is a parsed URL host: an IP address or a domain name in ASCII
// (punycode) form, lower case.
type Host struct {
	// Name is the ASCII domain name; empty when the host is an IP.
	Name string
	// Addr is the IP address when the host is an IP literal in any
	// spelling.
	Addr netip.Addr
}

// IsIP reports whether the host is an IP literal.
func (h Host) IsIP() bool { return h.Addr.IsValid() }

// String returns the host in canonical form: the dotted IPv4 address, the
// IPv6 address without brackets, or the ASCII name.
func (h Host) String() string {
	if h.IsIP() {
		return h.Addr.String()
	}
	return h.Name
}

// ParseHost parses a URL host (without port) with Quiver's one URL
// parser, [weburl.ParseHost], which reads it as browsers do by the WHATWG
// URL Standard: percent-decoding, UTS #46 mapping to punycode, and the
// IPv4 parser that accepts decimal, octal and hex parts ("2130706433",
// "0x7f.1", "0177.0.0.1") and shortened forms ("127.1"). IPv6 literals
// may be given with or without brackets.
//
// On top of the Standard, names that DNS cannot resolve (an empty label,
// over 253 characters) are refused with [ErrInvalidHost], and names under
// .localhost with [ErrDestinationNotAllowed].
func ParseHost(host string) (Host, error) {
	s, addr, err := weburl.ParseHost(host)
	if err != nil {
		var we *weburl.Error
		if errors.As(err, &we) {
			return Host{}, fmt.Errorf("%w: %s %s", ErrInvalidHost, textcut.Quote(host), strings.TrimPrefix(we.Rule, "has a host "))
		}
		return Host{}, fmt.Errorf("%w: %s: %v", ErrInvalidHost, textcut.Quote(host), err)
	}
	if addr.IsValid() {
		return Host{Addr: addr}, nil
	}
	name := strings.TrimSuffix(s, ".")
	if name == "" || strings.Contains(name, "..") || strings.HasPrefix(name, ".") {
		return Host{}, fmt.Errorf("%w: %s has an empty label", ErrInvalidHost, textcut.Quote(host))
	}
	if len(name) > 253 {
		return Host{}, fmt.Errorf("%w: %s is longer than 253 characters", ErrInvalidHost, textcut.Quote(host))
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return Host{}, fmt.Errorf("%w: %s is a loopback name", ErrDestinationNotAllowed, name)
	}
	return Host{Name: s}, nil
}
