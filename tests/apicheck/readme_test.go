package apicheck

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readmeImports are the packages a README snippet may use, by the name it
// uses them under. The test imports them all; an unused one is no error.
var readmeImports = map[string]string{
	"context":         "context",
	"errors":          "errors",
	"fmt":             "fmt",
	"log":             "log",
	"http":            "net/http",
	"redis":           "github.com/redis/go-redis/v9",
	"jobs":            "github.com/quiverkit/quiver/email/jobs",
	"os":              "os",
	"strings":         "strings",
	"time":            "time",
	"content":         "github.com/quiverkit/quiver/content",
	"devutil":         "github.com/quiverkit/quiver/devutil",
	"email":           "github.com/quiverkit/quiver/email",
	"envelope":        "github.com/quiverkit/quiver/envelope",
	"httpapi":         "github.com/quiverkit/quiver/httpapi",
	"redislimit":      "github.com/quiverkit/quiver/httpapi/redislimit",
	"llm":             "github.com/quiverkit/quiver/llm",
	"llmtest":         "github.com/quiverkit/quiver/llm/llmtest",
	"mailauth":        "github.com/quiverkit/quiver/mailauth",
	"resolver":        "github.com/quiverkit/quiver/resolver",
	"resolvertest":    "github.com/quiverkit/quiver/resolver/resolvertest",
	"microblog":       "github.com/quiverkit/quiver/social/microblog",
	"photosocial":     "github.com/quiverkit/quiver/social/photosocial",
	"photosocialtest": "github.com/quiverkit/quiver/social/photosocial/photosocialtest",
	"microblogtest":   "github.com/quiverkit/quiver/social/microblog/microblogtest",
	"secret":          "github.com/quiverkit/quiver/secret",
	"social":          "github.com/quiverkit/quiver/social",
	"webcheck":        "github.com/quiverkit/quiver/webcheck",
	"llms":            "github.com/tmc/langchaingo/llms",
	"ollama":          "github.com/tmc/langchaingo/llms/ollama",
	"openai":          "github.com/tmc/langchaingo/llms/openai",
	"prometheus":      "github.com/prometheus/client_golang/prometheus",
	"promhttp":        "github.com/prometheus/client_golang/prometheus/promhttp",
}

// readmeGivens are the names that the README's prose gives a snippet
// (a context, the bytes of a robots.txt, a list of addresses, a text, a
// crash log, a langchaingo model); any other name a snippet uses it must
// declare.
const readmeGivens = `
var (
	ctx      = context.Background()
	body     []byte
	addrs    []string
	text     string
	crashLog string
	model    llms.Model
)
`

// snippet is one ```go block of the README or of a page under docs/.
type snippet struct {
	line int // of the opening fence
	code string
}

func readmeSnippets(t *testing.T, path string) []snippet {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []snippet
	var cur *snippet
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```go":
			cur = &snippet{line: n}
		case cur != nil && strings.TrimSpace(line) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.code += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: unterminated ```go block", path, cur.line)
	}
	return out
}

// snippetDocs are the documents whose ```go blocks are type-checked:
// README.md and every page under docs/.
func snippetDocs(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, docs...)
}

// TestREADMESnippetsCompile type-checks every ```go block of README.md and
// of docs/*.md as the body of a function returning error, with the public
// packages imported and the givens of readmeGivens declared. Unused
// variables and imports are allowed (a snippet shows calls, not a whole
// program); anything else the compiler would reject fails. A snippet also
// may not reach through a pointer field without a nil check in front of it.
func TestREADMESnippetsCompile(t *testing.T) {
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range readmeImports {
			if !yield(n) {
				return
			}
		}
	})
	var paths []string
	for _, n := range names {
		paths = append(paths, readmeImports[n])
	}
	imp, _, err := Importer("../..", paths...)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, doc := range snippetDocs(t) {
		name := strings.TrimPrefix(doc, "../../")
		snippets := readmeSnippets(t, doc)
		total += len(snippets)
		for _, sn := range snippets {
			checkSnippet(t, imp, names, name, sn)
		}
	}
	if total < 15 {
		t.Fatalf("found %d Go snippets in README.md and docs/*.md; the extraction is broken", total)
	}
}

// checkSnippet type-checks one snippet of the document name, reporting
// errors at the document's lines.
func checkSnippet(t *testing.T, imp types.Importer, names []string, name string, sn snippet) {
	t.Helper()
	var src strings.Builder
	src.WriteString("package readme\n\nimport (\n")
	for _, n := range names {
		fmt.Fprintf(&src, "\t%s %q\n", n, readmeImports[n])
	}
	src.WriteString(")\n" + readmeGivens + "\nfunc snippet() error {\n")
	header := strings.Count(src.String(), "\n")
	src.WriteString(sn.code + "\treturn nil\n}\n")

	fset := token.NewFileSet()
	at := func(p token.Pos) string {
		return fmt.Sprintf("%s:%d", name, sn.line+fset.Position(p).Line-header)
	}
	file, err := parser.ParseFile(fset, "snippet.go", src.String(), 0)
	if err != nil {
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
			t.Errorf("%s:%d: the snippet does not parse: %s", name, sn.line+list[0].Pos.Line-header, list[0].Msg)
		} else {
			t.Errorf("%s:%d: the snippet does not parse: %v", name, sn.line, err)
		}
		return
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: imp, Error: func(err error) {
		te := err.(types.Error)
		if strings.Contains(te.Msg, "declared and not used") || strings.Contains(te.Msg, "and not used") {
			return
		}
		t.Errorf("%s: %s", at(te.Pos), te.Msg)
	}}
	conf.Check("readme", fset, []*ast.File{file}, info)
	for _, d := range nilDerefs(file, info) {
		t.Errorf("%s: %s is a pointer that may be nil; check it before reaching through it", at(d.Pos()), types.ExprString(d))
	}
}

// nilDerefs returns the struct fields of pointer type that the code
// reaches through (p.F.G or *p.F) with no `p.F != nil` in the condition
// of an enclosing if statement or switch case.
func nilDerefs(file *ast.File, info *types.Info) []ast.Expr {
	var out []ast.Expr
	var stack []ast.Node
	guarded := func(e ast.Expr) bool {
		want := types.ExprString(e) + " != nil"
		for _, n := range stack {
			switch n := n.(type) {
			case *ast.IfStmt:
				if strings.Contains(types.ExprString(n.Cond), want) {
					return true
				}
			case *ast.CaseClause: // of a switch without a tag
				for _, e := range n.List {
					if strings.Contains(types.ExprString(e), want) {
						return true
					}
				}
			}
		}
		return false
	}
	pointerField := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return false
		}
		_, ptr := s.Type().Underlying().(*types.Pointer)
		return ptr
	}
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		var through ast.Expr
		switch n := n.(type) {
		case *ast.SelectorExpr:
			through = n.X
		case *ast.StarExpr:
			through = n.X
		}
		if through != nil && pointerField(through) && !guarded(ast.Unparen(through)) {
			out = append(out, ast.Unparen(through))
		}
		return true
	})
	return out
}

func TestNilDerefs(t *testing.T) {
	const src = `package p
type Name struct{ Org string }
type Res struct {
	Issuer *Name
	Value  Name
}
func f(res Res) string {
	_ = res.Value.Org
	if res.Issuer != nil {
		_ = res.Issuer.Org
		_ = *res.Issuer
	}
	switch {
	case res.Issuer != nil && res.Value.Org == "":
		_ = res.Issuer.Org
	case res.Value.Org != "":
		_ = res.Issuer.Org
	}
	_ = *res.Issuer
	return res.Issuer.Org
}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, d := range nilDerefs(file, info) {
		got = append(got, fset.Position(d.Pos()).Line)
	}
	if want := []int{17, 19, 20}; !slices.Equal(got, want) {
		t.Errorf("unguarded dereferences on lines %v, want %v", got, want)
	}
}

// TestCIRunsTheREADMECommand keeps .ci/run running exactly the test
// command that README.md gives.
func TestCIRunsTheREADMECommand(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for line := range strings.Lines(string(readme)) {
		if strings.HasPrefix(line, `test -z "$(gofmt -l .)"`) {
			want = strings.TrimSpace(line)
		}
	}
	lines := strings.Split(strings.TrimSpace(string(ci)), "\n")
	if got := lines[len(lines)-1]; want == "" || got != want {
		t.Errorf(".ci/run ends with\n\t%s\nREADME.md's test command is\n\t%s", got, want)
	}
	if !strings.Contains(want, "cd tests/consumer") {
		t.Errorf("the test command does not test the consumer module: %s", want)
	}
	if _, err := os.Stat("../consumer/go.mod"); err != nil {
		t.Errorf("the consumer module is not where the test command looks: %v", err)
	}
}
