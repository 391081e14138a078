package secret_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/secret"
)

const key = "sk-live-Tq7Zp4Xw" // what no printed form may show

// config is a configuration as the packages have them: the credential in
// an exported field beside settings that print as they are.
type config struct {
	APIKey  secret.String
	BaseURL string
}

// shows reports whether out shows the credential, as it is or in the
// hexadecimal of %x and %X.
func shows(out string) bool {
	return strings.Contains(out, key) || strings.Contains(strings.ToLower(out), fmt.Sprintf("%x", key))
}

func TestFmtRedactsEveryVerb(t *testing.T) {
	s := secret.String(key)
	cfg := config{APIKey: s, BaseURL: "https://api.example"}
	values := map[string]any{
		"String": s, "*String": &s, "struct": cfg, "*struct": &cfg,
		"[]String": []secret.String{s}, "map": map[string]secret.String{"k": s}, "[]any": []any{s, cfg},
	}
	// Not %p: fmt prints a value that is not a pointer as it is in the
	// error text of %p, without calling a method, and go vet reports it.
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10s", "%-12.3q", "%T", "%t", "%08.3f"}
	for name, v := range values {
		for _, verb := range verbs {
			if out := fmt.Sprintf(verb, v); shows(out) {
				t.Errorf("fmt %s of %s shows the credential: %s", verb, name, out)
			}
		}
		if out := fmt.Sprint(v) + fmt.Sprintln(v); shows(out) {
			t.Errorf("fmt.Sprint of %s shows the credential: %s", name, out)
		}
	}
}

func TestFmtForms(t *testing.T) {
	s := secret.String(key)
	tests := []struct{ format, want string }{
		{"%v", "[redacted]"},
		{"%s", "[redacted]"},
		{"%q", `"[redacted]"`},
		{"%#v", `"[redacted]"`},
		{"%x", fmt.Sprintf("%x", "[redacted]")},
		{"%12s|", "  [redacted]|"},
		{"%.4s", "[red"},
	}
	for _, tt := range tests {
		if got := fmt.Sprintf(tt.format, s); got != tt.want {
			t.Errorf("Sprintf(%q) = %q, want %q", tt.format, got, tt.want)
		}
	}
	if got := s.GoString(); got != `"[redacted]"` {
		t.Errorf("GoString = %s", got)
	}
	if got := fmt.Sprintf("%+v", config{APIKey: s, BaseURL: "https://api.example"}); got != "{APIKey:[redacted] BaseURL:https://api.example}" {
		t.Errorf("%%+v of a config = %s", got)
	}
	if got := fmt.Sprintf("%#v", config{APIKey: s}); !strings.Contains(got, `APIKey:"[redacted]"`) {
		t.Errorf("%%#v of a config = %s", got)
	}
}

// An unset credential shows as empty, so that a printed configuration
// says whether it is set.
func TestEmptyShowsEmpty(t *testing.T) {
	var s secret.String
	if got := fmt.Sprintf("%v|%q|%#v", s, s, s); got != `|""|""` {
		t.Errorf("fmt = %s", got)
	}
	b, err := json.Marshal(config{})
	if err != nil || string(b) != `{"APIKey":"","BaseURL":""}` {
		t.Errorf("JSON = %s, %v", b, err)
	}
	if got := s.LogValue().String(); got != "" {
		t.Errorf("LogValue = %q", got)
	}
}

func TestSlogRedacts(t *testing.T) {
	s := secret.String(key)
	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewTextHandler(&buf, nil), slog.NewJSONHandler(&buf, nil)} {
		l := slog.New(h)
		l.Info("start", "key", s, "config", config{APIKey: s}, "ptr", &s)
		l.Info("group", slog.Group("provider", "key", s))
		l.Info("attr", slog.Any("key", s))
	}
	out := buf.String()
	if shows(out) {
		t.Errorf("slog shows the credential:\n%s", out)
	}
	if !strings.Contains(out, "key=[redacted]") || !strings.Contains(out, `"key":"[redacted]"`) {
		t.Errorf("slog does not show [redacted]:\n%s", out)
	}
}

func TestEncodersRedact(t *testing.T) {
	s := secret.String(key)
	b, err := json.Marshal(config{APIKey: s, BaseURL: "u"})
	if err != nil || string(b) != `{"APIKey":"[redacted]","BaseURL":"u"}` {
		t.Errorf("JSON = %s, %v", b, err)
	}
	text, err := s.MarshalText()
	if err != nil || string(text) != "[redacted]" {
		t.Errorf("MarshalText = %s, %v", text, err)
	}
	type doc struct {
		Key  secret.String `xml:"key,attr"`
		Body secret.String `xml:"body"`
	}
	b, err = xml.Marshal(doc{Key: s, Body: s})
	if err != nil || string(b) != `<doc key="[redacted]"><body>[redacted]</body></doc>` {
		t.Errorf("XML = %s, %v", b, err)
	}
}

// A credential comes in as text (a flag, an environment variable, a
// configuration file) and goes out only by Reveal.
func TestCredentialComesInAsText(t *testing.T) {
	var s secret.String
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.TextVar(&s, "api-key", secret.String(""), "the key")
	if err := fs.Parse([]string{"-api-key", key}); err != nil {
		t.Fatal(err)
	}
	if s.Reveal() != key {
		t.Errorf("flag: Reveal = %q", s.Reveal())
	}
	var cfg config
	if err := json.Unmarshal([]byte(`{"APIKey":"`+key+`"}`), &cfg); err != nil || cfg.APIKey.Reveal() != key {
		t.Errorf("JSON: %q, %v", cfg.APIKey.Reveal(), err)
	}
	var help bytes.Buffer
	fs.SetOutput(&help)
	fs.TextVar(new(secret.String), "token", secret.String(key), "a token with a default")
	fs.PrintDefaults()
	if shows(help.String()) {
		t.Errorf("-help shows a default credential:\n%s", help.String())
	}
}

// A program reads a credential from its environment into a Config, and
// prints the Config freely.
func Example() {
	os.Setenv("EXAMPLE_API_KEY", "sk-live-Tq7Zp4Xw")
	type Config struct {
		APIKey  secret.String
		BaseURL string
	}
	cfg := Config{APIKey: secret.String(os.Getenv("EXAMPLE_API_KEY")), BaseURL: "https://api.example"}
	fmt.Printf("%+v\n", cfg)
	b, _ := json.Marshal(cfg)
	fmt.Println(string(b))
	fmt.Println(len(cfg.APIKey.Reveal()), "bytes sent in the request header")
	// Output:
	// {APIKey:[redacted] BaseURL:https://api.example}
	// {"APIKey":"[redacted]","BaseURL":"https://api.example"}
	// 16 bytes sent in the request header
}
