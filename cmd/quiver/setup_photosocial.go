package main

import (
	"context"

	"github.com/quiverkit/quiver/httpapi"
)

// photosocialSetup registers the flags of package photosocial.
func photosocialSetup(f *flags) func(context.Context, *httpapi.Config) error {
	return func(context.Context, *httpapi.Config) error { return nil }
}
