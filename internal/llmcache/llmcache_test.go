package llmcache_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	"go.uber.org/goleak"

	"github.com/quiverkit/quiver/internal/llmcache"
	"github.com/quiverkit/quiver/internal/llmjson"
	"github.com/quiverkit/quiver/internal/redistest"
	"github.com/quiverkit/quiver/llm"
)

// provider is a loopback server speaking OpenAI's chat completions
// protocol; each answer is numbered, so that a cached one is recognised.
type provider struct {
	*httptest.Server
	calls atomic.Int64
}

func newProvider(t *testing.T) *provider {
	return newScriptedProvider(t)
}

// newScriptedProvider is a provider whose n-th answer is contents[n-1]
// (the last one repeated), or "answer n" without contents.
func newScriptedProvider(t *testing.T, contents ...string) *provider {
	p := &provider{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/chat/completions" {
			http.NotFound(w, r)
			return
		}
		n := p.calls.Add(1)
		content := fmt.Sprintf("answer %d", n)
		if len(contents) > 0 {
			content = contents[min(int(n), len(contents))-1]
		}
		quoted, _ := json.Marshal(content)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c%d","object":"chat.completion","created":1,"model":"gpt-4o-mini",
			"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],
			"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, n, quoted)
	}))
	t.Cleanup(p.Close)
	return p
}

// instance is one Quiver instance's model: a real OpenAI client of the
// loopback provider, wrapped in a cache in the shared Redis.
func instance(t *testing.T, p *provider, redisAddr string, ttl time.Duration) llms.Model {
	t.Helper()
	// Only the test of a hung Redis measures the timeout; for the others,
	// a busy machine's scheduling must not make a miss.
	return instanceTimeout(t, p, redisAddr, ttl, 10*time.Second)
}

// instanceTimeout is instance with a Redis timeout.
func instanceTimeout(t *testing.T, p *provider, redisAddr string, ttl, timeout time.Duration) llms.Model {
	t.Helper()
	llm, err := openai.New(openai.WithToken("test"), openai.WithBaseURL(p.URL), openai.WithModel("gpt-4o-mini"))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: redisAddr, ContextTimeoutEnabled: true, MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	backend, err := llmcache.NewRedis(rdb, llmcache.Config{TTL: ttl, Namespace: "gpt-4o-mini", Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return llmcache.Wrap(llm, backend)
}

// ask asks m as a caller that checks the answers and accepts each.
func ask(t *testing.T, m llms.Model, prompt string) *llms.ContentChoice {
	t.Helper()
	ctx, held := llmcache.Hold(context.Background())
	res, err := m.GenerateContent(ctx, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, prompt)})
	if err != nil {
		t.Fatal(err)
	}
	held.Accept(ctx)
	return res.Choices[0]
}

func TestSharedAcrossInstances(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	srv := redistest.Start(t)
	p := newProvider(t)
	a, b := instance(t, p, srv.Addr, time.Minute), instance(t, p, srv.Addr, time.Minute)

	first := ask(t, a, "summarize this")
	if first.Content != "answer 1" || first.GenerationInfo["PromptTokens"] != 10 {
		t.Fatalf("first answer = %q %v", first.Content, first.GenerationInfo)
	}
	// The same request on the other instance is answered from Redis, and
	// reports no tokens: it cost nothing.
	again := ask(t, b, "summarize this")
	if again.Content != "answer 1" || again.StopReason != "stop" {
		t.Errorf("cached answer = %q (%q), want answer 1 (stop)", again.Content, again.StopReason)
	}
	if again.GenerationInfo["Cached"] != true || again.GenerationInfo["PromptTokens"] != nil {
		t.Errorf("cached answer's GenerationInfo = %v, want only Cached", again.GenerationInfo)
	}
	// Another request reaches the provider.
	if got := ask(t, b, "summarize that"); got.Content != "answer 2" {
		t.Errorf("another prompt = %q, want answer 2", got.Content)
	}
	if n := p.calls.Load(); n != 2 {
		t.Errorf("provider called %d times, want 2", n)
	}
}

// An answer is stored for the TTL, as Redis reports it: the test does
// not race a short TTL against a busy machine's clock. Once Redis has
// let it go, the model is asked again.
func TestExpires(t *testing.T) {
	srv := redistest.Start(t)
	p := newProvider(t)
	const ttl = time.Hour
	m := instance(t, p, srv.Addr, ttl)
	ask(t, m, "q")
	if got := ask(t, m, "q"); got.Content != "answer 1" {
		t.Fatalf("within the TTL: %q", got.Content)
	}
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	ctx := context.Background()
	keys, err := rdb.Keys(ctx, "quiver:llm:gpt-4o-mini:*").Result()
	if err != nil || len(keys) != 1 {
		t.Fatalf("keys = %q, %v; want the one answer", keys, err)
	}
	if left := rdb.PTTL(ctx, keys[0]).Val(); left <= ttl-time.Minute || left > ttl {
		t.Errorf("the answer expires in %v, want about %v", left, ttl)
	}
	rdb.Del(ctx, keys[0]) // as Redis does when the TTL is over
	if got := ask(t, m, "q"); got.Content != "answer 2" {
		t.Errorf("after the TTL: %q, want a new answer", got.Content)
	}
}

// Only the answers a caller accepts are stored: one it rejected, or got
// outside a Hold, is asked for again.
func TestStoresOnlyAccepted(t *testing.T) {
	srv := redistest.Start(t)
	p := newProvider(t)
	m := instance(t, p, srv.Addr, time.Minute)
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "q")}
	ctx, _ := llmcache.Hold(context.Background()) // never accepted
	if _, err := m.GenerateContent(ctx, msgs); err != nil {
		t.Fatal(err)
	}
	if _, err := m.GenerateContent(context.Background(), msgs); err != nil { // no Hold
		t.Fatal(err)
	}
	if got := ask(t, m, "q"); got.Content != "answer 3" {
		t.Errorf("after two answers not accepted: %q, want answer 3 from the model", got.Content)
	}
	if got := ask(t, m, "q"); got.Content != "answer 3" {
		t.Errorf("after an accepted answer: %q, want answer 3 from the cache", got.Content)
	}
}

type verdict struct {
	Verdict string `json:"verdict"`
}

// An answer that breaks llmjson.Ask's contract is never cached: when the
// model fails the contract twice, the next identical request asks it
// again rather than failing from the cache for the whole TTL. The
// accepted answer is stored for the request as first made.
func TestContractFailuresNotCached(t *testing.T) {
	srv := redistest.Start(t)
	p := newScriptedProvider(t, `{"verdict":""}`, `not json`, `{"verdict":"fine"}`)
	cfg := llmjson.Settings{Model: instance(t, p, srv.Addr, time.Minute), Attempts: llm.DefaultMaxAttempts}
	check := func(v *verdict) []string {
		if v.Verdict == "" {
			return []string{"verdict is required"}
		}
		return nil
	}
	req := llmjson.Request{System: "Judge.", Prompt: "the text"}
	if _, _, err := llmjson.Ask(context.Background(), cfg, req, check); err == nil {
		t.Fatal("two broken answers: no error")
	}
	for i := range 2 {
		got, _, err := llmjson.Ask(context.Background(), cfg, req, check)
		if err != nil || got.Verdict != "fine" {
			t.Fatalf("ask %d after the failure: %+v, %v; want the model's valid answer", i+2, got, err)
		}
	}
	if n := p.calls.Load(); n != 3 {
		t.Errorf("the model was asked %d times, want 3: twice for the failure, once for the answer then cached", n)
	}
}

// A Redis that hangs costs at most the timeout per call, and the model
// answers: the cache never fails a request.
func TestRedisHangsIsAMiss(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	srv := redistest.Start(t)
	p := newProvider(t)
	m := instanceTimeout(t, p, srv.Addr, time.Minute, llmcache.DefaultTimeout)
	ask(t, m, "q")

	srv.Pause(t)
	defer srv.Resume(t)
	start := time.Now()
	got := ask(t, m, "q")
	if took := time.Since(start); took > time.Second {
		t.Errorf("with Redis hung the call took %v; want about two timeouts (get and put)", took)
	}
	if got.Content != "answer 2" {
		t.Errorf("with Redis hung: %q, want the model's new answer", got.Content)
	}
}

func TestTTLRequired(t *testing.T) {
	if _, err := llmcache.NewRedis(nil, llmcache.Config{}); err == nil {
		t.Error("NewRedis without a TTL: no error")
	}
}
