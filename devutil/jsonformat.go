package devutil

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quiverkit/quiver/envelope"
)

// Bounds of [FormatJSON].
const (
	// DefaultJSONIndent is the indent used when the request gives none.
	DefaultJSONIndent = 2
	// MaxJSONIndent is the largest indent accepted.
	MaxJSONIndent = 8
	// MaxJSONDepth is how deeply arrays and objects may nest. Deeper
	// input is reported invalid rather than risking the stack.
	MaxJSONDepth = 1000
	// maxJSONWarnings bounds the warnings of one document.
	maxJSONWarnings = 100
)

// JSONFormatRequest is the request of [FormatJSON].
type JSONFormatRequest struct {
	// Text is the JSON text to check and format. Required.
	Text string `json:"text" openapi:"required"`
	// Indent is the number of spaces per nesting level of Formatted,
	// 0 to 8. Nil means DefaultJSONIndent. 0 puts every value on its own
	// line without indentation.
	Indent *int `json:"indent,omitempty"`
	// SortKeys sorts the members of every object, at every depth, by key
	// (compared as Unicode code points after unescaping). Members with
	// equal keys keep their order.
	SortKeys bool `json:"sort_keys"`
}

// JSONFormatResult is the result of [FormatJSON].
type JSONFormatResult struct {
	// IsValid reports whether Text is one JSON value as RFC 8259 defines
	// it.
	IsValid bool `json:"is_valid"`
	// Formatted is the value with one member or element per line,
	// indented by Indent spaces per level; empty when not valid.
	Formatted string `json:"formatted"`
	// Minified is the value without insignificant whitespace; empty when
	// not valid.
	Minified string `json:"minified"`
	// Error says where and why Text is not valid, as
	// "line L, column C: expected ..."; nil when it is valid.
	Error *string `json:"error"`
	// ErrorLine and ErrorColumn locate the error, 1-based; the column
	// counts characters. Zero when valid.
	ErrorLine int `json:"error_line,omitempty"`
	// ErrorColumn is the column of the error; see ErrorLine.
	ErrorColumn int `json:"error_column,omitempty"`
	// Type is the JSON type of the value: object, array, string, number,
	// boolean or null; empty when not valid.
	Type string `json:"type"`
	// Warnings lists what is valid but likely a mistake, such as
	// duplicate object keys (which are kept). Never null.
	Warnings []string `json:"warnings"`
}

// FormatJSON checks that req.Text is strict RFC 8259 JSON and returns it
// formatted and minified. Nothing is re-encoded: numbers stay exactly as
// written (1e400, 12345678901234567890 and -0.0 survive) and strings keep
// their escapes. Invalid JSON is reported in the result, not as an error.
func FormatJSON(_ context.Context, req JSONFormatRequest) (JSONFormatResult, error) {
	indent := DefaultJSONIndent
	if req.Indent != nil {
		indent = *req.Indent
	}
	var v envelope.ValidationError
	if req.Text == "" {
		v.Add("text", "is required")
	}
	if indent < 0 || indent > MaxJSONIndent {
		v.Add("indent", "must be between 0 and 8")
	}
	if err := v.Err(); err != nil {
		return JSONFormatResult{}, err
	}
	res, overflow := formatJSON(req.Text, indent, req.SortKeys, maxFormattedSize(len(req.Text)))
	if overflow > 0 {
		return JSONFormatResult{}, envelope.Invalidf("indent",
			"the formatted document would exceed %d bytes (deep nesting multiplies the indentation); use a smaller indent, 0 for none", overflow)
	}
	return res, nil
}

// maxFormattedSize bounds the formatted output of a document of n bytes:
// deep nesting can multiply the indentation far beyond the input's size.
// Ordinary documents grow about twofold at the widest indent; the floor
// lets small ones nest deeply, without letting a few kilobytes of
// brackets cost megabytes.
func maxFormattedSize(n int) int { return max(1<<20, 8*n) }

// formatJSON formats src, or reports limit when the formatted output
// would exceed it.
func formatJSON(src string, indent int, sortKeys bool, limit int) (JSONFormatResult, int) {
	p := &jsonParser{src: src, sort: sortKeys, limit: limit}
	if !sortKeys {
		p.pretty.Grow(len(src) + len(src)/2)
		p.mini.Grow(len(src))
		p.indent = indent
	}
	res := JSONFormatResult{Warnings: []string{}}
	kind, err := p.parseDocument()
	if p.overflow {
		// Also when only closing brackets followed the overflow: their
		// line breaks were dropped.
		return res, limit
	}
	if err != nil {
		line, col := lineColumn(src, err.off)
		msg := fmt.Sprintf("line %d, column %d: %s", line, col, err.msg)
		res.Error, res.ErrorLine, res.ErrorColumn = &msg, line, col
		return res, 0
	}
	if sortKeys {
		sortTree(p.root)
		e := &jsonParser{indent: indent, limit: limit}
		e.pretty.Grow(len(src) + len(src)/2)
		e.mini.Grow(len(src))
		e.emitTree(p.root)
		if e.overflow {
			return res, limit
		}
		e.warnings, e.dropped = p.warnings, p.dropped
		p = e
	}
	res.IsValid = true
	res.Formatted = p.pretty.String()
	res.Minified = p.mini.String()
	res.Type = kind
	res.Warnings = append(res.Warnings, p.warnings...)
	if p.dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d more warnings not shown", p.dropped))
	}
	return res, 0
}

// jsonError is a syntax error at a byte offset.
type jsonError struct {
	off int
	msg string
}

// jsonNode is a parsed value, built only when keys are sorted.
type jsonNode struct {
	kind    byte   // '{', '[' or 's' for scalars
	raw     string // scalar text, or the member's key text (with quotes)
	key     string // unescaped key, for sorting
	members []*jsonNode
	value   *jsonNode // member value when the node is an object member
}

// jsonParser is a recursive-descent parser that writes the formatted and
// minified output as it goes, or builds a tree when keys are sorted.
type jsonParser struct {
	src      string
	pos      int
	depth    int
	sort     bool
	root     *jsonNode
	warnings []string
	dropped  int

	indent int
	pretty strings.Builder // the outputs; strings.Builder hands them over without a copy
	mini   strings.Builder
	nl     []byte // "\n" followed by spaces, sliced for each depth

	limit    int  // bound on the size of pretty
	overflow bool // pretty reached limit: stop

	keys [][]keyPos // keys seen per open object, reused across objects
}

type keyPos struct {
	key string // unescaped key
	off int
}

func (p *jsonParser) fail(off int, format string, args ...any) *jsonError {
	return &jsonError{off: off, msg: fmt.Sprintf(format, args...)}
}

func (p *jsonParser) parseDocument() (string, *jsonError) {
	if strings.HasPrefix(p.src, "\xef\xbb\xbf") {
		return "", p.fail(0, "expected a JSON value, found a byte order mark (RFC 8259 forbids it)")
	}
	p.skipSpace()
	if p.pos == len(p.src) {
		return "", p.fail(p.pos, "expected a JSON value, found end of input")
	}
	kind := jsonTypeOf(p.src[p.pos])
	node, err := p.parseValue()
	if err != nil {
		return "", err
	}
	p.root = node
	p.skipSpace()
	if p.pos < len(p.src) {
		return "", p.fail(p.pos, "expected end of input after the top-level value, found %s", p.found())
	}
	return kind, nil
}

func jsonTypeOf(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// found describes what is at p.pos, for error messages.
func (p *jsonParser) found() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", p.src[p.pos])
	}
	return strconv.QuoteRune(r)
}

// newline writes a line break and the indentation of depth to pretty.
func (p *jsonParser) newline(depth int) {
	n := 1 + depth*p.indent
	if len(p.nl) == 0 {
		p.nl = append(p.nl, '\n')
	}
	for len(p.nl) < n {
		p.nl = append(p.nl, ' ')
	}
	if p.pretty.Len()+n > p.limit {
		p.overflow = true
		return
	}
	p.pretty.Write(p.nl[:n])
}

func (p *jsonParser) parseValue() (*jsonNode, *jsonError) {
	if p.overflow {
		return nil, p.fail(p.pos, "the formatted output is too large")
	}
	if p.pos >= len(p.src) {
		return nil, p.fail(p.pos, "expected a value, found end of input")
	}
	start := p.pos
	switch c := p.src[p.pos]; c {
	case '{':
		return p.parseObject()
	case '[':
		return p.parseArray()
	case '"':
		if err := p.scanString(); err != nil {
			return nil, err
		}
	case 't':
		if err := p.scanLiteral("true"); err != nil {
			return nil, err
		}
	case 'f':
		if err := p.scanLiteral("false"); err != nil {
			return nil, err
		}
	case 'n':
		if err := p.scanLiteral("null"); err != nil {
			return nil, err
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if err := p.scanNumber(); err != nil {
			return nil, err
		}
	default:
		return nil, p.unexpectedValue()
	}
	raw := p.src[start:p.pos]
	if p.sort {
		return &jsonNode{kind: 's', raw: raw}, nil
	}
	p.pretty.WriteString(raw)
	p.mini.WriteString(raw)
	return nil, nil
}

// unexpectedValue explains a character that cannot start a value,
// naming the JSON5 and JavaScript habits that are not JSON.
func (p *jsonParser) unexpectedValue() *jsonError {
	hint := ""
	rest := p.src[p.pos:]
	switch {
	case rest[0] == '\'':
		hint = "; strings are quoted with \" in JSON, not '"
	case rest[0] == '/' && len(rest) > 1 && (rest[1] == '/' || rest[1] == '*'):
		hint = "; JSON has no comments"
	case strings.HasPrefix(rest, "NaN"), strings.HasPrefix(rest, "Infinity"), strings.HasPrefix(rest, "+"):
		hint = "; NaN, Infinity and a leading + are not JSON numbers"
	case rest[0] == '.':
		hint = "; a number needs a digit before its '.'"
	case rest[0] == ']' || rest[0] == '}':
		hint = "; trailing commas are not allowed"
	case strings.HasPrefix(rest, "undefined"):
		hint = "; undefined is not a JSON value, use null"
	}
	return p.fail(p.pos, "expected a value (object, array, string, number, true, false or null), found %s%s", p.found(), hint)
}

func (p *jsonParser) enter() *jsonError {
	p.depth++
	if p.depth > MaxJSONDepth {
		return p.fail(p.pos, "nesting is deeper than %d levels", MaxJSONDepth)
	}
	return nil
}

// open consumes the opening bracket of an object or array, one level
// deeper: a node to fill when sorting keys, else the bracket written out.
func (p *jsonParser) open(kind byte) (*jsonNode, *jsonError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.pos++
	if p.sort {
		return &jsonNode{kind: kind}, nil
	}
	p.pretty.WriteByte(kind)
	p.mini.WriteByte(kind)
	return nil, nil
}

func (p *jsonParser) parseObject() (*jsonNode, *jsonError) {
	node, err := p.open('{')
	if err != nil {
		return nil, err
	}
	level := p.depth - 1
	for len(p.keys) <= level {
		p.keys = append(p.keys, nil)
	}
	p.keys[level] = p.keys[level][:0]
	var seen map[string]int // built when an object has many keys
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		p.depth--
		if !p.sort {
			p.pretty.WriteByte('}')
			p.mini.WriteByte('}')
		}
		return node, nil
	}
	for n := 0; ; n++ {
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			what := "expected a string for an object key, found %s"
			if p.pos < len(p.src) && p.src[p.pos] == '}' {
				what += "; trailing commas are not allowed"
			} else if p.pos < len(p.src) && p.src[p.pos] == '\'' {
				what += "; strings are quoted with \" in JSON, not '"
			} else if p.pos < len(p.src) && p.src[p.pos] != '/' && p.src[p.pos] >= 0x20 {
				what += "; object keys must be quoted"
			}
			if p.pos < len(p.src) && p.src[p.pos] == '/' {
				what += "; JSON has no comments"
			}
			return nil, p.fail(p.pos, what, p.found())
		}
		keyStart := p.pos
		if err := p.scanString(); err != nil {
			return nil, err
		}
		rawKey := p.src[keyStart:p.pos]
		key := unquoteKey(rawKey)
		// Duplicate keys are kept, and reported.
		seenKeys := &p.keys[level]
		if seen == nil && len(*seenKeys) >= 16 {
			seen = make(map[string]int, 32)
			for _, k := range *seenKeys {
				if _, dup := seen[k.key]; !dup {
					seen[k.key] = k.off
				}
			}
		}
		if seen != nil {
			if first, dup := seen[key]; dup {
				p.duplicate(key, first, keyStart)
			} else {
				seen[key] = keyStart
			}
		} else {
			for _, k := range *seenKeys {
				if k.key == key {
					p.duplicate(key, k.off, keyStart)
					break
				}
			}
			*seenKeys = append(*seenKeys, keyPos{key: key, off: keyStart})
		}

		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, p.fail(p.pos, "expected ':' after object key, found %s", p.found())
		}
		p.pos++
		p.skipSpace()
		var member *jsonNode
		if p.sort {
			member = &jsonNode{kind: ':', raw: rawKey, key: key}
			node.members = append(node.members, member)
		} else {
			if n > 0 {
				p.pretty.WriteByte(',')
				p.mini.WriteByte(',')
			}
			p.newline(p.depth)
			p.pretty.WriteString(rawKey)
			p.pretty.WriteString(": ")
			p.mini.WriteString(rawKey)
			p.mini.WriteByte(':')
		}
		v, err := p.parseValue()
		if err != nil {
			return nil, err
		}
		if member != nil {
			member.value = v
		}
		done, err := p.afterMember('}', "object value")
		if err != nil {
			return nil, err
		}
		if done {
			return node, nil
		}
	}
}

func (p *jsonParser) duplicate(key string, first, again int) {
	if len(p.warnings) >= maxJSONWarnings {
		p.dropped++
		return
	}
	l1, c1 := lineColumn(p.src, first)
	l2, c2 := lineColumn(p.src, again)
	p.warnings = append(p.warnings, fmt.Sprintf("duplicate key %s at line %d, column %d (first at line %d, column %d); both are kept, most parsers keep only the last",
		strconv.Quote(key), l2, c2, l1, c1))
}

func (p *jsonParser) parseArray() (*jsonNode, *jsonError) {
	node, err := p.open('[')
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		p.depth--
		if !p.sort {
			p.pretty.WriteByte(']')
			p.mini.WriteByte(']')
		}
		return node, nil
	}
	for n := 0; ; n++ {
		if !p.sort {
			if n > 0 {
				p.pretty.WriteByte(',')
				p.mini.WriteByte(',')
			}
			p.newline(p.depth)
		}
		v, err := p.parseValue()
		if err != nil {
			return nil, err
		}
		if p.sort {
			node.members = append(node.members, v)
		}
		done, err := p.afterMember(']', "array element")
		if err != nil {
			return nil, err
		}
		if done {
			return node, nil
		}
	}
}

// afterMember consumes what follows a member or element: a comma, or the
// container's closer, which it writes. done reports the closer.
func (p *jsonParser) afterMember(closer byte, what string) (done bool, err *jsonError) {
	p.skipSpace()
	if p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
			return false, nil
		case closer:
			p.pos++
			p.depth--
			if !p.sort {
				p.newline(p.depth)
				p.pretty.WriteByte(closer)
				p.mini.WriteByte(closer)
			}
			return true, nil
		}
	}
	return false, p.fail(p.pos, "expected ',' or '%c' after %s, found %s", closer, what, p.found())
}

func (p *jsonParser) scanLiteral(lit string) *jsonError {
	if strings.HasPrefix(p.src[p.pos:], lit) {
		p.pos += len(lit)
		return nil
	}
	for i := 0; i < len(lit); i++ {
		if p.pos+i >= len(p.src) || p.src[p.pos+i] != lit[i] {
			p.pos += i
			return p.fail(p.pos, "expected %q (in the literal %s), found %s", lit[i], lit, p.found())
		}
	}
	return nil
}

func (p *jsonParser) scanNumber() *jsonError {
	src := p.src
	i := p.pos
	if src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
		if i < len(src) && isDigit(src[i]) {
			return p.fail(i, "expected '.', 'e' or the end of the number after a leading 0 (leading zeros are not allowed)")
		}
	case i < len(src) && isDigit(src[i]):
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	default:
		p.pos = i
		return p.fail(i, "expected a digit after '-', found %s", p.found())
	}
	if i < len(src) && src[i] == '.' {
		i++
		if i >= len(src) || !isDigit(src[i]) {
			p.pos = i
			return p.fail(i, "expected a digit after the decimal point, found %s", p.found())
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= len(src) || !isDigit(src[i]) {
			p.pos = i
			return p.fail(i, "expected a digit in the exponent, found %s", p.found())
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	p.pos = i
	return nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scanString scans the string starting at p.pos (on its opening quote)
// and leaves p.pos after its closing quote.
func (p *jsonParser) scanString() *jsonError {
	src := p.src
	start := p.pos
	i := p.pos + 1
	for {
		// The common case: a run of plain ASCII.
		for i < len(src) {
			c := src[i]
			if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
				break
			}
			i++
		}
		if i >= len(src) {
			return p.fail(start, "expected '\"' to close the string starting here, found end of input")
		}
		switch c := src[i]; {
		case c == '"':
			p.pos = i + 1
			return nil
		case c == '\\':
			if i+1 >= len(src) {
				return p.fail(i, "expected an escape after '\\', found end of input")
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(src) || !isHex(src[i+k]) {
						return p.fail(i, "expected four hex digits after \\u")
					}
				}
				i += 6
			default:
				p.pos = i + 1
				return p.fail(i, "expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX, found \\%s", p.found())
			}
		case c < 0x20:
			return p.fail(i, "expected a character in the string, found the control character U+%04X; escape it (\\n, \\t, \\u%04x)", c, c)
		default:
			r, size := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && size == 1 {
				return p.fail(i, "expected UTF-8 text in the string, found the invalid byte 0x%02x", c)
			}
			i += size
		}
	}
}

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// unquoteKey returns the unescaped bytes of a scanned string. Without
// escapes it is a sub-slice of the input, with no copy.
func unquoteKey(raw string) string {
	inner := raw[1 : len(raw)-1]
	if strings.IndexByte(inner, '\\') < 0 {
		return inner
	}
	s, err := strconv.Unquote(raw)
	if err != nil {
		// JSON escapes strconv does not know (\/ and lone surrogates):
		// unescape by hand.
		return unescapeJSON(inner)
	}
	return s
}

// unescapeJSON unescapes the inside of a valid JSON string.
func unescapeJSON(in string) string {
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		switch in[i] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, _ := strconv.ParseUint(string(in[i+1:i+5]), 16, 32)
			i += 4
			rr := rune(r)
			if 0xD800 <= rr && rr < 0xDC00 && i+6 < len(in) && in[i+1] == '\\' && in[i+2] == 'u' {
				lo, _ := strconv.ParseUint(string(in[i+3:i+7]), 16, 32)
				if 0xDC00 <= lo && lo < 0xE000 {
					rr = (rr-0xD800)<<10 + (rune(lo) - 0xDC00) + 0x10000
					i += 6
				}
			}
			out = utf8.AppendRune(out, rr)
		default: // " \ /
			out = append(out, in[i])
		}
	}
	return string(out)
}

// lineColumn returns the 1-based line and column (in characters) of a
// byte offset.
func lineColumn(src string, off int) (line, col int) {
	off = min(off, len(src))
	line = 1 + strings.Count(src[:off], "\n")
	lineStart := strings.LastIndexByte(src[:off], '\n') + 1
	return line, 1 + utf8.RuneCountInString(src[lineStart:off])
}

func sortTree(n *jsonNode) {
	if n == nil {
		return
	}
	switch n.kind {
	case '{':
		slices.SortStableFunc(n.members, func(a, b *jsonNode) int {
			switch {
			case a.key < b.key:
				return -1
			case a.key > b.key:
				return 1
			}
			return 0
		})
		for _, m := range n.members {
			sortTree(m.value)
		}
	case '[':
		for _, m := range n.members {
			sortTree(m)
		}
	}
}

// emitTree writes a parsed tree like the streaming parser would have.
func (p *jsonParser) emitTree(n *jsonNode) {
	if p.overflow {
		return
	}
	switch n.kind {
	case 's':
		p.pretty.WriteString(n.raw)
		p.mini.WriteString(n.raw)
	case '{', '[':
		open, end := byte('{'), byte('}')
		if n.kind == '[' {
			open, end = '[', ']'
		}
		p.pretty.WriteByte(open)
		p.mini.WriteByte(open)
		p.depth++
		for i, m := range n.members {
			if i > 0 {
				p.pretty.WriteByte(',')
				p.mini.WriteByte(',')
			}
			p.newline(p.depth)
			if n.kind == '{' {
				p.pretty.WriteString(m.raw)
				p.pretty.WriteString(": ")
				p.mini.WriteString(m.raw)
				p.mini.WriteByte(':')
				m = m.value
			}
			p.emitTree(m)
		}
		p.depth--
		if len(n.members) > 0 {
			p.newline(p.depth)
		}
		p.pretty.WriteByte(end)
		p.mini.WriteByte(end)
	}
}
