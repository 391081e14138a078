package webcheck

import (
	"testing"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/internal/weburl"
)

// TestValuesLists checks that each list function names every constant of
// its type, once.
func TestValuesLists(t *testing.T) {
	testutil.CheckValuesList(t, ".", "Risk", Risks())
	testutil.CheckValuesList(t, ".", "KeyType", KeyTypes())
	testutil.CheckValuesList(t, ".", "URLWarningCode", URLWarningCodes())
	// Every warning the parser can report has a constant here.
	for _, c := range URLWarningCodes() {
		if weburl.WarningMessage(string(c)) == "" {
			t.Errorf("%s: the parser has no such warning", c)
		}
	}
}
