package httpapi

import (
	"bytes"
	"errors"
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

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/strictjson"
	"github.com/quiverkit/quiver/internal/textcut"
)

// decodeJSON reads the request body into v strictly: the Content-Type must
// be application/json, the URL must carry no query, and the body must be
// one JSON value of the right shape with nothing after it, read by
// [strictjson.Unmarshal] (exact-case names, no duplicate names, valid
// UTF-8, no unknown members).
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
	return strictjson.Unmarshal(body, v)
}

// noQuery refuses a query string on a route that takes its input in the
// body: a parameter there would be ignored, and the caller should know.
func noQuery(r *http.Request) error {
	if r.URL.RawQuery == "" {
		return nil
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	var verr envelope.ValidationError
	for name := range q {
		verr.Add(textcut.Excerpt(name), "is not a known parameter: this route takes its input in the request body, not the query")
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
			verr.Add(textcut.Excerpt(name), "is not a known parameter")
		}
	}
	return verr.Err()
}

// queryReason explains a query that url.ParseQuery refused, quoting at most
// an excerpt of it.
func queryReason(err error) string {
	var esc url.EscapeError
	if errors.As(err, &esc) {
		return "invalid percent-encoding " + textcut.Quote(string(esc)) + " (write % as %25)"
	}
	if strings.Contains(err.Error(), "semicolon") {
		return "a semicolon is not a separator; use &"
	}
	return textcut.Excerpt(err.Error())
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
