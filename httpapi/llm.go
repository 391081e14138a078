package httpapi

import (
	"context"
	"time"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
)

// LLMSettings tune the calls to [Config.LLM]; they are the fields of an
// [llm.Config] (see [Config.LLMConfig]). The zero value works: the model
// is reported as "unknown" and priced at zero (llm.Config.PriceKnown
// reports false), calls are bounded by the request only, answers that
// break their contract are retried once, and the provider's JSON mode is
// used.
type LLMSettings struct {
	// Model names the model in meta.model and selects its price, e.g.
	// "gpt-4o-mini" or "llama3.2".
	Model string
	// Prices are US dollars per million input and output tokens, by model
	// name (exact, or the longest prefix followed by "-", ":" or "@").
	// Nil means the built-in table of llm.DefaultPrices. A model the
	// table does not name is reported with a cost of 0.
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

// LLMConfig returns the model settings of every route backed by a
// language model: Config.LLM tuned by Config.LLMSettings, or the zero
// llm.Config (no model) when LLM is nil.
func (c *Config) LLMConfig() llm.Config {
	if c.LLM == nil {
		return llm.Config{}
	}
	st := c.LLMSettings
	return llm.Config{
		Model:           c.LLM,
		Name:            st.Model,
		Prices:          st.Prices,
		MaxAttempts:     st.MaxAttempts,
		Timeout:         st.Timeout,
		DisableJSONMode: st.NoJSONMode,
	}
}

// LLMClient returns the model settings that the photo-sharing insights
// use, or nil when no model is configured.
func (c *Config) LLMClient() *llm.Config {
	if c.LLM == nil {
		return nil
	}
	lc := c.LLMConfig()
	return &lc
}

// ContentGenerator returns the content generator that the content routes
// use: Config.LLM tuned by Config.LLMSettings, or the extractive fallback
// when LLM is nil. Programs that call package content directly with the
// server's configuration (the quiver command line) use it too. It fails
// when the settings are invalid (a negative timeout or attempt count).
func (c *Config) ContentGenerator() (*content.Generator, error) {
	return content.New(content.Config{LLM: c.LLMConfig()})
}

// DevutilConfig returns the configuration of the devutil operations
// backed by a model (regex generation, stack trace advice, README
// polish): the model settings of LLMConfig and the regex match timeout.
func (c *Config) DevutilConfig() devutil.Config {
	return devutil.Config{LLM: c.LLMConfig(), RegexMatchTimeout: c.RegexMatchTimeout}
}

// built binds a method of a service that may have failed to build
// (err != nil): then the route answers SERVICE_UNAVAILABLE, and the
// server logged why when it built its routes.
func built[T, Req, Res any](v *T, err error, m func(*T, context.Context, Req) (Res, envelope.AI, error)) func(context.Context, Req) (Res, envelope.AI, error) {
	return func(ctx context.Context, req Req) (Res, envelope.AI, error) {
		if err != nil {
			var zero Res
			return zero, envelope.AI{}, envelope.Errorf(envelope.CodeServiceUnavailable,
				"the language model settings of this server are invalid; see its log")
		}
		return m(v, ctx, req)
	}
}
