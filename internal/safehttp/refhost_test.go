package safehttp

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/quiverkit/quiver/internal/textcut"
)

// refIDNA maps hosts the way browsers do (UTS #46, non-transitional,
// underscores allowed), so that full-width digits and dots become ASCII
// before the IPv4 check.
var refIDNA = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.StrictDomainName(false),
)

// refParseHost is the hand-written host parser safehttp had before it
// used Quiver's one URL parser (internal/weburl). It stays as a reference
// for TestHostParsersAgree, which shows where the two agree. It reads a
// URL host as the WHATWG URL standard does: percent-decoding, IDNA mapping to punycode, and the IPv4 parser
// that accepts decimal, octal and hex parts ("2130706433", "0x7f.1",
// "0177.0.0.1") and shortened forms ("127.1"). IPv6 literals may be given
// with or without brackets. Names under .localhost are refused with
// [ErrDestinationNotAllowed].
func refParseHost(host string) (Host, error) {
	if host == "" {
		return Host{}, fmt.Errorf("%w: empty host", ErrInvalidHost)
	}
	if strings.HasPrefix(host, "[") {
		if !strings.HasSuffix(host, "]") {
			return Host{}, fmt.Errorf("%w: unterminated IPv6 literal %s", ErrInvalidHost, textcut.Quote(host))
		}
		host = host[1 : len(host)-1]
		a, err := netip.ParseAddr(host)
		if err != nil || !a.Is6() {
			return Host{}, fmt.Errorf("%w: bad IPv6 literal %s", ErrInvalidHost, textcut.Quote(host))
		}
		return Host{Addr: a}, nil
	}
	if strings.Contains(host, ":") {
		a, err := netip.ParseAddr(host)
		if err != nil {
			return Host{}, fmt.Errorf("%w: %s", ErrInvalidHost, textcut.Quote(host))
		}
		return Host{Addr: a}, nil
	}
	if strings.Contains(host, "%") {
		u, err := url.PathUnescape(host)
		if err != nil {
			return Host{}, fmt.Errorf("%w: bad percent-encoding in %s", ErrInvalidHost, textcut.Quote(host))
		}
		host = u
	}
	if !utf8.ValidString(host) {
		return Host{}, fmt.Errorf("%w: %s is not valid UTF-8", ErrInvalidHost, textcut.Quote(host))
	}
	ascii, err := refIDNA.ToASCII(host)
	if err != nil {
		return Host{}, fmt.Errorf("%w: %s: %s", ErrInvalidHost, textcut.Quote(host), textcut.Excerpt(err.Error()))
	}
	ascii = strings.ToLower(ascii)
	if i := strings.IndexAny(ascii, refForbiddenHostChars); i >= 0 {
		return Host{}, fmt.Errorf("%w: %s contains the forbidden character %q", ErrInvalidHost, textcut.Quote(host), ascii[i])
	}
	if refEndsInNumber(ascii) {
		a, err := refParseIPv4(ascii)
		if err != nil {
			return Host{}, fmt.Errorf("%w: %s looks like an IPv4 address but is not one: %v", ErrInvalidHost, textcut.Quote(host), err)
		}
		return Host{Addr: a}, nil
	}
	name := strings.TrimSuffix(ascii, ".")
	if name == "" || strings.Contains(name, "..") || strings.HasPrefix(name, ".") {
		return Host{}, fmt.Errorf("%w: %s has an empty label", ErrInvalidHost, textcut.Quote(host))
	}
	if len(name) > 253 {
		return Host{}, fmt.Errorf("%w: %s is longer than 253 characters", ErrInvalidHost, textcut.Quote(host))
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return Host{}, fmt.Errorf("%w: %s is a loopback name", ErrDestinationNotAllowed, name)
	}
	return Host{Name: ascii}, nil
}

// refForbiddenHostChars are the WHATWG forbidden domain code points in ASCII.
const refForbiddenHostChars = "\x00\t\n\r #/:<>?@[\\]^|%\x7f"

// refEndsInNumber is the WHATWG "ends in a number" check: the last label (a
// trailing dot aside) is decimal digits or a 0x hex number.
func refEndsInNumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, err := refIPv4Number(last)
	return err == nil
}

// refIPv4Number parses one part of an IPv4 address: 0x hex, 0 octal or
// decimal.
func refIPv4Number(s string) (uint64, error) {
	if s == "" {
		return 0, errors.New("empty part")
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, nil
		}
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	if len(s) > 20 {
		return 0, errors.New("part too long")
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, fmt.Errorf("part %q is not a base-%d number", s, base)
	}
	return n, nil
}

// refParseIPv4 is the WHATWG IPv4 parser.
func refParseIPv4(s string) (netip.Addr, error) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, errors.New("more than four parts")
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, err := refIPv4Number(p)
		if err != nil {
			return netip.Addr{}, err
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, errors.New("a part is over 255")
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, errors.New("the last part is out of range")
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}
