package main

import (
	"context"
	"fmt"
	"time"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/httpapi"
)

// devutilSetup registers the flags of package devutil. Regex generation
// uses the shared language model (Config.LLM and LLMSettings); without
// one it answers from its built-in catalog.
func devutilSetup(f *flags) func(context.Context, *httpapi.Config) error {
	var matchTimeout time.Duration
	f.Duration(&matchTimeout, "regex-match-timeout", "QUIVER_REGEX_MATCH_TIMEOUT", devutil.DefaultRegexMatchTimeout,
		"bound on each test-case match when checking a generated regex in a backtracking flavor")
	return func(_ context.Context, cfg *httpapi.Config) error {
		if matchTimeout <= 0 {
			return fmt.Errorf("-regex-match-timeout must be positive, got %v", matchTimeout)
		}
		cfg.RegexMatchTimeout = matchTimeout
		return nil
	}
}
