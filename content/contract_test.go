package content_test

import (
	"reflect"
	"testing"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/internal/testutil"
)

// TestAnswerContractsDocumented keeps each operation's documented answer
// contract in step with the type its answer decodes into: the same JSON
// fields, with the same types (issue 22: the answer formats were not in
// go doc).
func TestAnswerContractsDocumented(t *testing.T) {
	for _, tt := range []struct {
		method      string
		answer      any
		setByQuiver []string
	}{
		{"Summarize", content.Summary{}, []string{"format"}},
		{"Rewrite", content.Rewrite{}, nil},
		{"MetaTags", content.MetaTags{}, nil},
		{"BlogOutline", content.BlogOutline{}, nil},
		{"ProductDescription", content.ProductDescription{}, nil},
		{"SocialCaption", content.SocialCaptions{}, []string{"platform"}},
		{"Headlines", content.Headlines{}, nil},
		{"FAQ", content.FAQ{}, nil},
	} {
		testutil.CheckAnswerContract(t, ".", "Generator", tt.method, reflect.TypeOf(tt.answer), tt.setByQuiver...)
	}
}
