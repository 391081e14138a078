package httpapi

import (
	"time"

	"github.com/quiverkit/quiver/internal/llmjson"
)

// LLMSettings tune the calls to [Config.LLM]. The zero value works: the
// model is reported as "unknown" and priced at zero, calls are bounded by
// the request only, answers that break their contract are retried once,
// and the provider's JSON mode is used.
type LLMSettings struct {
	// Model names the model in meta.model and selects its price, e.g.
	// "gpt-4o-mini" or "llama3.2".
	Model string
	// Prices are US dollars per million input and output tokens, by model
	// name (exact, or the longest prefix followed by "-", ":" or "@").
	// Nil means the built-in table of content.DefaultPrices.
	Prices llmjson.PriceTable
	// Timeout bounds each call to the model. Zero: only the request's
	// context bounds it.
	Timeout time.Duration
	// MaxAttempts is how many times the model is asked before an answer
	// that breaks the contract fails the call. Default 2.
	MaxAttempts int
	// NoJSONMode stops requesting the provider's JSON mode, for
	// OpenAI-compatible servers that reject response_format json_object.
	NoJSONMode bool
}

// llmClient returns the client that LLM-backed routes pass to
// llmjson.Ask, or nil when no model is configured.
func (s *server) llmClient() *llmjson.Client {
	if s.cfg.LLM == nil {
		return nil
	}
	st := s.cfg.LLMSettings
	return &llmjson.Client{
		Model:       s.cfg.LLM,
		ModelName:   st.Model,
		Prices:      st.Prices,
		MaxAttempts: st.MaxAttempts,
		Timeout:     st.Timeout,
		NoJSONMode:  st.NoJSONMode,
	}
}
