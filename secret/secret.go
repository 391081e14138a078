// Package secret holds credentials so that printing a configuration never
// shows them.
//
// A [String] is an API key, a token, or a URL with a password in it. Every
// form in which Go shows a value shows "[redacted]" in its place: fmt with
// any verb (%v, %+v, %#v, %s, %q, %x, ...), log/slog, encoding/json,
// encoding/xml and any other encoder that uses encoding.TextMarshaler. An
// empty String shows as empty, so that a printed configuration still says
// whether the credential is set. [String.Reveal] returns the value, for
// the one place that sends it.
//
// Every credential field of every Config in Quiver is a String:
//
//	p, err := microblog.NewXAPI(microblog.XAPIConfig{Token: secret.String(os.Getenv("X_BEARER_TOKEN"))})
//
// Three forms show the value, because they call no method: fmt printing
// a struct whose unexported field is a String (keep credentials in
// exported fields, or print them alone), fmt's %p of a String (go vet
// reports it: %p wants a pointer), and encoding/json writing a String
// used as a map key.
package secret

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
)

// Redacted is what every printed form of a non-empty [String] shows.
const Redacted = "[redacted]"

// String is a credential. Its printed forms show [Redacted] (nothing when
// it is empty); [String.Reveal] returns the value. The zero value is an
// unset credential.
type String string

// Reveal returns the credential itself. Call it only where the credential
// is sent: in a request header, to a dialer, to a client library.
func (s String) Reveal() string { return string(s) }

// shown is what every printed form shows.
func (s String) shown() string {
	if s == "" {
		return ""
	}
	return Redacted
}

// String implements fmt.Stringer: "[redacted]", or "" when s is empty.
func (s String) String() string { return s.shown() }

// GoString implements fmt.GoStringer: `"[redacted]"`, or `""`.
func (s String) GoString() string { return strconv.Quote(s.shown()) }

// Format implements fmt.Formatter: every verb, flag, width and precision
// formats [String.String] as it would a plain string, so that %q quotes
// "[redacted]" and %x prints its hexadecimal, never the credential's.
func (s String) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), s.shown())
}

// LogValue implements slog.LogValuer.
func (s String) LogValue() slog.Value { return slog.StringValue(s.shown()) }

// MarshalJSON implements json.Marshaler: the JSON string "[redacted]", or
// "" when s is empty.
func (s String) MarshalJSON() ([]byte, error) { return json.Marshal(s.shown()) }

// MarshalText implements encoding.TextMarshaler.
func (s String) MarshalText() ([]byte, error) { return []byte(s.shown()), nil }

// UnmarshalText implements encoding.TextUnmarshaler: it sets s to text,
// so that a flag (flag.TextVar) or a configuration file can give a
// credential. Marshalling s again gives "[redacted]", not text.
func (s *String) UnmarshalText(text []byte) error {
	*s = String(text)
	return nil
}
