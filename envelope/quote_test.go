package envelope

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", `""`},
		{"a\"b\n", `"a\"b\n"`},
		{strings.Repeat("x", MaxQuote), `"` + strings.Repeat("x", MaxQuote) + `"`},
		{strings.Repeat("x", MaxQuote+1), `"` + strings.Repeat("x", MaxQuote) + `"... (101 bytes)`},
		{strings.Repeat("é", 1<<20), `"` + strings.Repeat("é", MaxQuote) + `"... (2097152 bytes)`},
		{strings.Repeat("\xff", 200), `"` + strings.Repeat(`\xff`, MaxQuote) + `"... (200 bytes)`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%.20q...) = %.200s, want %.200s", tt.in, got, tt.want)
		}
	}
}
