package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/quiverkit/quiver/envelope"
)

// decodeJSON reads the request body into v strictly: the Content-Type must
// be application/json, the body one JSON value of the right shape, with no
// unknown fields and nothing after it. Every failure is an *envelope.Error
// or a *envelope.ValidationError naming the field.
func decodeJSON(r *http.Request, v any) error {
	if err := requireMediaType(r, "application/json"); err != nil {
		return err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return bodyReadError(err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return envelope.Invalid("", "a JSON object body is required")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(body, err, reflect.TypeOf(v))
	}
	rest := body[dec.InputOffset():]
	if trimmed := bytes.TrimLeft(rest, " \t\r\n"); len(trimmed) > 0 {
		at := dec.InputOffset() + int64(len(rest)-len(trimmed))
		return envelope.Invalid("", fmt.Sprintf("%s: unexpected data after the JSON value", position(body, at)))
	}
	return nil
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
// is 413, anything else a malformed request.
func bodyReadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return envelope.Errorf(envelope.CodePayloadTooLarge, "the request body exceeds %d bytes", tooBig.Limit)
	}
	return envelope.Invalid("", "the request body could not be read")
}

// jsonError turns an encoding/json error into a validation error that names
// the field and the rule it broke; into is the type decoded into.
func jsonError(body []byte, err error, into reflect.Type) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		// Offset counts the bytes read, the offending one included.
		return envelope.Invalid("", fmt.Sprintf("malformed JSON at %s: %s", position(body, syn.Offset-1), strings.TrimPrefix(syn.Error(), "json: ")))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return envelope.Invalid("", "malformed JSON: unexpected end of input")
	case errors.As(err, &typ):
		field := jsonPath(into, typ.Field)
		if field == "" {
			return envelope.Invalid("", "the body must be a JSON object")
		}
		if strings.HasPrefix(typ.Value, "number") && isNumeric(typ.Type) {
			return envelope.Invalidf(field, "number %s is out of range for %s", strings.TrimPrefix(typ.Value, "number "), jsonTypeName(typ.Type))
		}
		return envelope.Invalidf(field, "must be %s, not %s", jsonTypeName(typ.Type), typ.Value)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		field, uerr := strconv.Unquote(name)
		if uerr != nil {
			field = name
		}
		return envelope.Invalid(field, "is not a known field")
	}
	return envelope.Invalid("", "malformed JSON: "+strings.TrimPrefix(err.Error(), "json: "))
}

// jsonPath is encoding/json's path to a field with JSON names only:
// encoding/json puts in it the Go name of each embedded struct on the way
// (HashRequest.algorithms), a name the caller never wrote.
func jsonPath(t reflect.Type, path string) string {
	if path == "" {
		return ""
	}
	var kept []string
	for _, name := range strings.Split(path, ".") {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			t = nil
			kept = append(kept, name)
			continue
		}
		if f, ok := t.FieldByName(name); ok && f.Anonymous && f.Tag.Get("json") == "" {
			t = f.Type // embedded: its fields are the outer object's
			continue
		}
		var next reflect.Type
		for _, f := range reflect.VisibleFields(t) {
			if jsonName, _, _ := strings.Cut(f.Tag.Get("json"), ","); jsonName == name || jsonName == "" && f.Name == name {
				next = f.Type
				break
			}
		}
		t = next
		kept = append(kept, name)
	}
	return strings.Join(kept, ".")
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
	q := r.URL.Query()
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
			verr.Add(name, "is not a known parameter")
		}
	}
	return verr.Err()
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
