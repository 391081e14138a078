package llmjson

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/upstream"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", upstream.DefaultRetryAfter},
		{"0", upstream.MinRetryAfter},
		{"-3", upstream.DefaultRetryAfter},
		{"30", 30 * time.Second},
		{" 2 ", 2 * time.Second},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), upstream.MinRetryAfter},
		{"soon", upstream.DefaultRetryAfter},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestClassifyFromErrorText(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		err  string
		want envelope.Code
	}{
		{"API returned unexpected status code: 429: slow down", envelope.CodeRateLimitExceeded},
		{"anthropic: failed to create message: API returned unexpected status code: 529: Overloaded", envelope.CodeUpstreamError},
		{"googleapi: Error 429: Resource has been exhausted", envelope.CodeRateLimitExceeded},
		{"rpc error: code = ResourceExhausted desc = quota", envelope.CodeRateLimitExceeded},
		{"googleapi: Error 504: deadline", envelope.CodeUpstreamTimeout},
		{"request timeout: API call exceeded deadline", envelope.CodeUpstreamTimeout},
		{"connection refused", envelope.CodeUpstreamError},
	}
	for _, tt := range tests {
		got := envelope.From(classify(ctx, ctx, nil, errors.New(tt.err)))
		if got.Code != tt.want {
			t.Errorf("classify(%q) = %s, want %s", tt.err, got.Code, tt.want)
		}
	}
}

// FuzzDecode feeds arbitrary model answers to the strict decoder: it must
// never panic, and what it accepts must be one JSON object of the shape.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"colors":["a","b","c"]}`, "```json\n{\"colors\":[]}\n```", "```\n```", "``````", "```json```",
		`{"colors":["a"]} {"colors":[]}`, `{"colors":"x"}`, `null`, ``, `{"extra":1}`, "\ufeff{}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		var v struct {
			Colors []string `json:"colors"`
		}
		if problems := decode(answer, &v); problems == nil {
			body := strings.TrimSpace(string(stripFence([]byte(strings.TrimSpace(answer)))))
			if !json.Valid([]byte(body)) {
				t.Fatalf("accepted invalid JSON %q", answer)
			}
		}
	})
}
