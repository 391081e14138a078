package testutil

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quiverkit/quiver/envelope"
)

// MinRepeat is the shortest clause, in bytes, that [RepeatedClause]
// reports: shorter runs ("is empty", "at offset") recur in good texts.
const MinRepeat = 12

// RepeatedClause returns the longest run of whole words, at least
// [MinRepeat] bytes long, that text says twice, compared without regard
// to case, where the run starts a clause (after ": ", "; " or "(") in one
// of its places or spans four words or more: the mark of an error that says its cause twice ("missing ')':
// at offset 1: missing ')'"), usually because a wrapper repeats what the
// error it wraps already says. It returns "" when there is none.
//
// A clause said twice in a row ("email: email: invalid configuration")
// is reported whatever its length.
//
// A list is not a repetition: the items of a text (its lines, which
// errors.Join writes, and the parts between "; ", which list the issues
// of a request or the rules an answer broke) are each judged on their
// own, and an item repeats only when another says it whole.
func RepeatedClause(text string) string {
	best := ""
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.ToLower(text), "\n") {
		for _, item := range strings.Split(line, "; ") {
			r := repeatedInLine(item)
			if a := adjacentClause(item); len(a) > len(r) {
				r = a
			}
			if item = strings.TrimSpace(item); seen[item] && len(item) >= MinRepeat {
				r = item
			}
			seen[item] = true
			if len(r) > len(best) {
				best = r
			}
		}
	}
	return best
}

// adjacentClause returns a clause of item that follows itself
// ("email: email: ..."), or "".
func adjacentClause(item string) string {
	clauses := strings.Split(item, ": ")
	for i := 1; i < len(clauses); i++ {
		if c := strings.TrimSpace(clauses[i]); c != "" && c == strings.TrimSpace(clauses[i-1]) {
			return c
		}
	}
	return ""
}

func repeatedInLine(s string) string {
	var starts []int // byte offsets where a word begins
	for i, r := range s {
		if isWordRune(r) && (i == 0 || !isWordRune(lastRune(s[:i]))) {
			starts = append(starts, i)
		}
	}
	best := ""
	for a, i := range starts {
		for _, j := range starts[a+1:] {
			n := 0
			for i+n < j && j+n < len(s) && s[i+n] == s[j+n] {
				n++
			}
			// End the run where a word ends in both places.
			for n > 0 && !(wordEnds(s, i+n) && wordEnds(s, j+n)) {
				n--
			}
			run := strings.TrimRightFunc(s[i:i+n], func(r rune) bool { return !isWordRune(r) })
			// A phrase ("could not be") may recur in a good text; a
			// clause, or a run of four words or more, may not.
			clause := startsClause(s, i) || startsClause(s, j) || len(strings.Fields(run)) >= 4
			if clause && len(run) >= MinRepeat && len(run) > len(best) {
				best = run
			}
		}
	}
	return best
}

// startsClause reports whether a clause of s starts at byte offset i:
// at the start, or after ": ", "; " or "(", quotes aside.
func startsClause(s string, i int) bool {
	before := strings.TrimRight(s[:i], " \"'`")
	return before == "" || strings.HasSuffix(before, ":") || strings.HasSuffix(before, ";") || strings.HasSuffix(before, "(")
}

// wordEnds reports whether a word of s ends at byte offset k.
func wordEnds(s string, k int) bool {
	if k >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[k:])
	return !isWordRune(r) || !isWordRune(lastRune(s[:k]))
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// internalName matches what only Quiver's own source knows: the names of
// its internal packages used as error prefixes, and import paths.
var internalName = regexp.MustCompile(`(?i)\b(?:llmjson|llmhttp|llmcache|safehttp|weburl|strictjson|upstream|httpcache|cfgerr|textcut|rediskv|replay|meter|sentiment|stopwords):|\binternal/|quiverkit/`)

// goName matches what Go, not the caller, speaks of: a package-qualified
// identifier (url.Error, *net.OpError), the type talk of encoding/json,
// and the marks of a value formatted with the wrong verb.
var goName = regexp.MustCompile(`\*?\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*\b|Go (?:value|struct)|%!|<nil>|\b0xc0[0-9a-f]{6,}`)

// InternalName returns the first name in text that belongs to Quiver's
// internals (an internal package's name as an error prefix, an import
// path), or "" when there is none. A Go caller may read public package
// prefixes ("llm: "), never internal ones.
func InternalName(text string) string {
	return internalName.FindString(text)
}

// packagePrefix matches the name of one of Quiver's public packages
// used as an error prefix ("resolver: lookup ..."), what a Go caller
// reads and an HTTP caller should not. "email" and "content" are left
// out: they are request fields too ("email: is required").
var packagePrefix = regexp.MustCompile(`(?:^|: |; |\()(?:resolver|webcheck|devutil|microblog|photosocial|mailauth|llm|jobs|httpapi|envelope|redislimit|social|llmtest|resolvertest|microblogtest|photosocialtest): `)

// PackagePrefix returns the first prefix in text that names one of
// Quiver's public packages, or "".
func PackagePrefix(text string) string {
	return strings.TrimLeft(packagePrefix.FindString(text), ":;( ")
}

// GoName returns the first Go-level name in text (a package-qualified
// type or identifier, encoding/json's "Go value", a misformatted value),
// or "" when there is none: what an HTTP caller must not read.
func GoName(text string) string {
	return goName.FindString(text)
}

// Reader is who reads an error text, which decides what it may say.
type Reader int

// The readers of error texts.
const (
	// GoCaller reads err.Error(): a Go program, the quiver commands, the
	// logs. Public package prefixes and Go names are theirs.
	GoCaller Reader = iota
	// HTTPCaller reads an envelope's message and details, and the
	// failure texts of an answer's data.
	HTTPCaller
)

// ErrorTextProblems says what is wrong with text for its reader: a
// clause said twice ([RepeatedClause]), an internal name
// ([InternalName]), an error code said twice (for a Go caller) or at all
// (for an HTTP caller, who reads it in the code field), for an HTTP
// caller Go's names ([GoName], [PackagePrefix]), and several lines where
// one error is meant. It returns nil when nothing is.
func ErrorTextProblems(text string, r Reader) []string {
	var out []string
	if c := RepeatedClause(text); c != "" {
		out = append(out, fmt.Sprintf("says %q twice", c))
	}
	if n := InternalName(text); n != "" {
		out = append(out, fmt.Sprintf("names the internal %q", n))
	}
	for _, code := range envelope.Codes {
		if n := strings.Count(text, string(code)); n > 1 || n > 0 && r == HTTPCaller {
			out = append(out, fmt.Sprintf("says the code %s %d times", code, n))
		}
	}
	if r == HTTPCaller {
		if n := GoName(text) + PackagePrefix(text); n != "" {
			out = append(out, fmt.Sprintf("speaks Go (%q)", n))
		}
	}
	// An HTTP message is one line, and so is an envelope error's text:
	// errors.Join's lines are for errors that stand apart.
	if strings.Contains(text, "\n") && (r == HTTPCaller || startsWithCode(text)) {
		out = append(out, "spans several lines")
	}
	return out
}

func startsWithCode(text string) bool {
	for _, code := range envelope.Codes {
		if strings.HasPrefix(text, string(code)+":") {
			return true
		}
	}
	return false
}
