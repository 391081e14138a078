package testutil

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// CheckValuesList fails tb unless listed, the values a package's list
// function returns for its closed set typeName (as email.MXStatuses()),
// are exactly the values of the package-level constants of that type
// declared in the non-test Go files of dir, each once. It type-checks
// the package from source, so that constants defined by conversion
// (MXStatus(mailauth.CodeX)) count with their values.
func CheckValuesList[S ~string](tb testing.TB, dir, typeName string, listed []S) {
	tb.Helper()
	declared := declaredValues(tb, dir, typeName)
	got := map[string]int{}
	for _, v := range listed {
		got[string(v)]++
	}
	for v, n := range got {
		switch {
		case n > 1:
			tb.Errorf("%s: %q listed %d times", typeName, v, n)
		case !slices.Contains(declared, v):
			tb.Errorf("%s: %q listed but no constant has it", typeName, v)
		}
	}
	for _, v := range declared {
		if got[v] == 0 {
			tb.Errorf("%s: constant value %q missing from the list", typeName, v)
		}
	}
}

// declaredValues returns the values of the exported constants of type
// typeName declared at package level in dir, in declaration order,
// without repeats.
func declaredValues(tb testing.TB, dir, typeName string) []string {
	tb.Helper()
	root, module := moduleRoot(tb, dir)
	im := &sourceImporter{root: root, module: module, fset: token.NewFileSet(), pkgs: map[string]*types.Package{}}
	pkg, err := im.check(dir, "")
	if err != nil {
		tb.Fatal(err)
	}
	typ := pkg.Scope().Lookup(typeName)
	if typ == nil {
		tb.Fatalf("no type %s in %s", typeName, dir)
	}
	type decl struct {
		pos token.Pos
		val string
	}
	var consts []decl
	for _, name := range pkg.Scope().Names() {
		c, ok := pkg.Scope().Lookup(name).(*types.Const)
		if ok && c.Exported() && types.Identical(c.Type(), typ.Type()) && c.Val().Kind() == constant.String {
			consts = append(consts, decl{c.Pos(), constant.StringVal(c.Val())})
		}
	}
	slices.SortFunc(consts, func(a, b decl) int { return int(a.pos - b.pos) })
	var out []string
	for _, c := range consts {
		if !slices.Contains(out, c.val) {
			out = append(out, c.val)
		}
	}
	if len(out) == 0 {
		tb.Fatalf("no constants of type %s in %s", typeName, dir)
	}
	return out
}

// moduleRoot returns the directory holding the go.mod above dir and the
// module's path.
func moduleRoot(tb testing.TB, dir string) (root, module string) {
	tb.Helper()
	d, err := filepath.Abs(dir)
	if err != nil {
		tb.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			for line := range strings.Lines(string(b)) {
				if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return d, strings.Trim(strings.TrimSpace(m), `"`)
				}
			}
			tb.Fatalf("no module line in %s", filepath.Join(d, "go.mod"))
		}
		parent := filepath.Dir(d)
		if parent == d {
			tb.Fatalf("no go.mod above %s", dir)
		}
		d = parent
	}
}

// sourceImporter type-checks the module's packages from their source
// and stands in empty packages for the others: enough to know the values
// of constants, which never come from outside the module here, without
// building the dependencies. Errors about what the empty packages lack
// are ignored.
type sourceImporter struct {
	root, module string
	fset         *token.FileSet
	pkgs         map[string]*types.Package
}

func (im *sourceImporter) Import(path string) (*types.Package, error) {
	if p, ok := im.pkgs[path]; ok {
		return p, nil
	}
	rel, ok := strings.CutPrefix(path, im.module)
	if !ok || (rel != "" && rel[0] != '/') {
		p := types.NewPackage(path, filepath.Base(path))
		p.MarkComplete()
		im.pkgs[path] = p
		return p, nil
	}
	return im.check(filepath.Join(im.root, filepath.FromSlash(rel)), path)
}

// check type-checks the non-test Go files of dir as the package path.
func (im *sourceImporter) check(dir, path string) (*types.Package, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(im.fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go files in %s", dir)
	}
	if path == "" {
		path = files[0].Name.Name
	}
	conf := types.Config{Importer: im, Error: func(error) {}}
	pkg, _ := conf.Check(path, im.fset, files, nil)
	im.pkgs[path] = pkg
	return pkg, nil
}
