package main

import (
	"context"

	"github.com/quiverkit/quiver/httpapi"
)

// microblogSetup registers the flags of package microblog.
func microblogSetup(f *flags) func(context.Context, *httpapi.Config) error {
	return func(context.Context, *httpapi.Config) error { return nil }
}
