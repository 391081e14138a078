package apicheck

import (
	"slices"
	"strings"
	"testing"
)

// TestNoInternalTypesInPublicAPI is the guard of CONVENTIONS.md rule 1
// (issue 12): no exported identifier of a non-internal package of this
// module names a type under internal/.
func TestNoInternalTypesInPublicAPI(t *testing.T) {
	violations, checked, err := Check("../..", "github.com/quiverkit/quiver/...")
	if err != nil {
		t.Fatal(err)
	}
	// A guard that checks nothing passes for nothing: the public
	// packages must have been read.
	for _, want := range []string{"github.com/quiverkit/quiver/httpapi", "github.com/quiverkit/quiver/email", "github.com/quiverkit/quiver/llm"} {
		if !slices.Contains(checked, want) {
			t.Fatalf("%s was not checked; checked %v", want, checked)
		}
	}
	for _, p := range checked {
		if isInternal(p) || strings.HasSuffix(p, "/cmd/quiver") {
			t.Errorf("checked %s, which is internal or a command", p)
		}
	}
	for _, v := range violations {
		t.Errorf("%s: make the type public (documented) or stop exporting the identifier", v)
	}
}

// TestCheckFindsEveryKind runs the checker on a fixture module that
// exposes an internal type in every way the rule names.
func TestCheckFindsEveryKind(t *testing.T) {
	violations, checked, err := Check("testdata/fixture", "./...")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"example.com/fixture/api", "example.com/fixture/clean"}; !slices.Equal(checked, want) {
		t.Errorf("checked %v, want %v", checked, want)
	}
	var got []string
	for _, v := range violations {
		if v.Pkg != "example.com/fixture/api" {
			t.Errorf("violation outside package api: %s", v)
		}
		got = append(got, v.Name+" "+v.Type)
	}
	slices.Sort(got)
	want := []string{
		"(*Method).Set example.com/fixture/internal/secret.T",
		"Alias example.com/fixture/internal/secret.T",
		"Arg.G example.com/fixture/internal/secret.Gen[*example.com/fixture/internal/secret.T]",
		"Embedded.T example.com/fixture/internal/secret.T",
		"Field.Public example.com/fixture/internal/secret.T",
		"Generic[N] example.com/fixture/internal/secret.Number",
		"Iface.Do example.com/fixture/internal/secret.T",
		"Instance.G example.com/fixture/internal/secret.Gen[int]",
		"Method.Get example.com/fixture/internal/secret.T",
		"Param example.com/fixture/internal/secret.T",
		"Result example.com/fixture/internal/secret.T",
		"TypeParam[E] example.com/fixture/internal/secret.Number",
		"Unexported.Leak example.com/fixture/internal/secret.T",
		"Var example.com/fixture/internal/secret.T",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
