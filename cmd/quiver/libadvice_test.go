package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The packages say what to configure in their own terms (a Config
// field): their messages give no advice that only holds for cmd/quiver,
// whose flags and QUIVER_* variables docs/operations.md documents.
func TestLibrariesGiveNoCommandAdvice(t *testing.T) {
	advice := regexp.MustCompile(`QUIVER_[A-Z]|quiver serve|\s-workers|\s-redis-url|-llm-provider`)
	dirs := []string{"content", "devutil", "social/microblog", "social/photosocial", "internal/llmjson", "internal/upstream", "httpapi", "llm", "email", "email/jobs", "webcheck"}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && advice.MatchString(lit.Value) {
					t.Errorf("%s: %s gives cmd/quiver's advice", fset.Position(lit.Pos()), lit.Value)
				}
				return true
			})
		}
	}
}
