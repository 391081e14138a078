package photosocialtest_test

import (
	"testing"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/social/photosocial/photosocialtest"
)

// The Start functions start the server and close it at the test's
// cleanup.
func TestStart(t *testing.T) {
	t.Run("graph", func(t *testing.T) {
		testutil.CheckStart(t, func(tb testing.TB) string { return photosocialtest.StartGraph(tb, "token").URL })
	})
	t.Run("apify", func(t *testing.T) {
		testutil.CheckStart(t, func(tb testing.TB) string { return photosocialtest.StartApify(tb, "token").URL })
	})
}
