package apicheck

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/quiverkit/quiver"

// allowedUp are the public packages that a package under internal/ may
// import: envelope, the module's error vocabulary, which the plumbing
// returns.
var allowedUp = []string{module + "/envelope"}

// TestInternalIsOneLayer keeps internal/ the plumbing that the services
// use: no package under it imports a package of this module outside
// internal/, but envelope. (What sits above the services, such as the
// consumer module and these checks, lives under tests/.) Test files are
// not counted: an in-package test cannot import a package above it
// without a cycle, and an external test package is not part of the
// layer.
func TestInternalIsOneLayer(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}}", module+"/internal/...")
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var listed []string
	for line := range strings.Lines(string(out)) {
		pkg, imports, _ := strings.Cut(strings.TrimSpace(line), "\t")
		listed = append(listed, pkg)
		for imp := range strings.FieldsSeq(imports) {
			if !strings.HasPrefix(imp, module+"/") || isInternal(imp) || slices.Contains(allowedUp, imp) {
				continue
			}
			t.Errorf("%s imports %s: a package under internal/ may import only internal packages and envelope; move the shared type down, or the package up (under tests/ if it sits above the services)", pkg, imp)
		}
	}
	// A guard that reads nothing passes for nothing.
	for _, want := range []string{module + "/internal/safehttp", module + "/internal/sentiment", module + "/internal/testutil"} {
		if !slices.Contains(listed, want) {
			t.Fatalf("%s was not listed; listed %v", want, listed)
		}
	}
}
