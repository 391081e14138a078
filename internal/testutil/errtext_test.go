package testutil_test

import (
	"testing"

	"github.com/quiverkit/quiver/internal/testutil"
)

func TestRepeatedClause(t *testing.T) {
	tests := []struct{ text, want string }{
		// The texts of issue 22, and others that say a cause twice.
		{"INVALID_REQUEST: pattern: at offset 1: missing ')' to close this group: at offset 1: missing ')' to close this group",
			"at offset 1: missing ')' to close this group"},
		{"UPSTREAM_ERROR: the language model's answer did not meet the contract after 2 attempts: llmjson: the model's answer broke the contract after 2 attempt(s): \"pattern\" is empty",
			"the contract after 2"},
		{"destination not allowed: url must point to a public address; url: destination not allowed (private): destination not allowed: 10.0.0.1",
			"destination not allowed"},
		{"httpapi: email: email: invalid configuration", "email"},
		{"x: the same long clause; b: c; x: the same long clause", "x: the same long clause"},
		// Texts that say each thing once, lists among them.
		{"invalid request: page_url: must be at most 2048 characters; page_url: must be an absolute http or https URL", ""},
		{"title must not be empty; description must not be empty", ""},
		{"the URL could not be fetched: the host name could not be resolved", ""},
		{"jobs: invalid configuration: TTL must not be negative\njobs: invalid configuration: Workers must not be negative", ""},
		{"NOT_FOUND: tweet 1 not found: x-api-v2: Could not find tweet with ids: [1].", ""},
	}
	for _, tt := range tests {
		if got := testutil.RepeatedClause(tt.text); got != tt.want {
			t.Errorf("RepeatedClause(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestInternalAndGoNames(t *testing.T) {
	for _, text := range []string{"llmjson: the answer", "safehttp: redirect", "see internal/upstream", "upstream: failed"} {
		if testutil.InternalName(text) == "" {
			t.Errorf("InternalName(%q) found nothing", text)
		}
	}
	for _, text := range []string{"cannot unmarshal string into Go value of type int", "*url.Error", "type []json.RawMessage", "%!v(MISSING)"} {
		if testutil.GoName(text) == "" {
			t.Errorf("GoName(%q) found nothing", text)
		}
	}
	for _, text := range []string{"resolver: lookup x", "the MX lookup failed: resolver: lookup x"} {
		if testutil.PackagePrefix(text) != "resolver: " {
			t.Errorf("PackagePrefix(%q) = %q", text, testutil.PackagePrefix(text))
		}
	}
	for _, text := range []string{"the upstream provider failed", "must be a domain name like example.com", "e.g. Use this", "email: is required", "the llm answered"} {
		if n := testutil.InternalName(text) + testutil.GoName(text) + testutil.PackagePrefix(text); n != "" {
			t.Errorf("%q: found %q", text, n)
		}
	}
}

func TestErrorTextProblems(t *testing.T) {
	tests := []struct {
		text   string
		reader testutil.Reader
		want   int
	}{
		{"NOT_FOUND: tweet 1 not found: NOT_FOUND: x-api-v2: no such tweet", testutil.GoCaller, 1},
		{"NOT_FOUND: tweet 1 not found: x-api-v2: no such tweet", testutil.GoCaller, 0},
		{"tweet 1 not found", testutil.HTTPCaller, 0},
		{"NOT_FOUND: tweet 1 not found", testutil.HTTPCaller, 1},
		{"the MX lookup failed: resolver: lookup x. MX: timeout", testutil.HTTPCaller, 1},
		{"the MX lookup failed: resolver: lookup x. MX: timeout", testutil.GoCaller, 0},
		{"UPSTREAM_ERROR: llmjson: the answer broke the contract: the answer broke the contract", testutil.GoCaller, 2},
		{"UPSTREAM_TIMEOUT: the model did not answer in time: context deadline exceeded\nPost \"x\": EOF", testutil.GoCaller, 1},
		{"jobs: invalid configuration: TTL must not be negative\njobs: invalid configuration: Workers must not be negative", testutil.GoCaller, 0},
	}
	for _, tt := range tests {
		if got := testutil.ErrorTextProblems(tt.text, tt.reader); len(got) != tt.want {
			t.Errorf("ErrorTextProblems(%q, %d) = %q, want %d problems", tt.text, tt.reader, got, tt.want)
		}
	}
}
