package envelope_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/envelope"
)

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("é", envelope.MaxExcerpt+5)
	tests := []struct{ in, excerpt, quote string }{
		{"", "", `""`},
		{"md6", "md6", `"md6"`},
		{strings.Repeat("a", envelope.MaxExcerpt), strings.Repeat("a", envelope.MaxExcerpt), `"` + strings.Repeat("a", envelope.MaxExcerpt) + `"`},
		{strings.Repeat("a", 1<<20), strings.Repeat("a", envelope.MaxExcerpt) + "…", `"` + strings.Repeat("a", envelope.MaxExcerpt) + `"…`},
		{long, strings.Repeat("é", envelope.MaxExcerpt) + "…", `"` + strings.Repeat("é", envelope.MaxExcerpt) + `"…`},
		{"a\nb", "a\nb", `"a\nb"`},
	}
	for _, tt := range tests {
		if got := envelope.Excerpt(tt.in); got != tt.excerpt {
			t.Errorf("Excerpt(%.20q...) = %.30q..., want %.30q...", tt.in, got, tt.excerpt)
		}
		if got := envelope.Quote(tt.in); got != tt.quote {
			t.Errorf("Quote(%.20q...) = %.30q..., want %.30q...", tt.in, got, tt.quote)
		}
	}
}

func ExampleQuote() {
	name := strings.Repeat("x", 1<<20) // a 1 MiB field name
	msg := "unknown field " + envelope.Quote(name)
	fmt.Println(len(msg) < 200, strings.HasSuffix(msg, `xxx"…`))
	fmt.Println(envelope.Quote("md6"))
	// Output:
	// true true
	// "md6"
}
