package devutil

import (
	"reflect"
	"testing"

	"github.com/quiverkit/quiver/internal/testutil"
)

// TestAnswerContractsDocumented keeps the answer contracts documented on
// the model-backed methods in step with the types the answers decode
// into (issue 22).
func TestAnswerContractsDocumented(t *testing.T) {
	testutil.CheckAnswerContract(t, ".", "RegexGenerator", "Generate", reflect.TypeFor[modelAnswer]())
	testutil.CheckAnswerContract(t, ".", "StacktraceAnalyzer", "Analyze", reflect.TypeFor[aiSuggestion]())
	testutil.CheckAnswerContract(t, ".", "ReadmeGenerator", "Generate", reflect.TypeFor[polishedText]())
}
