package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/tmc/langchaingo/llms/openai"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
)

// A Config wraps a langchaingo client. Here the client talks to a
// scripted OpenAI server on loopback; in a program it would be
// openai.New(openai.WithModel("gpt-4o-mini")). Name repeats the model
// the client calls, because the client does not report it.
func Example() {
	srv, err := llmtest.New(llmtest.OpenAI)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	model, err := srv.Model("gpt-4o-mini")
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := llm.Config{
		Model:   model,
		Name:    "gpt-4o-mini",
		Timeout: 30 * time.Second,
	}
	if err := cfg.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Enabled(), cfg.ModelName(), cfg.PriceKnown(), cfg.Attempts())
	// Output: true gpt-4o-mini true 2
}

func ExampleConfig_Enabled() {
	fmt.Println(llm.Config{}.Enabled())
	// Output: false
}

// Without Name, langchaingo's clients leave the model unknown, and so
// unpriced.
func ExampleConfig_ModelName() {
	srv, err := llmtest.New(llmtest.Ollama)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	model, _ := srv.Model("llama3.2")

	fmt.Println(llm.Config{Model: model}.ModelName())
	fmt.Println(llm.Config{Model: model, Name: "llama3.2"}.ModelName())
	// Output:
	// unknown
	// llama3.2
}

// PriceKnown tells a cost of 0 that means "free" from one that means
// "not priced": check it when the program starts.
func ExampleConfig_PriceKnown() {
	for _, cfg := range []llm.Config{
		{Name: "gpt-4o-mini"},
		{Name: "llama3.2"},
		{Name: "llama3.2", Prices: llm.Prices{"llama3.2": {}}},
	} {
		if !cfg.PriceKnown() {
			fmt.Printf("%s: no price, its calls will report a cost of 0\n", cfg.ModelName())
			continue
		}
		fmt.Printf("%s: priced\n", cfg.ModelName())
	}
	// Output:
	// gpt-4o-mini: priced
	// llama3.2: no price, its calls will report a cost of 0
	// llama3.2: priced
}

func ExampleConfig_PriceTable() {
	own := llm.Config{Prices: llm.Prices{"my-model": {Input: 1, Output: 2}}}
	fmt.Println(len(own.PriceTable()), own.PriceTable()["my-model"])
	fmt.Println(llm.Config{}.PriceTable()["gpt-4o-mini"])
	// Output:
	// 1 {1 2}
	// {0.15 0.6}
}

func ExampleConfig_Attempts() {
	fmt.Println(llm.Config{}.Attempts(), llm.Config{MaxAttempts: 4}.Attempts())
	// Output: 2 4
}

func ExampleConfig_Validate() {
	err := llm.Config{MaxAttempts: -1}.Validate()
	fmt.Println(errors.Is(err, llm.ErrInvalidConfig))
	fmt.Println(err)
	// Output:
	// true
	// llm: invalid configuration: MaxAttempts must be 0 (the default, 2) or positive, not -1
}

func ExamplePrices_Lookup() {
	prices := llm.Prices{"claude-3-5-haiku": {Input: 0.80, Output: 4.00}}
	p, ok := prices.Lookup("claude-3-5-haiku-20241022")
	fmt.Println(p.Input, p.Output, ok)
	_, ok = prices.Lookup("claude-3-5-sonnet")
	fmt.Println(ok)
	// Output:
	// 0.8 4 true
	// false
}

func ExamplePrices_Cost() {
	prices := llm.Prices{"gpt-4o-mini": {Input: 0.15, Output: 0.60}}
	cost := prices.Cost("gpt-4o-mini-2024-07-18", 2000, 500)
	fmt.Printf("$%.6f\n", cost)
	// Output: $0.000600
}

// DefaultPrices is a copy: change it to the prices you pay.
func ExampleDefaultPrices() {
	prices := llm.DefaultPrices()
	prices["gpt-4o-mini"] = llm.Price{Input: 0.10, Output: 0.40}
	prices["llama3.2"] = llm.Price{} // local: free, and known to be
	cfg := llm.Config{Name: "llama3.2", Prices: prices}
	fmt.Println(cfg.PriceKnown(), llm.DefaultPrices()["gpt-4o-mini"].Input)
	// Output: true 0.15
}

// HTTPClient, given to the model client, lets a provider's rate limit
// keep its Retry-After: here a scripted OpenAI server answers 429 with
// Retry-After: 7, and the operation's error says to wait 7s.
func ExampleHTTPClient() {
	srv, err := llmtest.New(llmtest.OpenAI, llmtest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "7", Message: "slow down"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	model, err := openai.New(openai.WithModel("gpt-4o-mini"), openai.WithHTTPClient(llm.HTTPClient()),
		openai.WithBaseURL(srv.BaseURL()), openai.WithToken(llmtest.TestKey))
	if err != nil {
		panic(err)
	}
	g, err := content.New(content.Config{LLM: llm.Config{Model: model, Name: "gpt-4o-mini"}})
	if err != nil {
		panic(err)
	}
	_, _, err = g.Headlines(context.Background(), content.HeadlinesRequest{Topic: "remote work"})
	e := envelope.From(err)
	fmt.Println(e.Code, e.RetryAfter)
	// Output: RATE_LIMIT_EXCEEDED 7s
}

// Usage sums what the calls of one operation used, as the operations do
// over a retry. Its JSON is the usage part of an HTTP answer's meta.
func ExampleUsage_Add() {
	var u llm.Usage
	u.Add(llm.Usage{Model: "gpt-4o-mini", PromptTokens: 120, CompletionTokens: 30, CostUSD: 0.000036})
	u.Add(llm.Usage{Model: "gpt-4o-mini", PromptTokens: 150, CompletionTokens: 25, CostUSD: 0.0000375})
	b, _ := json.Marshal(u)
	fmt.Println(string(b))
	// Output:
	// {"model":"gpt-4o-mini","prompt_tokens":270,"completion_tokens":55,"cost_usd":0.0000735}
}
