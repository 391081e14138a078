package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms/openai"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/secret"
)

// TestREADMEModelKeepsRetryAfter builds the model client exactly as the
// "httpapi and httpapi/redislimit" of docs/packages.md does (the environment points
// it at a scripted OpenAI server on loopback that answers 429 with
// Retry-After: 7), and the route answers 429 RATE_LIMIT_EXCEEDED with
// Retry-After: 7. Issue 22: with the documented openai.New(...) client the
// Retry-After was lost, as only an internal HTTP client kept it.
func TestREADMEModelKeepsRetryAfter(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "7", Message: "rate limited"})
	t.Setenv("OPENAI_API_KEY", llmtest.TestKey)
	t.Setenv("OPENAI_BASE_URL", srv.BaseURL())

	// As docs/packages.md writes it.
	model, err := openai.New(openai.WithModel("gpt-4o-mini"), openai.WithHTTPClient(llm.HTTPClient()))
	if err != nil {
		t.Fatal(err)
	}
	gen, err := content.New(content.Config{LLM: llm.Config{Model: model, Name: "gpt-4o-mini", Timeout: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	api, err := httpapi.New(httpapi.Config{Keys: []secret.String{"k"}, Content: gen})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/quiver/", http.StripPrefix("/quiver", api))

	req := httptest.NewRequest(http.MethodPost, "/quiver/v1/content/headlines", strings.NewReader(`{"topic":"remote work","count":3}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "test")
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "7" || !strings.Contains(rec.Body.String(), "RATE_LIMIT_EXCEEDED") {
		t.Errorf("got %d, Retry-After %q: %s; want 429 RATE_LIMIT_EXCEEDED with Retry-After 7", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if err := srv.Err(); err != nil {
		t.Errorf("model server: %v", err)
	}
}
