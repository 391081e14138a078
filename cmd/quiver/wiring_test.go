package main

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/redistest"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
)

// The services are wired to the operations pieces: the shared DNS
// cache's hits and misses and the providers' calls are in /metrics, and
// with -upstream-cache-ttl an identical provider request is answered from
// Redis, not counted as an upstream call; the language model's calls
// are counted too.
func TestServicesFeedMetricsAndCache(t *testing.T) {
	t.Cleanup(func() { checkLeaks(t) })
	rs := redistest.Start(t)
	dns := resolvertest.Start(t, resolvertest.Config{Zone: cliZone})
	mb := microblogtest.StartTwitterAPIIO(t, "key")
	llm := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"variants":[{"headline":"Remote work that works","angle":"how-to","predicted_ctr_score":0.4},` +
		`{"headline":"Five habits of remote teams","angle":"listicle","predicted_ctr_score":0.6},` +
		`{"headline":"Why your remote team is slow","angle":"question","predicted_ctr_score":0.5}]}`,
		PromptTokens: 120, CompletionTokens: 60})
	s := startServer(t, nil, map[string]string{
		"QUIVER_METRICS":            "true",
		"QUIVER_RATE_LIMIT":         "-1",
		"QUIVER_DNS_SERVERS":        dns.Addr,
		"QUIVER_MICROBLOG_PROVIDER": "twitterapi",
		"QUIVER_MICROBLOG_API_KEY":  "key",
		"QUIVER_MICROBLOG_BASE_URL": mb.URL,
		"QUIVER_REDIS_URL":          "redis://" + rs.Addr + "/0",
		"QUIVER_UPSTREAM_CACHE_TTL": "1m",
		"QUIVER_LLM_PROVIDER":       "openai",
		"QUIVER_LLM_MODEL":          "gpt-4o-mini",
		"QUIVER_LLM_BASE_URL":       llm.BaseURL(),
		"QUIVER_LLM_API_KEY":        llmtest.TestKey,
	})
	client := &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}
	defer client.CloseIdleConnections()
	call := func(method, path, body string) {
		t.Helper()
		req, _ := http.NewRequest(method, s.base+path, strings.NewReader(body))
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "test")
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: status %d: %s", method, path, res.StatusCode, b)
		}
	}
	for range 2 {
		call("POST", "/v1/utility/email/validate", `{"email":"ana@mx.test"}`)
		call("GET", "/v1/microblog/profile?username="+microblogtest.Username, "")
	}
	call("POST", "/v1/content/headlines", `{"topic":"remote work","count":3}`)
	_, metrics := get(t, s.base+"/metrics")
	value := func(series string) float64 {
		t.Helper()
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(metrics)
		if m == nil {
			t.Fatalf("no series %s in:\n%s", series, metrics)
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	if h, m := value("quiver_dns_cache_hits_total"), value("quiver_dns_cache_misses_total"); h < 1 || m < 1 {
		t.Errorf("DNS cache hits %v, misses %v: want both fed (the second validation is a hit)", h, m)
	}
	if n := value(`quiver_upstream_requests_total{outcome="ok",provider="twitterapi"}`); n != 1 {
		t.Errorf("upstream calls = %v, want 1: the second is answered from Redis", n)
	}
	if n := value(`quiver_upstream_requests_total{outcome="ok",provider="openai"}`); n != 1 {
		t.Errorf("LLM calls = %v, want 1", n)
	}
	if n := value(`quiver_llm_tokens_total{kind="prompt",model="gpt-4o-mini"}`); n != 120 {
		t.Errorf("prompt tokens = %v, want 120", n)
	}
	if n := len(mb.Requests()); n != 1 {
		t.Errorf("the provider got %d requests, want 1: %v", n, mb.Requests())
	}
	if err := s.stop(t, 5*time.Second); err != nil {
		t.Fatal(err)
	}
}
