// Package llm holds the settings that every Quiver operation backed by a
// language model takes: the model, its name and price, the time allowed
// for each call, how often a broken answer is retried, and whether the
// provider's JSON mode is used.
//
// The model is any [llms.Model] from github.com/tmc/langchaingo (OpenAI,
// Anthropic, Ollama, Google AI, or any OpenAI-compatible server). Package
// content, package devutil, package photosocial and package httpapi all
// take a [Config] the same way: as the LLM field of their own Config.
//
// Cost accounting: the cost in the response metadata is the token usage
// times the model's [Price]. A model that no price table names costs 0;
// [Config.PriceKnown] tells a program so, and the quiver server logs a
// warning at start-up in that case, so a zero cost is never silent.
package llm

import (
	"maps"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"
)

// DefaultMaxAttempts is the number of times a model is asked when
// [Config.MaxAttempts] is zero: the first answer and one retry.
const DefaultMaxAttempts = 2

// UnknownModel is the name reported when [Config.Name] is empty and the
// client does not say which model it calls.
const UnknownModel = "unknown"

// Config is a language model with the settings Quiver's model-backed
// operations need. The zero value has no model: operations that need one
// answer SERVICE_UNAVAILABLE, and those that have a deterministic fallback
// use it.
type Config struct {
	// Model answers the prompts. Nil means no model.
	Model llms.Model
	// Name names the model in the usage metadata (meta.model) and selects
	// its price, e.g. "gpt-4o-mini" or "llama3.2". Default: the model
	// name the client reports, if it reports one, else UnknownModel.
	Name string
	// Prices are US dollars per million input and output tokens, by model
	// name. Default (nil): DefaultPrices(). An empty, non-nil table
	// prices every model at zero.
	Prices Prices
	// Timeout bounds each call to the model; a call that runs out of time
	// fails with UPSTREAM_TIMEOUT. Default (0): only the caller's context
	// bounds the call.
	Timeout time.Duration
	// MaxAttempts is how many times the model is asked before an answer
	// that breaks the operation's contract fails the call with
	// UPSTREAM_ERROR. Default (0): DefaultMaxAttempts.
	MaxAttempts int
	// DisableJSONMode stops requesting the provider's JSON mode, for
	// OpenAI-compatible servers that reject response_format json_object.
	// The prompt still asks for JSON. Default (false): JSON mode is used.
	DisableJSONMode bool
}

// Enabled reports whether c has a model.
func (c Config) Enabled() bool { return c.Model != nil }

// ModelName returns the name reported in meta.model: Name, else the name
// the client reports, else UnknownModel.
func (c Config) ModelName() string {
	if c.Name != "" {
		return c.Name
	}
	if n, ok := c.Model.(interface{ ModelName() string }); ok {
		if s := n.ModelName(); s != "" {
			return s
		}
	}
	return UnknownModel
}

// PriceTable returns the prices in force: Prices, or DefaultPrices() when
// Prices is nil.
func (c Config) PriceTable() Prices {
	if c.Prices == nil {
		return DefaultPrices()
	}
	return c.Prices
}

// PriceKnown reports whether the price table in force names the model, so
// that its cost is not silently reported as 0.
func (c Config) PriceKnown() bool {
	_, ok := c.PriceTable().Lookup(c.ModelName())
	return ok
}

// Attempts returns MaxAttempts, or DefaultMaxAttempts when it is not
// positive.
func (c Config) Attempts() int {
	if c.MaxAttempts <= 0 {
		return DefaultMaxAttempts
	}
	return c.MaxAttempts
}

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	// Input is the price of a million prompt tokens.
	Input float64 `json:"input"`
	// Output is the price of a million completion tokens.
	Output float64 `json:"output"`
}

// Prices maps model names to prices. A model is priced by the entry with
// its exact name, or else by the longest entry that is a prefix of its
// name followed by "-", ":" or "@" (so "gpt-4o-mini" prices
// "gpt-4o-mini-2024-07-18").
type Prices map[string]Price

// Lookup returns the price of model and whether an entry applies. A model
// no entry applies to costs nothing.
func (t Prices) Lookup(model string) (Price, bool) {
	if p, ok := t[model]; ok {
		return p, true
	}
	best, bestLen := Price{}, 0
	for name, p := range t {
		if len(name) <= bestLen || len(model) <= len(name) || !strings.HasPrefix(model, name) {
			continue
		}
		if c := model[len(name)]; c == '-' || c == ':' || c == '@' {
			best, bestLen = p, len(name)
		}
	}
	return best, bestLen > 0
}

// Cost returns the cost in US dollars of one call of model.
func (t Prices) Cost(model string, promptTokens, completionTokens int) float64 {
	p, _ := t.Lookup(model)
	return (float64(promptTokens)*p.Input + float64(completionTokens)*p.Output) / 1e6
}

// DefaultPrices returns a copy of the built-in price table: list prices of
// common OpenAI, Anthropic and Google models published in 2025. They go
// stale: set Config.Prices to the prices you pay. Models served locally
// (Ollama, vLLM, llama.cpp) are absent and so cost nothing.
func DefaultPrices() Prices {
	return maps.Clone(defaultPrices)
}

var defaultPrices = Prices{
	"gpt-4o":            {Input: 2.50, Output: 10.00},
	"gpt-4o-mini":       {Input: 0.15, Output: 0.60},
	"gpt-4.1":           {Input: 2.00, Output: 8.00},
	"gpt-4.1-mini":      {Input: 0.40, Output: 1.60},
	"gpt-4.1-nano":      {Input: 0.10, Output: 0.40},
	"o3-mini":           {Input: 1.10, Output: 4.40},
	"o4-mini":           {Input: 1.10, Output: 4.40},
	"claude-3-5-haiku":  {Input: 0.80, Output: 4.00},
	"claude-3-haiku":    {Input: 0.25, Output: 1.25},
	"claude-3-5-sonnet": {Input: 3.00, Output: 15.00},
	"claude-3-7-sonnet": {Input: 3.00, Output: 15.00},
	"claude-sonnet-4":   {Input: 3.00, Output: 15.00},
	"claude-opus-4":     {Input: 15.00, Output: 75.00},
	"gemini-1.5-flash":  {Input: 0.075, Output: 0.30},
	"gemini-1.5-pro":    {Input: 1.25, Output: 5.00},
	"gemini-2.0-flash":  {Input: 0.10, Output: 0.40},
	"gemini-2.5-flash":  {Input: 0.30, Output: 2.50},
	"gemini-2.5-pro":    {Input: 1.25, Output: 10.00},
}
