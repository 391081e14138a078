package webcheck

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/internal/weburl"
)

// MaxURLLength bounds every URL a request carries.
const MaxURLLength = 8192

// URLParseRequest is the request of [ParseURL].
type URLParseRequest struct {
	// URL is the absolute URL to parse. Required.
	URL string `json:"url" openapi:"required"`
}

// URLParseResult is the result of [ParseURL]: the components of the URL
// as the WHATWG URL Standard defines and serializes them.
type URLParseResult struct {
	// Scheme is the lower-case scheme, without ":".
	Scheme string `json:"scheme"`
	// Host is the Standard's serialized host: a domain in ASCII (IDN as
	// A-labels, punycode), lower case; an IPv4 address in dotted decimal
	// however it was written; an IPv6 address in brackets ("[::1]"); an
	// opaque host as written for schemes that are not special; empty for
	// a file URL without a host.
	Host string `json:"host"`
	// Port is the URL's port, or when it has none the scheme's default
	// (80 for http and ws, 443 for https and wss, 21 for ftp, and a
	// well-known port for some other schemes, e.g. 5432 for postgres); 0
	// when there is neither.
	Port int `json:"port"`
	// Path is the Standard's serialized path (its pathname): dot segments
	// removed, percent-escapes kept as written ("/a%41"), other
	// characters outside the path percent-encode set escaped.
	Path string `json:"path"`
	// Query is the serialized query, without "?".
	Query string `json:"query"`
	// Fragment is the serialized fragment, without "#".
	Fragment string `json:"fragment"`
	// Username is the percent-encoded user name; null when it is empty
	// (the Standard does not tell an absent user from an empty one).
	Username *string `json:"username"`
	// HasPassword reports whether the URL has a (non-empty) password.
	HasPassword bool `json:"has_password"`
	// QueryParams maps each name of the query, parsed as
	// application/x-www-form-urlencoded ("+" is a space, escapes decoded),
	// to its values in order.
	QueryParams map[string][]string `json:"query_params"`
	// NormalizedURL is the Standard's serialization of the URL (its
	// href): what a browser's address bar and fetch use.
	NormalizedURL string `json:"normalized_url"`
	// Warnings name the repairs the parser made that browsers make too
	// but that signal trouble (backslashes, missing slashes, stripped
	// controls, empty credentials...): ways of writing a URL that other
	// parsers read differently. Empty when there are none. An extension
	// beyond the contract.
	Warnings []URLWarning `json:"warnings"`
}

// A URLWarningCode names a repair of [ParseURL]: see [URLWarning.Code].
type URLWarningCode string

// The codes of [URLWarning], in the order ParseURL reports them.
const (
	URLWarnStrippedControl      URLWarningCode = weburl.WarnStrippedControl
	URLWarnStrippedTabNewline   URLWarningCode = weburl.WarnStrippedTabNewline
	URLWarnBackslash            URLWarningCode = weburl.WarnBackslash
	URLWarnMissingSlashes       URLWarningCode = weburl.WarnMissingSlashes
	URLWarnExtraSlashes         URLWarningCode = weburl.WarnExtraSlashes
	URLWarnEmptyUserinfo        URLWarningCode = weburl.WarnEmptyUserinfo
	URLWarnCredentials          URLWarningCode = weburl.WarnCredentials
	URLWarnMultipleAt           URLWarningCode = weburl.WarnMultipleAt
	URLWarnPercentEncodedHost   URLWarningCode = weburl.WarnPercentEncodedHost
	URLWarnIPv4NonDecimal       URLWarningCode = weburl.WarnIPv4NonDecimal
	URLWarnIPv4Shorthand        URLWarningCode = weburl.WarnIPv4Shorthand
	URLWarnIPv4TrailingDot      URLWarningCode = weburl.WarnIPv4TrailingDot
	URLWarnInvalidPercentEscape URLWarningCode = weburl.WarnInvalidPercentEscape
	URLWarnHostMapped           URLWarningCode = weburl.WarnHostMapped
)

// URLWarningCodes returns the codes of URLWarning, in the order ParseURL
// reports them.
func URLWarningCodes() []URLWarningCode {
	return []URLWarningCode{
		URLWarnStrippedControl,
		URLWarnStrippedTabNewline,
		URLWarnBackslash,
		URLWarnMissingSlashes,
		URLWarnExtraSlashes,
		URLWarnEmptyUserinfo,
		URLWarnCredentials,
		URLWarnMultipleAt,
		URLWarnPercentEncodedHost,
		URLWarnIPv4NonDecimal,
		URLWarnIPv4Shorthand,
		URLWarnIPv4TrailingDot,
		URLWarnInvalidPercentEscape,
		URLWarnHostMapped,
	}
}

// URLWarning is one repair that [ParseURL] made to the URL as written.
type URLWarning struct {
	// Code is stable: "stripped_control" (leading or trailing controls or
	// spaces), "stripped_tab_newline", "backslash", "missing_slashes"
	// ("https:example.com"), "extra_slashes" ("http:///example.com"),
	// "empty_userinfo" ("http://@host", "http://user:@host"),
	// "credentials", "multiple_at", "percent_encoded_host",
	// "ipv4_non_decimal" ("0x7f.1"), "ipv4_shorthand" ("127.1"),
	// "ipv4_trailing_dot", "invalid_percent_escape" ("%zz"), "host_mapped"
	// (full-width "１２７.０.０.１", "example。com", invisible characters).
	Code URLWarningCode `json:"code"`
	// Message says what was repaired.
	Message string `json:"message"`
}

// defaultPorts are the ports reported for a URL without one: the
// Standard's default ports of the special schemes, and well-known ports
// of some others.
var defaultPorts = map[string]int{
	"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21,
	"gopher": 70, "ssh": 22, "sftp": 22, "ldap": 389, "ldaps": 636,
	"smtp": 25, "imap": 143, "pop3": 110, "redis": 6379, "postgres": 5432,
	"postgresql": 5432, "mysql": 3306, "mongodb": 27017, "amqp": 5672,
}

// ParseURL parses an absolute URL as browsers do, by the WHATWG URL
// Standard, into its components and its serialization. Only parsing
// happens: nothing is fetched. A URL the Standard refuses, a URL of a
// scheme that is not special without a host, or one whose serialization
// would be longer than MaxURLLength, is an INVALID_REQUEST naming the
// rule it breaks.
func ParseURL(_ context.Context, req URLParseRequest) (URLParseResult, error) {
	u, err := parseWeb("url", req.URL)
	if err != nil {
		return URLParseResult{}, err
	}
	res := URLParseResult{
		Scheme:        u.Scheme,
		Host:          u.Host,
		Port:          defaultPorts[u.Scheme],
		Path:          u.Path,
		Query:         u.Query,
		Fragment:      u.Fragment,
		HasPassword:   u.Password != "",
		QueryParams:   weburl.ParseForm(u.Query),
		NormalizedURL: u.Href,
		Warnings:      make([]URLWarning, 0, len(u.Warnings)),
	}
	if u.Port != "" {
		res.Port, _ = strconv.Atoi(u.Port)
	}
	if u.Username != "" {
		name := u.Username
		res.Username = &name
	}
	for _, w := range u.Warnings {
		res.Warnings = append(res.Warnings, URLWarning{Code: URLWarningCode(w.Code), Message: w.Message})
	}
	return res, nil
}

// parseWeb parses raw as an absolute URL with Quiver's one URL parser
// (the WHATWG URL Standard). Every failure names field.
func parseWeb(field, raw string) (*weburl.URL, error) {
	switch {
	case strings.TrimFunc(raw, func(r rune) bool { return r <= ' ' }) == "":
		return nil, envelope.Invalid(field, "is required")
	case len(raw) > MaxURLLength:
		return nil, envelope.Invalidf(field, "must be at most %d characters", MaxURLLength)
	case !utf8.ValidString(raw):
		return nil, envelope.Invalid(field, "must be valid UTF-8")
	}
	u, err := weburl.Parse(raw)
	if err != nil {
		var we *weburl.Error
		if errors.As(err, &we) {
			return nil, envelope.Invalid(field, we.Rule)
		}
		return nil, envelope.Invalid(field, "is not a valid URL")
	}
	if !u.Special && u.Host == "" {
		return nil, envelope.Invalid(field, "must have a host (scheme://host/...)")
	}
	if len(u.Href) > MaxURLLength {
		// Percent-encoding writes each byte outside printable ASCII as
		// three characters; a serialization over the bound would itself
		// be refused, so it is not answered.
		return nil, envelope.Invalidf(field, "its normal form would be longer than %d characters (%d): each byte outside printable ASCII is percent-encoded as three", MaxURLLength, len(u.Href))
	}
	return u, nil
}

// parseHTTPURL parses raw as an absolute http or https URL with Quiver's
// one URL parser, for a fetch: the URL returned is the one the SSRF-safe
// client checks and dials, its host the host the Standard reads.
func parseHTTPURL(field, raw string) (*url.URL, error) {
	u, err := parseWeb(field, raw)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, envelope.Invalid(field, "must be an http or https URL")
	}
	g, err := goURL(field, u)
	if err != nil {
		return nil, err
	}
	// The client's own host rules on top of the Standard (a name DNS
	// cannot resolve) are reported here as a bad request, not later as a
	// refused destination.
	if _, err := safehttp.ParseHost(g.Hostname()); err != nil && !isRefused(err) {
		return nil, envelope.Invalid(field, "has an invalid host: "+strings.TrimPrefix(err.Error(), safehttp.ErrInvalidHost.Error()+": "))
	}
	return g, nil
}

// goURL converts u for net/http, naming field when net/url would read
// it differently.
func goURL(field string, u *weburl.URL) (*url.URL, error) {
	g, err := u.Go()
	if err != nil {
		var we *weburl.Error
		if errors.As(err, &we) {
			return nil, envelope.Invalid(field, we.Rule)
		}
		return nil, envelope.Invalid(field, "cannot be fetched")
	}
	return g, nil
}

// resolveRef resolves ref (a Location, a meta refresh target) against
// base as a browser does, for the next fetch.
func resolveRef(base *url.URL, ref string) (*url.URL, error) {
	u, err := weburl.ParseRef(base.String(), ref)
	if err != nil {
		return nil, err
	}
	return u.Go()
}

// isWebURL reports whether a field that takes a domain was given an http
// or https URL instead ("https://example.com/", and also the forms a
// browser repairs, "https:example.com").
func isWebURL(s string) bool {
	s = strings.ToLower(strings.TrimLeft(s, " \t\n\r"))
	return strings.Contains(s, "://") || strings.HasPrefix(s, "http:") || strings.HasPrefix(s, "https:")
}
