package httpapi

import (
	"time"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/llm"
)

// This file builds the model-backed services from Config.LLM, each the
// way its package documents, so that every route asks the model alike.

// llmOrNil returns c for the packages that take a *llm.Config, nil when
// it has no model.
func llmOrNil(c llm.Config) *llm.Config {
	if !c.Enabled() {
		return nil
	}
	return &c
}

// newContentGenerator returns the generator of the content routes: the
// model of c, or the extractive fallback when c has none.
func newContentGenerator(c llm.Config) (*content.Generator, error) {
	if !c.Enabled() {
		return content.New(nil), nil
	}
	opts := []content.Option{
		content.WithModelName(c.ModelName()),
		content.WithTimeout(c.Timeout),
		content.WithMaxAttempts(c.MaxAttempts),
	}
	if c.Prices != nil {
		opts = append(opts, content.WithPrices(c.Prices))
	}
	if c.DisableJSONMode {
		opts = append(opts, content.WithoutJSONMode())
	}
	return content.New(c.Model, opts...), nil
}

// newDevutil returns the model-backed devutil operations: regex
// generation, stack trace analysis and README drafts.
func newDevutil(c llm.Config, matchTimeout time.Duration) (*devutil.RegexGenerator, *devutil.StacktraceAnalyzer, *devutil.ReadmeGenerator, error) {
	opts := []devutil.Option{devutil.WithMatchTimeout(matchTimeout)}
	if c.Enabled() {
		opts = append(opts,
			devutil.WithModelName(c.ModelName()),
			devutil.WithTimeout(c.Timeout),
			devutil.WithMaxAttempts(c.MaxAttempts),
		)
		if c.Prices != nil {
			opts = append(opts, devutil.WithPrices(c.Prices))
		}
		if c.DisableJSONMode {
			opts = append(opts, devutil.WithoutJSONMode())
		}
	}
	return devutil.NewRegexGenerator(c.Model, opts...),
		devutil.NewStacktraceAnalyzer(c.Model, opts...),
		devutil.NewReadmeGenerator(c.Model, opts...), nil
}
