package weburl

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
)

// ParseForm parses s by the application/x-www-form-urlencoded parser of
// the URL Standard: split on "&", drop empty sequences, split each at its
// first "=", replace "+" by a space, percent-decode, and decode the bytes
// as UTF-8 (an invalid sequence becomes U+FFFD). The names map to their
// values in order of appearance; an empty s gives an empty map.
func ParseForm(s string) map[string][]string {
	out := map[string][]string{}
	for seq := range strings.SplitSeq(s, "&") {
		if seq == "" {
			continue
		}
		name, value, _ := strings.Cut(seq, "=")
		n, v := formDecode(name), formDecode(value)
		out[n] = append(out[n], v)
	}
	return out
}

// formDecode replaces "+" by a space, then percent-decodes (a "%" not
// followed by two hexadecimal digits stays), then decodes UTF-8.
func formDecode(s string) string {
	if !strings.ContainsAny(s, "+%") {
		return validUTF8(s)
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b = append(b, ' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return validUTF8(string(b))
}

// validUTF8 is the Encoding Standard's "UTF-8 decode without BOM": each
// maximal invalid subpart becomes U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	out, err := unicode.UTF8.NewDecoder().String(s)
	if err != nil {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	return out
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
