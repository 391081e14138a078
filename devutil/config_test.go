package devutil_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/llm"
)

// withModel returns c with its Model set to m.
func withModel(c llm.Config, m llms.Model) llm.Config {
	c.Model = m
	return c
}

func newRegexGenerator(t *testing.T, cfg devutil.Config) *devutil.RegexGenerator {
	t.Helper()
	g, err := devutil.NewRegexGenerator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func newAnalyzer(t *testing.T, c llm.Config) *devutil.StacktraceAnalyzer {
	t.Helper()
	a, err := devutil.NewStacktraceAnalyzer(devutil.Config{LLM: c})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func newReadmeGenerator(t *testing.T, c llm.Config) *devutil.ReadmeGenerator {
	t.Helper()
	g, err := devutil.NewReadmeGenerator(devutil.Config{LLM: c})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestConstructorsRejectInvalidConfig checks that each constructor
// reports a configuration that cannot work, naming the field.
func TestConstructorsRejectInvalidConfig(t *testing.T) {
	constructors := map[string]func(devutil.Config) (any, error){
		"NewRegexGenerator":     func(c devutil.Config) (any, error) { return devutil.NewRegexGenerator(c) },
		"NewStacktraceAnalyzer": func(c devutil.Config) (any, error) { return devutil.NewStacktraceAnalyzer(c) },
		"NewReadmeGenerator":    func(c devutil.Config) (any, error) { return devutil.NewReadmeGenerator(c) },
	}
	tests := []struct {
		cfg   devutil.Config
		field string
		llm   bool // the model settings are at fault: llm.ErrInvalidConfig too
	}{
		{devutil.Config{RegexMatchTimeout: -time.Second}, "RegexMatchTimeout", false},
		{devutil.Config{LLM: llm.Config{MaxAttempts: -1}}, "MaxAttempts", true},
		{devutil.Config{LLM: llm.Config{Timeout: -1}}, "Timeout", true},
	}
	for name, newT := range constructors {
		if _, err := newT(devutil.Config{}); err != nil {
			t.Errorf("%s(zero Config) = %v", name, err)
		}
		for _, tt := range tests {
			_, err := newT(tt.cfg)
			if !errors.Is(err, devutil.ErrInvalidConfig) || errors.Is(err, llm.ErrInvalidConfig) != tt.llm || !strings.Contains(err.Error(), tt.field) {
				t.Errorf("%s(%+v) = %v, want devutil.ErrInvalidConfig naming %s (and llm.ErrInvalidConfig: %v)", name, tt.cfg, err, tt.field, tt.llm)
			}
		}
	}
}
