package weburl

import (
	"net/url"
	"strings"

	werrors "github.com/nlnwa/whatwg-url/errors"
	wurl "github.com/nlnwa/whatwg-url/url"
	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"
)

// Warning names a repair the parser made that browsers make too but that
// signals trouble: each is a way to write a URL that other parsers (a
// proxy, a WAF, an older library) read differently, the raw material of
// SSRF and open-redirect bypasses.
type Warning struct {
	// Code is stable: one of the Warn* constants.
	Code string
	// Message says what was repaired and how a browser reads it.
	Message string
}

// The warning codes.
const (
	WarnStrippedControl      = "stripped_control"
	WarnStrippedTabNewline   = "stripped_tab_newline"
	WarnBackslash            = "backslash"
	WarnMissingSlashes       = "missing_slashes"
	WarnExtraSlashes         = "extra_slashes"
	WarnEmptyUserinfo        = "empty_userinfo"
	WarnCredentials          = "credentials"
	WarnMultipleAt           = "multiple_at"
	WarnPercentEncodedHost   = "percent_encoded_host"
	WarnIPv4NonDecimal       = "ipv4_non_decimal"
	WarnIPv4Shorthand        = "ipv4_shorthand"
	WarnIPv4TrailingDot      = "ipv4_trailing_dot"
	WarnInvalidPercentEscape = "invalid_percent_escape"
	WarnHostMapped           = "host_mapped"
)

var warnMessages = map[string]string{
	WarnStrippedControl:      "leading or trailing control characters or spaces were removed",
	WarnStrippedTabNewline:   "tabs or newlines inside the URL were removed",
	WarnBackslash:            "a backslash (\\) was read as a slash (/), as browsers do for this scheme",
	WarnMissingSlashes:       "the scheme is not followed by \"//\"; browsers read the host anyway",
	WarnExtraSlashes:         "the scheme is followed by more than two slashes; browsers skip them and read the host after them",
	WarnEmptyUserinfo:        "an empty user name or password before \"@\" was dropped",
	WarnCredentials:          "the URL carries credentials: the host is what follows the last \"@\", not what precedes it",
	WarnMultipleAt:           "the authority has more than one \"@\"; all but the last are part of the credentials",
	WarnPercentEncodedHost:   "the host is percent-encoded and was decoded",
	WarnIPv4NonDecimal:       "the host is an IPv4 address with hexadecimal (0x) or octal (leading 0) parts",
	WarnIPv4Shorthand:        "the host is an IPv4 address written with fewer than four parts (e.g. 127.1 or 2130706433)",
	WarnIPv4TrailingDot:      "the host is an IPv4 address followed by a dot, which was dropped",
	WarnInvalidPercentEscape: "a \"%\" not followed by two hexadecimal digits was kept as written; other parsers refuse or decode it",
	WarnHostMapped:           "the host as written has characters that browsers map to others (full-width letters or digits, ideographic full stops, invisible characters): it is read as its normal form, not as written",
}

// warningOrder is the order warnings are reported in.
var warningOrder = []string{
	WarnStrippedControl, WarnStrippedTabNewline, WarnBackslash, WarnMissingSlashes,
	WarnExtraSlashes, WarnEmptyUserinfo, WarnCredentials, WarnMultipleAt,
	WarnPercentEncodedHost, WarnIPv4NonDecimal, WarnIPv4Shorthand, WarnIPv4TrailingDot,
	WarnInvalidPercentEscape, WarnHostMapped,
}

// WarningMessage returns the message of a warning code ("" for an unknown
// one).
func WarningMessage(code string) string { return warnMessages[code] }

// warnings derives the warnings of a parsed URL from the validation
// errors the library reported and, to tell apart repairs that share one
// validation error, from the input as written.
func warnings(raw, rawHost, asciiHost string, u *wurl.Url) []Warning {
	seen := map[string]bool{}
	// The input the state machine ran on: trimmed, tabs and newlines
	// removed (the Standard's first two steps).
	in := cleanInput(raw)
	if len(strings.TrimFunc(raw, isC0OrSpace)) != len(raw) {
		seen[WarnStrippedControl] = true
	}
	if strings.ContainsAny(strings.TrimFunc(raw, isC0OrSpace), "\t\n\r") {
		seen[WarnStrippedTabNewline] = true
	}
	ats, slashesSeen := 0, false
	for _, e := range u.ValidationErrors() {
		switch werrors.Type(e) {
		case werrors.InvalidReverseSolidus:
			seen[WarnBackslash] = true
		case werrors.SpecialSchemeMissingFollowingSolidus:
			if !slashesSeen {
				// Reported once per slash; classified once.
				slashesAfterScheme(in, u.Scheme(), seen)
				slashesSeen = true
			}
		case werrors.InvalidCredentials:
			ats++
		case werrors.IPv4NonDecimalPart:
			seen[WarnIPv4NonDecimal] = true
		case werrors.IPv4EmptyPart:
			// Also recorded when a name's last label is empty ("a.")
			// and the host is then read as a domain.
			if u.IsIPv4() {
				seen[WarnIPv4TrailingDot] = true
			}
		case werrors.InvalidURLUnit:
			if strings.HasPrefix(werrors.Description(e), "%") {
				seen[WarnInvalidPercentEscape] = true
			}
		}
	}
	if ats > 0 {
		if u.Username() == "" && u.Password() == "" || u.Password() == "" && strings.Contains(writtenUserinfo(raw, ""), ":") {
			seen[WarnEmptyUserinfo] = true
		}
		if u.Username() != "" || u.Password() != "" {
			seen[WarnCredentials] = true
		}
		if ats > 1 {
			seen[WarnMultipleAt] = true
		}
	}
	if u.IsSpecialScheme() && strings.Contains(rawHost, "%") {
		seen[WarnPercentEncodedHost] = true
	}
	if u.IsIPv4() && strings.Count(strings.TrimSuffix(asciiHost, "."), ".") < 3 {
		seen[WarnIPv4Shorthand] = true
	}
	if u.IsSpecialScheme() && hostMapped(rawHost, u.Hostname()) {
		seen[WarnHostMapped] = true
	}
	if len(seen) == 0 {
		return nil
	}
	out := make([]Warning, 0, len(seen))
	for _, c := range warningOrder {
		if seen[c] {
			out = append(out, Warning{Code: c, Message: warnMessages[c]})
		}
	}
	return out
}

// slashRun returns the run of slashes and backslashes that follows
// "scheme:" in in.
func slashRun(in, scheme string) string {
	rest := in[min(len(scheme)+1, len(in)):]
	n := 0
	for n < len(rest) && (rest[n] == '/' || rest[n] == '\\') {
		n++
	}
	return rest[:n]
}

// slashesAfterScheme classifies a special scheme not followed by exactly
// "//": the Standard reports one validation error for all of these.
func slashesAfterScheme(in, scheme string, seen map[string]bool) {
	run := slashRun(in, scheme)
	if strings.Contains(run, "\\") {
		seen[WarnBackslash] = true
	}
	switch {
	case scheme == "file":
		if len(run) < 2 {
			seen[WarnMissingSlashes] = true
		}
	case len(run) < 2:
		seen[WarnMissingSlashes] = true
	case len(run) > 2:
		seen[WarnExtraSlashes] = true
	}
}

// isC0OrSpace is the Standard's C0 control or space.
func isC0OrSpace(r rune) bool { return r <= 0x20 }

// cleanInput is the input the Standard's state machine runs on: leading
// and trailing C0 controls and spaces trimmed, tabs and newlines removed.
func cleanInput(raw string) string {
	in := strings.TrimFunc(raw, isC0OrSpace)
	if strings.ContainsAny(in, "\t\n\r") {
		in = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(in)
	}
	return in
}

// special reports whether scheme is one of the Standard's special schemes.
func special(scheme string) bool {
	return DefaultPort(scheme) != "" || scheme == "file"
}

// schemeOf returns the lower-case scheme the input starts with ("" when
// it does not start with one).
func schemeOf(in string) string {
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.ToLower(in[:i])
		default:
			return ""
		}
	}
	return ""
}

// writtenUserinfo returns the credentials of raw as written (resolved
// against base when raw has no scheme): what precedes the last "@" of
// the authority.
func writtenUserinfo(raw, base string) string {
	if !strings.Contains(raw, "@") {
		return ""
	}
	in := cleanInput(raw)
	scheme := schemeOf(in)
	baseScheme := schemeOf(cleanInput(base))
	relative := scheme == ""
	if relative {
		scheme = baseScheme
	} else {
		in = in[len(scheme)+1:]
		// "http:a@b" against an http base is relative too (the
		// Standard's special relative or authority state).
		relative = base != "" && special(scheme) && scheme == baseScheme
	}
	// A relative reference has an authority only after two slashes
	// ("//user@host"); "/a@b" is a path.
	if relative && leadingSlashes(in, special(scheme)) < 2 {
		return ""
	}
	return userinfo(in, special(scheme))
}

// leadingSlashes counts the slashes (and, for a special scheme,
// backslashes) that in starts with.
func leadingSlashes(in string, special bool) int {
	n := 0
	for n < len(in) && (in[n] == '/' || special && in[n] == '\\') {
		n++
	}
	return n
}

// userinfo returns the credentials part of a URL's authority as written:
// what precedes the last "@" before the path, query or fragment. in
// starts after the scheme's ":".
func userinfo(in string, special bool) string {
	rest := in[leadingSlashes(in, special):]
	end := "/?#"
	if special {
		end = "/\\?#"
	}
	if i := strings.IndexAny(rest, end); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		return rest[:i]
	}
	return ""
}

// hostMapped reports whether the host as written (written, perhaps
// percent-encoded) reads as host only through the mapping of UTS #46
// beyond case and IDNA: full-width "１２７.０.０.１" as 127.0.0.1, "。" as
// a dot, a zero-width space or soft hyphen dropped. An internationalized
// name written in its own script ("bücher.de") is not mapped.
func hostMapped(written, host string) bool {
	if d, err := url.PathUnescape(written); err == nil {
		written = d
	}
	if isASCII(written) || strings.HasPrefix(host, "[") {
		return false // ASCII maps by case only; IPv6 is bracketed ASCII
	}
	isDot := func(r rune) bool { return r == '.' || r == '。' || r == '．' || r == '｡' }
	if strings.ContainsFunc(written, func(r rune) bool { return r != '.' && isDot(r) }) {
		return true
	}
	wl, hl := strings.FieldsFunc(written, isDot), strings.FieldsFunc(host, isDot)
	if len(wl) != len(hl) {
		return true
	}
	for i, l := range hl {
		if strings.HasPrefix(l, "xn--") {
			if u, err := idna.ToUnicode(l); err == nil {
				l = u
			}
		}
		if norm.NFC.String(strings.ToLower(wl[i])) != l {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
