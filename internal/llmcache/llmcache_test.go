package llmcache_test

import (
	"context"
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
	"github.com/quiverkit/quiver/internal/redistest"
)

// provider is a loopback server speaking OpenAI's chat completions
// protocol; each answer is numbered, so that a cached one is recognised.
type provider struct {
	*httptest.Server
	calls atomic.Int64
}

func newProvider(t *testing.T) *provider {
	p := &provider{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/chat/completions" {
			http.NotFound(w, r)
			return
		}
		n := p.calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c%d","object":"chat.completion","created":1,"model":"gpt-4o-mini",
			"choices":[{"index":0,"message":{"role":"assistant","content":"answer %d"},"finish_reason":"stop"}],
			"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, n, n)
	}))
	t.Cleanup(p.Close)
	return p
}

// instance is one Quiver instance's model: a real OpenAI client of the
// loopback provider, wrapped in a cache in the shared Redis.
func instance(t *testing.T, p *provider, redisAddr string, ttl time.Duration) llms.Model {
	t.Helper()
	llm, err := openai.New(openai.WithToken("test"), openai.WithBaseURL(p.URL), openai.WithModel("gpt-4o-mini"))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: redisAddr, ContextTimeoutEnabled: true, MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	backend, err := llmcache.NewRedis(rdb, llmcache.Config{TTL: ttl, Namespace: "gpt-4o-mini"})
	if err != nil {
		t.Fatal(err)
	}
	return llmcache.Wrap(llm, backend)
}

func ask(t *testing.T, m llms.Model, prompt string) *llms.ContentChoice {
	t.Helper()
	res, err := m.GenerateContent(context.Background(), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, prompt)})
	if err != nil {
		t.Fatal(err)
	}
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

func TestExpires(t *testing.T) {
	srv := redistest.Start(t)
	p := newProvider(t)
	m := instance(t, p, srv.Addr, 200*time.Millisecond)
	ask(t, m, "q")
	if got := ask(t, m, "q"); got.Content != "answer 1" {
		t.Fatalf("within the TTL: %q", got.Content)
	}
	time.Sleep(300 * time.Millisecond)
	if got := ask(t, m, "q"); got.Content != "answer 2" {
		t.Errorf("after the TTL: %q, want a new answer", got.Content)
	}
}

// A Redis that hangs costs at most the timeout per call, and the model
// answers: the cache never fails a request.
func TestRedisHangsIsAMiss(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	srv := redistest.Start(t)
	p := newProvider(t)
	m := instance(t, p, srv.Addr, time.Minute)
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
