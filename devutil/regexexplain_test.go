package devutil_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
)

func explain(t testing.TB, pattern string) devutil.RegexExplainResult {
	t.Helper()
	res, err := devutil.ExplainRegex(context.Background(), devutil.RegexExplainRequest{Pattern: pattern})
	if err != nil {
		t.Fatalf("ExplainRegex(%q): %v", pattern, err)
	}
	return res
}

func TestExplainRegexConstructs(t *testing.T) {
	// Each row: a pattern, one of its tokens and a phrase its meaning
	// must contain.
	tests := []struct {
		construct, pattern, token, meaning string
	}{
		{"literal", `abc`, `abc`, `the text "abc"`},
		{"escaped literal", `a\.b`, `\.`, `the literal character '.'`},
		{"escape", `\d`, `\d`, "a digit"},
		{"tab escape", `\t`, `\t`, "a tab"},
		{"hex escape", `\x41`, `\x41`, "'A' (U+0041)"},
		{"unicode escape", `\u00e9`, `\u00e9`, "'é' (U+00E9)"},
		{"class and range", `[a-z0-9_]`, `[a-z0-9_]`, "any one of: 'a' to 'z', '0' to '9', '_'"},
		{"negated class", `[^"\n]`, `[^"\n]`, "any character except: '\"', a line feed"},
		{"posix class", `[[:alpha:][:digit:]]`, `[[:alpha:][:digit:]]`, "a letter ([:alpha:]), a digit ([:digit:])"},
		{"unicode property", `\p{Lu}`, `\p{Lu}`, "Unicode property Lu (an upper-case letter)"},
		{"negated unicode property", `\P{L}`, `\P{L}`, "a character not with the Unicode property L"},
		{"start anchor", `^a`, `^`, "the start of the string"},
		{"end anchor", `a$`, `$`, "the end of the string"},
		{"absolute anchors", `\Aa\z`, `\z`, "the very end of the string"},
		{"word boundary", `\bcat\b`, `\b`, "a word boundary"},
		{"not word boundary", `\Bcat`, `\B`, "not a word boundary"},
		{"capture group", `(ab)`, `(`, "start of capture group 1"},
		{"named group", `(?<year>\d)`, `(?<year>`, `capture group 1, named "year"`},
		{"python named group", `(?P<year>\d)`, `(?P<year>`, `capture group 1, named "year"`},
		{"non-capturing group", `(?:ab)`, `(?:`, "a non-capturing group"},
		{"atomic group", `(?>ab)`, `(?>`, "an atomic group"},
		{"lookahead", `a(?=b)`, `(?=`, "a lookahead"},
		{"negative lookahead", `a(?!b)`, `(?!`, "a negative lookahead"},
		{"lookbehind", `(?<=a)b`, `(?<=`, "a lookbehind"},
		{"negative lookbehind", `(?<!a)b`, `(?<!`, "a negative lookbehind"},
		{"numbered backreference", `(a)\1`, `\1`, "what capture group 1 matched"},
		{"named backreference", `(?<q>')\k<q>`, `\k<q>`, `what the group named "q" matched`},
		{"python named backreference", `(?P<q>')(?P=q)`, `(?P=q)`, `what the group named "q" matched`},
		{"alternation", `cat|dog`, `|`, "or"},
		{"star", `a*`, `*`, "zero or more times (as many as possible"},
		{"plus", `a+`, `+`, "one or more times"},
		{"optional", `a?`, `?`, "optionally"},
		{"lazy", `a+?`, `+?`, "as few as possible, lazy"},
		{"possessive", `a++`, `++`, "never giving back: possessive"},
		{"exact count", `a{3}`, `{3}`, "exactly 3 times"},
		{"range count", `a{2,5}`, `{2,5}`, "between 2 and 5 times"},
		{"open count", `a{2,}`, `{2,}`, "at least 2 times"},
		{"inline flags", `(?i)abc`, `(?i)`, "flags on: case-insensitive"},
		{"scoped flags", `(?i-s:abc)`, `(?i-s:`, "flags off: single-line"},
		{"dot", `a.b`, `.`, "any character except a line break"},
		{"comment", `a(?#note)b`, `(?#note)`, "a comment"},
		{"extended mode", "(?x) a # note", "# note", "a comment"},
		{"conditional", `(a)?(?(1)b|c)`, `(?(1)`, "a conditional"},
		{"PCRE quoting", `\Qa.b*\E`, `\Qa.b*\E`, `the literal text "a.b*"`},
		{"PCRE keep out", `a\Kb`, `\K`, "resets the start of the reported match"},
		{"PCRE line break", `\R`, `\R`, "a line break"},
		{"PCRE horizontal space", `\h+`, `\h`, "horizontal whitespace"},
		{"control escape", `\cM`, `\cM`, "Ctrl-M"},
		{"octal escape", `\012`, `\012`, "octal code 12 (U+000A)"},
		{"code point escape", `\x{1F600}`, `\x{1F600}`, "U+1F600"},
		{"class with escapes", `[\w.\-]`, `[\w.\-]`, "any one of: a word character (letter, digit or _), '.', the literal character '-'"},
		{"lone bracket", `a]`, `]`, `the character ']'`},
		{"literal brace", `a{b`, `a{b`, `the text "a{b"`},
	}
	for _, tt := range tests {
		t.Run(tt.construct, func(t *testing.T) {
			res := explain(t, tt.pattern)
			for _, tok := range res.Breakdown {
				if tok.Token == tt.token {
					if !strings.Contains(tok.Meaning, tt.meaning) {
						t.Errorf("meaning of %q = %q, want it to contain %q", tt.token, tok.Meaning, tt.meaning)
					}
					return
				}
			}
			t.Errorf("no token %q in %+v", tt.token, res.Breakdown)
		})
	}
}

func TestExplainRegexBreakdownFields(t *testing.T) {
	res := explain(t, `^(?<y>\d{4})-é(x|y)$`)
	type tok struct {
		token         string
		offset, depth int
		group         int
	}
	want := []tok{
		{"^", 0, 0, 0}, {"(?<y>", 1, 0, 1}, {`\d`, 6, 1, 0}, {"{4}", 8, 1, 0}, {")", 11, 0, 1},
		{"-é", 12, 0, 0}, {"(", 14, 0, 2}, {"x", 15, 1, 0}, {"|", 16, 1, 0}, {"y", 17, 1, 0}, {")", 18, 0, 2}, {"$", 19, 0, 0},
	}
	if len(res.Breakdown) != len(want) {
		t.Fatalf("got %d tokens, want %d: %+v", len(res.Breakdown), len(want), res.Breakdown)
	}
	for i, w := range want {
		g := res.Breakdown[i]
		group := 0
		if g.Group != nil {
			group = *g.Group
		}
		if g.Token != w.token || g.Offset != w.offset || g.Depth != w.depth || group != w.group {
			t.Errorf("token %d = %q off %d depth %d group %d, want %+v", i, g.Token, g.Offset, g.Depth, group, w)
		}
	}
	if res.GroupCount != 2 || len(res.Warnings) != 0 {
		t.Errorf("groups %d warnings %q", res.GroupCount, res.Warnings)
	}
	if !strings.HasPrefix(res.Explanation, "The pattern has 12 tokens and 2 capture groups. It matches, in order: the start of the string") {
		t.Errorf("explanation = %q", res.Explanation)
	}
	one, err := devutil.ExplainRegex(context.Background(), devutil.RegexExplainRequest{Pattern: "a"})
	if err != nil || !strings.HasPrefix(one.Explanation, "The pattern has 1 token and no capture groups.") {
		t.Errorf("explanation of a: %q, %v", one.Explanation, err)
	}
}

func TestExplainRegexExtendedModeScope(t *testing.T) {
	// (?x:...) ends with its group: the space after it is literal again.
	res := explain(t, "(?x: a b ) c")
	var toks []string
	for _, tok := range res.Breakdown {
		toks = append(toks, tok.Token)
	}
	if got := strings.Join(toks, "|"); got != "(?x:|a|b|)| c" {
		t.Errorf("tokens %s", got)
	}
	if res.Breakdown[0].Depth != 0 || res.Breakdown[1].Depth != 1 || res.Breakdown[3].Depth != 0 {
		t.Errorf("depths %+v", res.Breakdown)
	}
	// (?x) lasts to the end of the enclosing group.
	res = explain(t, "((?x) a )b c")
	toks = toks[:0]
	for _, tok := range res.Breakdown {
		toks = append(toks, tok.Token)
	}
	if got := strings.Join(toks, "|"); got != "(|(?x)|a|)|b c" {
		t.Errorf("tokens %s", got)
	}
}

func TestExplainRegexWarnings(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string // substrings, one per warning
	}{
		{`(ab)+`, []string{"capture group 1 is repeated by \"+\", so it keeps only its last repetition"}},
		{`(ab){2}`, []string{"capture group 1 is repeated by \"{2}\""}},
		{`(ab)?`, nil},
		{`(?:a+)+b`, []string{`nested quantifiers at offset 0: "(?:a+)+"`}},
		{`(a*)*`, []string{"capture group 1", "nested quantifiers"}},
		{`(?:\w+\s?)*$`, []string{"nested quantifiers"}},
		{`(?:(?:a|b)+c)*`, []string{"nested quantifiers"}},
		{`(?>a+)+`, nil},
		{`(?:a++)+`, nil},
		{`(?:a{3})+`, nil},
		{`(?:a+)?`, nil},
	}
	for _, tt := range tests {
		res := explain(t, tt.pattern)
		if len(res.Warnings) != len(tt.want) {
			t.Errorf("%s: warnings %q, want %d", tt.pattern, res.Warnings, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if !strings.Contains(res.Warnings[i], w) {
				t.Errorf("%s: warning %q, want it to contain %q", tt.pattern, res.Warnings[i], w)
			}
		}
	}
}

func TestExplainRegexInvalid(t *testing.T) {
	tests := []struct {
		pattern string
		offset  int
		reason  string
	}{
		{`a)`, 1, "unmatched ')'"},
		{`(a`, 0, "missing ')'"},
		{`é(a|b`, 1, "missing ')'"},
		{`[abc`, 0, "missing ']'"},
		{`[z-a]`, 1, "range z-a is out of order"},
		{`*a`, 0, "nothing to repeat"},
		{`a|+`, 2, "nothing to repeat"},
		{`{2}`, 0, "nothing to repeat"},
		{`a**`, 2, "a quantifier cannot follow"},
		{`a{5,2}`, 1, "minimum above its maximum"},
		{`ab{2147483648}`, 2, "bound above 2147483647"},
		{`ab{1,99999999999999999999}`, 2, "bound above 2147483647"},
		{`(a)\2`, 3, "backreference to group 2, but the pattern has 1"},
		{`\k<nope>(?<yes>a)`, 0, `undefined group name "nope"`},
		{`(?<a>x)(?<a>y)`, 7, `"a" is used twice`},
		{`(?<1a>x)`, 0, "malformed group name"},
		{`\q`, 0, "unknown escape"},
		{`abc\`, 3, "unfinished escape"},
		{`(?Q)`, 0, "unknown group construct"},
		{`[[:nope:]]`, 1, "unknown POSIX class"},
		{`\p{`, 0, "unterminated Unicode property"},
		{`\xZZ`, 0, "hex digits"},
		{`x\p{Foo}`, 1, "unknown unicode category, script, or property 'Foo'"},
		{`(?(1)a|b|c)`, 0, "at most two alternatives"},
		{`[\h]`, 1, "unknown escape"},
		{strings.Repeat("(", devutil.MaxPatternNesting+1), devutil.MaxPatternNesting, "nest deeper"},
	}
	for _, tt := range tests {
		_, err := devutil.ExplainRegex(context.Background(), devutil.RegexExplainRequest{Pattern: tt.pattern})
		var pe *devutil.PatternError
		if !errors.As(err, &pe) {
			t.Errorf("%q: err = %v, want a PatternError", tt.pattern, err)
			continue
		}
		if !errors.Is(err, &envelope.Error{Code: envelope.CodeInvalidRequest}) {
			t.Errorf("%q: err = %v, want INVALID_REQUEST", tt.pattern, err)
		}
		if pe.Offset != tt.offset || !strings.Contains(pe.Reason, tt.reason) {
			t.Errorf("%q: error at %d %q, want at %d %q", tt.pattern, pe.Offset, pe.Reason, tt.offset, tt.reason)
		}
		// The text says the reason once.
		if want := "INVALID_REQUEST: pattern is not a valid regular expression: " + pe.Error(); err.Error() != want {
			t.Errorf("%q: err = %q, want %q", tt.pattern, err, want)
		}
	}
	for _, p := range []string{"", strings.Repeat("a", devutil.MaxPatternLength+1), "\xff"} {
		_, err := devutil.ExplainRegex(context.Background(), devutil.RegexExplainRequest{Pattern: p})
		var v *envelope.ValidationError
		if !errors.As(err, &v) {
			t.Errorf("pattern of %d bytes: err = %v, want a ValidationError", len(p), err)
		}
	}
}

func TestExplainRegexLongPattern(t *testing.T) {
	p := strings.Repeat(`(?:a|\d)+?`, devutil.MaxPatternLength/10)
	res := explain(t, p)
	if len(res.Breakdown) != 6*devutil.MaxPatternLength/10 {
		t.Errorf("got %d tokens", len(res.Breakdown))
	}
}

func FuzzExplainRegex(f *testing.F) {
	for _, s := range []string{`^(?<y>\d{4})-(\d\d)+$`, `[^a-z\]]+?`, `(?i)(a|b)\1`, `(?x) a # c`, `\p{L}{2,}`, `(?P<n>x)(?P=n)`, `a++b*+`, `[[:alpha:]-]`, `(?(1)a|b)`, `(?<!x)(?=y)`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		res, err := devutil.ExplainRegex(context.Background(), devutil.RegexExplainRequest{Pattern: pattern})
		if err != nil {
			var pe *devutil.PatternError
			var v *envelope.ValidationError
			if errors.As(err, &pe) {
				if pe.Offset < 0 || pe.Offset > utf8.RuneCountInString(pattern) {
					t.Fatalf("offset %d out of range for %q", pe.Offset, pattern)
				}
			} else if !errors.As(err, &v) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		runes := []rune(pattern)
		last := -1
		for _, tok := range res.Breakdown {
			if tok.Offset <= last {
				t.Fatalf("offsets not increasing in %q: %+v", pattern, res.Breakdown)
			}
			last = tok.Offset
			n := utf8.RuneCountInString(tok.Token)
			if tok.Offset+n > len(runes) || string(runes[tok.Offset:tok.Offset+n]) != tok.Token {
				t.Fatalf("token %q is not at offset %d of %q", tok.Token, tok.Offset, pattern)
			}
			if tok.Meaning == "" || tok.Depth < 0 {
				t.Fatalf("bad token %+v", tok)
			}
		}
	})
}
