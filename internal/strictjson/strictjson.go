// Package strictjson decodes JSON the one strict way Quiver reads it, from
// an HTTP body or a file given to the command line. Strict means what RFC
// 8259 and RFC 7493 (I-JSON) ask of an interoperable text, so that a
// gateway or firewall in front reads the same request as we do:
//
//   - member names match exactly (no case folding, Unicode or ASCII);
//   - a member name given twice is refused, not "last one wins";
//   - strings are valid UTF-8 with no lone surrogate (\ud800);
//   - unknown members are refused;
//   - null is refused inside an array of strings; for a member, null means
//     the member is absent.
package strictjson

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
)

// Unmarshal decodes body, one JSON value with nothing after it but white
// space, into v. The syntax is checked first, over the whole body, so that
// a malformed text is reported as such even when an earlier member has the
// wrong type. Every failure is an *envelope.Error or an
// *envelope.ValidationError naming the field and the rule.
func Unmarshal(body []byte, v any) error {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	val, err := dec.ReadValue()
	if err != nil {
		return syntaxError(body, err)
	}
	rest := body[dec.InputOffset():]
	if trimmed := bytes.TrimLeft(rest, " \t\r\n"); len(trimmed) > 0 {
		at := dec.InputOffset() + int64(len(rest)-len(trimmed))
		return envelope.Invalid("", fmt.Sprintf("%s: unexpected data after the JSON value", position(body, at)))
	}
	if err := json.Unmarshal(val, v, strictJSON); err != nil {
		return semanticError(body, err)
	}
	return nil
}

// strictJSON are the options of [Unmarshal]. The defaults of
// go-json-experiment/json already refuse duplicate names, invalid UTF-8 and
// case-insensitive matches; these add unknown members and nulls in arrays.
var strictJSON = json.JoinOptions(
	json.RejectUnknownMembers(true),
	json.WithUnmarshalers(json.UnmarshalFromFunc(func(dec *jsontext.Decoder, _ *string) error {
		if dec.PeekKind() == 'n' {
			if kind, _ := dec.StackIndex(dec.StackDepth()); kind == '[' {
				return errNullElement
			}
		}
		return errors.ErrUnsupported // the default string decoding
	})),
)

var errNullElement = errors.New("null element")

// syntaxError reports a body that is not one well-formed JSON value, naming
// the member where the text breaks a rule of strict JSON.
func syntaxError(body []byte, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return envelope.Invalid("", "malformed JSON: unexpected end of input")
	}
	var syn *jsontext.SyntacticError
	if !errors.As(err, &syn) {
		return envelope.Invalid("", "malformed JSON")
	}
	field := fieldOf(syn.JSONPointer)
	switch msg := syn.Err.Error(); {
	case errors.Is(syn.Err, jsontext.ErrDuplicateName):
		return envelope.Invalid(field, "is given twice: each member name must appear once in an object")
	case strings.Contains(msg, "invalid UTF-8"), strings.Contains(msg, "surrogate"):
		return envelope.Invalidf(field, "must be valid UTF-8 text: invalid bytes and lone surrogates such as \\ud800 are refused (at %s)", position(body, syn.ByteOffset))
	}
	return envelope.Invalid("", fmt.Sprintf("malformed JSON at %s: %s", position(body, syntaxOffset(body, syn.ByteOffset)), syntaxReason(syn.Err)))
}

// syntaxOffset moves offset, where the decoder stopped, past white space
// to the byte that broke the grammar.
func syntaxOffset(body []byte, offset int64) int64 {
	for offset < int64(len(body)) && strings.IndexByte(" \t\r\n", body[offset]) >= 0 {
		offset++
	}
	return offset
}

// syntaxReason is the decoder's reason, without its package prefix and
// with any quoted input cut to an excerpt.
func syntaxReason(err error) string {
	msg := strings.TrimPrefix(err.Error(), "jsontext: ")
	if len(msg) > 2*textcut.MaxExcerpt {
		msg = textcut.Excerpt(msg)
	}
	return msg
}

// semanticError turns a JSON value of the wrong shape into a validation
// error that names the field and the rule it broke.
func semanticError(body []byte, err error) error {
	var sem *json.SemanticError
	if !errors.As(err, &sem) {
		return envelope.Invalid("", "malformed JSON")
	}
	field := fieldOf(sem.JSONPointer)
	switch {
	case errors.Is(sem.Err, json.ErrUnknownName):
		return envelope.Invalid(field, "is not a known field")
	case errors.Is(sem.Err, errNullElement):
		return envelope.Invalid(field, "must be a string, not null (an array of strings holds no null)")
	case field == "" && sem.GoType != nil && sem.GoType.Kind() == reflect.Struct:
		return envelope.Invalid("", "the body must be a JSON object")
	case sem.JSONKind == '0' && sem.GoType != nil && isNumeric(sem.GoType):
		return envelope.Invalidf(field, "%s", numberIssue(string(sem.JSONValue), sem.GoType))
	case sem.GoType != nil:
		return envelope.Invalidf(field, "must be %s, not %s", jsonTypeName(sem.GoType), kindName(sem.JSONKind))
	}
	return envelope.Invalid(field, "malformed JSON at "+position(body, sem.ByteOffset))
}

// numberIssue says why the JSON number n does not fit the Go type t.
func numberIssue(n string, t reflect.Type) string {
	shown := textcut.Excerpt(n)
	if !isInteger(t) {
		return "number " + shown + " is out of range for " + jsonTypeName(t)
	}
	f, err := strconv.ParseFloat(n, 64)
	if strings.ContainsAny(n, ".eE") && (err == nil || errors.Is(err, strconv.ErrRange)) && !math.IsInf(f, 0) && f != math.Trunc(f) {
		return "must be an integer, not " + shown
	}
	return "number " + shown + " is out of range for an integer"
}

// fieldOf renders a JSON Pointer as the field path of the envelope:
// "/inner/flag" is "inner.flag", "/emails/3" is "emails[3]". Member names
// are cut to an excerpt.
func fieldOf(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if isIndex(tok) {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(textcut.Excerpt(tok))
	}
	return b.String()
}

func isIndex(tok string) bool {
	if tok == "" || len(tok) > 9 {
		return false
	}
	for _, c := range []byte(tok) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// kindName names a JSON kind.
func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "boolean"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "this value"
}

// position renders the byte at offset of body as "line L, column C" (both
// from 1, columns counted in bytes).
func position(body []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(body)))
	before := body[:offset]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

func isInteger(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() >= reflect.Int && t.Kind() <= reflect.Uintptr
}

func isNumeric(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// jsonTypeName names the JSON type that a Go type accepts, with an article.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a " + t.String()
}

// Describe returns err, an error of encoding/json, with a text in JSON's
// words rather than Go's: a value of the wrong type reads "at
// data.followers: a JSON string where an integer belongs" instead of
// naming the Go struct, field and type it was meant for, which are
// Quiver's internals. errors.As still finds the *json.UnmarshalTypeError.
// Any other error is returned as it is. Use it where a provider's answer
// or a data file failed to decode.
func Describe(err error) error {
	var te *stdjson.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return err
	}
	value, _, _ := strings.Cut(te.Value, " ") // "number -5"
	if value == "bool" {
		value = "boolean"
	}
	text := "a JSON " + value + " where " + jsonTypeName(te.Type) + " belongs"
	if path := jsonPath(te.Field); path != "" {
		text = "at " + path + ": " + text
	}
	return &described{text: text, err: err}
}

// jsonPath is the path of an UnmarshalTypeError's Field without the
// names of the Go structs it embeds, which encoding/json puts in it and
// which start with a capital letter (JSON member names of Quiver's types
// and providers' answers do not).
func jsonPath(field string) string {
	var keep []string
	for _, name := range strings.Split(field, ".") {
		if name != "" && (name[0] < 'A' || name[0] > 'Z') {
			keep = append(keep, name)
		}
	}
	return strings.Join(keep, ".")
}

// described is an error whose text replaces that of the error it wraps.
type described struct {
	text string
	err  error
}

func (d *described) Error() string { return d.text }
func (d *described) Unwrap() error { return d.err }
