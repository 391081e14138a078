package main

import (
	"context"

	"github.com/quiverkit/quiver/httpapi"
)

// webcheckSetup registers the flags of package webcheck.
func webcheckSetup(f *flags) func(context.Context, *httpapi.Config) error {
	return func(context.Context, *httpapi.Config) error { return nil }
}
