package photosocial

import (
	"testing"

	"github.com/quiverkit/quiver/internal/testutil"
)

// TestValuesLists checks that each list function names every constant of
// its type, once.
func TestValuesLists(t *testing.T) {
	testutil.CheckValuesList(t, ".", "MediaType", MediaTypes())
	testutil.CheckValuesList(t, ".", "RuleName", RuleNames())
	testutil.CheckValuesList(t, ".", "FlagSource", FlagSources())
	testutil.CheckValuesList(t, ".", "EvidenceKind", EvidenceKinds())
	// Every moderation rule has its name listed, in order.
	for i, r := range moderationRules {
		if RuleNames()[i] != r.Name {
			t.Errorf("rule %d is %s, RuleNames lists %s", i, r.Name, RuleNames()[i])
		}
	}
}
