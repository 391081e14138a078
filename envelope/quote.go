package envelope

import (
	"strconv"
)

// MaxQuote is how many characters of a caller's input an error message
// quotes at most.
const MaxQuote = 100

// Quote returns s quoted as %q does, for a message that names a caller's
// input: past MaxQuote characters (runes; an invalid byte counts as one)
// the rest is cut and replaced by "..." and the input's length in bytes,
// so that a message stays short whatever the input.
func Quote(s string) string {
	n := 0
	for i := range s {
		if n == MaxQuote {
			return strconv.Quote(s[:i]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
		}
		n++
	}
	return strconv.Quote(s)
}
