package llmjson_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/llmjson"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
)

type colors struct {
	Colors []string `json:"colors"`
}

func wantThree(c *colors) []string {
	if len(c.Colors) != 3 {
		return []string{fmt.Sprintf("colors must hold exactly 3 items, not %d", len(c.Colors))}
	}
	return nil
}

var protocols = []llmtest.Protocol{llmtest.OpenAI, llmtest.Anthropic, llmtest.Ollama}

// model names with a known price for each protocol, so that cost is
// exercised; Ollama models are local and free.
var modelOf = map[llmtest.Protocol]string{
	llmtest.OpenAI:    "gpt-4o-mini",
	llmtest.Anthropic: "claude-3-5-haiku-latest",
	llmtest.Ollama:    "llama3.2",
}

// client returns the settings that llm.Config{Model: a client of s, Name:
// the protocol's model} gives, as the public packages build them.
func client(t *testing.T, s *llmtest.Server) *llmjson.Settings {
	name := modelOf[s.Protocol()]
	c := llm.Config{Model: s.ModelT(t, name), Name: name}
	return &llmjson.Settings{Model: c.Model, Name: c.ModelName(), Cost: c.PriceTable().Cost,
		Timeout: c.Timeout, Attempts: c.Attempts(), DisableJSONMode: c.DisableJSONMode}
}

func ask(t *testing.T, c *llmjson.Settings) (colors, llmjson.Usage, error) {
	return llmjson.Ask(context.Background(), *c, llmjson.Request{
		System: "Answer with a JSON object {\"colors\": [3 strings]}.",
		Prompt: "Name three colors.",
	}, wantThree)
}

func cost(p llmtest.Protocol, in, out int) float64 {
	return llm.DefaultPrices().Cost(modelOf[p], in, out)
}

func approx(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestAskWithRealClients(t *testing.T) {
	good := `{"colors":["red","green","blue"]}`
	for _, p := range protocols {
		t.Run(string(p), func(t *testing.T) {
			t.Run("good answer", func(t *testing.T) {
				s := llmtest.Start(t, p, llmtest.Reply{Content: good, PromptTokens: 120, CompletionTokens: 15})
				got, ai, err := ask(t, client(t, s))
				if err != nil {
					t.Fatalf("Ask: %v", err)
				}
				if diff := cmp.Diff(colors{[]string{"red", "green", "blue"}}, got); diff != "" {
					t.Errorf("result (-want +got):\n%s", diff)
				}
				want := llmjson.Usage{Model: modelOf[p], PromptTokens: 120, CompletionTokens: 15, CostUSD: cost(p, 120, 15)}
				if ai != want {
					t.Errorf("usage = %+v, want %+v", ai, want)
				}
				reqs := s.Requests()
				if len(reqs) != 1 {
					t.Fatalf("%d requests, want 1", len(reqs))
				}
				r := reqs[0]
				if r.Model != modelOf[p] {
					t.Errorf("model sent = %q", r.Model)
				}
				if wantJSON := p != llmtest.Anthropic; r.JSONMode != wantJSON {
					t.Errorf("JSON mode = %v, want %v", r.JSONMode, wantJSON)
				}
				if len(r.Messages) != 2 || r.Messages[0].Role != "system" || r.Messages[1].Content != "Name three colors." {
					t.Errorf("messages = %+v", r.Messages)
				}
			})

			t.Run("malformed JSON fixed by the retry", func(t *testing.T) {
				s := llmtest.Start(t, p, llmtest.Reply{Content: `{"colors":["red","green",`, PromptTokens: 100, CompletionTokens: 10}, llmtest.Reply{Content: good, PromptTokens: 150, CompletionTokens: 12})
				got, ai, err := ask(t, client(t, s))
				if err != nil {
					t.Fatalf("Ask: %v", err)
				}
				if len(got.Colors) != 3 {
					t.Errorf("colors = %v", got.Colors)
				}
				if ai.PromptTokens != 250 || ai.CompletionTokens != 22 || !approx(ai.CostUSD, cost(p, 250, 22)) {
					t.Errorf("usage = %+v, want 250/22 summed over both attempts", ai)
				}
				retry := s.Requests()[1].Messages
				last := retry[len(retry)-1]
				if last.Role != "user" || !strings.Contains(last.Content, "not valid JSON") {
					t.Errorf("retry message = %+v, want the parse problem shown", last)
				}
				if prev := retry[len(retry)-2]; prev.Role != "assistant" || prev.Content != `{"colors":["red","green",` {
					t.Errorf("retry does not show the previous answer: %+v", prev)
				}
			})

			t.Run("wrong count fixed by the retry", func(t *testing.T) {
				s := llmtest.Start(t, p, llmtest.Reply{Content: `{"colors":["red"]}`, PromptTokens: 10, CompletionTokens: 5}, llmtest.Reply{Content: good, PromptTokens: 20, CompletionTokens: 7})
				got, ai, err := ask(t, client(t, s))
				if err != nil {
					t.Fatalf("Ask: %v", err)
				}
				if len(got.Colors) != 3 || ai.PromptTokens != 30 || ai.CompletionTokens != 12 {
					t.Errorf("got %v, usage %+v", got, ai)
				}
				retry := s.Requests()[1].Messages
				if !strings.Contains(retry[len(retry)-1].Content, "colors must hold exactly 3 items, not 1") {
					t.Errorf("retry message does not show the violation: %q", retry[len(retry)-1].Content)
				}
			})

			t.Run("wrong count not fixed", func(t *testing.T) {
				s := llmtest.Start(t, p, llmtest.Reply{Content: `{"colors":["red"]}`, PromptTokens: 10, CompletionTokens: 5}, llmtest.Reply{Content: `{"colors":["red","blue"]}`, PromptTokens: 20, CompletionTokens: 7})
				_, ai, err := ask(t, client(t, s))
				var e *envelope.Error
				if !errors.As(err, &e) || e.Code != envelope.CodeUpstreamError {
					t.Fatalf("err = %v, want UPSTREAM_ERROR", err)
				}
				var ce *llmjson.ContractError
				if !errors.As(err, &ce) || ce.Attempts != 2 || len(ce.Violations) != 1 || !strings.Contains(ce.Violations[0], "not 2") {
					t.Errorf("cause = %#v, want the last answer's violation", ce)
				}
				if ai.PromptTokens != 30 || ai.CompletionTokens != 12 || ai.Model != modelOf[p] {
					t.Errorf("usage of a failed call = %+v, want both attempts counted", ai)
				}
				if n := len(s.Requests()); n != 2 {
					t.Errorf("%d calls, want 2", n)
				}
			})

			t.Run("provider 429", func(t *testing.T) {
				s := llmtest.Start(t, p, llmtest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "17", Message: "slow down"})
				_, _, err := ask(t, client(t, s))
				e := envelope.From(err)
				if e.Code != envelope.CodeRateLimitExceeded || e.RetryAfter != 17*time.Second {
					t.Errorf("err = %v (retry after %v), want RATE_LIMIT_EXCEEDED after 17s", err, e.RetryAfter)
				}
				if s.Pending() != 0 || len(s.Requests()) != 1 {
					t.Errorf("a provider failure must not be retried: %d calls", len(s.Requests()))
				}
			})

			t.Run("provider 500", func(t *testing.T) {
				s := llmtest.Start(t, p, llmtest.Reply{Status: http.StatusInternalServerError, Message: "boom"})
				_, _, err := ask(t, client(t, s))
				if e := envelope.From(err); e.Code != envelope.CodeUpstreamError || !strings.Contains(e.Message, "500") {
					t.Errorf("err = %v, want UPSTREAM_ERROR naming HTTP 500", err)
				}
			})

			t.Run("timeout", func(t *testing.T) {
				s := llmtest.Start(t, p, llmtest.Reply{Content: good, Delay: 5 * time.Second})
				c := client(t, s)
				c.Timeout = 50 * time.Millisecond
				start := time.Now()
				_, _, err := ask(t, c)
				if e := envelope.From(err); e.Code != envelope.CodeUpstreamTimeout {
					t.Errorf("err = %v, want UPSTREAM_TIMEOUT", err)
				}
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("err = %v does not wrap context.DeadlineExceeded", err)
				}
				// One line, saying the timeout once more at most: the
				// client's own words.
				if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "context deadline exceeded\n") {
					t.Errorf("err = %q: not one line", err)
				}
				if d := time.Since(start); d > 2*time.Second {
					t.Errorf("took %v: the timeout was not honoured", d)
				}
			})
		})
	}
}

func TestAskHonoursCancellation(t *testing.T) {
	s := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"colors":["a","b","c"]}`, Delay: 5 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	_, _, err := llmjson.Ask(ctx, *client(t, s), llmjson.Request{Prompt: "x"}, wantThree)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want it to wrap context.Canceled", err)
	}
	if e := envelope.From(err); e.Code == envelope.CodeInternal {
		t.Errorf("cancellation classified as %s", e.Code)
	}
}

func TestAskCallerDeadline(t *testing.T) {
	s := llmtest.Start(t, llmtest.Ollama, llmtest.Reply{Content: `{"colors":["a","b","c"]}`, Delay: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, _, err := llmjson.Ask(ctx, *client(t, s), llmjson.Request{Prompt: "x"}, wantThree)
	if e := envelope.From(err); e.Code != envelope.CodeUpstreamTimeout {
		t.Errorf("err = %v, want UPSTREAM_TIMEOUT", err)
	}
}

func TestAskProviderUnreachable(t *testing.T) {
	for _, p := range protocols {
		s := llmtest.Start(t, p)
		c := client(t, s)
		s.Close() // nothing listens any more
		_, _, err := ask(t, c)
		if e := envelope.From(err); e.Code != envelope.CodeUpstreamError || !strings.Contains(e.Message, "could not be reached") {
			t.Errorf("%s: err = %v, want UPSTREAM_ERROR saying the provider could not be reached", p, err)
		}
	}
}

func TestAskWithoutModel(t *testing.T) {
	_, _, err := llmjson.Ask(context.Background(), llmjson.Settings{}, llmjson.Request{}, wantThree)
	if e := envelope.From(err); e.Code != envelope.CodeServiceUnavailable {
		t.Errorf("err = %v, want SERVICE_UNAVAILABLE", err)
	}
}

func TestAskStrictDecoding(t *testing.T) {
	good := `{"colors":["red","green","blue"]}`
	tests := []struct {
		name, answer string
		ok           bool
		violation    string
	}{
		{"plain", good, true, ""},
		{"surrounding space", "\n  " + good + "\n", true, ""},
		{"json fence", "```json\n" + good + "\n```", true, ""},
		{"bare fence", "```\n" + good + "\n```", true, ""},
		{"other language fence", "```yaml\n" + good + "\n```", false, "not valid JSON"},
		{"unknown field", `{"colors":["a","b","c"],"extra":1}`, false, `unknown field "extra"`},
		{"wrong type", `{"colors":"red"}`, false, `field "colors"`},
		{"two values", good + good, false, "exactly one JSON object"},
		{"prose after", good + " Hope this helps!", false, "exactly one JSON object"},
		{"prose before", "Sure! " + good, false, "not valid JSON"},
		{"empty", "  ", false, "empty"},
		{"truncated", `{"colors":["red"`, false, "ends too early"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Both attempts give the same answer: a bad one fails twice.
			s := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: tt.answer}, llmtest.Reply{Content: tt.answer})
			got, _, err := ask(t, client(t, s))
			if tt.ok {
				if err != nil || len(got.Colors) != 3 {
					t.Fatalf("Ask = %v, %v; want the decoded value", got, err)
				}
				return
			}
			var ce *llmjson.ContractError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a ContractError", err)
			}
			if !strings.Contains(strings.Join(ce.Violations, " | "), tt.violation) {
				t.Errorf("violations = %q, want one mentioning %q", ce.Violations, tt.violation)
			}
		})
	}
}

// TestAskBoundsEveryAnswer: a request without MaxTokens is still bounded,
// so that no answer's size is whatever the provider allows.
func TestAskBoundsEveryAnswer(t *testing.T) {
	s := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"colors":["a","b","c"]}`})
	if _, _, err := ask(t, client(t, s)); err != nil {
		t.Fatal(err)
	}
	if got := s.Requests()[0].MaxTokens; got != llmjson.MaxTokens(0) || got <= 0 {
		t.Errorf("max tokens %d, want %d", got, llmjson.MaxTokens(0))
	}
}

func TestAskMaxAttempts(t *testing.T) {
	bad := llmtest.Reply{Content: `{"colors":[]}`, PromptTokens: 1, CompletionTokens: 1}
	s := llmtest.Start(t, llmtest.OpenAI, bad, bad, bad)
	c := client(t, s)
	c.Attempts = 3
	_, ai, err := ask(t, c)
	if err == nil || ai.PromptTokens != 3 || len(s.Requests()) != 3 {
		t.Errorf("err = %v, usage %+v, %d calls; want 3 failed attempts", err, ai, len(s.Requests()))
	}
}

// TestContractErrorSaysItsCauseOnce: the error of answers that broke the
// contract says so once, with the attempts once, and names no internal
// package; errors.As still finds the ContractError and the code.
func TestContractErrorSaysItsCauseOnce(t *testing.T) {
	bad := llmtest.Reply{Content: `{"colors":[]}`}
	_, _, err := ask(t, client(t, llmtest.Start(t, llmtest.OpenAI, bad, bad)))
	want := "UPSTREAM_ERROR: the language model's answer did not meet the contract after 2 attempts: colors must hold exactly 3 items, not 0"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\n\twant %s", err, want)
	}
	var ce *llmjson.ContractError
	if !errors.As(err, &ce) || ce.Attempts != 2 || !errors.Is(err, &envelope.Error{Code: envelope.CodeUpstreamError}) {
		t.Errorf("err = %#v: not an UPSTREAM_ERROR wrapping a ContractError of 2 attempts", err)
	}
}

func TestAskNoJSONMode(t *testing.T) {
	s := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"colors":["a","b","c"]}`})
	c := client(t, s)
	c.DisableJSONMode = true
	if _, _, err := ask(t, c); err != nil {
		t.Fatal(err)
	}
	if s.Requests()[0].JSONMode {
		t.Error("JSON mode requested despite NoJSONMode")
	}
}

func TestUsageOf(t *testing.T) {
	tests := []struct {
		name string
		info map[string]any
		want llmjson.Usage
	}{
		{"openai and ollama", map[string]any{"PromptTokens": 12, "CompletionTokens": 34, "TotalTokens": 46}, llmjson.Usage{PromptTokens: 12, CompletionTokens: 34}},
		{"anthropic", map[string]any{"InputTokens": 7, "OutputTokens": 9}, llmjson.Usage{PromptTokens: 7, CompletionTokens: 9}},
		{"googleai int32", map[string]any{"PromptTokens": int32(5), "CompletionTokens": int32(6)}, llmjson.Usage{PromptTokens: 5, CompletionTokens: 6}},
		{"floats", map[string]any{"PromptTokens": 5.0, "CompletionTokens": float32(6)}, llmjson.Usage{PromptTokens: 5, CompletionTokens: 6}},
		{"missing", nil, llmjson.Usage{}},
		{"wrong types", map[string]any{"PromptTokens": "5"}, llmjson.Usage{}},
	}
	for _, tt := range tests {
		if got := llmjson.UsageOf(tt.info); got != tt.want {
			t.Errorf("%s: UsageOf = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestAskBoundsViolationsShown(t *testing.T) {
	s := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"colors":[]}`}, llmtest.Reply{Content: `{"colors":[]}`})
	many := func(*colors) []string {
		v := make([]string, 50)
		for i := range v {
			v[i] = fmt.Sprintf("rule %d broken", i)
		}
		return v
	}
	_, _, err := llmjson.Ask(context.Background(), *client(t, s), llmjson.Request{Prompt: "x"}, many)
	var ce *llmjson.ContractError
	if !errors.As(err, &ce) || len(ce.Violations) != 21 || ce.Violations[20] != "... and 30 more problems" {
		t.Fatalf("err = %v", err)
	}
	retry := s.Requests()[1].Messages
	if last := retry[len(retry)-1].Content; strings.Contains(last, "rule 20 broken") || !strings.Contains(last, "rule 19 broken") {
		t.Errorf("retry prompt not bounded to 20 violations:\n%s", last)
	}
}
