package microblog

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Entity kinds found by scanEntities.
const (
	entLink    = 'l' // http:// or https:// up to white space
	entMention = '@' // @ and 1 to 15 letters, digits or "_"
	entHashtag = '#' // # and letters, digits or "_", with at least one letter
)

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// scanEntities calls fn for each link, mention and hashtag of text, in
// order, with the byte range of the whole entity (including "@" or "#").
// A mention or hashtag must not follow a word character ("a@b.c" is an
// address, "x#1" no hashtag); a hashtag must not follow "&" or "/" either
// (HTML entities, URL fragments).
func scanEntities(text string, fn func(kind byte, start, end int)) {
	prev := ' '
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case (r == 'h' || r == 'H') && !isWordRune(prev) && hasLinkPrefix(text[i:]):
			end := i + strings.IndexFunc(text[i:]+" ", unicode.IsSpace)
			fn(entLink, i, end)
			i, prev = end, 'x'
			continue
		case r == '@' && !isWordRune(prev):
			end := i + 1
			for end < len(text) && end-i <= 15 && isHandleByte(text[end]) {
				end++
			}
			if end > i+1 && (end == len(text) || !isHandleByte(text[end])) {
				fn(entMention, i, end)
				i, prev = end, 'x'
				continue
			}
		case r == '#' && !isWordRune(prev) && prev != '&' && prev != '/':
			end, letter := i+1, false
			for end < len(text) {
				c, n := utf8.DecodeRuneInString(text[end:])
				if !isWordRune(c) {
					break
				}
				letter = letter || unicode.IsLetter(c)
				end += n
			}
			if letter {
				fn(entHashtag, i, end)
				i, prev = end, 'x'
				continue
			}
		}
		i += size
		prev = r
	}
}

func isHandleByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func hasLinkPrefix(s string) bool {
	return len(s) > 8 && (strings.EqualFold(s[:7], "http://") || strings.EqualFold(s[:8], "https://"))
}

// hasLink reports whether the text contains a URL.
func hasLink(text string) bool {
	found := false
	scanEntities(text, func(kind byte, _, _ int) { found = found || kind == entLink })
	return found
}

// entities returns the lower-cased mentions or hashtags (kind) of text.
func entities(text string, kind byte) []string {
	var out []string
	scanEntities(text, func(k byte, s, e int) {
		if k == kind {
			out = append(out, strings.ToLower(text[s:e]))
		}
	})
	return out
}

// hashtags returns the tweet's hashtags as "#tag", lower case.
func hashtags(text string) []string { return entities(text, entHashtag) }

// mentions returns the tweet's mentions as "@user", lower case.
func mentions(text string) []string { return entities(text, entMention) }

// strip returns text with links and mentions replaced by a space;
// hashtags lose their "#" when keepTags, and are removed otherwise.
func strip(text string, keepTags bool) string {
	var b strings.Builder
	last := 0
	scanEntities(text, func(k byte, s, e int) {
		b.WriteString(text[last:s])
		b.WriteByte(' ')
		if k == entHashtag && keepTags {
			b.WriteString(text[s+1 : e])
		}
		last = e
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
