package llm

// Usage is what the language model calls of one operation used: the
// model that answered, the tokens it counted and their estimated cost,
// summed over every attempt. It is what the operations of package
// content, package devutil and package photosocial return beside their
// result, and what an HTTP answer carries in its meta object.
type Usage struct {
	// Model names the model that answered, e.g. "gpt-4o-mini", or
	// content.ExtractiveModel for the deterministic fallback; see
	// [Config.ModelName].
	Model string `json:"model"`
	// PromptTokens is the number of input tokens the provider reported,
	// summed over every attempt.
	PromptTokens int `json:"prompt_tokens"`
	// CompletionTokens is the number of output tokens the provider
	// reported, summed over every attempt.
	CompletionTokens int `json:"completion_tokens"`
	// CostUSD is the estimated cost in US dollars, summed over every
	// attempt: the tokens times the model's [Price].
	CostUSD float64 `json:"cost_usd"`
}

// Add accumulates the usage of another call into u. The model name of the
// latest call that names one wins.
func (u *Usage) Add(v Usage) {
	if v.Model != "" {
		u.Model = v.Model
	}
	u.PromptTokens += v.PromptTokens
	u.CompletionTokens += v.CompletionTokens
	u.CostUSD += v.CostUSD
}
