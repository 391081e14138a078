package envelope

import (
	"strconv"
	"unicode/utf8"
)

// MaxExcerpt is how many characters of a caller's input an error message
// quotes at most, so that a 1 MiB field name or domain does not come back
// as a 1 MiB answer.
const MaxExcerpt = 100

// Excerpt returns s when it has at most [MaxExcerpt] characters, and
// otherwise its first MaxExcerpt characters followed by "…". Invalid UTF-8
// counts one character per byte and is kept as it is; quote the excerpt
// with [Quote] (or %q) to show it safely.
func Excerpt(s string) string {
	n := 0
	for i := range s {
		if n == MaxExcerpt {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// Quote returns the Go-quoted [Excerpt] of s: what an error message shows
// of a caller's input, e.g. `unknown algorithm "md6"`.
func Quote(s string) string {
	ex := Excerpt(s)
	if len(ex) < len(s) && utf8.ValidString(ex) {
		return strconv.Quote(ex[:len(ex)-len("…")]) + "…"
	}
	return strconv.Quote(ex)
}
