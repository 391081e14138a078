package devutil

import (
	"context"
	"strings"
	"testing"
)

// TestCatalogPassesItsOwnCheck runs every catalog pattern through the
// check a model's pattern goes through (compiled in its flavor, anchored,
// run against its test cases with a match timeout). Requests do not
// repeat it.
func TestCatalogPassesItsOwnCheck(t *testing.T) {
	for _, e := range catalog {
		for _, flavor := range []string{FlavorPCRE, FlavorPython, FlavorJavaScript, FlavorGo, FlavorRE2, FlavorDotNet} {
			res := e.result(flavor)
			if msg := checkAnchored(res.Pattern, flavor); msg != "" {
				t.Errorf("%s/%s: %s", e.name, flavor, msg)
			}
			m, err := compileFlavor(res.Pattern, flavor, DefaultRegexMatchTimeout)
			if err != nil {
				t.Errorf("%s/%s: %v", e.name, flavor, err)
				continue
			}
			if failures := runTestCases(m, res.TestCases); len(failures) > 0 {
				t.Errorf("%s/%s: %s", e.name, flavor, strings.Join(failures, "; "))
			}
		}
	}
}

// TestCatalogAnswerIsCheap checks that a catalog answer is a lookup, not
// a compilation: it used to compile the pattern and run its test cases on
// every request (1,300 allocations and 140 µs for IPv6).
func TestCatalogAnswerIsCheap(t *testing.T) {
	var g RegexGenerator // the zero value: no model, catalog only
	req := RegexGenerateRequest{Description: "IPv6 address", Flavor: "pcre"}
	allocs := testing.AllocsPerRun(20, func() {
		if _, _, err := g.Generate(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 20 {
		t.Errorf("a catalog answer takes %.0f allocations", allocs)
	}
}

func TestTopLevelAlternation(t *testing.T) {
	for p, want := range map[string]bool{
		`^a|b$`:          true,
		`^(a)|(b)$`:      true,
		`^a$|^b$`:        true,
		`^(?:a|b)$`:      false,
		`^[|]$`:          false,
		`^\|$`:           false,
		`^\Q|\E$`:        false,
		`^[]|]$`:         false,
		`^[^]|]$`:        false,
		`^[[:alpha:]|]$`: false,
		`^[\]|]$`:        false,
		`^(a(b|c))$`:     false,
		`^\Qx\E|y$`:      true,
	} {
		if got := topLevelAlternation(p); got != want {
			t.Errorf("topLevelAlternation(%#q) = %v, want %v", p, got, want)
		}
	}
}

func TestInlineMultiline(t *testing.T) {
	for p, want := range map[string]bool{
		`^(?m)a$`:    true,
		`^(?im:a)$`:  true,
		`(?sm)^a$`:   true,
		`^(?i)a$`:    false,
		`^(?-m)a$`:   false,
		`^(?i-m:a)$`: false,
		`^(?:m)$`:    false,
		`^(?P<m>a)$`: false,
		`^\\(?m)$`:   true,
		`^\(?m\)$`:   false,
		`^[(?m)]$`:   false,
		`^\Q(?m)\E$`: false,
	} {
		if got := inlineMultiline(p); got != want {
			t.Errorf("inlineMultiline(%#q) = %v, want %v", p, got, want)
		}
	}
}
