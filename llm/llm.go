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
// # Model name
//
// The name in the usage metadata (meta.model), which also selects the
// price, is [Config.Name]. The langchaingo clients of OpenAI, Anthropic,
// Ollama and Google AI (v0.1.14) keep the model they call in an unexported
// field and report it nowhere, neither by a method nor in the response's
// GenerationInfo, so Quiver cannot read it from them: set Name to the
// model you gave the client. A client of your own may report its model by
// a method ModelName() string, which [Config.ModelName] uses when Name is
// empty. Without either, the name is [UnknownModel].
//
// # Cost
//
// The cost in the usage metadata is the token usage times the model's
// [Price] in US dollars per million tokens. A model that the price table
// in force does not name costs 0: local models (Ollama, vLLM), new models,
// and every model whose name is unknown. A cost of 0 therefore does not
// mean the call was free. [Config.PriceKnown] reports whether the model is
// priced, and the quiver server logs a warning at start-up when it is not.
//
// # Rate limits
//
// A provider's failure becomes an *envelope.Error: a rate limit (HTTP
// 429) is RATE_LIMIT_EXCEEDED with RetryAfter, the provider's Retry-After:
// at least 1 s (a provider asking to retry now), and 60 s when it does not
// say, the rule of the social data providers' rate limits too.
// The langchaingo clients report a failure as a plain error string,
// without its status or headers; Quiver reads them from the HTTP client's
// transport. Give the model client [HTTPClient] (or an http.Client whose
// Transport is a [Transport] over your own), as the quiver server and
// llm/llmtest do; a client built without it still maps the failure, but
// its rate limits carry the 60 s default, not the provider's Retry-After.
package llm

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/quiverkit/quiver/internal/cfgerr"
)

// DefaultMaxAttempts is the number of times a model is asked when
// [Config.MaxAttempts] is zero: the first answer and one retry.
const DefaultMaxAttempts = 2

// UnknownModel is the name reported when [Config.Name] is empty and the
// client does not say which model it calls.
const UnknownModel = "unknown"

// ErrInvalidConfig is wrapped by the error of [Config.Validate], and so by
// the constructors of the packages that take a Config.
var ErrInvalidConfig = errors.New("llm: invalid configuration")

// Config is a language model with the settings Quiver's model-backed
// operations need. The zero value has no model: operations that need one
// answer SERVICE_UNAVAILABLE, and those that have a deterministic fallback
// use it. A Config is a value: copying it is cheap, and the operations
// only read it.
type Config struct {
	// Model answers the prompts: any langchaingo client, such as
	// openai.New(openai.WithModel("gpt-4o-mini"),
	// openai.WithHTTPClient(HTTPClient())); built on [HTTPClient] or a
	// [Transport], a provider's rate limit keeps its Retry-After. Default
	// (nil): no model.
	Model llms.Model
	// Name names the model in the usage metadata (meta.model) and selects
	// its price, e.g. "gpt-4o-mini" or "llama3.2". Set it to the model
	// the client calls: langchaingo's clients do not report it. Default
	// (""): the name the client reports by a ModelName() string method,
	// else UnknownModel, which no price table names (cost 0).
	Name string
	// Prices are US dollars per million input and output tokens, by model
	// name. Default (nil): DefaultPrices(). An empty, non-nil table
	// prices every model at zero. Prices must not be negative.
	Prices Prices
	// Timeout bounds each call to the model; a call that runs out of time
	// fails with UPSTREAM_TIMEOUT. Default (0): only the caller's context
	// bounds the call. Negative is invalid.
	Timeout time.Duration
	// MaxAttempts is how many times the model is asked before an answer
	// that breaks the operation's contract fails the call with
	// UPSTREAM_ERROR. Default (0): DefaultMaxAttempts, the answer and
	// one retry. Negative is invalid.
	MaxAttempts int
	// DisableJSONMode stops requesting the provider's JSON mode, for
	// OpenAI-compatible servers that reject response_format json_object.
	// The prompt still asks for JSON. Default (false): JSON mode is used.
	DisableJSONMode bool
}

// Enabled reports whether c has a model.
func (c Config) Enabled() bool { return c.Model != nil }

// Validate reports a configuration that cannot work: a negative Timeout
// or MaxAttempts, or a price that is negative or not a finite number. The
// error wraps [ErrInvalidConfig] and names the field. The zero Config is
// valid.
func (c Config) Validate() error {
	l := cfgerr.List{Sentinel: ErrInvalidConfig}
	if c.Timeout < 0 {
		l.Add("Timeout must be 0 (no bound) or positive, not %v", c.Timeout)
	}
	if c.MaxAttempts < 0 {
		l.Add("MaxAttempts must be 0 (the default, %d) or positive, not %d", DefaultMaxAttempts, c.MaxAttempts)
	}
	for _, name := range sortedNames(c.Prices) {
		p := c.Prices[name]
		if !validPrice(p.Input) || !validPrice(p.Output) {
			l.Add("Prices[%q] must be finite and not negative, not %v/%v", name, p.Input, p.Output)
		}
	}
	return l.Err()
}

func validPrice(f float64) bool { return f >= 0 && !math.IsInf(f, 1) }

func sortedNames(p Prices) []string {
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ModelName returns the name reported in meta.model and used for the
// price: Name, else the name the client reports by a method ModelName()
// string, else UnknownModel. The langchaingo clients have no such method
// (see the package documentation), so with them it is Name or
// UnknownModel.
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

// PriceKnown reports whether the price table in force names the model.
// When it does not, every call is reported with a cost of 0, whatever the
// provider charges: check it once when the program starts, and set Name
// or Prices (or accept the 0, for a local model).
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
// no entry applies costs 0, and ok is false.
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

// Cost returns the cost in US dollars of one call of model that used
// promptTokens and completionTokens. It is 0 for a model the table does
// not price; [Prices.Lookup] tells that case from a free model.
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
