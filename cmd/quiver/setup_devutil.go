package main

import (
	"context"

	"github.com/quiverkit/quiver/httpapi"
)

// devutilSetup registers the flags of package devutil.
func devutilSetup(f *flags) func(context.Context, *httpapi.Config) error {
	return func(context.Context, *httpapi.Config) error { return nil }
}
