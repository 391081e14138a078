package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// parseServices binds the flags of setups, parses args with env as the
// environment, and returns the services they configure (built lazily, on
// first use), or the first error of the flags or their twins.
func parseServices(t *testing.T, setups []setup, env map[string]string, args ...string) (*services, error) {
	t.Helper()
	f := &flags{FlagSet: flag.NewFlagSet("quiver", flag.ContinueOnError), getenv: func(k string) string { return env[k] }}
	f.SetOutput(io.Discard)
	var cfg config
	for _, s := range setups {
		s(f, &cfg)
	}
	if err := f.Parse(args); err != nil {
		return nil, err
	}
	if len(f.errs) > 0 {
		return nil, f.errs[0]
	}
	s := newServices(context.Background(), &cfg, nil)
	t.Cleanup(func() { s.Close() })
	return s, nil
}

// A model that no price table names costs 0: serve says so in its log
// when it builds the model, and only then.
func TestServicesWarnOfUnknownPrice(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  map[string]string
		warn bool
	}{
		{"no model", nil, false},
		{"priced model", map[string]string{"QUIVER_LLM_PROVIDER": "openai", "QUIVER_LLM_API_KEY": "k"}, false},
		{"local model", map[string]string{"QUIVER_LLM_PROVIDER": "ollama"}, true},
		{"price given", map[string]string{"QUIVER_LLM_PROVIDER": "ollama", "QUIVER_LLM_PRICES": "llama3.2=0/0"}, false},
	} {
		s, err := parseServices(t, []setup{contentSetup, devutilSetup}, tt.env)
		if err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		s.deps = &deps{logger: slog.New(slog.NewTextHandler(&logs, nil))}
		if _, err := s.Content(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Regex(); err != nil { // the model is built once: no second warning
			t.Fatal(err)
		}
		warnings := strings.Count(logs.String(), "level=WARN")
		if want := map[bool]int{true: 1}[tt.warn]; warnings != want || (tt.warn && !strings.Contains(logs.String(), "price is unknown")) {
			t.Errorf("%s: %d warnings, want %d; logs:\n%s", tt.name, warnings, want, logs.String())
		}
	}
}

// A service is built when first asked for: a setting that cannot work
// stops only what uses it, with an error naming its flag.
func TestServicesBuildOnlyWhatIsAsked(t *testing.T) {
	s, err := parseServices(t, []setup{dnsSetup, emailSetup, webcheckSetup}, map[string]string{"QUIVER_DNSBL_ZONES": "not a zone"}, "-dns-servers", "127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.WebCheck(); err != nil {
		t.Errorf("the web checks fail on an email setting: %v", err)
	}
	if _, err := s.Email(); err == nil || !strings.HasPrefix(err.Error(), "-dnsbl-zones (QUIVER_DNSBL_ZONES): ") {
		t.Errorf("email: err = %v, want one naming -dnsbl-zones", err)
	}
	if s, err = parseServices(t, emailServices, nil, "-dns-servers", "127.0.0.1:1"); err != nil {
		t.Fatal(err)
	}
	v1, err1 := s.Verifier(3)
	v2, err2 := s.Verifier(3)
	if v1 == nil || v1 != v2 || err1 != nil || err2 != nil {
		t.Errorf("Verifier(3) = %p, %v then %p, %v; want one verifier, built once", v1, err1, v2, err2)
	}
}
