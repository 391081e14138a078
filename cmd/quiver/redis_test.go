package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/internal/llmcache"
	"github.com/quiverkit/quiver/internal/redistest"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/secret"
)

// Two quiver processes configured with one QUIVER_REDIS_URL enforce one
// limit between them.
func TestRedisURLSharesTheLimit(t *testing.T) {
	t.Cleanup(func() { checkLeaks(t) })
	rs := redistest.Start(t)
	env := map[string]string{"QUIVER_REDIS_URL": "redis://" + rs.Addr + "/0", "QUIVER_BURST": "3", "QUIVER_RATE_LIMIT": "0.01"}
	a := startServer(t, nil, env)
	b := startServer(t, nil, env)

	client := &http.Client{Transport: &http.Transport{}, Timeout: 5 * time.Second}
	defer client.CloseIdleConnections()
	post := func(base string) int {
		req, _ := http.NewRequest("POST", base+"/v1/dev/data/base64/encode", strings.NewReader(`{"value":"x"}`))
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "test")
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	var got []int
	for _, s := range []*server{a, b, a, b, a} {
		got = append(got, post(s.base))
	}
	want := []int{200, 200, 200, 429, 429}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("statuses across the two instances = %v, want %v", got, want)
		}
	}
	for _, s := range []*server{a, b} {
		if err := s.stop(t, 5*time.Second); err != nil {
			t.Error(err)
		}
	}
}

// With -llm-cache-ttl, the configured model answers identical requests
// from Redis.
func TestLLMCacheWraps(t *testing.T) {
	rs := redistest.Start(t)
	var calls atomic.Int64
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"answer %d"},"finish_reason":"stop"}]}`, n)
	}))
	defer provider.Close()
	model, err := openai.New(openai.WithToken("t"), openai.WithBaseURL(provider.URL), openai.WithModel("m"))
	if err != nil {
		t.Fatal(err)
	}

	rc := &redisConfig{url: secret.String("redis://" + rs.Addr), timeout: time.Second, prefix: "test:", llmTTL: time.Minute}
	cfg := &httpapi.Config{RatePerSecond: -1}
	logger := slog.New(slog.DiscardHandler)
	if err := rc.connect(t.Context(), logger); err != nil {
		t.Fatal(err)
	}
	defer rc.close()
	if err := rc.install(cfg, logger); err != nil {
		t.Fatal(err)
	}
	lc, err := rc.cacheLLM(llm.Config{Model: model, Name: "m"}, logger)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		// As llmjson.Ask does: an answer is stored once accepted.
		ctx, held := llmcache.Hold(t.Context())
		got, err := llms.GenerateFromSinglePrompt(ctx, lc.Model, "same question")
		if err != nil {
			t.Fatal(err)
		}
		held.Accept(ctx)
		if got != "answer 1" {
			t.Errorf("answer = %q, want the first one, cached", got)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("provider called %d times, want 1", n)
	}
	if cfg.Limiter != nil {
		t.Error("a Redis limiter was set though the rate limit is disabled")
	}
}

// A malformed -redis-url is a usage error that does not repeat the
// password it carries.
func TestRedisURLErrorHidesPassword(t *testing.T) {
	for _, u := range []string{
		"redis://:hunter2@ho st:6379/0",
		"redis://user:hunter2@[::1:6379/0",
		"redis://:hunter2%zz@host:6379/0",
	} {
		rc := &redisConfig{url: secret.String(u)}
		err := rc.connect(t.Context(), slog.New(slog.DiscardHandler))
		var ue usageError
		if !errors.As(err, &ue) {
			t.Fatalf("connect(%q) = %v, want a usage error", u, err)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("connect(%q) = %q, which repeats the password", u, err)
		}
	}
}

// The start-up warnings about what the bulk jobs need of Redis: a
// maxmemory and the noeviction policy, read with CONFIG GET, or with
// INFO when CONFIG is refused, as managed Redis services do.
func TestRedisMemoryWarnings(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"no maxmemory", nil, []string{"no maxmemory"}},
		{"noeviction", []string{"--maxmemory", "64mb", "--maxmemory-policy", "noeviction"}, nil},
		{"evicting", []string{"--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru"}, []string{"allkeys-lru"}},
		{"CONFIG refused", []string{"--rename-command", "CONFIG", "", "--maxmemory", "64mb", "--maxmemory-policy", "volatile-lru"}, []string{"volatile-lru"}},
		{"CONFIG refused, no maxmemory", []string{"--rename-command", "CONFIG", ""}, []string{"no maxmemory"}},
	} {
		srv := redistest.Start(t, tc.args...)
		c := redis.NewClient(&redis.Options{Addr: srv.Addr})
		got := redisMemoryWarnings(context.Background(), c, 2*time.Second)
		c.Close()
		if len(got) != len(tc.want) {
			t.Errorf("%s: warnings %q, want %d naming %q", tc.name, got, len(tc.want), tc.want)
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) || !strings.Contains(got[i], "noeviction") {
				t.Errorf("%s: warning %q, want it to name %q and noeviction", tc.name, got[i], w)
			}
		}
	}
}
