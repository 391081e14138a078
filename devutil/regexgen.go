package devutil

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/llmjson"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/llm"
)

// Regex flavors [RegexGenerator.Generate] accepts.
const (
	FlavorPCRE       = "pcre"
	FlavorPython     = "python"
	FlavorJavaScript = "javascript"
	FlavorGo         = "go"
	FlavorRE2        = "re2"
	FlavorDotNet     = "dotnet"
)

// Bounds of regex generation.
const (
	// DefaultRegexMatchTimeout bounds each test-case match of a
	// backtracking flavor.
	DefaultRegexMatchTimeout = 100 * time.Millisecond
	// MaxRegexDescriptionLength bounds a description, in characters.
	MaxRegexDescriptionLength = 1000
	maxGeneratedPatternLength = 2000
	minModelTestCases         = 4
	maxModelTestCases         = 20
	maxTestCaseLength         = 500
)

// RegexGenerateRequest is the request of [RegexGenerator.Generate].
type RegexGenerateRequest struct {
	// Description says in plain English what the pattern must match.
	// Required; at most MaxRegexDescriptionLength characters.
	Description string `json:"description" openapi:"required"`
	// Flavor is the regex dialect, case-insensitively: pcre (default; or
	// pcre2, perl), python (py, re), javascript (js, ecmascript,
	// typescript, ts), go (golang), re2 or dotnet (.net, csharp, c#). The
	// result names it by its canonical name, the first of each group.
	Flavor string `json:"flavor,omitempty"`
}

// RegexGenerateResult is the result of [RegexGenerator.Generate].
type RegexGenerateResult struct {
	// Pattern is the regular expression, without delimiters or flags. It
	// matches whole strings: it is anchored in the flavor's own way.
	Pattern string `json:"pattern"`
	// Explanation says what the pattern accepts and rejects.
	Explanation string `json:"explanation"`
	// TestCases are strings the pattern was run against in its flavor,
	// each with the expected outcome; all of them pass.
	TestCases []RegexTestCase `json:"test_cases"`
	// Flavor is the canonical name of the flavor the pattern was compiled
	// in (pcre, python, javascript, go, re2 or dotnet): asked for "js", it
	// is "javascript".
	Flavor string `json:"flavor"`
	// Source is "catalog" for a built-in pattern or "model" for one a
	// language model wrote.
	Source string `json:"source"`
}

// RegexTestCase is one test string of a generated pattern.
type RegexTestCase struct {
	// String is the input.
	String string `json:"string"`
	// ShouldMatch says whether the pattern must match the whole input.
	ShouldMatch bool `json:"should_match"`
}

// RegexGenerator writes regular expressions from descriptions: from a
// built-in catalog of well-tested patterns, or with a language model. It
// is safe for concurrent use. The zero RegexGenerator has no model: only
// the catalog answers.
type RegexGenerator struct {
	settings
}

// NewRegexGenerator returns a generator backed by cfg.LLM. Without a
// model, only the built-in catalog answers. The error, wrapping
// [ErrInvalidConfig] (and llm.ErrInvalidConfig for an invalid cfg.LLM),
// reports an invalid cfg.
func NewRegexGenerator(cfg Config) (*RegexGenerator, error) {
	s, err := newSettings(cfg)
	if err != nil {
		return nil, err
	}
	return &RegexGenerator{s}, nil
}

// Generate returns a pattern for req.Description in req.Flavor. Without
// a model, a description the catalog recognizes gets its built-in
// pattern and any other gets SERVICE_UNAVAILABLE. With a model, the model
// writes the pattern and its test cases; the pattern is compiled in its
// flavor and run against every test case with a match timeout, and a
// pattern that fails is sent back with its failures, a bounded number of
// times. The usage (llm.Usage) accounts for every call.
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields, checked before use:
//
//	pattern      string                    not empty, at most 2000 bytes; anchored
//	                                       at both ends with the flavor's whole-string
//	                                       anchors (^ or \A; \z, \Z in python, or $
//	                                       where it means the very end), with no | outside
//	                                       a group; compiles in the flavor
//	explanation  string                    not empty
//	test_cases   []{string, should_match}  4 to 20 cases, at least 2 with should_match
//	                                       true and 2 false, each string at most 500
//	                                       bytes; the pattern matches each case as it
//	                                       says, within the match timeout
func (g *RegexGenerator) Generate(ctx context.Context, req RegexGenerateRequest) (RegexGenerateResult, llm.Usage, error) {
	flavor, err := validateRegexRequest(req)
	if err != nil {
		return RegexGenerateResult{}, llm.Usage{}, err
	}
	if !g.llm.Enabled() {
		if e := lookupCatalog(req.Description); e != nil {
			return e.result(flavor), llm.Usage{}, nil
		}
		return RegexGenerateResult{}, llm.Usage{}, errNoModel(fmt.Sprintf(
			"no built-in pattern matches this description (the catalog knows %s), and", strings.Join(CatalogNames(), ", ")))
	}
	return g.ask(ctx, req.Description, flavor)
}

func validateRegexRequest(req RegexGenerateRequest) (string, error) {
	var v envelope.ValidationError
	switch n := utf8.RuneCountInString(req.Description); {
	case strings.TrimSpace(req.Description) == "":
		v.Add("description", "is required")
	case n > MaxRegexDescriptionLength:
		v.Addf("description", "must be at most %d characters, got %d", MaxRegexDescriptionLength, n)
	}
	flavor := normalizeFlavor(req.Flavor)
	if flavor == "" {
		v.Addf("flavor", "must be one of pcre, python, javascript, go, re2, dotnet; got %q", textcut.Cut(req.Flavor, 40))
	}
	return flavor, v.Err()
}

// flavorNames maps each name RegexGenerateRequest.Flavor accepts, in
// lower case, to the flavor's canonical name.
var flavorNames = map[string]string{
	"": FlavorPCRE, "pcre": FlavorPCRE, "pcre2": FlavorPCRE, "perl": FlavorPCRE,
	"python": FlavorPython, "py": FlavorPython, "re": FlavorPython,
	"javascript": FlavorJavaScript, "js": FlavorJavaScript, "ecmascript": FlavorJavaScript,
	"typescript": FlavorJavaScript, "ts": FlavorJavaScript,
	"go": FlavorGo, "golang": FlavorGo,
	"re2":    FlavorRE2,
	"dotnet": FlavorDotNet, ".net": FlavorDotNet, "csharp": FlavorDotNet, "c#": FlavorDotNet,
}

// normalizeFlavor returns the canonical name of f, or "".
func normalizeFlavor(f string) string {
	return flavorNames[strings.ToLower(strings.TrimSpace(f))]
}

// matcher is a pattern compiled in one flavor.
type matcher func(s string) (bool, error)

// compileFlavor compiles pattern as flavor does: Go's regexp for go and
// re2, regexp2 with ECMAScript semantics for javascript, regexp2 for the
// rest. Backtracking matches are bounded by timeout.
func compileFlavor(pattern, flavor string, timeout time.Duration) (matcher, error) {
	switch flavor {
	case FlavorGo, FlavorRE2:
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, err
		}
		return func(s string) (bool, error) { return re.MatchString(s), nil }, nil
	}
	opts := regexp2.None
	if flavor == FlavorJavaScript {
		opts = regexp2.ECMAScript
	}
	if flavor == FlavorPython {
		var err error
		if pattern, err = pythonToRegexp2(pattern); err != nil {
			return nil, err
		}
	}
	if flavor == FlavorJavaScript && (strings.Contains(pattern, `\A`) || strings.Contains(pattern, `\z`) || strings.Contains(pattern, `\Z`)) {
		return nil, errors.New(`JavaScript has no \A, \z or \Z; anchor with ^ and $`)
	}
	re, err := regexp2.Compile(pattern, opts)
	if err != nil {
		return nil, errors.New(regexp2Reason(err))
	}
	re.MatchTimeout = timeout
	return func(s string) (bool, error) { return re.MatchString(s) }, nil
}

// pythonToRegexp2 rewrites the Python spellings regexp2 lacks: \Z (the
// very end, which is \z in .NET), (?P<name>...) and (?P=name). It rejects
// \z, which Python does not have.
func pythonToRegexp2(p string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			switch p[i+1] {
			case 'Z':
				b.WriteString(`\z`)
			case 'z':
				return "", errors.New(`Python's re has no \z; use \Z`)
			default:
				b.WriteString(p[i : i+2])
			}
			i++
		case strings.HasPrefix(p[i:], "(?P<"):
			b.WriteString("(?<")
			i += 3
		case strings.HasPrefix(p[i:], "(?P="):
			end := strings.IndexByte(p[i:], ')')
			if end < 0 {
				return "", errors.New("unterminated (?P=name)")
			}
			b.WriteString(`\k<` + p[i+4:i+end] + `>`)
			i += end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// runTestCases runs every case and describes each failure.
func runTestCases(m matcher, cases []RegexTestCase) []string {
	var failures []string
	for _, tc := range cases {
		ok, err := m(tc.String)
		switch {
		case err != nil:
			failures = append(failures, fmt.Sprintf("test case %q: the match did not finish in time (catastrophic backtracking?)", tc.String))
		case ok != tc.ShouldMatch && tc.ShouldMatch:
			failures = append(failures, fmt.Sprintf("test case %q should match but does not", tc.String))
		case ok != tc.ShouldMatch:
			failures = append(failures, fmt.Sprintf("test case %q should not match but does", tc.String))
		}
	}
	return failures
}

// modelAnswer is the JSON the model is asked for.
type modelAnswer struct {
	Pattern     string          `json:"pattern"`
	Explanation string          `json:"explanation"`
	TestCases   []RegexTestCase `json:"test_cases"`
}

var flavorRules = map[string]string{
	FlavorPCRE:       `Flavor: PCRE2. Anchor the whole string with \A at the start and \z at the end (not ^ and $, which allow a trailing newline). Lookarounds, atomic groups and possessive quantifiers are allowed; prefer them over nested quantifiers.`,
	FlavorPython:     `Flavor: Python's re module. Anchor the whole string with \A at the start and \Z at the end (Python has no \z). Named groups are written (?P<name>...). Do not use possessive quantifiers, atomic groups, \p{...} or \z.`,
	FlavorJavaScript: `Flavor: ECMAScript (JavaScript RegExp source, without the surrounding slashes and without flags). Anchor with ^ and $. Named groups are written (?<name>...). Do not use \A, \z, \Z, possessive quantifiers, atomic groups, inline flags like (?i) or POSIX classes.`,
	FlavorGo:         `Flavor: Go's regexp package (RE2 syntax). Anchor with ^ and $. Do not use lookahead, lookbehind, backreferences, atomic groups or possessive quantifiers: RE2 rejects them. Named groups are written (?P<name>...).`,
	FlavorRE2:        `Flavor: RE2. Anchor with ^ and $. Do not use lookahead, lookbehind, backreferences, atomic groups or possessive quantifiers: RE2 rejects them. Named groups are written (?P<name>...).`,
	FlavorDotNet:     `Flavor: .NET System.Text.RegularExpressions. Anchor the whole string with \A at the start and \z at the end. Named groups are written (?<name>...). Lookarounds and atomic groups are allowed; there are no possessive quantifiers.`,
}

const regexSystemPrompt = `You write regular expressions. Answer with one JSON object and nothing else:
{"pattern": "...", "explanation": "...", "test_cases": [{"string": "...", "should_match": true}, ...]}
Rules:
- "pattern" is the regular expression source only, without delimiters or flags, and must match the WHOLE input string (anchored).
- "explanation" says in one or two sentences what the pattern accepts and what it rejects.
- "test_cases" has between 4 and 20 cases, at least 2 that should match and at least 2 that should not; include edge cases.
- Avoid nested quantifiers such as (a+)+ that can backtrack catastrophically.
- Every test case is run against the pattern; a pattern that fails any of them is rejected.`

func (g *RegexGenerator) ask(ctx context.Context, description, flavor string) (RegexGenerateResult, llm.Usage, error) {
	req := llmjson.Request{
		System: regexSystemPrompt + "\n" + flavorRules[flavor],
		Prompt: "Write a regular expression for: " + description,
		// A pattern, two sentences and up to 20 short test cases.
		MaxTokens: llmjson.MaxTokens(1000),
	}
	check := func(a *modelAnswer) []string {
		var v []string
		switch n := len(a.Pattern); {
		case n == 0:
			return []string{`"pattern" is empty`}
		case n > maxGeneratedPatternLength:
			return []string{fmt.Sprintf(`"pattern" is longer than %d characters`, maxGeneratedPatternLength)}
		}
		if strings.TrimSpace(a.Explanation) == "" {
			v = append(v, `"explanation" is empty`)
		}
		matches := 0
		for _, tc := range a.TestCases {
			if tc.ShouldMatch {
				matches++
			}
			if len(tc.String) > maxTestCaseLength {
				v = append(v, fmt.Sprintf("a test case is longer than %d characters", maxTestCaseLength))
			}
		}
		if n := len(a.TestCases); n < minModelTestCases || n > maxModelTestCases || matches < 2 || n-matches < 2 {
			v = append(v, fmt.Sprintf(`"test_cases" must have 4 to 20 cases, at least 2 matching and 2 not; it has %d, %d matching`, n, matches))
		}
		if msg := checkAnchored(a.Pattern, flavor); msg != "" {
			v = append(v, msg)
		}
		if len(v) > 0 {
			return v
		}
		m, err := compileFlavor(a.Pattern, flavor, g.regexTimeout())
		if err != nil {
			return []string{fmt.Sprintf("the pattern does not compile as %s: %v", flavor, err)}
		}
		return runTestCases(m, a.TestCases)
	}
	ans, used, err := llmjson.Ask(ctx, g.model(), req, check)
	ai := llm.Usage(used)
	if err != nil {
		return RegexGenerateResult{}, ai, err
	}
	return RegexGenerateResult{
		Pattern:     ans.Pattern,
		Explanation: ans.Explanation,
		TestCases:   ans.TestCases,
		Flavor:      flavor,
		Source:      "model",
	}, ai, nil
}

// checkAnchored reports a pattern that does not start and end with
// flavor's whole-string anchors, or "". The test cases cannot tell: they
// are searched, so an unanchored pattern passes them while it accepts any
// string that merely contains a match. The start may be ^ or \A wherever
// the flavor has \A (they agree without multi-line mode); the end must be
// the anchor that allows no trailing newline: \z (\Z in Python), and $
// where the flavor's $ already means the very end. The anchors must bind
// every alternative: a | outside any group is refused, and so is an
// inline m flag, which makes ^ and $ match at every line.
func checkAnchored(pattern, flavor string) string {
	starts, ends := []string{"^", `\A`}, []string{`\z`}
	switch flavor {
	case FlavorPython:
		ends = []string{`\Z`}
	case FlavorJavaScript:
		starts, ends = []string{"^"}, []string{"$"}
	case FlavorGo, FlavorRE2:
		ends = []string{"$", `\z`}
	}
	start := slices.ContainsFunc(starts, func(a string) bool { return strings.HasPrefix(pattern, a) })
	end := slices.ContainsFunc(ends, func(a string) bool {
		// The anchor's own backslash, or a $, must not be escaped.
		rest, ok := strings.CutSuffix(pattern, a)
		return ok && (len(rest)-len(strings.TrimRight(rest, `\`)))%2 == 0
	})
	if !start || !end {
		return fmt.Sprintf(`"pattern" must match the whole string: start it with %s and end it with %s`,
			strings.Join(starts, " or "), strings.Join(ends, " or "))
	}
	if inlineMultiline(pattern) {
		return `"pattern" must match the whole string, but an inline m flag lets ^ and $ match at every line: leave it out`
	}
	if topLevelAlternation(pattern) {
		// ^a|b$ anchors a to the start and b to the end, neither to both.
		return `"pattern" must match the whole string, but a | outside any group splits its anchors between the alternatives: group them, as in ^(?:a|b)$`
	}
	return ""
}

// topLevelAlternation reports a | outside every group and character
// class of pattern.
func topLevelAlternation(pattern string) bool {
	return walkPattern(pattern, func(i, depth int) bool { return pattern[i] == '|' && depth == 0 })
}

// inlineMultiline reports an inline flag group of pattern, (?m) or
// (?m:...), that turns multi-line mode on: then ^ and $ match at every
// line, and anchors no longer bind the whole string.
func inlineMultiline(pattern string) bool {
	return walkPattern(pattern, func(i, _ int) bool {
		flags, ok := strings.CutPrefix(pattern[i:], "(?")
		if pattern[i] != '(' || !ok {
			return false
		}
		end := strings.IndexFunc(flags, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '^' })
		if end < 0 || (flags[end] != ')' && flags[end] != ':') {
			return false
		}
		on, _, _ := strings.Cut(flags[:end], "-")
		return strings.Contains(on, "m")
	})
}

// walkPattern calls visit with the offset of each metacharacter of
// pattern and the group depth there, until visit reports true, and then
// reports true. It skips escapes, \Q...\E quotes and character classes
// with their POSIX classes.
func walkPattern(pattern string, visit func(i, depth int) bool) bool {
	depth := 0
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			if strings.HasPrefix(pattern[i:], `\Q`) {
				end := strings.Index(pattern[i+2:], `\E`)
				if end < 0 {
					return false
				}
				i += 2 + end + 1
			} else {
				i++
			}
			continue
		case '[':
			i = classEnd(pattern, i)
			continue
		}
		if visit(i, depth) {
			return true
		}
		switch pattern[i] {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		}
	}
	return false
}

// classEnd returns the offset of the ] that closes the character class
// opening at start, or len(p)-1 when none does. A ] right after [ or [^
// is a literal, and [:name:] is a POSIX class inside it.
func classEnd(p string, start int) int {
	i := start + 1
	if i < len(p) && p[i] == '^' {
		i++
	}
	if i < len(p) && p[i] == ']' {
		i++
	}
	for ; i < len(p); i++ {
		switch {
		case p[i] == '\\':
			i++
		case strings.HasPrefix(p[i:], "[:"):
			if end := strings.Index(p[i+2:], ":]"); end >= 0 {
				i += 2 + end + 1
			}
		case p[i] == ']':
			return i
		}
	}
	return len(p) - 1
}

// --- The catalog ---

// catalogEntry is a built-in pattern. body is anchored per flavor.
type catalogEntry struct {
	name        string
	aliases     []string // normalized descriptions that select it
	body        string
	explanation string
	cases       []RegexTestCase
}

func cases(match []string, noMatch []string) []RegexTestCase {
	var out []RegexTestCase
	for _, s := range match {
		out = append(out, RegexTestCase{String: s, ShouldMatch: true})
	}
	for _, s := range noMatch {
		out = append(out, RegexTestCase{String: s, ShouldMatch: false})
	}
	return out
}

const (
	hex4     = `[0-9A-Fa-f]{1,4}`
	octet    = `(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])`
	ipv4Body = `(?:` + octet + `\.){3}` + octet
	label    = `[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?`
)

var catalog = []catalogEntry{
	{
		name:        "email",
		aliases:     []string{"email", "e mail", "email address", "e mail address", "mail address"},
		body:        "[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@" + label + `(?:\.` + label + `)+`,
		explanation: "An email address as web forms accept it (the WHATWG HTML definition of a valid email address, with a dot required in the domain): a local part of letters, digits and . ! # $ % & ' * + / = ? ^ _ ` { | } ~ -, an @, and a domain of labels of 1 to 63 letters, digits or inner hyphens. Quoted local parts and IP-literal domains are rejected.",
		cases:       cases([]string{"user@example.com", "first.last+tag@sub.example.co.uk", "o'brien@example.ie"}, []string{"user@localhost", "user.example.com", "user@-example.com", "user@exa_mple.com", "a b@example.com", "user@example..com"}),
	},
	{
		name:        "url",
		aliases:     []string{"url", "web address", "http url", "https url", "website url", "http or https url"},
		body:        `https?://` + label + `(?:\.` + label + `)*\.[A-Za-z]{2,63}(?::[0-9]{1,5})?(?:[/?#][^\s]*)?`,
		explanation: "An http or https URL with a domain name ending in a top-level domain of letters, an optional port, and an optional path, query and fragment without whitespace. Other schemes, IP-address hosts and localhost are rejected.",
		cases:       cases([]string{"https://example.com", "http://sub.example.co.uk:8080/path?q=1#top", "https://example.com/a/b.html"}, []string{"ftp://example.com", "https://", "example.com", "https://exa mple.com", "https://example"}),
	},
	{
		name:        "ipv4",
		aliases:     []string{"ipv4", "ipv4 address", "ip v4", "ip v4 address"},
		body:        ipv4Body,
		explanation: "An IPv4 address in dotted-decimal form: four numbers from 0 to 255 separated by dots, without leading zeros.",
		cases:       cases([]string{"192.168.1.1", "0.0.0.0", "255.255.255.255", "8.8.8.8"}, []string{"256.1.1.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "1.2.3.-4"}),
	},
	{
		name:    "ipv6",
		aliases: []string{"ipv6", "ipv6 address", "ip v6", "ip v6 address"},
		body: `(?:(?:` + hex4 + `:){7}` + hex4 +
			`|(?:` + hex4 + `:){1,7}:` +
			`|(?:` + hex4 + `:){1,6}:` + hex4 +
			`|(?:` + hex4 + `:){1,5}(?::` + hex4 + `){1,2}` +
			`|(?:` + hex4 + `:){1,4}(?::` + hex4 + `){1,3}` +
			`|(?:` + hex4 + `:){1,3}(?::` + hex4 + `){1,4}` +
			`|(?:` + hex4 + `:){1,2}(?::` + hex4 + `){1,5}` +
			`|` + hex4 + `:(?::` + hex4 + `){1,6}` +
			`|:(?:(?::` + hex4 + `){1,7}|:)` +
			`|(?:` + hex4 + `:){6}` + ipv4Body +
			`|(?:` + hex4 + `:){0,5}:` + ipv4Body +
			`|::(?:` + hex4 + `:){0,5}` + ipv4Body + `)`,
		explanation: "An IPv6 address as RFC 4291 writes it: eight groups of 1 to 4 hex digits, one run of groups compressed to ::, optionally ending in an embedded IPv4 address. Zone identifiers (%eth0) and prefixes (/64) are rejected.",
		cases:       cases([]string{"2001:0db8:85a3:0000:0000:8a2e:0370:7334", "2001:db8::1", "::1", "::", "fe80::1:2", "::ffff:192.0.2.1", "1:2:3:4:5:6:7::"}, []string{"2001:db8:::1", "1:2:3:4:5:6:7:8:9", "12345::", "g::1", "1::2::3", "192.168.1.1", "fe80::1%eth0"}),
	},
	{
		name:        "uuid",
		aliases:     []string{"uuid", "guid", "uuid v4", "uuidv4", "uuid4"},
		body:        `[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[1-8][0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}`,
		explanation: "A UUID of RFC 9562, versions 1 to 8, in its 8-4-4-4-12 hex form with the RFC variant bits (10xx). The nil and max UUIDs, braces and the URN prefix are rejected.",
		cases:       cases([]string{"123e4567-e89b-12d3-a456-426614174000", "F47AC10B-58CC-4372-A567-0E02B2C3D479", "01890a5d-ac96-774b-bcce-b302099a8057"}, []string{"00000000-0000-0000-0000-000000000000", "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-c456-426614174000", "{123e4567-e89b-12d3-a456-426614174000}", "123e4567-e89b-92d3-a456-42661417400"}),
	},
	{
		name:        "iso-date",
		aliases:     []string{"iso date", "iso 8601 date", "iso8601 date", "yyyy mm dd", "date yyyy mm dd", "yyyy mm dd date", "iso date yyyy mm dd"},
		body:        `[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-9]))`,
		explanation: "An ISO 8601 calendar date YYYY-MM-DD with months 01 to 12 and the right number of days per month. February 29 is accepted in every year: a regex cannot tell leap years apart, so check that in code.",
		cases:       cases([]string{"2024-02-29", "1999-12-31", "2023-04-30", "0001-01-01"}, []string{"2023-02-30", "2023-04-31", "2023-13-01", "2023-1-01", "20230101", "2023-00-10"}),
	},
	{
		name:        "time",
		aliases:     []string{"24 hour time", "24h time", "iso time", "iso 8601 time", "hh mm", "hh mm ss", "time hh mm", "time hh mm ss"},
		body:        `(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\.[0-9]{1,9})?)?`,
		explanation: "A 24-hour time of day HH:MM, with optional :SS and fractional seconds of up to 9 digits. Leap seconds (60), 24:00, and time zone suffixes are rejected.",
		cases:       cases([]string{"00:00", "23:59", "12:34:56", "08:15:30.123"}, []string{"24:00", "12:60", "7:30", "12:34:60", "12:34:56.", "12:34 PM"}),
	},
	{
		name:        "hex-color",
		aliases:     []string{"hex color", "hex colour", "hex color code", "hex colour code", "css hex color", "color code", "html color"},
		body:        `#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})`,
		explanation: "A CSS hex color: # followed by 3, 4, 6 or 8 hex digits (#RGB, #RGBA, #RRGGBB, #RRGGBBAA).",
		cases:       cases([]string{"#fff", "#FFFFFF", "#1a2b3c80", "#abcd"}, []string{"fff", "#ff", "#fffff", "#ggg", "#1234567"}),
	},
	{
		name:        "semver",
		aliases:     []string{"semver", "semantic version", "semantic versioning", "semantic version number", "semver version"},
		body:        `(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)(?:-(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?`,
		explanation: "A Semantic Versioning 2.0.0 version MAJOR.MINOR.PATCH without leading zeros, with an optional pre-release (-alpha.1; numeric identifiers without leading zeros) and build metadata (+build.5). A leading v is rejected.",
		cases:       cases([]string{"1.0.0", "0.1.2-alpha.1", "10.20.30+build.5", "1.0.0-rc.1+sha.abc123", "1.0.0-0A.is.legal"}, []string{"1.0", "v1.0.0", "01.0.0", "1.0.0-01", "1.0.0-", "1.0.0+"}),
	},
	{
		name:        "us-phone",
		aliases:     []string{"us phone", "us phone number", "north american phone number", "nanp phone number", "us telephone number"},
		body:        `(?:\+?1[ .-]?)?(?:\([2-9][0-9]{2}\)|[2-9][0-9]{2})[ .-]?[2-9][0-9]{2}[ .-]?[0-9]{4}`,
		explanation: "A US (NANP) phone number: an optional +1 or 1, a 3-digit area code (optionally in parentheses) and a 7-digit number, separated by nothing, a space, a dot or a hyphen. Area codes and exchanges cannot start with 0 or 1. Extensions are rejected.",
		cases:       cases([]string{"(555) 234-5678", "555-234-5678", "+1 555 234 5678", "5552345678", "1.555.234.5678"}, []string{"555-1234", "(155) 234-5678", "555-034-5678", "+44 20 7946 0958", "555-234-56789"}),
	},
	{
		name:        "e164-phone",
		aliases:     []string{"e164", "e 164", "e164 phone", "e164 phone number", "e 164 phone number", "international phone number", "international phone"},
		body:        `\+[1-9][0-9]{1,14}`,
		explanation: "A phone number in E.164 form: + and a country code not starting with 0, then up to 15 digits in all, with no spaces or punctuation.",
		cases:       cases([]string{"+14155552671", "+442079460958", "+861012345678"}, []string{"14155552671", "+0123456789", "+1 415 555 2671", "+1234567890123456", "+"}),
	},
	{
		name:        "slug",
		aliases:     []string{"slug", "url slug", "kebab case", "kebab case slug", "seo slug"},
		body:        `[a-z0-9]+(?:-[a-z0-9]+)*`,
		explanation: "A URL slug: lower-case letters and digits in words joined by single hyphens, without leading, trailing or doubled hyphens.",
		cases:       cases([]string{"hello-world", "post-123", "a"}, []string{"Hello-World", "-hello", "hello-", "hello--world", "hello_world", "héllo"}),
	},
	{
		name:        "credit-card",
		aliases:     []string{"credit card", "credit card number", "card number", "credit card shape", "payment card number", "debit card number"},
		body:        `[0-9](?:[ -]?[0-9]){12,18}`,
		explanation: "The shape of a payment card number: 13 to 19 digits, optionally grouped by single spaces or hyphens. It checks the shape only: validate the Luhn checksum and the issuer ranges in code, which a regex cannot do well.",
		cases:       cases([]string{"4111 1111 1111 1111", "4111-1111-1111-1111", "378282246310005", "6011111111111117"}, []string{"4111 1111 1111", "4111  1111 1111 1111", "4111-1111-1111-111a", "41111111111111111111", " 4111111111111111"}),
	},
}

// CatalogNames returns the names of the built-in patterns.
func CatalogNames() []string {
	names := make([]string, len(catalog))
	for i, e := range catalog {
		names[i] = e.name
	}
	return names
}

// catalogFiller are words a description may carry around the name of
// what it wants.
var catalogFiller = map[string]bool{
	"a": true, "an": true, "the": true, "regex": true, "regexp": true, "regular": true, "expression": true, "pattern": true,
	"for": true, "to": true, "that": true, "which": true, "match": true, "matches": true, "matching": true, "validate": true,
	"validates": true, "validating": true, "validation": true, "valid": true, "check": true, "checks": true, "string": true,
	"strings": true, "of": true, "format": true, "formatted": true, "any": true, "find": true, "in": true,
	"is": true, "shape": true, "value": true, "values": true, "input": true, "field": true,
}

// normalizeDescription lowercases, keeps letters and digits, singularizes
// plurals and drops filler words.
func normalizeDescription(d string) string {
	words := strings.FieldsFunc(strings.ToLower(d), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var kept []string
	for _, w := range words {
		if catalogFiller[w] {
			continue
		}
		switch {
		case strings.HasSuffix(w, "sses"):
			w = strings.TrimSuffix(w, "es")
		case strings.HasSuffix(w, "s") && len(w) > 3 && !strings.HasSuffix(w, "ss"):
			w = strings.TrimSuffix(w, "s")
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, " ")
}

var catalogIndex = func() map[string]*catalogEntry {
	m := map[string]*catalogEntry{}
	for i := range catalog {
		for _, a := range catalog[i].aliases {
			m[normalizeDescription(a)] = &catalog[i]
		}
	}
	return m
}()

// lookupCatalog returns the entry a description names, or nil. It
// matches whole descriptions only, so "email or phone" or "gmail
// addresses" are not mistaken for one entry.
func lookupCatalog(description string) *catalogEntry {
	return catalogIndex[normalizeDescription(description)]
}

// anchor anchors a pattern body to the whole string in flavor's way:
// \A and \z where ^ and $ would accept a trailing newline.
func anchor(body, flavor string) string {
	switch flavor {
	case FlavorPCRE, FlavorDotNet:
		return `\A` + body + `\z`
	case FlavorPython:
		return `\A` + body + `\Z`
	}
	return `^` + body + `$`
}

// result is the entry's answer in flavor. The catalog is verified by the
// package's tests, compiled and run in every flavor, not again on each
// request.
func (e *catalogEntry) result(flavor string) RegexGenerateResult {
	return RegexGenerateResult{
		Pattern:     anchor(e.body, flavor),
		Explanation: e.explanation,
		TestCases:   slices.Clone(e.cases),
		Flavor:      flavor,
		Source:      "catalog",
	}
}
