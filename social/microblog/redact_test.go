package microblog_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/social/microblog"
)

// TestCredentialsAreRedacted prints each provider's config and provider
// every way fmt and log/slog can, and provokes the errors a credential
// could travel in: none may show it.
func TestCredentialsAreRedacted(t *testing.T) {
	const secret = "sk-live-DO-NOT-PRINT-4242"
	tsrv := replay(t, "twitterapi.io", "another-key")
	xsrv := replay(t, "x-api-v2", "another-token")
	tcfg := microblog.TwitterAPIIOConfig{APIKey: secret, BaseURL: tsrv.URL}
	xcfg := microblog.XAPIConfig{Token: secret, BaseURL: xsrv.URL}
	tp := must(microblog.NewTwitterAPIIO(tcfg))
	xp := must(microblog.NewXAPI(xcfg))

	values := map[string]any{"TwitterAPIIOConfig": tcfg, "XAPIConfig": xcfg, "*TwitterAPIIO": tp, "*XAPI": xp,
		"*TwitterAPIIOConfig": &tcfg, "[]any": []any{tcfg, xcfg}}
	for name, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
			if out := fmt.Sprintf(verb, v); strings.Contains(out, secret) {
				t.Errorf("fmt %s of %s shows the credential: %s", verb, name, out)
			}
		}
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("config", "v", v)
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "v", v)
		if strings.Contains(buf.String(), secret) {
			t.Errorf("slog of %s shows the credential: %s", name, buf.String())
		}
	}
	if out := fmt.Sprintf("%+v", tcfg); !strings.Contains(out, "APIKey:[redacted]") || !strings.Contains(out, tsrv.URL) {
		t.Errorf("%%+v = %s: want the settings, with APIKey:[redacted]", out)
	}

	// The servers accept another credential: both answer 401.
	for name, p := range map[string]microblog.Provider{"twitterapi.io": tp, "x-api-v2": xp} {
		_, err := newClient(t, p).Profile(context.Background(), microblog.ProfileRequest{Username: "ana_dev"})
		if err == nil || strings.Contains(err.Error(), secret) || strings.Contains(fmt.Sprintf("%+v", err), secret) {
			t.Errorf("%s: refused credential gives %v", name, err)
		}
	}
	_, err := microblog.NewXAPI(microblog.XAPIConfig{Token: secret, BaseURL: "ftp://" + secret})
	if !errors.Is(err, microblog.ErrInvalidConfig) || strings.Contains(err.Error(), secret) {
		t.Errorf("bad BaseURL: %v", err)
	}
}

func TestProviderConstructorsRefuseMissingCredentials(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"twitterapi.io without APIKey", second(microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{}))},
		{"x-api-v2 without Token", second(microblog.NewXAPI(microblog.XAPIConfig{Token: "  "}))},
		{"negative timeout", second(microblog.NewXAPI(microblog.XAPIConfig{Token: "t", Timeout: -1}))},
		{"relative BaseURL", second(microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "k", BaseURL: "api.example"}))},
		{"file without data", second(microblog.NewFile(microblog.FileConfig{}))},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, microblog.ErrInvalidConfig) {
			t.Errorf("%s: err = %v, want ErrInvalidConfig", tt.name, tt.err)
		}
	}
}

func second[T any](_ T, err error) error { return err }
