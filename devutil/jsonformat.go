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
// would exceed it. Only a valid document is reported too large: an
// invalid one gets its syntax error, wherever the output stopped.
func formatJSON(src string, indent int, sortKeys bool, limit int) (JSONFormatResult, int) {
	res := JSONFormatResult{Warnings: []string{}}
	p := &jsonParser{src: src, tape: sortKeys}
	if !sortKeys {
		p.w = &jsonWriter{indent: indent, limit: limit}
		p.w.pretty.Grow(len(src) + len(src)/2)
		p.w.mini.Grow(len(src))
	}
	kind, err := p.parseDocument()
	if p.w != nil && p.w.overflow {
		// The output stopped at the bound (perhaps with only closing
		// brackets left, whose line breaks were dropped): whether the
		// rest is valid decides between the bound and a syntax error.
		p = &jsonParser{src: src}
		kind, err = p.parseDocument()
		if err == nil {
			return res, limit
		}
	}
	if err != nil {
		line, col := lineColumn(src, err.off)
		msg := fmt.Sprintf("line %d, column %d: %s", line, col, err.msg)
		res.Error, res.ErrorLine, res.ErrorColumn = &msg, line, col
		return res, 0
	}
	w := p.w
	if sortKeys {
		// The first pass counted what the outputs hold: their sizes are
		// known exactly, whatever the order of the members.
		miniLen := len(src) - p.space
		prettyLen := miniLen + p.members + p.lines + indent*p.lineDepths
		if prettyLen > limit {
			return res, limit
		}
		w = &jsonWriter{indent: indent, limit: limit}
		w.pretty.Grow(prettyLen)
		w.mini.Grow(miniLen)
		s := jsonSorter{src: src, w: w, objs: p.objs, order: p.order}
		s.value(p.start, 0, 0)
	}
	res.IsValid = true
	res.Formatted = w.pretty.String()
	res.Minified = w.mini.String()
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

// jsonWriter writes the formatted and the minified output side by side.
type jsonWriter struct {
	indent int
	pretty strings.Builder // the outputs; strings.Builder hands them over without a copy
	mini   strings.Builder
	nl     []byte // "\n" followed by spaces, sliced for each depth

	limit    int  // bound on the size of pretty
	overflow bool // pretty reached limit: stop
}

// newline writes a line break and the indentation of depth to pretty.
func (w *jsonWriter) newline(depth int) {
	n := 1 + depth*w.indent
	if len(w.nl) == 0 {
		w.nl = append(w.nl, '\n')
	}
	for len(w.nl) < n {
		w.nl = append(w.nl, ' ')
	}
	if w.pretty.Len()+n > w.limit {
		w.overflow = true
		return
	}
	w.pretty.Write(w.nl[:n])
}

// raw writes a token (a scalar, or a bracket) to both outputs.
func (w *jsonWriter) raw(s string) {
	w.pretty.WriteString(s)
	w.mini.WriteString(s)
}

func (w *jsonWriter) char(c byte) {
	w.pretty.WriteByte(c)
	w.mini.WriteByte(c)
}

// member starts the n-th member or element (from 0) of a container at
// depth: the comma before it and its line.
func (w *jsonWriter) member(n, depth int) {
	if n > 0 {
		w.char(',')
	}
	w.newline(depth)
}

// key writes an object member's key, raw, and its colon.
func (w *jsonWriter) key(raw string) {
	w.pretty.WriteString(raw)
	w.pretty.WriteString(": ")
	w.mini.WriteString(raw)
	w.mini.WriteByte(':')
}

// close writes the closer of a container whose members were at depth+1.
func (w *jsonWriter) close(closer byte, depth int, empty bool) {
	if !empty {
		w.newline(depth)
	}
	w.char(closer)
}

// jsonParser is a recursive-descent parser. With a writer it writes the
// formatted and minified output as it goes. Without one it only checks
// the text, counting what the outputs would hold; with tape set it also
// records each object's members in key order, for a jsonSorter to write
// the outputs in a second pass, without a node per value.
type jsonParser struct {
	src      string
	pos      int
	depth    int
	warnings []string
	dropped  int

	w *jsonWriter // nil: check only

	keys [][]keyPos // keys seen per open object, reused across objects

	// What the outputs hold, counted when there is no writer: the
	// whitespace between tokens (dropped), the object members (each
	// gets a space after its colon in the formatted output), the line
	// breaks and the sum of their depths.
	space, members, lines, lineDepths int

	tape  bool
	start int                   // offset of the top-level value
	objs  chunked[sortedObj]    // the objects, in the order they open
	order chunked[sortedMember] // the members of the objects out of order, object by object, each in key order
}

// sortedObj is an object with members as a jsonSorter writes it.
type sortedObj struct {
	// order indexes the first of the object's members in
	// jsonParser.order, or is inOrder when the members are already in
	// key order and are written as they come.
	order uint32
	n     uint32 // number of members
	end   uint32 // offset after the closing brace
	next  uint32 // index of the first object after this one and its values
}

// inOrder marks an object whose members need no reordering.
const inOrder = ^uint32(0)

// sortedMember is a member of an object whose members move.
type sortedMember struct {
	key uint32 // offset of its key
	obj uint32 // index of the first object at or after its value
}

type keyPos struct {
	key string // unescaped key
	off int    // offset of the key
	obj uint32 // with tape: the index of the first object at or after its value
}

func (p *jsonParser) fail(off int, format string, args ...any) *jsonError {
	return &jsonError{off: off, msg: fmt.Sprintf(format, args...)}
}

func (p *jsonParser) parseDocument() (string, *jsonError) {
	if strings.HasPrefix(p.src, "\xef\xbb\xbf") {
		return "", p.fail(0, "expected a JSON value, found a byte order mark (RFC 8259 forbids it)")
	}
	if p.tape && uint64(len(p.src)) >= uint64(inOrder) {
		return "", p.fail(0, "the text is too long to sort its keys (at most %d bytes)", inOrder-1)
	}
	p.skipSpace()
	if p.pos == len(p.src) {
		return "", p.fail(p.pos, "expected a JSON value, found end of input")
	}
	kind := jsonTypeOf(p.src[p.pos])
	p.start = p.pos
	if err := p.parseValue(); err != nil {
		return "", err
	}
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
	start := p.pos
	p.pos = skipJSONSpace(p.src, p.pos)
	p.space += p.pos - start
}

func skipJSONSpace(src string, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
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

// member starts the n-th member or element of the open container: it is
// written, or its line counted.
func (p *jsonParser) member(n int) {
	if p.w != nil {
		p.w.member(n, p.depth)
		return
	}
	p.lines++
	p.lineDepths += p.depth
}

func (p *jsonParser) parseValue() *jsonError {
	if p.w != nil && p.w.overflow {
		return p.fail(p.pos, "the formatted output is too large")
	}
	if p.pos >= len(p.src) {
		return p.fail(p.pos, "expected a value, found end of input")
	}
	start := p.pos
	switch c := p.src[p.pos]; c {
	case '{':
		return p.parseObject()
	case '[':
		return p.parseArray()
	case '"':
		if err := p.scanString(); err != nil {
			return err
		}
	case 't':
		if err := p.scanLiteral("true"); err != nil {
			return err
		}
	case 'f':
		if err := p.scanLiteral("false"); err != nil {
			return err
		}
	case 'n':
		if err := p.scanLiteral("null"); err != nil {
			return err
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if err := p.scanNumber(); err != nil {
			return err
		}
	default:
		return p.unexpectedValue()
	}
	if p.w != nil {
		p.w.raw(p.src[start:p.pos])
	}
	return nil
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

// open consumes the opening bracket of an object or array, one level
// deeper, and writes it.
func (p *jsonParser) open(kind byte) *jsonError {
	p.depth++
	if p.depth > MaxJSONDepth {
		return p.fail(p.pos, "nesting is deeper than %d levels", MaxJSONDepth)
	}
	p.pos++
	if p.w != nil {
		p.w.char(kind)
	}
	p.skipSpace()
	return nil
}

// empty consumes the closer of a container with no members, if it is
// next, and writes it.
func (p *jsonParser) empty(closer byte) bool {
	if p.pos >= len(p.src) || p.src[p.pos] != closer {
		return false
	}
	p.pos++
	p.depth--
	if p.w != nil {
		p.w.char(closer)
	}
	return true
}

func (p *jsonParser) parseObject() *jsonError {
	if err := p.open('{'); err != nil {
		return err
	}
	level := p.depth - 1
	for len(p.keys) <= level {
		p.keys = append(p.keys, nil)
	}
	p.keys[level] = p.keys[level][:0]
	obj := p.objs.n
	if p.tape {
		p.objs.add(sortedObj{})
	}
	if p.empty('}') {
		if p.tape {
			p.objs.pop() // a jsonSorter writes empty objects as it finds them
		}
		return nil
	}
	var seen map[string]int // built when an object has many keys
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
			return p.fail(p.pos, what, p.found())
		}
		keyStart := p.pos
		if err := p.scanString(); err != nil {
			return err
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
		}
		if seen == nil || p.tape {
			// The first object at or after the value is the next to open.
			*seenKeys = append(*seenKeys, keyPos{key: key, off: keyStart, obj: uint32(p.objs.n)})
		}

		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return p.fail(p.pos, "expected ':' after object key, found %s", p.found())
		}
		p.pos++
		p.skipSpace()
		p.member(n)
		if p.w != nil {
			p.w.key(rawKey)
		} else {
			p.members++
		}
		if err := p.parseValue(); err != nil {
			return err
		}
		done, err := p.afterMember('}', "object value")
		if err != nil {
			return err
		}
		if done {
			p.sortMembers(obj, level)
			return nil
		}
	}
}

// sortMembers records, with tape, the object objs[obj] that just closed
// with the keys at level: its members in key order unless they are
// already.
func (p *jsonParser) sortMembers(obj, level int) {
	if !p.tape {
		return
	}
	keys := p.keys[level]
	o := sortedObj{order: inOrder, n: uint32(len(keys)), end: uint32(p.pos), next: uint32(p.objs.n)}
	byKey := func(a, b keyPos) int { return strings.Compare(a.key, b.key) }
	if !slices.IsSortedFunc(keys, byKey) {
		slices.SortStableFunc(keys, byKey)
		o.order = uint32(p.order.n)
		for _, k := range keys {
			p.order.add(sortedMember{key: uint32(k.off), obj: k.obj})
		}
	}
	*p.objs.at(obj) = o
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

func (p *jsonParser) parseArray() *jsonError {
	if err := p.open('['); err != nil {
		return err
	}
	if p.empty(']') {
		return nil
	}
	for n := 0; ; n++ {
		p.member(n)
		if err := p.parseValue(); err != nil {
			return err
		}
		done, err := p.afterMember(']', "array element")
		if err != nil {
			return err
		}
		if done {
			return nil
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
			if p.w != nil {
				p.w.close(closer, p.depth, false)
			} else {
				p.lines++
				p.lineDepths += p.depth
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

// jsonSorter writes a checked document with the members of every object
// in key order: it reads the text again, taking each object's members in
// the order its jsonParser recorded.
type jsonSorter struct {
	src   string
	w     *jsonWriter
	objs  chunked[sortedObj]
	order chunked[sortedMember]
}

// value writes the value at off, at depth; obj indexes the first object
// at or after off. It returns the offsets after the value and the index
// of the first object after it.
func (s *jsonSorter) value(off, depth int, obj uint32) (int, uint32) {
	switch s.src[off] {
	case '{':
		if s.src[skipJSONSpace(s.src, off+1)] == '}' {
			return s.container(off, depth, obj, '}')
		}
		o := *s.objs.at(int(obj))
		if o.order == inOrder {
			return s.container(off, depth, obj+1, '}')
		}
		s.w.char('{')
		for i := range int(o.n) {
			m := s.order.at(int(o.order) + i)
			s.w.member(i, depth+1)
			s.member(int(m.key), depth+1, m.obj)
		}
		s.w.close('}', depth, false)
		return int(o.end), o.next
	case '[':
		return s.container(off, depth, obj, ']')
	case '"':
		end := jsonStringEnd(s.src, off)
		s.w.raw(s.src[off:end])
		return end, obj
	}
	end := off
	for end < len(s.src) && !isJSONDelimiter(s.src[end]) {
		end++
	}
	s.w.raw(s.src[off:end])
	return end, obj
}

// member writes the member whose key is at off, at depth.
func (s *jsonSorter) member(off, depth int, obj uint32) (int, uint32) {
	end := jsonStringEnd(s.src, off)
	s.w.key(s.src[off:end])
	colon := skipJSONSpace(s.src, end)
	return s.value(skipJSONSpace(s.src, colon+1), depth, obj)
}

// container writes the array, or the object with members in key order,
// at off; closer ends it.
func (s *jsonSorter) container(off, depth int, obj uint32, closer byte) (int, uint32) {
	s.w.char(s.src[off])
	off = skipJSONSpace(s.src, off+1)
	n := 0
	for ; s.src[off] != closer; n++ {
		s.w.member(n, depth+1)
		if closer == '}' {
			off, obj = s.member(off, depth+1, obj)
		} else {
			off, obj = s.value(off, depth+1, obj)
		}
		off = skipJSONSpace(s.src, off)
		if s.src[off] == ',' {
			off = skipJSONSpace(s.src, off+1)
		}
	}
	s.w.close(closer, depth, n == 0)
	return off + 1, obj
}

// jsonStringEnd returns the offset after the valid string at off.
func jsonStringEnd(src string, off int) int {
	for i := off + 1; ; {
		q := i + strings.IndexByte(src[i:], '"')
		// The quote ends the string unless an odd run of backslashes
		// escapes it.
		b := q
		for b > off+1 && src[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
}

// isJSONDelimiter reports whether c ends a number or a literal.
func isJSONDelimiter(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// chunked is an append-only sequence kept in chunks of a fixed size:
// growing it never copies what it holds, so that what it allocates stays
// close to its size. The first chunk grows from small, for small
// documents.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const chunkBits = 12

func (c *chunked[T]) add(v T) {
	if len(c.chunks) == 0 || len(c.chunks[len(c.chunks)-1]) == 1<<chunkBits {
		size := 1 << chunkBits
		if len(c.chunks) == 0 {
			size = 16
		}
		c.chunks = append(c.chunks, make([]T, 0, size))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, v)
	c.n++
}

// pop removes the last element.
func (c *chunked[T]) pop() {
	last := &c.chunks[len(c.chunks)-1]
	*last = (*last)[:len(*last)-1]
	c.n--
}

func (c *chunked[T]) at(i int) *T {
	return &c.chunks[i>>chunkBits][i&(1<<chunkBits-1)]
}
