package devutil_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
)

func readTrace(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "stacktraces", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func TestStacktraceAnalyzerEnriches(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"suggestion":"USERS has no entry for the request's user_id: check that load_user is only called after authentication sets it."}`, PromptTokens: 300, CompletionTokens: 40})
	a := newAnalyzer(t, llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"})
	res, ai, err := a.Analyze(context.Background(), devutil.StacktraceRequest{Stacktrace: readTrace(t, "python_keyerror.txt"), Framework: "flask"})
	if err != nil {
		t.Fatal(err)
	}
	want := analyze(t, devutil.StacktraceRequest{Stacktrace: readTrace(t, "python_keyerror.txt"), Framework: "flask"})
	if res.ErrorType != want.ErrorType || res.RootCause != want.RootCause || res.FixSuggestion != want.FixSuggestion || res.Confidence != want.Confidence {
		t.Errorf("the model changed deterministic fields: %+v", res)
	}
	if !strings.HasPrefix(res.AISuggestion, "USERS has no entry") || res.AINote != "" {
		t.Errorf("suggestion %q note %q", res.AISuggestion, res.AINote)
	}
	if ai.Model != "gpt-4o-mini" || ai.PromptTokens != 300 || ai.CompletionTokens != 40 {
		t.Errorf("ai %+v", ai)
	}
	prompt := srv.Requests()[0].Messages[1].Content
	for _, s := range []string{"Error type: KeyError", "load_user (/app/users.py:12) [application]", "Framework: flask"} {
		if !strings.Contains(prompt, s) {
			t.Errorf("prompt lacks %q:\n%s", s, prompt)
		}
	}
}

func TestStacktraceAnalyzerModelFailures(t *testing.T) {
	tests := []struct {
		name    string
		replies []llmtest.Reply
		llm     llm.Config
		note    string
	}{
		{"garbage", []llmtest.Reply{{Content: "I think you should check the key."}, {Content: `{"advice":"x"}`}}, llm.Config{}, "did not meet the contract"},
		{"timeout", []llmtest.Reply{{Content: `{"suggestion":"x"}`, Delay: 5 * time.Second}}, llm.Config{Timeout: 100 * time.Millisecond}, "no suggestion: the language model"},
		{"server error", []llmtest.Reply{{Status: 500}}, llm.Config{MaxAttempts: 1}, "no suggestion: the language model"},
		{"rate limit", []llmtest.Reply{{Status: 429, RetryAfter: "9"}}, llm.Config{MaxAttempts: 1}, "rate limit was exceeded; try again later (retry after 9s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.OpenAI, tt.replies...)
			res, _, err := newAnalyzer(t, withModel(tt.llm, srv.ModelT(t, "m"))).Analyze(context.Background(), devutil.StacktraceRequest{Stacktrace: readTrace(t, "go_nilmap.txt")})
			if err != nil {
				t.Fatal(err)
			}
			if res.ErrorType != "runtime error: assignment to entry in nil map" || res.AISuggestion != "" || !strings.Contains(res.AINote, tt.note) {
				t.Errorf("type %q suggestion %q note %q", res.ErrorType, res.AISuggestion, res.AINote)
			}
		})
	}
}

func TestStacktraceAnalyzerSkipsUnknown(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI) // any call fails the test
	res, ai, err := newAnalyzer(t, llm.Config{Model: srv.ModelT(t, "m")}).Analyze(context.Background(), devutil.StacktraceRequest{Stacktrace: "hello world"})
	if err != nil || res.ErrorType != "unknown" || ai.Model != "" || len(srv.Requests()) != 0 {
		t.Errorf("res %+v ai %+v err %v", res, ai, err)
	}
}

// TestStacktraceAnalyzerRejectsLinks checks that the rules the prompt
// sets (no code fences, no links) are enforced, not only asked for.
func TestStacktraceAnalyzerRejectsLinks(t *testing.T) {
	for _, bad := range []string{
		"See https://example.com/fix for the fix.",
		"Read www.example.com first.",
		"Do this:\n```go\nm := map[string]int{}\n```",
	} {
		const good = "Initialize the map in NewStore before the first write."
		srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"suggestion":` + strconv.Quote(bad) + `}`}, llmtest.Reply{Content: `{"suggestion":"` + good + `"}`})
		res, _, err := newAnalyzer(t, llm.Config{Model: srv.ModelT(t, "m")}).Analyze(context.Background(), devutil.StacktraceRequest{Stacktrace: readTrace(t, "go_nilmap.txt")})
		if err != nil || res.AISuggestion != good {
			t.Errorf("%q: suggestion %q, err %v; want the retry's", bad, res.AISuggestion, err)
			continue
		}
		if reqs := srv.Requests(); len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "without code fences or links") {
			t.Errorf("%q: the retry does not name the rule", bad)
		}
	}
}

// TestStacktraceAnalyzerCanceled checks that a request canceled while the
// model thinks fails with a classified error that still wraps
// context.Canceled, not a bare one that the HTTP layer reports as an
// internal error.
func TestStacktraceAnalyzerCanceled(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"suggestion":"x"}`, Delay: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	time.AfterFunc(100*time.Millisecond, cancel)
	_, _, err := newAnalyzer(t, llm.Config{Model: srv.ModelT(t, "m")}).Analyze(ctx, devutil.StacktraceRequest{Stacktrace: readTrace(t, "go_nilmap.txt")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if code := envelope.From(err).Code; code == envelope.CodeInternal {
		t.Errorf("code %s for a canceled request", code)
	}
}
