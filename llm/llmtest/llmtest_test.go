package llmtest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/tmc/langchaingo/llms"
)

// TestRecordsRequests drives each server with its real langchaingo client
// and checks what the server recorded and answered.
func TestRecordsRequests(t *testing.T) {
	for _, p := range []llmtest.Protocol{llmtest.OpenAI, llmtest.Anthropic, llmtest.Ollama} {
		t.Run(string(p), func(t *testing.T) {
			s := llmtest.Start(t, p, llmtest.Reply{Content: "hello back", PromptTokens: 11, CompletionTokens: 3})
			m := s.ModelT(t, "some-model")
			resp, err := m.GenerateContent(context.Background(), []llms.MessageContent{
				llms.TextParts(llms.ChatMessageTypeSystem, "be brief"),
				llms.TextParts(llms.ChatMessageTypeHuman, "hello"),
			}, llms.WithJSONMode(), llms.WithMaxTokens(64))
			if err != nil {
				t.Fatal(err)
			}
			if got := resp.Choices[0].Content; got != "hello back" {
				t.Errorf("content = %q", got)
			}
			reqs := s.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			r := reqs[0]
			want := []llmtest.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "hello"}}
			if len(r.Messages) != 2 || r.Messages[0] != want[0] || r.Messages[1] != want[1] {
				t.Errorf("messages = %+v, want %+v", r.Messages, want)
			}
			if r.Model != "some-model" || r.MaxTokens != 64 {
				t.Errorf("model %q, max tokens %d", r.Model, r.MaxTokens)
			}
			if r.JSONMode != (p != llmtest.Anthropic) {
				t.Errorf("JSON mode = %v", r.JSONMode)
			}
			if s.Pending() != 0 {
				t.Errorf("pending = %d", s.Pending())
			}
		})
	}
}

func TestErrorsAndDelays(t *testing.T) {
	s := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "3", Message: "slow"})
	resp, err := http.Post(s.BaseURL()+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
		t.Errorf("status %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}

	s.Push(llmtest.Reply{Content: "late", Delay: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.BaseURL()+"/chat/completions", strings.NewReader(`{"model":"m"}`))
	start := time.Now()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Error("a delayed reply arrived before the client's deadline")
	}
	if time.Since(start) > 2*time.Second {
		t.Error("the delay did not end with the client")
	}

	resp, err = http.Post(s.URL+"/v1/embeddings", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown endpoint: status %d, want 404", resp.StatusCode)
	}
}

// TestErrReportsScriptProblems checks that what a test could not see from
// the client (a call beyond the script, a body that is not JSON) is
// answered with an error status and reported by Err.
func TestErrReportsScriptProblems(t *testing.T) {
	s, err := llmtest.New(llmtest.OpenAI)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Err(); err != nil {
		t.Fatalf("fresh server: Err = %v", err)
	}
	for _, body := range []string{`{"model":"m","messages":[]}`, `not json`} {
		resp, err := http.Post(s.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("body %q: status %d, want an error status", body, resp.StatusCode)
		}
	}
	err = s.Err()
	if err == nil || !strings.Contains(err.Error(), "unscripted call 1") || !strings.Contains(err.Error(), "decode body") {
		t.Errorf("Err = %v, want the unscripted call and the bad body", err)
	}
}

// A protocol the package does not speak is an error, not a server that
// answers 404.
func TestUnknownProtocol(t *testing.T) {
	s, err := llmtest.New("grpc")
	if err == nil || s != nil {
		if s != nil {
			s.Close()
		}
		t.Fatalf("New(grpc) = %v, %v; want no server and an error", s, err)
	}
	if !strings.Contains(err.Error(), `"grpc"`) {
		t.Errorf("error %q does not name the protocol", err)
	}
}

// Start fails the test when the server cannot start; when the test ends
// it closes the server and fails the test on the server's Err.
func TestStart(t *testing.T) {
	bad := &testutil.FakeTB{}
	if bad.Run(func(tb testing.TB) { llmtest.Start(tb, "grpc") }) {
		t.Error("Start returned for a protocol it does not speak")
	}
	if len(bad.Failures()) != 1 || bad.Cleanups() != 0 {
		t.Errorf("unknown protocol: failures %q, %d cleanups; want one failure and no cleanup", bad.Failures(), bad.Cleanups())
	}

	for _, calls := range []int{1, 2} {
		tb := &testutil.FakeTB{}
		var s *llmtest.Server
		var m llms.Model
		tb.Run(func(tb testing.TB) {
			s = llmtest.Start(tb, llmtest.OpenAI, llmtest.Reply{Content: "one"})
			m = s.ModelT(tb, "gpt-4o-mini")
		})
		if len(tb.Failures()) != 0 || tb.Cleanups() != 1 {
			t.Fatalf("failures %q, %d cleanups; want none and one", tb.Failures(), tb.Cleanups())
		}
		for range calls {
			llms.GenerateFromSinglePrompt(context.Background(), m, "hi")
		}
		tb.RunCleanups()
		// One call is the script; a second is beyond it, and fails the test.
		if got := len(tb.Failures()); got != calls-1 {
			t.Errorf("%d calls: failures %q at cleanup, want %d", calls, tb.Failures(), calls-1)
		}
		if _, err := llms.GenerateFromSinglePrompt(context.Background(), m, "hi"); err == nil {
			t.Errorf("%d calls: the server answered after the test's cleanup", calls)
		}
	}
}

func TestCloseStopsListening(t *testing.T) {
	s, err := llmtest.New(llmtest.Ollama, llmtest.Reply{Content: "never sent"})
	if err != nil {
		t.Fatal(err)
	}
	m := s.ModelT(t, "llama3.2")
	s.Close()
	if _, err := llms.GenerateFromSinglePrompt(context.Background(), m, "hi"); err == nil {
		t.Error("a closed server answered")
	}
	if s.Pending() != 1 {
		t.Errorf("pending = %d, want the reply unused", s.Pending())
	}
}
