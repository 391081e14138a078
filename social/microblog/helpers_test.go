package microblog_test

import (
	"testing"
	"time"

	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
)

// replay starts the loopback server of a provider ("twitterapi.io" or
// "x-api-v2") that accepts credential, closed when the test ends.
func replay(t testing.TB, provider, credential string) *microblogtest.Server {
	t.Helper()
	if provider == "x-api-v2" {
		return microblogtest.StartXAPI(t, credential)
	}
	return microblogtest.StartTwitterAPIIO(t, credential)
}

// newClient returns a Client over p with the fixed clock.
func newClient(t testing.TB, p microblog.Provider) *microblog.Client {
	t.Helper()
	c, err := microblog.New(microblog.Config{Provider: p, Now: func() time.Time { return fixed }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// must returns v; a constructor error in a test's setup panics.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
