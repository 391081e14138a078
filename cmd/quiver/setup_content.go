package main

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/googleai"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
	"google.golang.org/api/option"

	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/secret"
)

// llmConfig is the configuration of the language model shared by every
// LLM-backed route (content generation, regex generation, photo-sharing
// insights).
type llmConfig struct {
	provider string
	model    string
	key      secret.String
	baseURL  string
	prices   []string
	timeout  time.Duration
	attempts int
	jsonMode bool
	// bound says that contentSetup bound the flags: a command that does
	// not take them (a photo-sharing data command) has no model.
	bound bool
}

// defaultModels are the models used when QUIVER_LLM_MODEL is empty.
var defaultModels = map[string]string{
	"openai":    "gpt-4o-mini",
	"anthropic": "claude-3-5-haiku-latest",
	"ollama":    "llama3.2",
	"googleai":  "gemini-2.0-flash",
}

// contentSetup binds the language model flags, which package content is
// the main user of; services.LLM builds the model from them.
func contentSetup(f *flags, c *config) {
	c.LLM.bound = true
	bind(f, &c.LLM.provider, "llm-provider", "", "language model provider: openai (and OpenAI-compatible servers), anthropic, ollama or googleai; none: summarize and meta-tags use the extractive engine, the other AI routes answer 503")
	bind(f, &c.LLM.model, "llm-model", "", "model name; default gpt-4o-mini, claude-3-5-haiku-latest, llama3.2 or gemini-2.0-flash by provider")
	bind(f, &c.LLM.key, "llm-api-key", "", "provider API key, needed by openai (unless -llm-base-url names a compatible server), anthropic and googleai; the providers' own variables (OPENAI_API_KEY, ...) are not read")
	bind(f, &c.LLM.baseURL, "llm-base-url", "", "provider base URL, e.g. http://localhost:8000/v1 for vLLM, LM Studio or llama.cpp with provider openai, http://localhost:11434 for ollama")
	bind(f, &c.LLM.prices, "llm-prices", nil, "price overrides in USD per million tokens, comma-separated model=input/output, e.g. gpt-4o-mini=0.15/0.60")
	bind(f, &c.LLM.timeout, "llm-timeout", 50*time.Second, "time limit of one call to the model; an answer that breaks its contract is asked again once")
	bind(f, &c.LLM.attempts, "llm-max-attempts", llm.DefaultMaxAttempts, "how many times the model is asked before an answer that breaks its contract fails the call")
	bind(f, &c.LLM.jsonMode, "llm-json-mode", true, "request the provider's JSON mode; turn off for OpenAI-compatible servers that reject response_format json_object")
}

// build returns the model the configuration describes, with its
// settings; the zero llm.Config without a provider. It makes no network
// call: the clients connect on their first request.
func (c llmConfig) build(ctx context.Context, d *deps) (llm.Config, error) {
	if !c.bound {
		return llm.Config{}, nil
	}
	if c.timeout < 0 || c.attempts < 1 {
		return llm.Config{}, fmt.Errorf("%s must not be negative and %s must be at least 1", flagName("llm-timeout"), flagName("llm-max-attempts"))
	}
	st, err := c.settings()
	if err != nil {
		return llm.Config{}, err
	}
	provider := strings.ToLower(strings.TrimSpace(c.provider))
	if provider == "" {
		if c.model != "" || c.baseURL != "" || c.key != "" {
			return llm.Config{}, fmt.Errorf("%s, %s or %s is set but %s is not", flagName("llm-model"), flagName("llm-api-key"), flagName("llm-base-url"), flagName("llm-provider"))
		}
		return llm.Config{}, nil
	}
	if _, ok := defaultModels[provider]; !ok {
		return st, fmt.Errorf("%s %q: must be openai, anthropic, ollama or googleai", flagName("llm-provider"), c.provider)
	}
	// The key comes from -llm-api-key alone: the clients would otherwise
	// read their own variable (OPENAI_API_KEY, ...), a second source
	// that neither -help nor an error would name.
	if c.key == "" && provider != "ollama" && (provider != "openai" || c.baseURL == "") {
		return st, fmt.Errorf("%s %s needs %s", flagName("llm-provider"), provider, flagName("llm-api-key"))
	}
	name := st.Name
	if c.baseURL != "" {
		u, err := url.Parse(c.baseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			// Not quoted: it may carry a password.
			return st, fmt.Errorf("%s: must be an absolute http or https URL", flagName("llm-base-url"))
		}
	}
	// The transport records the provider's status codes and Retry-After
	// for llmjson. Timeouts come from the per-call context.
	hc := d.llmClient(provider)

	var m llms.Model
	switch provider {
	case "openai":
		opts := []openai.Option{openai.WithModel(name), openai.WithHTTPClient(hc)}
		key := c.key.Reveal()
		if c.baseURL != "" {
			opts = append(opts, openai.WithBaseURL(c.baseURL))
			if key == "" {
				key = "unused" // local OpenAI-compatible servers need no key, the client wants one
			}
		}
		if key != "" {
			opts = append(opts, openai.WithToken(key))
		}
		m, err = openai.New(opts...)
	case "anthropic":
		opts := []anthropic.Option{anthropic.WithModel(name), anthropic.WithHTTPClient(hc)}
		if c.key != "" {
			opts = append(opts, anthropic.WithToken(c.key.Reveal()))
		}
		if c.baseURL != "" {
			opts = append(opts, anthropic.WithBaseURL(c.baseURL))
		}
		m, err = anthropic.New(opts...)
	case "ollama":
		opts := []ollama.Option{ollama.WithModel(name), ollama.WithHTTPClient(hc)}
		if c.baseURL != "" {
			opts = append(opts, ollama.WithServerURL(c.baseURL))
		}
		m, err = ollama.New(opts...)
	case "googleai":
		// The Google client authenticates with the key itself, so it keeps
		// its own HTTP client; status codes are read from its errors.
		opts := []googleai.Option{googleai.WithDefaultModel(name)}
		if c.key != "" {
			opts = append(opts, googleai.WithAPIKey(c.key.Reveal()))
		}
		if c.baseURL != "" {
			opts = append(opts, func(o *googleai.Options) {
				o.ClientOptions = append(o.ClientOptions, option.WithEndpoint(c.baseURL))
			})
		}
		m, err = googleai.New(ctx, opts...)
	}
	if err != nil {
		return st, fmt.Errorf("%s client: %w", provider, err)
	}
	st.Model = m
	return st, nil
}

// settings is the llm.Config of the flags, before the model is built
// into it: its name (the -llm-model or the provider's default), prices,
// timeout, attempts and JSON mode.
func (c llmConfig) settings() (llm.Config, error) {
	prices, err := parsePrices(c.prices)
	if err != nil {
		return llm.Config{}, err
	}
	name := c.model
	if name == "" {
		name = defaultModels[strings.ToLower(strings.TrimSpace(c.provider))]
	}
	return llm.Config{
		Name:            name,
		Prices:          prices,
		Timeout:         c.timeout,
		MaxAttempts:     c.attempts,
		DisableJSONMode: !c.jsonMode,
	}, nil
}

// parsePrices reads "model=input/output" overrides on top of the built-in
// price table.
func parsePrices(entries []string) (llm.Prices, error) {
	prices := llm.DefaultPrices()
	for _, e := range entries {
		name, pair, ok := strings.Cut(e, "=")
		in, out, ok2 := strings.Cut(pair, "/")
		if !ok || !ok2 || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("%s entry %q: want model=input/output", flagName("llm-prices"), e)
		}
		pi, err1 := strconv.ParseFloat(strings.TrimSpace(in), 64)
		po, err2 := strconv.ParseFloat(strings.TrimSpace(out), 64)
		if err1 != nil || err2 != nil || pi < 0 || po < 0 {
			return nil, fmt.Errorf("%s entry %q: prices must be non-negative numbers", flagName("llm-prices"), e)
		}
		prices[strings.TrimSpace(name)] = llm.Price{Input: pi, Output: po}
	}
	return prices, nil
}
