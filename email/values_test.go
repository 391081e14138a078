package email

import (
	"slices"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/mailauth"
)

// TestValuesLists checks that each list function names every constant of
// its type, once.
func TestValuesLists(t *testing.T) {
	testutil.CheckValuesList(t, ".", "Reason", Reasons())
	testutil.CheckValuesList(t, ".", "Reachability", Reachabilities())
	testutil.CheckValuesList(t, ".", "ReachabilityReason", ReachabilityReasons())
	testutil.CheckValuesList(t, ".", "Provider", Providers())
	testutil.CheckValuesList(t, ".", "MXStatus", MXStatuses())
	testutil.CheckValuesList(t, ".", "SMTPStatus", SMTPStatuses())
	testutil.CheckValuesList(t, ".", "SMTPReason", SMTPReasons())
	testutil.CheckValuesList(t, ".", "Verdict", Verdicts())
	testutil.CheckValuesList(t, ".", "ProblemCode", ProblemCodes())
	testutil.CheckValuesList(t, ".", "RequirementID", RequirementIDs())
	testutil.CheckValuesList(t, ".", "RequirementStatus", RequirementStatuses())
}

// TestProblemCodesHoldMailauths checks that every mailauth code the
// record checks pass on under its own word (all but SPF's and DMARC's,
// which domain health reports under codes of its own) is a ProblemCode
// constant, so that ProblemCodes lists every code a Problem can carry.
func TestProblemCodesHoldMailauths(t *testing.T) {
	codes := ProblemCodes()
	for _, c := range mailauth.Codes() {
		if strings.HasPrefix(string(c), "spf_") || strings.HasPrefix(string(c), "dmarc_") {
			continue
		}
		if !slices.Contains(codes, ProblemCode(c)) {
			t.Errorf("mailauth code %s is no ProblemCode", c)
		}
	}
}
