package microblog

import (
	"testing"

	"github.com/quiverkit/quiver/internal/testutil"
)

// TestValuesLists checks that each list function names every constant of
// its type, once.
func TestValuesLists(t *testing.T) {
	testutil.CheckValuesList(t, ".", "SearchType", SearchTypes())
	testutil.CheckValuesList(t, ".", "ReplySort", ReplySorts())
	testutil.CheckValuesList(t, ".", "ThreadFormat", ThreadFormats())
}
