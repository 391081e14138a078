package devutil

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
)

// Bounds of [ExplainRegex].
const (
	// MaxPatternLength bounds a pattern, in characters.
	MaxPatternLength = 10000
	// MaxPatternNesting bounds how deeply groups may nest.
	MaxPatternNesting = 200
)

// RegexExplainRequest is the request of [ExplainRegex].
type RegexExplainRequest struct {
	// Pattern is the regular expression to explain, in the common
	// PCRE/.NET/Python/JavaScript syntax. Required; at most
	// MaxPatternLength characters.
	Pattern string `json:"pattern" openapi:"required"`
}

// RegexExplainResult is the result of [ExplainRegex].
type RegexExplainResult struct {
	// Explanation reads the whole pattern as one sentence.
	Explanation string `json:"explanation"`
	// Breakdown is the pattern's tokens in source order.
	Breakdown []RegexToken `json:"breakdown"`
	// Warnings names the traps in the pattern: quantified capture groups
	// and nested quantifiers. Never null.
	Warnings []string `json:"warnings"`
	// GroupCount is the number of capture groups.
	GroupCount int `json:"group_count"`
}

// RegexToken is one token of a pattern.
type RegexToken struct {
	// Token is the token's source text.
	Token string `json:"token"`
	// Meaning says what the token matches or does.
	Meaning string `json:"meaning"`
	// Offset is where the token starts, in characters from the start of
	// the pattern (0-based).
	Offset int `json:"offset"`
	// Depth is how many groups enclose the token (0 at the top level; a
	// group's own parentheses are at the depth outside it).
	Depth int `json:"depth"`
	// Group is the capture group number the token opens, closes or
	// refers to; omitted for other tokens.
	Group *int `json:"group,omitempty"`
}

// PatternError is a syntax error in a pattern. [ExplainRegex] returns it
// wrapped in an INVALID_REQUEST [envelope.Error].
type PatternError struct {
	// Offset is where the error is, in characters (0-based).
	Offset int
	// Reason says what is wrong.
	Reason string
}

// Error returns "at offset N: reason".
func (e *PatternError) Error() string {
	return fmt.Sprintf("at offset %d: %s", e.Offset, e.Reason)
}

// ExplainRegex explains a regular expression token by token. The
// pattern is validated with regexp2 (the .NET/Perl dialect, groups
// numbered left to right); Python's (?P<name>) and (?P=name) and
// possessive quantifiers are accepted too. An invalid pattern is an
// INVALID_REQUEST error wrapping a [*PatternError] with the position and
// the reason.
func ExplainRegex(_ context.Context, req RegexExplainRequest) (RegexExplainResult, error) {
	switch n := utf8.RuneCountInString(req.Pattern); {
	case req.Pattern == "":
		return RegexExplainResult{}, envelope.Invalid("pattern", "is required")
	case n > MaxPatternLength:
		return RegexExplainResult{}, envelope.Invalidf("pattern", "must be at most %d characters, got %d", MaxPatternLength, n)
	case !utf8.ValidString(req.Pattern):
		return RegexExplainResult{}, envelope.Invalid("pattern", "must be valid UTF-8")
	}
	p := &rxParser{src: req.Pattern, names: map[string]int{}}
	if err := p.parse(); err != nil {
		return RegexExplainResult{}, patternInvalid(err)
	}
	// The tokenizer accepts a superset; regexp2 has the last word.
	if _, err := regexp2.Compile(p.validation.String(), regexp2.OptionMaintainCaptureOrder()); err != nil {
		return RegexExplainResult{}, patternInvalid(engineError(req.Pattern, err))
	}
	res := RegexExplainResult{Breakdown: p.tokens, Warnings: p.warnings, GroupCount: p.groups}
	if res.Warnings == nil {
		res.Warnings = []string{}
	}
	res.Explanation = p.explanation()
	return res, nil
}

func patternInvalid(pe *PatternError) error {
	return &envelope.Error{
		Code:    envelope.CodeInvalidRequest,
		Message: "pattern is not a valid regular expression",
		Details: []envelope.FieldIssue{{Field: "pattern", Issue: pe.Error()}},
		Err:     pe,
	}
}

// quotedFragment finds the fragment regexp2 quotes in its messages.
var quotedFragment = regexp.MustCompile(`'([^']+)'`)

// engineError turns an error only regexp2 found into a PatternError,
// locating the fragment its message quotes when it can.
func engineError(pattern string, err error) *PatternError {
	reason := regexp2Reason(err)
	if m := quotedFragment.FindStringSubmatch(reason); m != nil {
		if i := strings.Index(pattern, m[1]); i >= 0 {
			return &PatternError{Offset: utf8.RuneCountInString(pattern[:i]), Reason: reason}
		}
	}
	return &PatternError{Offset: 0, Reason: reason + " (found by the regex engine, which does not give the position)"}
}

// regexp2Reason strips regexp2's prefix and the echoed pattern.
func regexp2Reason(err error) string {
	msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
	if i := strings.LastIndex(msg, " in `"); i > 0 {
		msg = msg[:i]
	}
	return msg
}

// rxParser tokenizes a pattern, building the breakdown, the text handed
// to regexp2, and the warnings.
type rxParser struct {
	src        string
	i          int // byte offset
	depth      int
	groups     int
	names      map[string]int
	extended   bool // (?x): whitespace and # comments are ignored
	tokens     []RegexToken
	warnings   []string
	validation strings.Builder
	backrefs   []rxBackref

	runeAt, byteAt int // incremental byte -> character offset
}

type rxBackref struct {
	off, num int
	name     string
}

// rxInfo describes a parsed atom for the quantifier that may follow.
type rxInfo struct {
	capture  int  // capture group number, 0 if none
	group    bool // a group of any kind
	atomic   bool // atomic group or lookaround
	varQuant bool // contains a quantifier whose count varies
	start    int  // byte offset of the atom
}

func (p *rxParser) charOffset(b int) int {
	if b < p.byteAt {
		p.runeAt, p.byteAt = 0, 0
	}
	p.runeAt += utf8.RuneCountInString(p.src[p.byteAt:b])
	p.byteAt = b
	return p.runeAt
}

func (p *rxParser) errAt(b int, format string, args ...any) *PatternError {
	return &PatternError{Offset: p.charOffset(b), Reason: fmt.Sprintf(format, args...)}
}

func (p *rxParser) emit(start int, meaning string, group int) {
	t := RegexToken{Token: p.src[start:p.i], Meaning: meaning, Offset: p.charOffset(start), Depth: p.depth}
	if group > 0 {
		t.Group = &group
	}
	p.tokens = append(p.tokens, t)
}

func (p *rxParser) parse() *PatternError {
	if _, err := p.parseAlternation(); err != nil {
		return err
	}
	if p.i < len(p.src) {
		return p.errAt(p.i, "unmatched ')'")
	}
	for _, b := range p.backrefs {
		if b.name != "" {
			if _, ok := p.names[b.name]; !ok {
				return p.errAt(b.off, "backreference to the undefined group name %q", b.name)
			}
		} else if b.num > p.groups {
			return p.errAt(b.off, "backreference to group %d, but the pattern has %d capture groups", b.num, p.groups)
		}
	}
	return nil
}

// parseAlternation parses up to an unmatched ')' or the end, and reports
// whether anything inside has a varying quantifier.
func (p *rxParser) parseAlternation() (varQuant bool, err *PatternError) {
	saveExtended := p.extended
	defer func() { p.extended = saveExtended }()
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == ')' {
			return varQuant, nil
		}
		if c == '|' {
			start := p.i
			p.i++
			p.validation.WriteByte('|')
			p.emit(start, "or", 0)
			continue
		}
		if p.extended && p.skipExtended() {
			continue
		}
		info, err := p.parseAtom()
		if err != nil {
			return false, err
		}
		if info == nil { // an inline flag group or comment: nothing to quantify
			continue
		}
		vq, err := p.parseQuantifier(info)
		if err != nil {
			return false, err
		}
		varQuant = varQuant || vq || info.varQuant
	}
	return varQuant, nil
}

// skipExtended consumes whitespace and a # comment in extended mode.
func (p *rxParser) skipExtended() bool {
	c := p.src[p.i]
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
		p.i++
		return true
	case c == '#':
		start := p.i
		for p.i < len(p.src) && p.src[p.i] != '\n' {
			p.i++
		}
		p.emit(start, "a comment (ignored in extended mode)", 0)
		p.validation.WriteString(p.src[start:p.i])
		return true
	}
	return false
}

func (p *rxParser) parseAtom() (*rxInfo, *PatternError) {
	start := p.i
	c := p.src[p.i]
	switch c {
	case '(':
		return p.parseGroup()
	case '[':
		meaning, err := p.parseClass()
		if err != nil {
			return nil, err
		}
		p.validation.WriteString(p.src[start:p.i])
		p.emit(start, meaning, 0)
	case '\\':
		meaning, ref, err := p.parseEscape()
		if err != nil {
			return nil, err
		}
		p.emit(start, meaning, ref)
	case '.':
		p.i++
		p.validation.WriteByte('.')
		p.emit(start, "any character except a line break (any character at all in single-line mode (?s))", 0)
	case '^':
		p.i++
		p.validation.WriteByte('^')
		p.emit(start, "the start of the string (of a line in multiline mode (?m))", 0)
	case '$':
		p.i++
		p.validation.WriteByte('$')
		p.emit(start, "the end of the string, before a final line break if any (the end of a line in multiline mode (?m))", 0)
	case '*', '+', '?':
		return nil, p.errAt(p.i, "quantifier '%c' has nothing to repeat", c)
	case '{':
		if _, _, n := p.braceQuantifier(p.i); n > 0 {
			return nil, p.errAt(p.i, "quantifier %q has nothing to repeat", p.src[p.i:p.i+n])
		}
		fallthrough
	default:
		p.parseLiteralRun()
	}
	return &rxInfo{start: start}, nil
}

// parseLiteralRun consumes literal characters, stopping before one that
// a quantifier follows so that the quantifier applies to it alone.
func (p *rxParser) parseLiteralRun() {
	start := p.i
	for p.i < len(p.src) {
		c := p.src[p.i]
		if p.i > start && strings.IndexByte(`()[]\.^$|*+?`, c) >= 0 || (p.extended && (c == '#' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
			break
		}
		if c == '{' && p.i > start {
			if _, _, n := p.braceQuantifier(p.i); n > 0 {
				break
			}
		}
		_, size := utf8.DecodeRuneInString(p.src[p.i:])
		if p.i > start && p.quantifierAt(p.i+size) {
			break
		}
		p.i += size
	}
	text := p.src[start:p.i]
	p.validation.WriteString(text)
	if utf8.RuneCountInString(text) == 1 {
		p.emit(start, "the character "+describeChar(text), 0)
	} else {
		p.emit(start, "the text "+strconv.Quote(text), 0)
	}
}

func (p *rxParser) quantifierAt(i int) bool {
	if i >= len(p.src) {
		return false
	}
	switch p.src[i] {
	case '*', '+', '?':
		return true
	case '{':
		_, _, n := p.braceQuantifier(i)
		return n > 0
	}
	return false
}

// braceQuantifier parses {n}, {n,} or {n,m} at i, returning the bounds
// (max -1 when unbounded) and its length, or length 0 when the brace is
// a literal.
func (p *rxParser) braceQuantifier(i int) (lo, hi, n int) {
	j := i + 1
	num := func() (int, bool) {
		k := j
		v := 0
		for j < len(p.src) && '0' <= p.src[j] && p.src[j] <= '9' {
			if v <= math.MaxInt32 { // saturate past regexp2's bound
				v = v*10 + int(p.src[j]-'0')
			}
			j++
		}
		return v, j > k
	}
	lo, ok := num()
	if !ok {
		return 0, 0, 0
	}
	hi = lo
	if j < len(p.src) && p.src[j] == ',' {
		j++
		var has bool
		hi, has = num()
		if !has {
			hi = -1
		}
	}
	if j >= len(p.src) || p.src[j] != '}' {
		return 0, 0, 0
	}
	return lo, hi, j + 1 - i
}

// parseQuantifier parses the quantifier after an atom, if any, and
// reports whether it varies the count.
func (p *rxParser) parseQuantifier(info *rxInfo) (bool, *PatternError) {
	for p.extended && p.i < len(p.src) && strings.IndexByte(" \t\n\r", p.src[p.i]) >= 0 {
		p.i++
	}
	if p.i >= len(p.src) {
		return false, nil
	}
	start := p.i
	var lo, hi int
	var what string
	switch p.src[p.i] {
	case '*':
		lo, hi, what = 0, -1, "zero or more times"
		p.i++
	case '+':
		lo, hi, what = 1, -1, "one or more times"
		p.i++
	case '?':
		lo, hi, what = 0, 1, "optionally (zero or one time)"
		p.i++
	case '{':
		var n int
		lo, hi, n = p.braceQuantifier(p.i)
		if n == 0 {
			return false, nil
		}
		switch {
		case max(lo, hi) > math.MaxInt32:
			return false, p.errAt(start, "quantifier %s has a bound above %d", p.src[start:start+n], math.MaxInt32)
		case hi == lo:
			what = fmt.Sprintf("exactly %d times", lo)
		case hi < 0:
			what = fmt.Sprintf("at least %d times", lo)
		case hi < lo:
			return false, p.errAt(start, "quantifier %s has its minimum above its maximum", p.src[start:start+n])
		default:
			what = fmt.Sprintf("between %d and %d times", lo, hi)
		}
		p.i += n
	default:
		return false, nil
	}
	p.validation.WriteString(p.src[start:p.i])
	mode := " (as many as possible, giving back as needed)"
	possessive := false
	if p.i < len(p.src) {
		switch p.src[p.i] {
		case '?':
			p.i++
			p.validation.WriteByte('?')
			mode = " (as few as possible, lazy)"
		case '+':
			p.i++ // regexp2 has no possessive quantifiers: validate without the marker
			mode = " (as many as possible, never giving back: possessive)"
			possessive = true
		}
	}
	if lo == hi {
		mode = ""
	}
	p.emit(start, "repeats the previous item "+what+mode, 0)
	if p.i < len(p.src) && p.quantifierAt(p.i) {
		return false, p.errAt(p.i, "a quantifier cannot follow the quantifier %q; group the item first", p.src[start:p.i])
	}
	repeats := hi < 0 || hi > 1
	if info.capture > 0 && repeats {
		p.warn("capture group %d is repeated by %q, so it keeps only its last repetition; to capture every repetition, repeat inside the group: ((?:...)%s)",
			info.capture, p.src[start:p.i], p.src[start:p.i])
	}
	if info.group && info.varQuant && repeats && !info.atomic && !possessive {
		p.warn("nested quantifiers at offset %d: %s repeats a group that itself contains a repeated item, which can backtrack catastrophically on input that almost matches; make the inner and outer repetitions unambiguous, or use an atomic group (?>...)",
			p.charOffset(info.start), strconv.Quote(p.src[info.start:p.i]))
	}
	return lo != hi && !possessive, nil
}

func (p *rxParser) warn(format string, args ...any) {
	if len(p.warnings) < 50 {
		p.warnings = append(p.warnings, fmt.Sprintf(format, args...))
	}
}

var rxFlagNames = map[byte]string{
	'i': "case-insensitive",
	'm': "multiline (^ and $ match at line breaks)",
	's': "single-line (. matches line breaks too)",
	'x': "extended (whitespace and # comments are ignored)",
	'n': "explicit capture (only named groups capture)",
	'U': "ungreedy (quantifiers lazy by default)",
	'u': "Unicode",
	'J': "duplicate group names allowed",
}

func (p *rxParser) parseGroup() (*rxInfo, *PatternError) {
	start := p.i
	if p.depth >= MaxPatternNesting {
		return nil, p.errAt(start, "groups nest deeper than %d levels", MaxPatternNesting)
	}
	info := &rxInfo{group: true, start: start}
	rest := p.src[p.i:]
	outerExtended := p.extended // flags set inside a group end with it
	var open, closing, validation string
	switch {
	case strings.HasPrefix(rest, "(?#"):
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return nil, p.errAt(start, "unterminated comment (?#")
		}
		p.i += end + 1
		p.emit(start, "a comment (ignored)", 0)
		p.validation.WriteString(rest[:end+1])
		return nil, nil
	case strings.HasPrefix(rest, "(?:"):
		open, closing = "(?:", "end of the non-capturing group"
		p.emit2(start, 3, "a non-capturing group: groups what follows without capturing it", 0)
	case strings.HasPrefix(rest, "(?="):
		open, closing, info.atomic = "(?=", "end of the lookahead", true
		p.emit2(start, 3, "a lookahead: succeeds if what follows matches here, without consuming it", 0)
	case strings.HasPrefix(rest, "(?!"):
		open, closing, info.atomic = "(?!", "end of the negative lookahead", true
		p.emit2(start, 3, "a negative lookahead: succeeds if what follows does not match here", 0)
	case strings.HasPrefix(rest, "(?<="):
		open, closing, info.atomic = "(?<=", "end of the lookbehind", true
		p.emit2(start, 4, "a lookbehind: succeeds if what follows matches just before this point", 0)
	case strings.HasPrefix(rest, "(?<!"):
		open, closing, info.atomic = "(?<!", "end of the negative lookbehind", true
		p.emit2(start, 4, "a negative lookbehind: succeeds if what follows does not match just before this point", 0)
	case strings.HasPrefix(rest, "(?>"):
		open, closing, info.atomic = "(?>", "end of the atomic group", true
		p.emit2(start, 3, "an atomic group: once it matches, it never gives back characters to backtracking", 0)
	case strings.HasPrefix(rest, "(?P="):
		end := strings.IndexByte(rest, ')')
		if end < 0 || !validGroupName(rest[4:end]) {
			return nil, p.errAt(start, "malformed named backreference; expected (?P=name)")
		}
		name := rest[4:end]
		p.i += end + 1
		p.backrefs = append(p.backrefs, rxBackref{off: start, name: name})
		p.emit(start, fmt.Sprintf("what the group named %q matched (named backreference)", name), p.names[name])
		p.validation.WriteString(`\k<` + name + `>`)
		return &rxInfo{start: start}, nil
	case strings.HasPrefix(rest, "(?P<"), strings.HasPrefix(rest, "(?<"), strings.HasPrefix(rest, "(?'"):
		prefix := 3
		term := byte('>')
		if strings.HasPrefix(rest, "(?P<") {
			prefix = 4
		} else if rest[2] == '\'' {
			term = '\''
		}
		end := strings.IndexByte(rest[prefix:], term)
		if end < 0 || !validGroupName(rest[prefix:prefix+end]) {
			return nil, p.errAt(start, "malformed group name; expected (?<name>...) with a name of letters, digits and _ not starting with a digit")
		}
		name := rest[prefix : prefix+end]
		if _, dup := p.names[name]; dup {
			return nil, p.errAt(start, "the group name %q is used twice", name)
		}
		p.groups++
		p.names[name] = p.groups
		info.capture = p.groups
		open = "(?<" + name + ">"
		closing = fmt.Sprintf("end of capture group %d (%q)", p.groups, name)
		p.emit2(start, prefix+end+1, fmt.Sprintf("start of capture group %d, named %q", p.groups, name), p.groups)
	case strings.HasPrefix(rest, "(?("):
		end := strings.IndexByte(rest[3:], ')')
		if end < 0 {
			return nil, p.errAt(start, "unterminated condition (?(")
		}
		open, closing = rest[:3+end+1], "end of the conditional"
		p.emit2(start, 3+end+1, fmt.Sprintf("a conditional: if %s, match the first alternative, otherwise the second", strconv.Quote(rest[3:3+end])), 0)
	case strings.HasPrefix(rest, "(?"):
		// Inline flags: (?imsx-imsx) or (?imsx-imsx:...).
		j := 2
		for j < len(rest) && (rxFlagNames[rest[j]] != "" || rest[j] == '-' || rest[j] == '^') {
			j++
		}
		if j >= len(rest) || (rest[j] != ')' && rest[j] != ':') || j == 2 && rest[j] == ')' {
			return nil, p.errAt(start, "unknown group construct %q", textcut.Cut(rest, j+1))
		}
		meaning, on := describeFlags(rest[2:j])
		if strings.ContainsRune(rest[2:j], 'x') {
			p.extended = on
		}
		p.i += j + 1
		p.validation.WriteString(rest[:j+1])
		if rest[j] == ')' {
			p.emit(start, meaning+" from here to the end of the enclosing group", 0)
			return nil, nil
		}
		p.emit(start, "a non-capturing group with "+meaning, 0)
		open, closing = "", "end of the group with flags"
	default:
		p.groups++
		info.capture = p.groups
		open = "("
		closing = fmt.Sprintf("end of capture group %d", p.groups)
		p.emit2(start, 1, fmt.Sprintf("start of capture group %d", p.groups), p.groups)
	}
	if open != "" {
		if validation == "" {
			validation = open
		}
		p.validation.WriteString(validation)
	}
	firstToken := len(p.tokens)
	p.depth++
	vq, err := p.parseAlternation()
	p.depth--
	if err != nil {
		return nil, err
	}
	if p.i >= len(p.src) {
		return nil, p.errAt(start, "missing ')' to close this group")
	}
	if strings.HasPrefix(open, "(?(") {
		bars := 0
		for _, t := range p.tokens[firstToken:] {
			if t.Token == "|" && t.Depth == p.depth+1 {
				bars++
			}
		}
		if bars > 1 {
			return nil, p.errAt(start, "a conditional has at most two alternatives (then|else), this one has %d", bars+1)
		}
	}
	closeAt := p.i
	p.i++
	p.validation.WriteByte(')')
	p.emit(closeAt, closing, info.capture)
	p.extended = outerExtended
	info.varQuant = vq
	return info, nil
}

// emit2 consumes n bytes and emits them as a token.
func (p *rxParser) emit2(start, n int, meaning string, group int) {
	p.i = start + n
	p.emit(start, meaning, group)
}

func validGroupName(name string) bool {
	if name == "" || ('0' <= name[0] && name[0] <= '9') {
		return false
	}
	for _, r := range name {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

func describeFlags(spec string) (string, bool) {
	on, off := []string{}, []string{}
	neg := false
	for i := 0; i < len(spec); i++ {
		switch c := spec[i]; c {
		case '-':
			neg = true
		case '^':
		default:
			if neg {
				off = append(off, rxFlagNames[c])
			} else {
				on = append(on, rxFlagNames[c])
			}
		}
	}
	var parts []string
	if len(on) > 0 {
		parts = append(parts, "flags on: "+strings.Join(on, ", "))
	}
	if len(off) > 0 {
		parts = append(parts, "flags off: "+strings.Join(off, ", "))
	}
	xOn := !strings.Contains(spec, "-") || strings.Index(spec, "x") < strings.Index(spec, "-")
	return strings.Join(parts, "; "), xOn
}

var rxEscapes = map[byte]string{
	'd': "a digit (0-9; any Unicode digit in some flavors)",
	'D': "any character except a digit",
	'w': "a word character (letter, digit or _)",
	'W': "any character except a word character",
	's': "a whitespace character (space, tab, line break, ...)",
	'S': "any character except whitespace",
	'b': "a word boundary",
	'B': "a position that is not a word boundary",
	'A': "the very start of the string",
	'z': "the very end of the string",
	'Z': "the end of the string, before a final line break if any",
	'G': "the position where the previous match ended",
	'n': "a line feed (\\n)",
	'r': "a carriage return (\\r)",
	't': "a tab (\\t)",
	'f': "a form feed (\\f)",
	'v': "a vertical tab (\\v)",
	'e': "an escape character (\\x1B)",
	'a': "a bell character (\\x07)",
}

// parseEscape parses an escape outside a class. ref is the group it
// refers to, for backreferences.
func (p *rxParser) parseEscape() (meaning string, ref int, err *PatternError) {
	start := p.i
	if p.i+1 >= len(p.src) {
		return "", 0, p.errAt(p.i, "the pattern ends with an unfinished escape '\\'")
	}
	c := p.src[p.i+1]
	switch {
	case '1' <= c && c <= '9':
		j := p.i + 1
		n := 0
		for j < len(p.src) && '0' <= p.src[j] && p.src[j] <= '9' && n < 1000 {
			n = n*10 + int(p.src[j]-'0')
			j++
		}
		p.i = j
		p.backrefs = append(p.backrefs, rxBackref{off: start, num: n})
		p.validation.WriteString(p.src[start:p.i])
		return fmt.Sprintf("what capture group %d matched (backreference)", n), n, nil
	case c == 'Q':
		// PCRE quoting: everything up to \E (or the end) is literal.
		body := p.src[p.i+2:]
		end := strings.Index(body, `\E`)
		p.i += 2 + len(body)
		if end >= 0 {
			body = body[:end]
			p.i = start + 2 + end + 2
		}
		p.validation.WriteString(regexp2.Escape(body))
		return "the literal text " + strconv.Quote(body) + " (quoted with \\Q...\\E)", 0, nil
	case c == 'K':
		p.i += 2
		return "resets the start of the reported match here: what came before must match but is left out (PCRE \\K)", 0, nil
	case c == 'R':
		p.i += 2
		p.validation.WriteString(`(?:\r\n|[\n\v\f\r\x85\u2028\u2029])`)
		return "a line break: \\r\\n, or one of \\n \\v \\f \\r U+0085 U+2028 U+2029 (PCRE \\R)", 0, nil
	case c == 'h' || c == 'H':
		p.i += 2
		class := `\t\x20\xA0\u1680\u180E\u2000-\u200A\u202F\u205F\u3000`
		if c == 'H' {
			p.validation.WriteString(`[^` + class + `]`)
			return "any character except horizontal whitespace (PCRE \\H)", 0, nil
		}
		p.validation.WriteString(`[` + class + `]`)
		return "a horizontal whitespace character: space, tab or a Unicode space (PCRE \\h)", 0, nil
	case c == 'k':
		rest := p.src[p.i+2:]
		if rest == "" || strings.IndexByte("<'{", rest[0]) < 0 {
			return "", 0, p.errAt(start, "malformed named backreference; expected \\k<name>")
		}
		term := map[byte]byte{'<': '>', '\'': '\'', '{': '}'}[rest[0]]
		end := strings.IndexByte(rest[1:], term)
		if end < 0 || !validGroupName(rest[1:1+end]) {
			return "", 0, p.errAt(start, "malformed named backreference; expected \\k<name>")
		}
		name := rest[1 : 1+end]
		p.i += 2 + end + 2
		p.backrefs = append(p.backrefs, rxBackref{off: start, name: name})
		p.validation.WriteString(`\k<` + name + `>`)
		return fmt.Sprintf("what the group named %q matched (named backreference)", name), p.names[name], nil
	}
	m, err := p.parseCommonEscape()
	if err != nil {
		return "", 0, err
	}
	p.validation.WriteString(p.src[start:p.i])
	return m, 0, nil
}

// parseCommonEscape parses the escapes allowed both inside and outside
// classes, returning the meaning.
func (p *rxParser) parseCommonEscape() (string, *PatternError) {
	start := p.i
	if p.i+1 >= len(p.src) {
		return "", p.errAt(p.i, "the pattern ends with an unfinished escape '\\'")
	}
	c := p.src[p.i+1]
	p.i += 2
	switch {
	case rxEscapes[c] != "":
		return rxEscapes[c], nil
	case c == 'p' || c == 'P':
		name := ""
		if p.i < len(p.src) && p.src[p.i] == '{' {
			end := strings.IndexByte(p.src[p.i:], '}')
			if end < 0 {
				return "", p.errAt(start, "unterminated Unicode property \\%c{", c)
			}
			name = p.src[p.i+1 : p.i+end]
			p.i += end + 1
		} else if p.i < len(p.src) {
			name = p.src[p.i : p.i+1]
			p.i++
		}
		if name == "" {
			return "", p.errAt(start, "missing Unicode property name after \\%c", c)
		}
		if _, err := regexp2.Compile(`\p{` + strings.TrimPrefix(name, "^") + `}`); err != nil {
			return "", p.errAt(start, "%s", regexp2Reason(err))
		}
		neg := ""
		if c == 'P' || strings.HasPrefix(name, "^") {
			neg = "not "
		}
		return fmt.Sprintf("a character %swith the Unicode property %s%s", neg, strings.TrimPrefix(name, "^"), unicodePropertyHint(strings.TrimPrefix(name, "^"))), nil
	case c == 'x':
		if p.i < len(p.src) && p.src[p.i] == '{' {
			end := strings.IndexByte(p.src[p.i:], '}')
			if end < 0 {
				return "", p.errAt(start, "unterminated \\x{...} escape")
			}
			hex := p.src[p.i+1 : p.i+end]
			p.i += end + 1
			v, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || v > utf8.MaxRune {
				return "", p.errAt(start, "\\x{%s} is not a code point", hex)
			}
			return "the character " + describeChar(string(rune(v))) + " (U+" + fmt.Sprintf("%04X", v) + ")", nil
		}
		return p.hexEscape(start, 2)
	case c == 'u':
		return p.hexEscape(start, 4)
	case c == 'c':
		if p.i >= len(p.src) || !('A' <= p.src[p.i]&^0x20 && p.src[p.i]&^0x20 <= 'Z') {
			return "", p.errAt(start, "\\c must be followed by a letter")
		}
		p.i++
		return fmt.Sprintf("the control character Ctrl-%c", p.src[p.i-1]&^0x20), nil
	case c == '0':
		j := p.i
		for j < len(p.src) && j < p.i+2 && '0' <= p.src[j] && p.src[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint("0"+p.src[p.i:j], 8, 32)
		p.i = j
		return fmt.Sprintf("the character with octal code %o (U+%04X)", v, v), nil
	case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9':
		return "", p.errAt(start, "unknown escape \\%c", c)
	default:
		_, size := utf8.DecodeRuneInString(p.src[start+1:])
		p.i = start + 1 + size
		return "the literal character " + describeChar(p.src[start+1:p.i]), nil
	}
}

func (p *rxParser) hexEscape(start, digits int) (string, *PatternError) {
	if p.i+digits > len(p.src) {
		return "", p.errAt(start, "expected %d hex digits after \\%c", digits, p.src[start+1])
	}
	v, err := strconv.ParseUint(p.src[p.i:p.i+digits], 16, 32)
	if err != nil {
		return "", p.errAt(start, "expected %d hex digits after \\%c", digits, p.src[start+1])
	}
	p.i += digits
	return fmt.Sprintf("the character %s (U+%04X)", describeChar(string(rune(v))), v), nil
}

func unicodePropertyHint(name string) string {
	hints := map[string]string{
		"L": " (a letter)", "Lu": " (an upper-case letter)", "Ll": " (a lower-case letter)",
		"N": " (a number)", "Nd": " (a decimal digit)", "P": " (punctuation)", "S": " (a symbol)",
		"Z": " (a separator)", "Zs": " (a space separator)", "M": " (a combining mark)", "C": " (a control or other character)",
		"Sc": " (a currency symbol)",
	}
	return hints[name]
}

var posixClasses = map[string]string{
	"alpha": "a letter", "digit": "a digit", "alnum": "a letter or digit", "upper": "an upper-case letter",
	"lower": "a lower-case letter", "space": "whitespace", "blank": "a space or tab", "punct": "punctuation",
	"xdigit": "a hex digit", "word": "a word character", "cntrl": "a control character", "print": "a printable character",
	"graph": "a visible character", "ascii": "an ASCII character",
}

// parseClass parses a bracket expression and returns its meaning.
func (p *rxParser) parseClass() (string, *PatternError) {
	start := p.i
	p.i++
	negated := false
	if p.i < len(p.src) && p.src[p.i] == '^' {
		negated = true
		p.i++
	}
	var items []string
	first := true
	for {
		if p.i >= len(p.src) {
			return "", p.errAt(start, "missing ']' to close this character class")
		}
		c := p.src[p.i]
		if c == ']' && !first {
			p.i++
			break
		}
		first = false
		itemStart := p.i
		var lit rune = -1
		var item string
		switch {
		case c == '[' && posixClassAt(p.src[p.i:]) > 0:
			end := posixClassAt(p.src[p.i:])
			name := p.src[p.i+2 : p.i+end]
			neg := strings.HasPrefix(name, "^")
			desc, ok := posixClasses[strings.TrimPrefix(name, "^")]
			if !ok {
				return "", p.errAt(p.i, "unknown POSIX class [:%s:]", name)
			}
			if neg {
				desc = "not " + desc
			}
			item = desc + " ([:" + name + ":])"
			p.i += end + 2
		case c == '\\':
			if p.i+1 < len(p.src) && p.src[p.i+1] == 'b' {
				p.i += 2
				lit, item = '\b', "a backspace"
				break
			}
			m, err := p.parseCommonEscape()
			if err != nil {
				return "", err
			}
			item = m
			if r, ok := escapedRune(p.src[itemStart:p.i]); ok {
				lit = r
			}
		default:
			r, size := utf8.DecodeRuneInString(p.src[p.i:])
			p.i += size
			lit, item = r, describeChar(string(r))
		}
		// A range a-z: the '-' is not the last character of the class.
		if lit >= 0 && p.i+1 < len(p.src) && p.src[p.i] == '-' && p.src[p.i+1] != ']' {
			hiStart := p.i + 1
			p.i++
			var hi rune
			if p.src[p.i] == '\\' {
				if _, err := p.parseCommonEscape(); err != nil {
					return "", err
				}
				r, ok := escapedRune(p.src[hiStart:p.i])
				if !ok {
					return "", p.errAt(itemStart, "a range cannot end with %s", p.src[hiStart:p.i])
				}
				hi = r
			} else if p.src[p.i] == '[' {
				// .NET class subtraction [a-z-[aeiou]]: leave it to regexp2.
				p.i--
				items = append(items, item)
				continue
			} else {
				r, size := utf8.DecodeRuneInString(p.src[p.i:])
				p.i += size
				hi = r
			}
			if hi < lit {
				return "", p.errAt(itemStart, "range %s is out of order", p.src[itemStart:p.i])
			}
			item = describeChar(string(lit)) + " to " + describeChar(string(hi))
		}
		items = append(items, item)
	}
	if negated {
		return "any character except: " + strings.Join(items, ", "), nil
	}
	if len(items) == 1 {
		return "one character: " + items[0], nil
	}
	return "any one of: " + strings.Join(items, ", "), nil
}

// posixClassAt returns the offset of the ":]" closing the POSIX class
// that s starts with, or 0 when s does not start with one ("[:" then
// letters, optionally negated with ^).
func posixClassAt(s string) int {
	if !strings.HasPrefix(s, "[:") {
		return 0
	}
	j := 2
	if j < len(s) && s[j] == '^' {
		j++
	}
	for j < len(s) && ('a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z') {
		j++
	}
	if j+1 < len(s) && s[j] == ':' && s[j+1] == ']' && j > 2 {
		return j
	}
	return 0
}

// escapedRune returns the single character an escape denotes, if it
// denotes one.
func escapedRune(esc string) (rune, bool) {
	if len(esc) < 2 {
		return 0, false
	}
	switch esc[1] {
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'f':
		return '\f', true
	case 'v':
		return '\v', true
	case 'x', 'u':
		h := strings.Trim(esc[2:], "{}")
		v, err := strconv.ParseUint(h, 16, 32)
		return rune(v), err == nil
	case '0':
		v, err := strconv.ParseUint(esc[1:], 8, 32)
		return rune(v), err == nil
	}
	r, size := utf8.DecodeRuneInString(esc[1:])
	if 1+size == len(esc) && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
		return r, true
	}
	return 0, false
}

// describeChar quotes a character for a meaning, naming the invisible
// ones.
func describeChar(s string) string {
	switch s {
	case " ":
		return "' ' (space)"
	case "\n":
		return "a line feed"
	case "\t":
		return "a tab"
	case "\r":
		return "a carriage return"
	case "'":
		return `"'"`
	}
	r, _ := utf8.DecodeRuneInString(s)
	if r < 0x20 || r == 0x7f {
		return fmt.Sprintf("U+%04X", r)
	}
	return "'" + s + "'"
}

func (p *rxParser) explanation() string {
	var b strings.Builder
	groups := "no capture groups"
	switch p.groups {
	case 0:
	case 1:
		groups = "1 capture group"
	default:
		groups = fmt.Sprintf("%d capture groups", p.groups)
	}
	tokens := "1 token"
	if len(p.tokens) != 1 {
		tokens = fmt.Sprintf("%d tokens", len(p.tokens))
	}
	fmt.Fprintf(&b, "The pattern has %s and %s. It matches, in order: ", tokens, groups)
	for i, t := range p.tokens {
		if i > 0 {
			b.WriteString("; ")
		}
		if i >= 200 {
			fmt.Fprintf(&b, "and %d more tokens (see the breakdown)", len(p.tokens)-i)
			break
		}
		b.WriteString(t.Meaning)
	}
	b.WriteString(".")
	if len(p.warnings) > 0 {
		fmt.Fprintf(&b, " Beware: %d warning(s).", len(p.warnings))
	}
	return b.String()
}
