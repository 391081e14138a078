package devutil

import (
	"errors"
	"time"

	"github.com/quiverkit/quiver/internal/cfgerr"
	"github.com/quiverkit/quiver/internal/llmjson"
	"github.com/quiverkit/quiver/llm"
)

// Config configures the operations backed by a language model:
// [NewRegexGenerator], [NewStacktraceAnalyzer] and [NewReadmeGenerator].
// The zero Config is valid: no model, so each works without one (the
// regex catalog, the deterministic analysis, the unpolished README).
type Config struct {
	// LLM is the language model and its settings: model, name, prices,
	// timeout, attempts and JSON mode; see [llm.Config] for the default
	// of each. Default (zero): no model.
	//
	// Set LLM.Name to the model the client calls: it is reported in the
	// usage metadata and selects the price. A model the price table does
	// not name is reported with a cost of 0; LLM.PriceKnown() tells.
	LLM llm.Config
	// RegexMatchTimeout bounds each test-case match of a generated regex
	// in a backtracking flavor (pcre, python, javascript, dotnet); only
	// [RegexGenerator] uses it. Default (0): DefaultRegexMatchTimeout.
	// Negative is invalid.
	RegexMatchTimeout time.Duration
}

// ErrInvalidConfig is wrapped by the errors of [NewRegexGenerator],
// [NewStacktraceAnalyzer] and [NewReadmeGenerator] when their Config
// cannot work; an invalid LLM field wraps llm.ErrInvalidConfig as well.
var ErrInvalidConfig = errors.New("devutil: invalid configuration")

// validate reports a configuration that cannot work; the error wraps
// ErrInvalidConfig, and llm.ErrInvalidConfig when the LLM field is the
// cause.
func (c Config) validate() error {
	l := cfgerr.List{Sentinel: ErrInvalidConfig}
	l.Nest("LLM", c.LLM.Validate())
	if c.RegexMatchTimeout < 0 {
		l.Add("RegexMatchTimeout must be 0 (the default, %v) or positive, not %v", DefaultRegexMatchTimeout, c.RegexMatchTimeout)
	}
	return l.Err()
}

// settings is what the operations backed by a language model share: the
// model with its accounting, and the regex match timeout. Its zero value
// has no model and the default timeout.
type settings struct {
	llm          llm.Config
	matchTimeout time.Duration
}

// newSettings validates cfg and returns its settings.
func newSettings(cfg Config) (settings, error) {
	if err := cfg.validate(); err != nil {
		return settings{}, err
	}
	return settings{llm: cfg.LLM, matchTimeout: cfg.RegexMatchTimeout}, nil
}

// model returns the model and its settings as llmjson asks them.
func (s *settings) model() llmjson.Settings {
	l := &s.llm
	return llmjson.Settings{Model: l.Model, Name: l.ModelName(), Cost: l.PriceTable().Cost,
		Timeout: l.Timeout, Attempts: l.Attempts(), DisableJSONMode: l.DisableJSONMode}
}

// regexTimeout returns the match timeout in force.
func (s *settings) regexTimeout() time.Duration {
	if s.matchTimeout <= 0 {
		return DefaultRegexMatchTimeout
	}
	return s.matchTimeout
}

// errNoModel is the SERVICE_UNAVAILABLE error of an operation that needs
// a language model when none is configured; what says what was asked.
func errNoModel(what string) error {
	return llmjson.NoModel(what+" no language model is configured", "devutil.Config.LLM.Model")
}
