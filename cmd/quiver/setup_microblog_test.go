package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
)

func TestMicroblogProvider(t *testing.T) {
	const apiKey = "sk-apiKey-value"
	tests := []struct {
		kind, key, file string
		name            string // provider name; "" for none
		err             string
	}{
		{"", "", "", "", ""},
		{"twitterapi", apiKey, "", "twitterapi.io", ""},
		{"xapi", apiKey, "", "x-api-v2", ""},
		{"file", "", "../../examples/microblog/data/sample.jsonl", "file:sample.jsonl", ""},
		{"twitterapi", "", "", "", "QUIVER_MICROBLOG_API_KEY"},
		{"xapi", "", "", "", "QUIVER_MICROBLOG_API_KEY"},
		{"file", "", "", "", "QUIVER_MICROBLOG_FILE"},
		{"file", "", "does-not-exist.jsonl", "", "does-not-exist"},
		{"mastodon", apiKey, "", "", "must be twitterapi, xapi or file"},
	}
	for _, tt := range tests {
		p, err := microblogConfig{Provider: tt.kind, APIKey: secret.String(tt.key), File: tt.file}.provider(nil)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || strings.Contains(err.Error(), apiKey) {
				t.Errorf("%s: err = %v, want one mentioning %q without the key", tt.kind, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.kind, err)
			continue
		}
		got := ""
		if p != nil {
			got = p.Name()
		}
		if got != tt.name {
			t.Errorf("%s: provider %q, want %q", tt.kind, got, tt.name)
		}
	}
	var _ microblog.Provider = (*microblog.File)(nil)
}

func TestMicroblogMisconfigurationIsUsageError(t *testing.T) {
	for name, vars := range map[string]map[string]string{
		"unknown provider": {"QUIVER_MICROBLOG_PROVIDER": "myspace"},
		"missing key":      {"QUIVER_MICROBLOG_PROVIDER": "xapi"},
		"missing file":     {"QUIVER_MICROBLOG_PROVIDER": "file"},
	} {
		err := run(context.Background(), []string{"-addr", "127.0.0.1:0"}, env(vars), io.Discard)
		if exitCode(err) != 2 {
			t.Errorf("%s: run = %v (exit %d), want a usage error (exit 2)", name, err, exitCode(err))
		}
	}
}
