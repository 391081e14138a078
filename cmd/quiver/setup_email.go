package main

import (
	"context"

	"github.com/quiverkit/quiver/httpapi"
)

// emailSetup registers the flags of package email.
func emailSetup(f *flags) func(context.Context, *httpapi.Config) error {
	return func(context.Context, *httpapi.Config) error { return nil }
}
