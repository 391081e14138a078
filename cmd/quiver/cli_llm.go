package main

import (
	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
)

// contentGenerator returns the generator the content commands use: the
// model of c, or the extractive fallback without one, as the server's.
func contentGenerator(c llm.Config) *content.Generator {
	if !c.Enabled() {
		return content.New(nil)
	}
	opts := []content.Option{
		content.WithModelName(c.ModelName()),
		content.WithTimeout(c.Timeout),
		content.WithMaxAttempts(c.MaxAttempts),
		content.WithPrices(c.PriceTable()),
	}
	if c.DisableJSONMode {
		opts = append(opts, content.WithoutJSONMode())
	}
	return content.New(c.Model, opts...)
}

// devutilOptions returns the options of the model-backed devutil
// commands: the regex match timeout and the model's settings.
func devutilOptions(cfg *httpapi.Config) []devutil.Option {
	opts := []devutil.Option{devutil.WithMatchTimeout(cfg.RegexMatchTimeout)}
	if c := cfg.LLM; c.Enabled() {
		opts = append(opts,
			devutil.WithModelName(c.ModelName()),
			devutil.WithTimeout(c.Timeout),
			devutil.WithMaxAttempts(c.MaxAttempts),
			devutil.WithPrices(c.PriceTable()),
		)
		if c.DisableJSONMode {
			opts = append(opts, devutil.WithoutJSONMode())
		}
	}
	return opts
}
