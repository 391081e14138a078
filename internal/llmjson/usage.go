package llmjson

import (
	"maps"
	"strings"

	"github.com/quiverkit/quiver/envelope"
)

// Usage is the token count of one model call.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
}

// UsageOf reads the token usage from a langchaingo choice's
// GenerationInfo. OpenAI, Ollama and Google AI report PromptTokens and
// CompletionTokens; Anthropic reports InputTokens and OutputTokens. The
// values may be any integer or float type; missing keys count as zero.
func UsageOf(info map[string]any) Usage {
	u := Usage{
		PromptTokens:     intOf(info["PromptTokens"]),
		CompletionTokens: intOf(info["CompletionTokens"]),
	}
	if u.PromptTokens == 0 {
		u.PromptTokens = intOf(info["InputTokens"])
	}
	if u.CompletionTokens == 0 {
		u.CompletionTokens = intOf(info["OutputTokens"])
	}
	return u
}

func intOf(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int32:
		return int(n)
	case int64:
		return int(n)
	case uint32:
		return int(n)
	case uint64:
		return int(n)
	case float64:
		return int(n)
	case float32:
		return int(n)
	default:
		return 0
	}
}

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	// Input is the price of a million prompt tokens.
	Input float64 `json:"input"`
	// Output is the price of a million completion tokens.
	Output float64 `json:"output"`
}

// PriceTable maps model names to prices. A model is priced by the entry
// with its exact name, or else by the longest entry that is a prefix of
// its name followed by "-", ":" or "@" (so "gpt-4o-mini" prices
// "gpt-4o-mini-2024-07-18"). Unknown models, local ones among them, cost
// nothing.
type PriceTable map[string]Price

// Cost returns the usage metadata of one call of model.
func (t PriceTable) Cost(model string, promptTokens, completionTokens int) envelope.AI {
	p := t.Lookup(model)
	return envelope.AI{
		Model:            model,
		PromptTokens:     promptTokens,
		CompletionTokens: completionTokens,
		CostUSD:          (float64(promptTokens)*p.Input + float64(completionTokens)*p.Output) / 1e6,
	}
}

// Lookup returns the price of model, and the zero Price when none applies.
func (t PriceTable) Lookup(model string) Price {
	if p, ok := t[model]; ok {
		return p
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
	return best
}

// defaultPrices are list prices published by the providers in 2025, per
// million tokens. They go stale: override them with the prices you pay.
var defaultPrices = PriceTable{
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

// DefaultPrices returns a copy of the built-in price table: list prices
// of common OpenAI, Anthropic and Google models published in 2025. Models
// served locally (Ollama, vLLM, llama.cpp) are absent and so cost nothing.
func DefaultPrices() PriceTable {
	return maps.Clone(defaultPrices)
}
