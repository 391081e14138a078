// Package textcut cuts and quotes text to a bound without splitting a
// UTF-8 character: the one helper behind every bounded message, warning,
// excerpt and prompt in the module.
//
// Bounds are in bytes ([Cut], [Mark]) or in characters ([Runes],
// [MarkRunes], [OneLine], [Excerpt]); a byte that is not valid UTF-8
// counts as one character and is kept as it is. A cut text ends with the
// caller's mark only where the function says so.
package textcut

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Cut returns s when it has at most n bytes, and otherwise its longest
// prefix of at most n bytes that ends at a character boundary.
func Cut(s string, n int) string {
	if n >= len(s) {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Mark returns Cut(s, n) followed by mark when s had to be cut, and s
// otherwise.
func Mark(s string, n int, mark string) string {
	if len(s) <= n {
		return s
	}
	return Cut(s, n) + mark
}

// Runes returns s when it has at most n characters, and otherwise its
// first n characters.
func Runes(s string, n int) string {
	s, _ = runes(s, n)
	return s
}

// MarkRunes returns Runes(s, n) followed by mark when s had to be cut,
// and s otherwise.
func MarkRunes(s string, n int, mark string) string {
	if head, cut := runes(s, n); cut {
		return head + mark
	}
	return s
}

// runes returns the first n characters of s and whether s has more.
func runes(s string, n int) (string, bool) {
	if n >= len(s) { // n characters take at least n bytes
		return s, false
	}
	count := 0
	for i := range s {
		if count >= n {
			return s[:i], true
		}
		count++
	}
	return s, false
}

// OneLine returns s on one line, its runs of white space collapsed to one
// space and its ends trimmed, cut to at most n characters with mark
// appended when cut: how a message from a provider is quoted, without
// letting the provider choose its size.
func OneLine(s string, n int, mark string) string {
	return MarkRunes(strings.Join(strings.Fields(s), " "), n, mark)
}

// Words returns s when it has at most n words (runs of characters
// between white space), and otherwise its first n words joined by one
// space.
func Words(s string, n int) string {
	f := strings.Fields(s)
	if len(f) <= n {
		return s
	}
	return strings.Join(f[:max(n, 0)], " ")
}

// MaxExcerpt is how many characters of a caller's input an error message
// quotes at most, so that a 1 MiB field name or domain does not come back
// as a 1 MiB answer.
const MaxExcerpt = 100

// Excerpt returns s when it has at most [MaxExcerpt] characters, and
// otherwise its first MaxExcerpt characters followed by "…". Quote the
// excerpt with [Quote] (or %q) to show it safely.
func Excerpt(s string) string { return MarkRunes(s, MaxExcerpt, "…") }

// Quote returns the Go-quoted [Excerpt] of s, the "…" of a cut outside
// the quotes: what an error message shows of a caller's input, e.g.
// `unknown algorithm "md6"`.
func Quote(s string) string {
	if head, cut := runes(s, MaxExcerpt); cut && utf8.ValidString(head) {
		return strconv.Quote(head) + "…"
	}
	return strconv.Quote(Excerpt(s))
}
