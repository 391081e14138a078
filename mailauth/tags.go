package mailauth

import (
	"fmt"
	"strings"

	"github.com/quiverkit/quiver/internal/textcut"
)

// maxTags bounds the tags read from one tag-list record (DKIM, MTA-STS,
// TLS-RPT, BIMI): each defines fewer than ten.
const maxTags = 32

// A tag is one name=value pair of a tag-list record.
type tag struct{ name, value string }

// tagList splits a tag-list record ("v=X; a=b; ...", RFC 6376 section
// 3.2) into its tags, values trimmed, reporting under code a tag without
// "=", an empty or malformed name, a repeated name (which RFC 6376 makes
// the whole list invalid) and more than maxTags parts. Every non-empty
// part counts against maxTags, malformed or repeated ones too, so a
// hostile record of thousands of parts is not read past the bound. Tag
// names are case-sensitive (RFC 6376 section 3.2): "P=" is not "p=".
// version, when not empty, must be the first tag's value of v; required
// says whether that first tag must be there.
func tagList(record string, f findings, code Code, version string, required bool) []tag {
	var tags []tag
	seen := map[string]bool{}
	parts := 0
	for part := range strings.SplitSeq(record, ";") {
		part = strings.Trim(part, " \t\r\n")
		if part == "" {
			continue
		}
		if parts == maxTags {
			f.fail(code, fmt.Sprintf("more than %d tags; the rest are not read", maxTags))
			break
		}
		parts++
		name, value, ok := strings.Cut(part, "=")
		name, value = strings.Trim(name, " \t\r\n"), strings.Trim(value, " \t\r\n")
		if !ok || !validTagName(name) {
			msg := "" // not formatted when it would be dropped
			if !f.full() {
				msg = fmt.Sprintf("%s is not a tag=value pair", textcut.Quote(part))
			}
			f.fail(code, msg)
			continue
		}
		if seen[name] {
			msg := "" // not formatted when it would be dropped
			if !f.full() {
				msg = fmt.Sprintf("tag %s appears more than once", textcut.Quote(name))
			}
			f.fail(code, msg)
			continue
		}
		seen[name] = true
		tags = append(tags, tag{name, value})
	}
	if version == "" {
		return tags
	}
	switch {
	case len(tags) > 0 && tags[0].name == "v":
		if tags[0].value != version {
			f.fail(code, fmt.Sprintf("v=%s is not v=%s", textcut.Excerpt(tags[0].value), version))
		}
	case seen["v"]:
		f.fail(code, fmt.Sprintf("v=%s must be the first tag", version))
	case required:
		f.fail(code, fmt.Sprintf("the record must start with v=%s", version))
	}
	return tags
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// validTagName: ALPHA *(ALPHA / DIGIT / "_") (RFC 6376 section 3.2).
func validTagName(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(isAlpha(c) || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// RecordVersion returns the value of the v tag that starts a record, up
// to a semicolon or a space ("STSv1" for "v=STSv1; id=1", "spf1" for
// "v=spf1 -all"), or "" when the record does not start with one. A domain's TXT records are told apart by it: a check
// keeps those of its version and ignores the others.
func RecordVersion(txt string) string {
	first, _, _ := strings.Cut(txt, ";")
	name, value, ok := strings.Cut(first, "=")
	if !ok || !strings.EqualFold(strings.Trim(name, " \t"), "v") {
		return ""
	}
	v, _, _ := strings.Cut(strings.Trim(value, " \t"), " ")
	return v
}

// validHostname reports whether s is a host name of LDH labels (a final
// dot allowed), each 1 to 63 characters, at most 253 in all, with at
// least two labels.
func validHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if len(s) == 0 || len(s) > 253 || !strings.Contains(s, ".") {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if !validLabel(label) {
			return false
		}
	}
	return true
}

// validLabel: 1 to 63 letters, digits and hyphens, not starting or
// ending with a hyphen.
func validLabel(l string) bool {
	if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
