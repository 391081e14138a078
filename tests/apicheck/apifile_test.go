package apicheck

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite api/quiver.txt from the code (TestAPIFile)")

// apiFile is the API file, relative to the module root.
const apiFile = "api/quiver.txt"

// regenerate is the command that rewrites the API file.
const regenerate = "go test ./tests/apicheck -run TestAPIFile -update"

// TestAPIFile keeps api/quiver.txt equal to the public API of the code,
// so that a change to an exported identifier shows in review as a line
// of that file, and a removed or changed line asks for a CHANGELOG.md
// note (CONVENTIONS.md rule 8). With -update it rewrites the file.
func TestAPIFile(t *testing.T) {
	got, err := API("../..", module+"/...")
	if err != nil {
		t.Fatal(err)
	}
	// A file written from nothing guards nothing: the public packages
	// must have been read.
	for _, want := range []string{
		"pkg " + module + "/email, func New(Config) (*Verifier, error)",
		"pkg " + module + "/resolver/resolvertest, func Start(testing.TB, Config) *Server",
	} {
		if !slices.Contains(got, want) {
			t.Fatalf("the API has no line %q", want)
		}
	}
	for _, line := range got {
		if strings.Contains(line, "/internal/") || strings.Contains(line, module+"/tests/") || strings.Contains(line, "/cmd/") || strings.Contains(line, "/examples/") {
			t.Errorf("line of a package outside the API: %s", line)
		}
	}

	path := filepath.Join("../..", apiFile)
	text := strings.Join(got, "\n") + "\n"
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d lines", apiFile, len(got))
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v\nwrite it with:\n\t%s", err, regenerate)
	}
	if string(data) == text {
		return
	}
	added, removed := lineDiff(strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"), got)
	t.Errorf("%s differs from the code (+ in the code only, - in the file only):\n%s"+
		"If the change is meant, regenerate the file with\n\t%s\n"+
		"and, for every removed or changed line, add a note to CHANGELOG.md (CONVENTIONS.md rule 8).",
		apiFile, formatDiff(added, removed, 40), regenerate)
}

// lineDiff returns the lines of want missing from have (added) and those
// of have missing from want (removed): the file is a sorted set of
// lines, so that is its whole difference.
func lineDiff(have, want []string) (added, removed []string) {
	in := func(lines []string) map[string]bool {
		m := make(map[string]bool, len(lines))
		for _, l := range lines {
			m[l] = true
		}
		return m
	}
	h, w := in(have), in(want)
	for _, l := range want {
		if !h[l] {
			added = append(added, l)
		}
	}
	for _, l := range have {
		if !w[l] {
			removed = append(removed, l)
		}
	}
	if len(added) == 0 && len(removed) == 0 && !slices.Equal(have, want) {
		// Same lines, other order or repeats: the file was edited by hand.
		removed = append(removed, "(the file's lines are not sorted and unique)")
	}
	return added, removed
}

// formatDiff writes the removed lines ("-") and the added ones ("+"),
// sorted together so that a changed line shows as a pair, at most max
// of them.
func formatDiff(added, removed []string, max int) string {
	var lines []string
	for _, l := range removed {
		lines = append(lines, "- "+l)
	}
	for _, l := range added {
		lines = append(lines, "+ "+l)
	}
	slices.SortStableFunc(lines, func(a, b string) int { return strings.Compare(a[2:], b[2:]) })
	var b strings.Builder
	for i, l := range lines {
		if i == max {
			fmt.Fprintf(&b, "\t... and %d more lines\n", len(lines)-max)
			break
		}
		b.WriteString("\t" + l + "\n")
	}
	return b.String()
}
