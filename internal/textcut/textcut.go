// Package textcut cuts text to a byte bound without splitting a UTF-8
// character: the one helper behind every bounded message, warning and
// prompt excerpt in the module.
package textcut

import "unicode/utf8"

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
