package email

import (
	"net/netip"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"
)

// A Reason is why an address is invalid: one of the Reason constants.
type Reason string

// The reasons an address is invalid. The set is fixed: clients may switch
// on these strings. [Reason.Message] describes each in a sentence.
const (
	ReasonEmpty                   Reason = "empty"
	ReasonInvalidUTF8             Reason = "invalid_utf8"
	ReasonInvalidCharacter        Reason = "invalid_character"
	ReasonTooLong                 Reason = "too_long"
	ReasonMissingAt               Reason = "missing_at"
	ReasonMultipleAt              Reason = "multiple_at"
	ReasonLocalEmpty              Reason = "local_empty"
	ReasonLocalTooLong            Reason = "local_too_long"
	ReasonLocalInvalidChar        Reason = "local_invalid_character"
	ReasonLocalInvalidDot         Reason = "local_invalid_dot"
	ReasonLocalInvalidQuoted      Reason = "local_invalid_quoted"
	ReasonLocalNotASCII           Reason = "local_not_ascii"
	ReasonDomainEmpty             Reason = "domain_empty"
	ReasonDomainTooLong           Reason = "domain_too_long"
	ReasonDomainNoDot             Reason = "domain_no_dot"
	ReasonDomainInvalidChar       Reason = "domain_invalid_character"
	ReasonDomainInvalidLabel      Reason = "domain_invalid_label"
	ReasonDomainLabelTooLong      Reason = "domain_label_too_long"
	ReasonDomainHyphen            Reason = "domain_hyphen"
	ReasonDomainNumericTLD        Reason = "domain_numeric_tld"
	ReasonDomainIDNA              Reason = "domain_idna"
	ReasonDomainLiteralNotAllowed Reason = "domain_literal_not_allowed"
	ReasonDomainLiteralInvalid    Reason = "domain_literal_invalid"
	ReasonDomainNotFound          Reason = "domain_not_found"
	ReasonNullMX                  Reason = "null_mx"
	ReasonNoMailServer            Reason = "no_mail_server"
)

var reasonMessages = map[Reason]string{
	ReasonEmpty:                   "the address is empty",
	ReasonInvalidUTF8:             "the address is not valid UTF-8",
	ReasonInvalidCharacter:        "the address contains a control, format or whitespace character",
	ReasonTooLong:                 "the address is longer than 254 octets",
	ReasonMissingAt:               "the address has no @ sign",
	ReasonMultipleAt:              "the address has more than one @ sign outside quotes",
	ReasonLocalEmpty:              "there is nothing before the @ sign",
	ReasonLocalTooLong:            "the part before the @ sign is longer than 64 octets",
	ReasonLocalInvalidChar:        "the part before the @ sign contains a character not allowed there without quotes",
	ReasonLocalInvalidDot:         "the part before the @ sign starts or ends with a dot, or has two dots in a row",
	ReasonLocalInvalidQuoted:      "the quoted part before the @ sign is malformed",
	ReasonLocalNotASCII:           "the part before the @ sign has non-ASCII characters, which need SMTPUTF8 and are not allowed here",
	ReasonDomainEmpty:             "there is nothing after the @ sign",
	ReasonDomainTooLong:           "the domain is longer than 253 octets",
	ReasonDomainNoDot:             "the domain has no dot",
	ReasonDomainInvalidChar:       "the domain contains a character other than letters, digits, hyphens and dots",
	ReasonDomainInvalidLabel:      "the domain has an empty label (a leading, trailing or doubled dot)",
	ReasonDomainLabelTooLong:      "a label of the domain is longer than 63 octets",
	ReasonDomainHyphen:            "a label of the domain starts or ends with a hyphen, or has hyphens in the third and fourth positions",
	ReasonDomainNumericTLD:        "the top-level domain is all digits",
	ReasonDomainIDNA:              "the internationalized domain is not valid under IDNA2008 (UTS #46)",
	ReasonDomainLiteralNotAllowed: "IP address literals are not accepted as the domain",
	ReasonDomainLiteralInvalid:    "the IP address literal is malformed",
	ReasonDomainNotFound:          "the domain does not exist (NXDOMAIN)",
	ReasonNullMX:                  "the domain publishes a null MX: it accepts no mail (RFC 7505)",
	ReasonNoMailServer:            "the domain has neither MX nor address records, so no server takes its mail",
}

// Message describes the reason in a sentence.
func (r Reason) Message() string { return reasonMessages[r] }

// Reasons returns every reason code, for documentation.
func Reasons() []Reason {
	out := make([]Reason, 0, len(reasonMessages))
	for r := range reasonMessages {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// SyntaxOptions relax or tighten the syntax check. The zero value accepts
// what mail servers accept for ordinary mail: dot-atom and quoted local
// parts, UTF-8 local parts (SMTPUTF8), IDN domains; no IP literals.
type SyntaxOptions struct {
	// AllowIPv4Literal accepts a domain literal such as [192.0.2.1].
	AllowIPv4Literal bool `json:"allow_ipv4_literal,omitempty"`
	// AllowIPv6Literal accepts a domain literal such as [IPv6:2001:db8::1].
	AllowIPv6Literal bool `json:"allow_ipv6_literal,omitempty"`
	// ASCIIOnly rejects local parts that need SMTPUTF8.
	ASCIIOnly bool `json:"ascii_only,omitempty"`
}

// An Address is a syntactically valid, normalized address.
type Address struct {
	// Local is the part before the @, NFC-normalized, case kept. A quoted
	// local part keeps its quotes unless it is a valid dot-atom.
	Local string
	// Domain is the domain in Unicode, NFC, lowercased; an IP literal in
	// brackets.
	Domain string
	// ASCIIDomain is the domain in ASCII (A-labels for an IDN).
	ASCIIDomain string
	// SMTPUTF8 reports a local part that needs the SMTPUTF8 extension.
	SMTPUTF8 bool
	// Literal reports an IP address literal domain.
	Literal bool
}

// String returns the normalized address, local@domain.
func (a Address) String() string { return a.Local + "@" + a.Domain }

// maxInput bounds the work done on an input: anything longer is too long
// whatever normalization does.
const maxInput = 1024

// idnaProfile maps and validates domains per UTS #46, nontransitional
// (IDNA2008). Length and hyphen checks are ours, for precise reasons.
var idnaProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.ValidateLabels(true),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(true),
	idna.VerifyDNSLength(false),
	idna.Transitional(false),
)

// Parse checks the syntax of addr and normalizes it. Surrounding
// whitespace is ignored. On failure it returns the reason.
func Parse(addr string, opts SyntaxOptions) (Address, Reason) {
	if len(addr) > maxInput {
		return Address{}, ReasonTooLong
	}
	if !utf8.ValidString(addr) {
		return Address{}, ReasonInvalidUTF8
	}
	addr = strings.TrimSpace(addr)
	if addr == "" {
		return Address{}, ReasonEmpty
	}
	for _, r := range addr {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == utf8.RuneError {
			return Address{}, ReasonInvalidCharacter
		}
	}
	if !isASCII(addr) {
		addr = norm.NFC.String(addr)
	}
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return Address{}, ReasonMissingAt
	}
	local, domain := addr[:at], addr[at+1:]
	if local == "" {
		return Address{}, ReasonLocalEmpty
	}
	if domain == "" {
		return Address{}, ReasonDomainEmpty
	}
	var a Address
	var reason Reason
	if a.Local, a.SMTPUTF8, reason = parseLocal(local); reason != "" {
		return Address{}, reason
	}
	if a.SMTPUTF8 && opts.ASCIIOnly {
		return Address{}, ReasonLocalNotASCII
	}
	if len(a.Local) > 64 {
		return Address{}, ReasonLocalTooLong
	}
	if strings.HasPrefix(domain, "[") {
		a.Literal = true
		reason = parseLiteral(domain, opts, &a)
	} else {
		reason = parseDomain(domain, &a)
	}
	if reason != "" {
		return Address{}, reason
	}
	if len(a.Local)+1+len(a.ASCIIDomain) > 254 {
		return Address{}, ReasonTooLong
	}
	return a, ""
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// atext reports the ASCII characters of RFC 5322 atext.
func atext(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}

// utf8Allowed reports whether a non-ASCII rune may appear in a local part
// (RFC 6531 UTF8-non-ascii, less the invisible and spacing characters that
// make addresses ambiguous).
func utf8Allowed(r rune) bool {
	return unicode.IsGraphic(r) && !unicode.Is(unicode.Zs, r)
}

// parseLocal checks a local part and returns its normalized form.
func parseLocal(local string) (string, bool, Reason) {
	if local[0] == '"' {
		return parseQuoted(local)
	}
	smtputf8 := false
	prevDot := true // a leading dot is an error
	for _, r := range local {
		switch {
		case r == '.':
			if prevDot {
				return "", false, ReasonLocalInvalidDot
			}
			prevDot = true
			continue
		case r == '@':
			return "", false, ReasonMultipleAt
		case r < utf8.RuneSelf:
			if !atext(byte(r)) {
				if r == ' ' || r == '\t' {
					return "", false, ReasonInvalidCharacter
				}
				return "", false, ReasonLocalInvalidChar
			}
		default:
			if !utf8Allowed(r) {
				return "", false, ReasonInvalidCharacter
			}
			smtputf8 = true
		}
		prevDot = false
	}
	if prevDot {
		return "", false, ReasonLocalInvalidDot
	}
	return local, smtputf8, ""
}

// parseQuoted checks a quoted-string local part (RFC 5321 Quoted-string,
// with UTF-8 per RFC 6531). When its content is a valid dot-atom the
// quotes are dropped (RFC 5321 section 4.1.2 prefers the unquoted form);
// otherwise the content is requoted with only the escapes it needs.
func parseQuoted(local string) (string, bool, Reason) {
	if len(local) < 2 || local[len(local)-1] != '"' {
		return "", false, ReasonLocalInvalidQuoted
	}
	var content strings.Builder
	smtputf8 := false
	inner := local[1 : len(local)-1]
	for i := 0; i < len(inner); {
		r, size := utf8.DecodeRuneInString(inner[i:])
		switch {
		case r == '\\':
			if i+1 >= len(inner) || inner[i+1] < 0x20 || inner[i+1] > 0x7e {
				return "", false, ReasonLocalInvalidQuoted
			}
			content.WriteByte(inner[i+1])
			i += 2
			continue
		case r == '"':
			return "", false, ReasonLocalInvalidQuoted
		case r >= utf8.RuneSelf:
			if !utf8Allowed(r) {
				return "", false, ReasonInvalidCharacter
			}
			smtputf8 = true
		}
		content.WriteRune(r)
		i += size
	}
	c := content.String()
	if c != "" {
		if norm, utf, reason := parseLocal(c); reason == "" && c[0] != '"' {
			return norm, utf, ""
		}
	}
	var q strings.Builder
	q.WriteByte('"')
	for i := 0; i < len(c); i++ {
		if c[i] == '"' || c[i] == '\\' {
			q.WriteByte('\\')
		}
		q.WriteByte(c[i])
	}
	q.WriteByte('"')
	return q.String(), smtputf8, ""
}

// parseLiteral checks a domain literal: [IPv4] or [IPv6:addr].
func parseLiteral(d string, opts SyntaxOptions, a *Address) Reason {
	if len(d) < 3 || d[len(d)-1] != ']' {
		return ReasonDomainLiteralInvalid
	}
	inner := d[1 : len(d)-1]
	if v6, ok := cutPrefixFold(inner, "IPv6:"); ok {
		if !opts.AllowIPv6Literal {
			return ReasonDomainLiteralNotAllowed
		}
		ip, err := netip.ParseAddr(v6)
		if err != nil || !ip.Is6() || ip.Is4In6() || ip.Zone() != "" {
			return ReasonDomainLiteralInvalid
		}
		a.Domain = "[IPv6:" + ip.String() + "]"
	} else {
		ip, err := netip.ParseAddr(inner)
		if err != nil || !ip.Is4() {
			if strings.Contains(inner, ":") && err != nil && !opts.AllowIPv6Literal {
				return ReasonDomainLiteralNotAllowed
			}
			return ReasonDomainLiteralInvalid
		}
		if !opts.AllowIPv4Literal {
			return ReasonDomainLiteralNotAllowed
		}
		a.Domain = "[" + ip.String() + "]"
	}
	a.ASCIIDomain = a.Domain
	return ""
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// parseDomain checks a domain name, maps it per UTS #46 and fills the
// Unicode and ASCII forms.
func parseDomain(d string, a *Address) Reason {
	ascii := isASCII(d)
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c < utf8.RuneSelf && !(c == '-' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			if c == ' ' {
				return ReasonInvalidCharacter
			}
			if c == '@' {
				return ReasonMultipleAt
			}
			return ReasonDomainInvalidChar
		}
	}
	if !ascii {
		for _, r := range d {
			if r >= utf8.RuneSelf && !unicode.IsGraphic(r) || unicode.Is(unicode.Zs, r) {
				return ReasonInvalidCharacter
			}
		}
	}
	// Empty labels, checked on the input: UTS #46 would map some dots.
	if strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") || strings.Contains(d, "..") {
		return ReasonDomainInvalidLabel
	}
	var asciiDomain string
	if ascii {
		asciiDomain = strings.ToLower(d)
		// Labels already in A-label form must decode validly.
		if strings.Contains(asciiDomain, "xn--") {
			if _, err := idnaProfile.ToUnicode(asciiDomain); err != nil {
				return ReasonDomainIDNA
			}
		}
	} else {
		var err error
		if asciiDomain, err = idnaProfile.ToASCII(d); err != nil {
			return ReasonDomainIDNA
		}
		if strings.HasPrefix(asciiDomain, ".") || strings.HasSuffix(asciiDomain, ".") || strings.Contains(asciiDomain, "..") {
			return ReasonDomainInvalidLabel
		}
	}
	if len(asciiDomain) > 253 {
		return ReasonDomainTooLong
	}
	var tld string
	for rest := asciiDomain; ; {
		l, more, found := strings.Cut(rest, ".")
		switch {
		case l == "":
			return ReasonDomainInvalidLabel
		case len(l) > 63:
			return ReasonDomainLabelTooLong
		case l[0] == '-' || l[len(l)-1] == '-':
			return ReasonDomainHyphen
		case len(l) >= 4 && l[2:4] == "--" && l[:2] != "xn":
			return ReasonDomainHyphen
		}
		if !found {
			tld = l
			break
		}
		rest = more
	}
	if tld == asciiDomain {
		return ReasonDomainNoDot
	}
	if strings.Trim(tld, "0123456789") == "" {
		return ReasonDomainNumericTLD
	}
	a.ASCIIDomain = asciiDomain
	a.Domain = asciiDomain
	if strings.Contains(asciiDomain, "xn--") {
		u, err := idnaProfile.ToUnicode(asciiDomain)
		if err != nil {
			return ReasonDomainIDNA
		}
		// A-labels must be the canonical encoding of their U-labels.
		if back, err := idnaProfile.ToASCII(u); err != nil || back != asciiDomain {
			return ReasonDomainIDNA
		}
		a.Domain = norm.NFC.String(u)
	}
	return ""
}
