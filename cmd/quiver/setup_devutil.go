package main

import (
	"github.com/quiverkit/quiver/devutil"
)

// devutilSetup binds the flags of package devutil. Its model-backed
// generators use the shared language model (contentSetup); without one
// regex generation answers from its built-in catalog.
func devutilSetup(f *flags, c *config) {
	bind(f, &c.Devutil.RegexMatchTimeout, "regex-match-timeout", devutil.DefaultRegexMatchTimeout,
		"bound on each test-case match when checking a generated regex in a backtracking flavor")
}
