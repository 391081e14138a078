// Package weburl is Quiver's one URL parser: it reads a URL the way
// browsers do, by the WHATWG URL Standard (https://url.spec.whatwg.org/),
// on top of github.com/nlnwa/whatwg-url, which implements the Standard's
// basic URL parser, host parser and serializer.
//
// What this package adds is what Quiver needs around the Standard: the
// failures named as rules a caller can act on, the repairs that signal a
// parser-differential trick named as [Warning] codes, the
// application/x-www-form-urlencoded parser for query parameters, and the
// conversion to a net/url URL whose host is checked to be the one the
// Standard reads, so that what is checked is what is dialed.
package weburl

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	werrors "github.com/nlnwa/whatwg-url/errors"
	wurl "github.com/nlnwa/whatwg-url/url"

	"github.com/quiverkit/quiver/internal/textcut"
)

// Error is a URL the Standard refuses (or that Quiver refuses on top of
// it). Rule completes a sentence whose subject is the URL, e.g. "has a
// port outside 0-65535".
type Error struct {
	Rule string
}

func (e *Error) Error() string { return "URL " + e.Rule }

// URL is a parsed URL: the Standard's components, serialized as its
// getters serialize them.
type URL struct {
	// Href is the Standard's serialization of the whole URL.
	Href string
	// Scheme is the lower-case scheme, without ":".
	Scheme string
	// Special reports a special scheme: http, https, ws, wss, ftp, file.
	Special bool
	// Username and Password are the percent-encoded credentials; empty
	// when absent (the Standard does not tell absent from empty).
	Username, Password string
	// Host is the serialized host: an ASCII domain, a dotted IPv4
	// address, a bracketed IPv6 address, or an opaque host; empty for a
	// file URL's empty host and for URLs without a host.
	Host string
	// Addr is the host's address when the host is an IPv4 or IPv6
	// address.
	Addr netip.Addr
	// Port is the port; empty when the URL has none (a special scheme's
	// default port is dropped).
	Port string
	// Path is the serialized path (the Standard's pathname).
	Path string
	// Query is the query without "?", and HasQuery whether there is one
	// (it may be empty: "http://a/?").
	Query    string
	HasQuery bool
	// Fragment is the fragment without "#", and HasFragment whether there
	// is one (it may be empty: "http://a/#").
	Fragment    string
	HasFragment bool
	// Warnings are the repairs the parser made that signal trouble, in a
	// fixed order.
	Warnings []Warning
}

// DefaultPort returns the Standard's default port of a special scheme
// ("80" for http), or "" for file and the schemes that are not special.
func DefaultPort(scheme string) string {
	switch scheme {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	case "ftp":
		return "21"
	}
	return ""
}

// Parse parses raw as an absolute URL by the Standard's basic URL parser.
// A URL the Standard refuses is an *Error naming the rule.
func Parse(raw string) (*URL, error) {
	return parse(raw, "")
}

// ParseRef parses ref against base (an absolute URL), as a browser
// resolves a link or a redirect's Location.
func ParseRef(base, ref string) (*URL, error) {
	return parse(ref, base)
}

// hostReader is the part of the library's parser (an exported method set
// on an unexported type) that maps a written host to its ASCII form.
type hostReader interface {
	DecodePercentEncoded(s string) string
	ToASCII(src string, beStrict bool) (string, error)
}

// MaxUserinfo bounds the credentials of a URL as written, in bytes. The
// Standard sets no bound; the library builds the credentials one
// character at a time, so their cost grows with the square of their
// length (8 KiB of "@" took half a second), and real credentials are
// short.
const MaxUserinfo = 1024

// MaxLength bounds a URL or reference as written, in bytes, before it is
// parsed. The library builds a path one segment at a time, so its cost
// grows with the square of the segments: 64 KiB of "/" took 2.5 s of CPU,
// 256 KiB 35 s. A redirect's Location or a page's meta refresh is parsed
// too, so the bound is here, for every caller.
const MaxLength = 8192

func parse(raw, base string) (*URL, error) {
	if len(raw) > MaxLength {
		return nil, &Error{Rule: fmt.Sprintf("is %d characters long, over the limit of %d", len(raw), MaxLength)}
	}
	if n := len(writtenUserinfo(raw, base)); n > MaxUserinfo {
		return nil, &Error{Rule: fmt.Sprintf("has credentials (before \"@\") of %d characters, over the limit of %d", n, MaxUserinfo)}
	}
	var rawHost string
	p := wurl.NewParser(
		wurl.WithReportValidationErrors(),
		wurl.WithPreParseHostFunc(func(_ *wurl.Url, h string) string { rawHost = h; return h }),
	)
	var (
		u   *wurl.Url
		err error
	)
	if base == "" {
		u, err = p.Parse(raw)
	} else {
		u, err = p.ParseRef(base, raw)
	}
	if err != nil {
		return nil, failure(err)
	}
	if u == nil {
		return nil, &Error{Rule: "is not a valid URL"}
	}
	// The library trims every bracket around an IPv6 host, so "[::1]]"
	// and "[[::1]]" read as [::1]; the Standard refuses both.
	if strings.HasPrefix(rawHost, "[") && (strings.Count(rawHost, "[") != 1 || strings.Count(rawHost, "]") != 1 || !strings.HasSuffix(rawHost, "]")) {
		return nil, &Error{Rule: "has an IPv6 host with unbalanced brackets: " + quoteShort(rawHost)}
	}
	res := &URL{
		Href:     u.Href(false),
		Scheme:   u.Scheme(),
		Special:  u.IsSpecialScheme(),
		Username: u.Username(),
		Password: u.Password(),
		Host:     u.Hostname(),
		Port:     u.Port(),
		Path:     u.Pathname(),
		Query:    u.Query(),
		Fragment: u.Fragment(),
	}
	// The getters do not tell an empty query or fragment from none; the
	// serialization does ("http://a/?#"): outside the fragment, "#" and
	// "?" are escaped in the path, and "#" in the query.
	res.HasFragment = res.Fragment != "" || strings.HasSuffix(res.Href, "#")
	rest := res.Href
	if res.HasFragment {
		rest = rest[:len(rest)-len(res.Fragment)-1]
	}
	res.HasQuery = res.Query != "" || strings.HasSuffix(rest, "?")
	if u.IsIPv4() || u.IsIPv6() {
		a, err := netip.ParseAddr(strings.Trim(res.Host, "[]"))
		if err != nil {
			return nil, &Error{Rule: "has a host address that does not parse: " + strconv.Quote(res.Host)}
		}
		res.Addr = a
	}
	var ascii string
	if u.IsIPv4() {
		hr, ok := p.(hostReader)
		if !ok { // a library upgrade changed the parser: fail closed
			return nil, &Error{Rule: "has an IPv4 host this build cannot check"}
		}
		ascii, _ = hr.ToASCII(hr.DecodePercentEncoded(rawHost), false)
		// The library reads a part with a sign ("1.+1") as a number; the
		// Standard's IPv4 number parser accepts digits only, so such a
		// host is a domain there. Refused rather than read differently.
		if strings.ContainsAny(ascii, "+-") {
			return nil, &Error{Rule: "has a host with a signed number part (" + quoteShort(ascii) + "), which is refused: browsers read it as a name, this parser as an IPv4 address"}
		}
	}
	if base == "" {
		res.Warnings = warnings(raw, rawHost, ascii, u)
	}
	return res, nil
}

// quoteShort quotes at most 60 bytes of s in ASCII (so that an invisible
// or look-alike character shows as its escape), "…" after the quotes
// marking a cut.
func quoteShort(s string) string {
	q := strconv.QuoteToASCII(textcut.Cut(s, 60))
	if len(s) > 60 {
		q += "…"
	}
	return q
}

// failure turns the library's refusal into an *Error naming the rule.
func failure(err error) error {
	descr := werrors.Description(err)
	var cause string
	if c := errors.Unwrap(err); c != nil {
		cause = c.Error()
	}
	switch werrors.Type(err) {
	case werrors.MissingSchemeNonRelativeURL:
		return &Error{Rule: "must be an absolute URL with a scheme, e.g. https://example.com/"}
	case werrors.HostMissing:
		return &Error{Rule: "must have a host (scheme://host/...)"}
	case werrors.InvalidCredentials:
		return &Error{Rule: "has credentials (user@) but no host after them"}
	case werrors.PortOutOfRange:
		return &Error{Rule: "has a port outside 0-65535"}
	case werrors.PortInvalid, werrors.PortMissing:
		return &Error{Rule: "has a port that is not a decimal number"}
	case werrors.DomainInvalidCodePoint, werrors.HostInvalidCodePoint:
		return &Error{Rule: "has a host with the forbidden character " + quoteShort(descr)}
	case werrors.DomainToASCII:
		why := descr
		if why == "" {
			why = cause
		}
		return &Error{Rule: "has a host that is not a valid internationalized domain name (UTS #46): " + textcut.Mark(why, 80, "…")}
	case werrors.IPv4EmptyPart, werrors.IPv4TooManyParts, werrors.IPv4NonNumericPart, werrors.IPv4OutOfRangePart:
		return &Error{Rule: "has a host that ends in a number, so must be an IPv4 address, but is not one: " + ipv4Why[werrors.Type(err)]}
	case werrors.IPv6Unclosed:
		return &Error{Rule: "has an IPv6 host without its closing ]"}
	case werrors.IPv6InvalidCompression, werrors.IPv6TooManyPieces, werrors.IPv6MultipleCompression,
		werrors.IPv6InvalidCodePoint, werrors.IPv6TooFewPieces, werrors.IPv4InIPv6TooManyPieces,
		werrors.IPv4InIPv6InvalidCodePoint, werrors.IPv4InIPv6OutOfRangePart, werrors.IPv4InIPv6TooFewParts:
		return &Error{Rule: "has an invalid IPv6 address in brackets"}
	}
	return &Error{Rule: "is not a valid URL"}
}

var ipv4Why = map[werrors.ErrorType]string{
	werrors.IPv4EmptyPart:      "a part is empty",
	werrors.IPv4TooManyParts:   "it has more than four parts",
	werrors.IPv4NonNumericPart: "a part is not a decimal, octal (0...) or hexadecimal (0x...) number",
	werrors.IPv4OutOfRangePart: "a part is out of range (over 255, or the last part over what the remaining bytes hold)",
}

// Go returns u as a net/url URL for an HTTP client, refusing a URL whose
// host or port net/url would read differently from the Standard (so that
// a check on the Standard's host is a check on the dialed one).
func (u *URL) Go() (*url.URL, error) {
	g, err := url.Parse(u.Href)
	if err != nil {
		reason := err.Error()
		var ue *url.Error
		if errors.As(err, &ue) {
			reason = ue.Err.Error()
		}
		return nil, &Error{Rule: "cannot be fetched: Go's HTTP client does not accept its normal form: " + textcut.Mark(reason, 120, "…")}
	}
	if g.Hostname() != strings.Trim(u.Host, "[]") || g.Port() != u.Port {
		return nil, &Error{Rule: fmt.Sprintf("cannot be fetched: Go's HTTP client reads its host as %s, the URL Standard as %s", quoteShort(g.Host), quoteShort(u.Host))}
	}
	return g, nil
}
