package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/devutil"
	qenvelope "github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/social"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/photosocial"
)

// TestConstructorsWrapTheirSentinels: every constructor that takes an
// llm.Config reports one that cannot work with an error wrapping both
// llm.ErrInvalidConfig and its own package's ErrInvalidConfig, as a user
// tests them with errors.Is (issue 22: photosocial.New wrapped only
// llm's).
func TestConstructorsWrapTheirSentinels(t *testing.T) {
	bad := llm.Config{Timeout: -time.Second}
	for _, tt := range []struct {
		name string
		own  error
		new  func() error
	}{
		{"photosocial.New", photosocial.ErrInvalidConfig, func() error { _, err := photosocial.New(photosocial.Config{LLM: bad}); return err }},
		{"content.New", content.ErrInvalidConfig, func() error { _, err := content.New(content.Config{LLM: bad}); return err }},
		{"devutil.NewRegexGenerator", devutil.ErrInvalidConfig, func() error { _, err := devutil.NewRegexGenerator(devutil.Config{LLM: bad}); return err }},
		{"devutil.NewStacktraceAnalyzer", devutil.ErrInvalidConfig, func() error { _, err := devutil.NewStacktraceAnalyzer(devutil.Config{LLM: bad}); return err }},
		{"devutil.NewReadmeGenerator", devutil.ErrInvalidConfig, func() error { _, err := devutil.NewReadmeGenerator(devutil.Config{LLM: bad}); return err }},
	} {
		err := tt.new()
		if !errors.Is(err, llm.ErrInvalidConfig) || !errors.Is(err, tt.own) || !strings.Contains(fmtErr(err), "Timeout") {
			t.Errorf("%s: err = %v; want it to wrap llm.ErrInvalidConfig and %v, naming Timeout", tt.name, err, tt.own)
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestZeroValuesAsDocumented checks what the docs promise of zero values.
func TestZeroValuesAsDocumented(t *testing.T) {
	ctx := context.Background()

	// "The zero value is the sentiment of no texts: neutral, mean 0."
	var s social.Sentiment
	b, err := json.Marshal(s)
	if s.Label != social.Neutral || err != nil || !strings.Contains(string(b), `"label":"neutral"`) {
		t.Errorf("zero Sentiment: label %v, JSON %s, %v; want neutral", s.Label, b, err)
	}
	var l social.Label
	if err := json.Unmarshal([]byte(`"negative"`), &l); err != nil || l != social.Negative {
		t.Errorf("decoding a label: %v, %v", l, err)
	}
	if err := json.Unmarshal([]byte(`"meh"`), &l); err == nil {
		t.Error("an unknown label decoded")
	}

	// "the zero value is a Client without a provider ..., which answers
	// every operation with SERVICE_UNAVAILABLE."
	var pc photosocial.Client
	if _, err := pc.Profile(ctx, photosocial.ProfileRequest{Username: "a"}); qenvelope.From(err).Code != qenvelope.CodeServiceUnavailable {
		t.Errorf("zero photosocial.Client: %v", err)
	}
	var mc microblog.Client
	if _, err := mc.Profile(ctx, microblog.ProfileRequest{Username: "a"}); qenvelope.From(err).Code != qenvelope.CodeServiceUnavailable {
		t.Errorf("zero microblog.Client: %v", err)
	}
	// "The zero Generator has no model, like New(Config{})": summaries
	// fall back to extraction, FAQs need a model.
	var g content.Generator
	if _, ai, err := g.Summarize(ctx, content.SummarizeRequest{Text: "Quiver is a toolkit for developers. It checks email and the web."}); err != nil || ai.Model != content.ExtractiveModel {
		t.Errorf("zero content.Generator Summarize: %v, %v", ai.Model, err)
	}
	// "The zero RegexGenerator has no model: only the catalog answers."
	var rg devutil.RegexGenerator
	if r, _, err := rg.Generate(ctx, devutil.RegexGenerateRequest{Description: "email address"}); err != nil || r.Source != "catalog" {
		t.Errorf("zero RegexGenerator: %+v, %v", r, err)
	}
	// "The zero value is an empty list of issues."
	var v qenvelope.ValidationError
	if v.Err() != nil {
		t.Errorf("zero ValidationError: %v", v.Err())
	}
}
