package llmjson

import (
	"strings"
	"testing"
)

func TestDecodeWantsOneObject(t *testing.T) {
	type answer struct {
		Title string `json:"title"`
	}
	for in, wantOK := range map[string]bool{
		`{"title":"x"}`:                   true,
		"```json\n{\"title\":\"x\"}\n```": true,
		`null`:                            false,
		`"just text"`:                     false,
		`[{"title":"x"}]`:                 false,
		`{"title":"x"} {"title":"y"}`:     false,
		`{"title":"x","extra":1}`:         false,
		``:                                false,
	} {
		var a answer
		problems := decode(in, &a)
		if ok := len(problems) == 0; ok != wantOK {
			t.Errorf("decode(%q) problems = %v, want ok=%v", in, problems, wantOK)
		}
		if !wantOK && len(problems) > 0 && strings.TrimSpace(problems[0]) == "" {
			t.Errorf("decode(%q): empty problem text", in)
		}
	}
}
