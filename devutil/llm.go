package devutil

import (
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
)

// settings is what the operations backed by a language model share: the
// model with its accounting, and the regex match timeout.
type settings struct {
	llm          *llm.Config // nil without a model
	matchTimeout time.Duration
}

func newSettings(model llms.Model, opts []Option) settings {
	s := settings{matchTimeout: DefaultRegexMatchTimeout}
	if model != nil {
		s.llm = &llm.Config{Model: model}
	}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// Option configures a [RegexGenerator] or a [StacktraceAnalyzer].
type Option func(*settings)

// WithModelName names the model in the usage metadata and selects its
// price, e.g. "gpt-4o-mini". Default "unknown".
func WithModelName(name string) Option {
	return func(s *settings) {
		if s.llm != nil {
			s.llm.Name = name
		}
	}
}

// WithPrices replaces the price table (US dollars per million tokens by
// model name); nil keeps the built-in table.
func WithPrices(p llm.Prices) Option {
	return func(s *settings) {
		if s.llm != nil {
			s.llm.Prices = p
		}
	}
}

// WithMaxAttempts sets how many times the model is asked before an
// answer that breaks its rules (for a regex: fails its tests) fails the
// call. Default 2: one retry with the failures shown.
func WithMaxAttempts(n int) Option {
	return func(s *settings) {
		if s.llm != nil {
			s.llm.MaxAttempts = n
		}
	}
}

// WithTimeout bounds each call to the model; a call that runs out of
// time fails with UPSTREAM_TIMEOUT.
func WithTimeout(d time.Duration) Option {
	return func(s *settings) {
		if s.llm != nil {
			s.llm.Timeout = d
		}
	}
}

// WithoutJSONMode stops requesting the provider's JSON mode, for
// OpenAI-compatible servers that reject it.
func WithoutJSONMode() Option {
	return func(s *settings) {
		if s.llm != nil {
			s.llm.DisableJSONMode = true
		}
	}
}

// WithMatchTimeout bounds each test-case match of a generated regex in a
// backtracking flavor. Default DefaultRegexMatchTimeout.
func WithMatchTimeout(d time.Duration) Option {
	return func(s *settings) {
		if d > 0 {
			s.matchTimeout = d
		}
	}
}

// errNoModel is the SERVICE_UNAVAILABLE error of an operation that needs
// a language model when none is configured; what says what was asked.
func errNoModel(what string) error {
	return envelope.Errorf(envelope.CodeServiceUnavailable,
		"%s no language model is configured: set QUIVER_LLM_PROVIDER (openai, anthropic, ollama or googleai) and QUIVER_LLM_MODEL on the server, or pass an llms.Model to the devutil constructor", what)
}
