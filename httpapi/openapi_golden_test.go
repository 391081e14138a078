package httpapi_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.json from the served document")

// goldenOpenAPI is the document that a handler of the zero Config (but
// for its key) serves, byte for byte.
var goldenOpenAPI = filepath.Join("testdata", "openapi.json")

// TestOpenAPIGolden pins the served /openapi.json, so that every change of
// the document (a route, a field, an enum, a description) shows in review
// as a change of testdata/openapi.json. Regenerate it with
//
//	go test ./httpapi -run TestOpenAPIGolden -update
func TestOpenAPIGolden(t *testing.T) {
	got := fetchOpenAPI(t, mustNew(t, httpapi.Config{Keys: []secret.String{"k"}}))
	if *update {
		if err := os.WriteFile(goldenOpenAPI, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenOpenAPI)
	if err != nil {
		t.Fatalf("%v; create it with: go test ./httpapi -run TestOpenAPIGolden -update", err)
	}
	if !bytes.Equal(got, want) {
		line, g, w := firstDifference(got, want)
		t.Errorf("the served /openapi.json differs from %s at line %d:\n got: %s\nwant: %s\n"+
			"if the change is meant, regenerate it with: go test ./httpapi -run TestOpenAPIGolden -update",
			goldenOpenAPI, line, g, w)
	}
}

// firstDifference returns the number of the first line where a and b
// differ, and that line of each ("<end>" past the last).
func firstDifference(a, b []byte) (line int, la, lb string) {
	as, bs := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	at := func(ls [][]byte, i int) string {
		if i < len(ls) {
			return string(ls[i])
		}
		return "<end>"
	}
	for i := range max(len(as), len(bs)) {
		if la, lb = at(as, i), at(bs, i); la != lb {
			return i + 1, la, lb
		}
	}
	return 0, "", ""
}
