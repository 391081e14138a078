package httpapi

import (
	"time"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/llm"
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
	Prices llm.Prices
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

// LLMClient returns the client that the photo-sharing insights pass to
// llmjson.Ask, or nil when no model is configured.
func (c *Config) LLMClient() *llm.Config {
	if c.LLM == nil {
		return nil
	}
	st := c.LLMSettings
	return &llm.Config{
		Model:           c.LLM,
		Name:            st.Model,
		Prices:          st.Prices,
		MaxAttempts:     st.MaxAttempts,
		Timeout:         st.Timeout,
		DisableJSONMode: st.NoJSONMode,
	}
}

// ContentGenerator returns the content generator that the content routes
// use: Config.LLM tuned by Config.LLMSettings, or the extractive fallback
// when LLM is nil. Programs that call package content directly with the
// server's configuration (the quiver command line) use it too.
func (c *Config) ContentGenerator() *content.Generator {
	if c.LLM == nil {
		return content.New(nil)
	}
	st := c.LLMSettings
	opts := []content.Option{
		content.WithModelName(st.Model),
		content.WithTimeout(st.Timeout),
		content.WithMaxAttempts(st.MaxAttempts),
	}
	if st.Prices != nil {
		opts = append(opts, content.WithPrices(st.Prices))
	}
	if st.NoJSONMode {
		opts = append(opts, content.WithoutJSONMode())
	}
	return content.New(c.LLM, opts...)
}

// DevutilOptions returns the options of the devutil operations backed by
// a model (regex generation, stack trace advice, README polish): the regex
// match timeout and, when LLM is set, the LLMSettings.
func (c *Config) DevutilOptions() []devutil.Option {
	opts := []devutil.Option{devutil.WithMatchTimeout(c.RegexMatchTimeout)}
	if c.LLM == nil {
		return opts
	}
	st := c.LLMSettings
	opts = append(opts,
		devutil.WithModelName(st.Model),
		devutil.WithTimeout(st.Timeout),
		devutil.WithMaxAttempts(st.MaxAttempts),
	)
	if st.Prices != nil {
		opts = append(opts, devutil.WithPrices(st.Prices))
	}
	if st.NoJSONMode {
		opts = append(opts, devutil.WithoutJSONMode())
	}
	return opts
}
