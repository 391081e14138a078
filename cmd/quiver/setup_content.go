package main

import (
	"context"

	"github.com/quiverkit/quiver/httpapi"
)

// contentSetup registers the flags of package content.
func contentSetup(f *flags) func(context.Context, *httpapi.Config) error {
	return func(context.Context, *httpapi.Config) error { return nil }
}
