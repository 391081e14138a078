package microblogtest_test

import (
	"testing"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
)

// The Start functions start the server and close it at the test's
// cleanup.
func TestStart(t *testing.T) {
	t.Run("twitterapi.io", func(t *testing.T) {
		testutil.CheckStart(t, func(tb testing.TB) string { return microblogtest.StartTwitterAPIIO(tb, "key").URL })
	})
	t.Run("x-api-v2", func(t *testing.T) {
		testutil.CheckStart(t, func(tb testing.TB) string { return microblogtest.StartXAPI(tb, "token").URL })
	})
}
