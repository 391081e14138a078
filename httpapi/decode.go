package httpapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/quiverkit/quiver/envelope"
)

// decodeJSON reads the request body into v strictly: the Content-Type must
// be application/json, the URL must carry no query, and the body must be
// one JSON value of the right shape with nothing after it. Strict means
// what RFC 8259 and RFC 7493 (I-JSON) ask of an interoperable text, so that
// a gateway or firewall in front reads the same request as we do:
//
//   - member names match exactly (no case folding, Unicode or ASCII);
//   - a member name given twice is refused, not "last one wins";
//   - strings are valid UTF-8 with no lone surrogate (\ud800);
//   - unknown members are refused;
//   - null is refused inside an array of strings; for a member, null means
//     the member is absent.
//
// Every failure is an *envelope.Error or a *envelope.ValidationError
// naming the field and the rule.
func decodeJSON(r *http.Request, v any) error {
	if err := requireMediaType(r, "application/json"); err != nil {
		return err
	}
	if err := noQuery(r); err != nil {
		return err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return bodyReadError(err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return envelope.Invalid("", "a JSON object body is required")
	}
	return unmarshalStrict(body, v)
}

// unmarshalStrict decodes body into v with the rules of [decodeJSON]. The
// syntax is checked first, over the whole body, so that a malformed text
// is reported as such even when an earlier member has the wrong type.
func unmarshalStrict(body []byte, v any) error {
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

// strictJSON are the options of [unmarshalStrict]. The defaults of
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

// noQuery refuses a query string on a route that takes its input in the
// body: a parameter there would be ignored, and the caller should know.
func noQuery(r *http.Request) error {
	if r.URL.RawQuery == "" {
		return nil
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	var verr envelope.ValidationError
	for name := range q {
		verr.Add(envelope.Excerpt(name), "is not a known parameter: this route takes its input in the request body, not the query")
	}
	if err != nil || len(verr.Issues) == 0 {
		verr.Add("", "this route takes its input in the request body, not the query string")
	}
	return verr.Err()
}

// requireMediaType answers 415 unless the request's Content-Type is want.
// Parameters such as charset=utf-8 are allowed.
func requireMediaType(r *http.Request, want string) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil || !strings.EqualFold(mt, want) {
		return envelope.Errorf(envelope.CodeUnsupportedMediaType, "Content-Type must be %s", want)
	}
	return nil
}

// bodyReadError classifies a failure to read the body: over the size limit
// is 413, a body that stopped arriving before the server's read deadline is
// 408, anything else a malformed request.
func bodyReadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return envelope.Errorf(envelope.CodePayloadTooLarge, "the request body exceeds %d bytes", tooBig.Limit)
	}
	if isTimeout(err) {
		return envelope.Errorf(envelope.CodeRequestTimeout, "the request body did not arrive in time")
	}
	return envelope.Invalid("", "the request body could not be read")
}

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
	if len(msg) > 2*envelope.MaxExcerpt {
		msg = envelope.Excerpt(msg)
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
	shown := envelope.Excerpt(n)
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
		b.WriteString(envelope.Excerpt(tok))
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

// decodeQuery fills the struct that v points to from the URL's query
// parameters. A field's parameter name is its json tag name. Supported
// field types are string, bool, the integer and float kinds, pointers to
// those (nil when the parameter is absent), and []string (repeated
// parameters, or one comma-separated value). Unknown parameters, repeated
// scalars and values that do not parse are validation errors naming the
// parameter.
func decodeQuery(r *http.Request, v any) error {
	rv := reflect.ValueOf(v).Elem()
	rt := rv.Type()
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		// ParseQuery keeps the pairs it could read and reports the first
		// it could not: "%zz", a semicolon. Refuse the whole query rather
		// than guess what the caller meant.
		return envelope.Invalidf("", "the query string is malformed: %s", queryReason(err))
	}
	known := make(map[string]bool, rt.NumField())
	var verr envelope.ValidationError
	for i := range rt.NumField() {
		sf := rt.Field(i)
		name := jsonName(sf)
		if name == "" {
			continue
		}
		known[name] = true
		vals, ok := q[name]
		if !ok {
			continue
		}
		if err := setQueryField(rv.Field(i), vals); err != "" {
			verr.Add(name, err)
		}
	}
	for name := range q {
		if !known[name] {
			verr.Add(envelope.Excerpt(name), "is not a known parameter")
		}
	}
	return verr.Err()
}

// queryReason explains a query that url.ParseQuery refused, quoting at most
// an excerpt of it.
func queryReason(err error) string {
	var esc url.EscapeError
	if errors.As(err, &esc) {
		return "invalid percent-encoding " + envelope.Quote(string(esc)) + " (write % as %25)"
	}
	if strings.Contains(err.Error(), "semicolon") {
		return "a semicolon is not a separator; use &"
	}
	return envelope.Excerpt(err.Error())
}

// jsonName returns the JSON name of a struct field, or "" when it is not
// serialized.
func jsonName(sf reflect.StructField) string {
	if !sf.IsExported() {
		return ""
	}
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return ""
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = sf.Name
	}
	return name
}

func setQueryField(f reflect.Value, vals []string) string {
	if f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String {
		var out []string
		for _, v := range vals {
			for part := range strings.SplitSeq(v, ",") {
				if part = strings.TrimSpace(part); part != "" {
					out = append(out, part)
				}
			}
		}
		f.Set(reflect.ValueOf(out).Convert(f.Type()))
		return ""
	}
	if len(vals) != 1 {
		return "must be given once"
	}
	if f.Kind() == reflect.Pointer {
		p := reflect.New(f.Type().Elem())
		if err := setScalar(p.Elem(), vals[0]); err != "" {
			return err
		}
		f.Set(p)
		return ""
	}
	return setScalar(f, vals[0])
}

func setScalar(f reflect.Value, s string) string {
	switch f.Kind() {
	case reflect.String:
		f.SetString(s)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return "must be true or false"
		}
		f.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, f.Type().Bits())
		if err != nil {
			return "must be an integer in range"
		}
		f.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, f.Type().Bits())
		if err != nil {
			return "must be a non-negative integer in range"
		}
		f.SetUint(n)
	case reflect.Float32, reflect.Float64:
		n, err := strconv.ParseFloat(s, f.Type().Bits())
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return "must be a finite number"
		}
		f.SetFloat(n)
	default:
		return "has a type that query parameters cannot carry"
	}
	return ""
}

// isTimeout reports whether err is a read that hit its deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
