package webcheck

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/safehttp"
)

// MaxURLLength bounds every URL a request carries.
const MaxURLLength = 8192

// URLParseRequest is the request of [ParseURL].
type URLParseRequest struct {
	// URL is the absolute URL to parse. Required.
	URL string `json:"url" openapi:"required"`
}

// URLParseResult is the result of [ParseURL].
type URLParseResult struct {
	// Scheme is the lower-case scheme.
	Scheme string `json:"scheme"`
	// Host is the host in ASCII (IDN in punycode), lower case; IPv6
	// without brackets; IPv4 in dotted decimal even when written otherwise.
	Host string `json:"host"`
	// Port is the explicit port, or the scheme's default (80 for http and
	// ws, 443 for https and wss, 21 for ftp); 0 when the scheme has none.
	Port int `json:"port"`
	// Path is the decoded path ("/a b" for "/a%20b").
	Path string `json:"path"`
	// Query is the raw query, without "?".
	Query string `json:"query"`
	// Fragment is the decoded fragment, without "#".
	Fragment string `json:"fragment"`
	// Username is the user of the userinfo; null when there is none.
	Username *string `json:"username"`
	// HasPassword reports whether the userinfo has a password.
	HasPassword bool `json:"has_password"`
	// QueryParams maps each query parameter to its values, in order.
	QueryParams map[string][]string `json:"query_params"`
	// NormalizedURL is the URL after RFC 3986 section 6 normalization:
	// lower-case scheme and host, IDN host in punycode, default port
	// removed, dot segments removed, percent-encoding of unreserved
	// characters decoded and other escapes in upper case, empty path "/"
	// for http(s).
	NormalizedURL string `json:"normalized_url"`
}

var defaultPorts = map[string]int{
	"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21,
	"gopher": 70, "ssh": 22, "sftp": 22, "ldap": 389, "ldaps": 636,
	"smtp": 25, "imap": 143, "pop3": 110, "redis": 6379, "postgres": 5432,
	"postgresql": 5432, "mysql": 3306, "mongodb": 27017, "amqp": 5672,
}

// ParseURL parses an absolute URL into its parts and its normalized form.
// Only parsing happens: nothing is fetched. A URL that does not parse, or
// whose normal form would be longer than MaxURLLength, is an
// INVALID_REQUEST naming the rule it breaks.
func ParseURL(_ context.Context, req URLParseRequest) (URLParseResult, error) {
	u, host, err := parseAbsolute("url", req.URL)
	if err != nil {
		return URLParseResult{}, err
	}
	res := URLParseResult{
		Scheme:      u.Scheme,
		Host:        host,
		Path:        u.Path,
		Query:       u.RawQuery,
		Fragment:    u.Fragment,
		QueryParams: map[string][]string{},
	}
	res.Port = defaultPorts[u.Scheme]
	if p := u.Port(); p != "" {
		res.Port, _ = strconv.Atoi(p)
	}
	if u.User != nil {
		name := u.User.Username()
		res.Username = &name
		_, res.HasPassword = u.User.Password()
	}
	if u.RawQuery != "" {
		q, _ := url.ParseQuery(u.RawQuery) // keeps the pairs that parse
		res.QueryParams = q
	}
	res.NormalizedURL = normalize(u, host)
	if len(res.NormalizedURL) > MaxURLLength {
		// Percent-encoding writes each byte outside printable ASCII as
		// three characters; a normal form over the bound would itself be
		// refused, so it is not answered.
		return URLParseResult{}, envelope.Invalidf("url", "its normal form would be longer than %d characters (%d): each byte outside printable ASCII is percent-encoded as three", MaxURLLength, len(res.NormalizedURL))
	}
	return res, nil
}

// parseAbsolute parses raw as an absolute URL with a host and returns it
// with its canonical host. Every failure names field.
func parseAbsolute(field, raw string) (*url.URL, string, error) {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "":
		return nil, "", envelope.Invalid(field, "is required")
	case len(raw) > MaxURLLength:
		return nil, "", envelope.Invalidf(field, "must be at most %d characters", MaxURLLength)
	case !utf8.ValidString(raw):
		return nil, "", envelope.Invalid(field, "must be valid UTF-8")
	}
	u, err := url.Parse(raw)
	if err != nil {
		reason := err.Error()
		if ue, ok := err.(*url.Error); ok {
			reason = ue.Err.Error()
		}
		// net/url quotes the offending part (a port, a host), which can be
		// as long as the URL.
		return nil, "", envelope.Invalid(field, "is not a valid URL: "+truncate(reason, maxQuoted+40))
	}
	if u.Scheme == "" {
		return nil, "", envelope.Invalid(field, "must be an absolute URL with a scheme, e.g. https://example.com/")
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, "", envelope.Invalid(field, "must have a host (scheme://host/...)")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, "", envelope.Invalid(field, "has a port outside 1-65535")
		}
	}
	h, err := safehttp.ParseHost(u.Hostname())
	if err != nil && !isRefused(err) {
		return nil, "", envelope.Invalid(field, "has an invalid host: "+strings.TrimPrefix(err.Error(), safehttp.ErrInvalidHost.Error()+": "))
	}
	host := strings.TrimSuffix(u.Hostname(), ".")
	if err == nil {
		host = h.String()
	}
	return u, strings.ToLower(host), nil
}

// parseHTTPURL parses raw as an absolute http or https URL.
func parseHTTPURL(field, raw string) (*url.URL, error) {
	if u, err := url.Parse(strings.TrimSpace(raw)); err == nil && u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return nil, envelope.Invalid(field, "must be an http or https URL")
	}
	u, _, err := parseAbsolute(field, raw)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, envelope.Invalid(field, "must be an http or https URL")
	}
	return u, nil
}

// normalize returns the RFC 3986 normal form of u, whose canonical host is
// host.
func normalize(u *url.URL, host string) string {
	var b strings.Builder
	b.WriteString(u.Scheme)
	b.WriteString("://")
	if u.User != nil {
		b.WriteString(normalizePercent(u.User.String()))
		b.WriteByte('@')
	}
	if strings.Contains(host, ":") {
		b.WriteString("[" + host + "]")
	} else {
		b.WriteString(host)
	}
	if p := u.Port(); p != "" {
		n, _ := strconv.Atoi(p)
		if n != defaultPorts[u.Scheme] {
			b.WriteString(":" + strconv.Itoa(n))
		}
	}
	path := removeDotSegments(normalizePercent(u.EscapedPath()))
	if path == "" && (u.Scheme == "http" || u.Scheme == "https") {
		path = "/"
	}
	b.WriteString(path)
	if u.ForceQuery || u.RawQuery != "" {
		b.WriteByte('?')
		b.WriteString(normalizePercent(u.RawQuery))
	}
	if u.Fragment != "" {
		b.WriteByte('#')
		b.WriteString(normalizePercent(u.EscapedFragment()))
	}
	return b.String()
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

const upperHex = "0123456789ABCDEF"

// normalizePercent decodes escapes of unreserved characters, upper-cases
// the hex digits of the others, and escapes bytes outside printable ASCII.
func normalizePercent(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				d := hi<<4 | lo
				if isUnreserved(d) {
					b.WriteByte(d)
				} else {
					b.WriteByte('%')
					b.WriteByte(upperHex[d>>4])
					b.WriteByte(upperHex[d&15])
				}
				i += 2
				continue
			}
		}
		if c <= ' ' || c >= 0x7f {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// removeDotSegments is the algorithm of RFC 3986 section 5.2.4.
func removeDotSegments(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	var out []string
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "/..":
			in = "/"
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "." || in == "..":
			in = ""
		default:
			start := 0
			if in[0] == '/' {
				start = 1
			}
			end := strings.IndexByte(in[start:], '/')
			if end < 0 {
				end = len(in)
			} else {
				end += start
			}
			out = append(out, in[:end])
			in = in[end:]
		}
	}
	return strings.Join(out, "")
}
