package mailauth

import (
	"testing"

	"github.com/quiverkit/quiver/internal/testutil"
)

// TestValuesLists checks that each list function names every constant of
// its type, once.
func TestValuesLists(t *testing.T) {
	testutil.CheckValuesList(t, ".", "Code", Codes())
	testutil.CheckValuesList(t, ".", "Severity", Severities())
	testutil.CheckValuesList(t, ".", "RecordStatus", RecordStatuses())
}
