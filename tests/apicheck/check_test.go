// Package apicheck guards Quiver's public API.
//
// [Check] finds exported identifiers of non-internal packages whose
// types name a type of an internal package: the rule of CONVENTIONS.md
// that a user never meets a type they cannot import, read the
// documentation of, or construct. It reads the packages' export data,
// which `go list -export` builds (and the build cache keeps), and walks
// every exported declaration with go/types: variables, constants,
// functions and their type parameters, types and their exported fields,
// embedded fields, methods, interface methods and alias targets, through
// pointers, slices, maps, channels, function types, and the type
// arguments of generic instances. Unexported types of the same package
// that an exported declaration exposes are walked too.
//
// [API] writes the public API as the lines of api/quiver.txt, and
// TestAPIFile fails when the file and the code differ, with the lines
// that differ and the command that rewrites the file:
//
//	go test ./tests/apicheck -run TestAPIFile -update
//
// Its tests also keep internal/ one layer (TestInternalIsOneLayer: no
// package under it imports a public package but envelope) and
// type-check the Go snippets of README.md and docs/*.md. Its code is all in test
// files, so that it adds nothing to the API it checks.
package apicheck

import (
	"bufio"
	"bytes"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Violation is one exported identifier that names an internal type.
type Violation struct {
	Pkg  string // import path of the package that exports Name
	Name string // the identifier, e.g. "Config.Metrics" or "(*Client).Do"
	Type string // the internal type it names
}

func (v Violation) String() string {
	return fmt.Sprintf("%s.%s names %s", v.Pkg, v.Name, v.Type)
}

// Check lists the packages matching patterns in the module at dir with
// `go list -export`, and returns the violations of every non-internal,
// non-main package that has code outside its tests, and the import paths
// it checked.
func Check(dir string, patterns ...string) (violations []Violation, checked []string, err error) {
	imp, listed, err := Importer(dir, patterns...)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range listed {
		if p.Name == "main" || isInternal(p.Path) || p.TestOnly {
			continue
		}
		pkg, err := imp.ImportFrom(p.Path, dir, 0)
		if err != nil {
			return nil, nil, fmt.Errorf("import %s: %w", p.Path, err)
		}
		violations = append(violations, checkPackage(pkg)...)
		checked = append(checked, p.Path)
	}
	return violations, checked, nil
}

// Package is a package that matched the patterns of [Importer].
type Package struct {
	Path     string // import path
	Name     string // package name
	TestOnly bool   // it has no Go files but tests, so no API
}

// Importer returns an importer of the packages matching patterns in the
// module at dir, and of their dependencies, from the export data that
// `go list -export` builds; and the packages that matched.
func Importer(dir string, patterns ...string) (types.ImporterFrom, []Package, error) {
	if err := dependOnSources(dir); err != nil {
		return nil, nil, err
	}
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{.Name}}\t{{.DepOnly}}\t{{len .GoFiles}}"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list: %w\n%s", err, stderr.String())
	}
	exports := map[string]string{}
	var listed []Package
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 5 {
			continue
		}
		exports[f[0]] = f[1]
		if f[3] != "true" {
			listed = append(listed, Package{Path: f[0], Name: f[2], TestOnly: f[4] == "0"})
		}
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	return imp.(types.ImporterFrom), listed, nil
}

// dependOnSources tells go test's result cache that the test reads the
// module's sources at dir. The test reads them through `go list`, in
// another process, which the cache does not see: without this, a test
// run after a change of the API would replay the result of the run
// before it, "(cached)". The cache notes the directories a test opens
// (their listings) and the files it stats.
func dependOnSources(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			return f.Close()
		}
		if strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum" {
			_, err = os.Stat(path)
		}
		return err
	})
}

// isInternal reports whether path has an element "internal".
func isInternal(path string) bool {
	return slices.Contains(strings.Split(path, "/"), "internal")
}

// checker walks the API of one package.
type checker struct {
	pkg  *types.Package
	seen map[types.Type]bool // unexported local types already walked
	out  []Violation
}

func checkPackage(pkg *types.Package) []Violation {
	c := &checker{pkg: pkg, seen: map[types.Type]bool{}}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.TypeName:
			c.typeDecl(name, obj)
		case *types.Func:
			c.walk(name, obj.Type())
		default: // Var, Const
			c.walk(name, obj.Type())
		}
	}
	return c.out
}

// typeDecl walks a declared type: an alias's target, or a named type's
// type parameters, structure and methods.
func (c *checker) typeDecl(name string, obj *types.TypeName) {
	if obj.IsAlias() {
		c.walk(name, types.Unalias(obj.Type()))
		return
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		return
	}
	c.typeParams(name, named.TypeParams())
	c.structure(name, named.Underlying())
	for m := range named.Methods() {
		if m.Exported() {
			c.walk(methodName(name, m), m.Type())
		}
	}
}

func methodName(typ string, m *types.Func) string {
	if sig, ok := m.Type().(*types.Signature); ok && sig.Recv() != nil {
		if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
			return "(*" + typ + ")." + m.Name()
		}
	}
	return typ + "." + m.Name()
}

func (c *checker) typeParams(name string, tps *types.TypeParamList) {
	for tp := range tps.TypeParams() {
		c.walk(name+"["+tp.Obj().Name()+"]", tp.Constraint())
	}
}

// structure walks the exported parts of a type's underlying type: struct
// fields (embedded ones included) and interface methods (embedded ones
// included); any other type is walked whole.
func (c *checker) structure(name string, t types.Type) {
	switch u := t.(type) {
	case *types.Struct:
		for f := range u.Fields() {
			if f.Exported() || f.Embedded() {
				c.walk(name+"."+f.Name(), f.Type())
			}
		}
	case *types.Interface:
		for m := range u.Methods() {
			if m.Exported() {
				c.walk(name+"."+m.Name(), m.Type())
			}
		}
		for e := range u.EmbeddedTypes() {
			c.walk(name, e)
		}
	default:
		c.walk(name, t)
	}
}

// walk reports every internal named type that t mentions.
func (c *checker) walk(name string, t types.Type) {
	switch t := t.(type) {
	case *types.Alias:
		if p := t.Obj().Pkg(); p != nil && isInternal(p.Path()) {
			c.report(name, t)
			return
		}
		c.walk(name, types.Unalias(t))
	case *types.Named:
		obj := t.Obj()
		if p := obj.Pkg(); p != nil && isInternal(p.Path()) {
			c.report(name, t)
			return
		}
		for a := range t.TypeArgs().Types() {
			c.walk(name, a)
		}
		// An unexported type of this package that the API exposes is
		// part of the API: its exported fields and methods are reachable.
		if obj.Pkg() == c.pkg && !obj.Exported() && !c.seen[t] {
			c.seen[t] = true
			c.typeDecl(name, obj)
		}
	case *types.Pointer:
		c.walk(name, t.Elem())
	case *types.Slice:
		c.walk(name, t.Elem())
	case *types.Array:
		c.walk(name, t.Elem())
	case *types.Map:
		c.walk(name, t.Key())
		c.walk(name, t.Elem())
	case *types.Chan:
		c.walk(name, t.Elem())
	case *types.Signature:
		c.typeParams(name, t.TypeParams())
		for v := range t.Params().Variables() {
			c.walk(name, v.Type())
		}
		for v := range t.Results().Variables() {
			c.walk(name, v.Type())
		}
	case *types.Struct, *types.Interface:
		c.structure(name, t)
	case *types.TypeParam:
		// Its constraint is walked where it is declared (typeParams).
	case *types.Union:
		for term := range t.Terms() {
			c.walk(name, term.Type())
		}
	}
}

func (c *checker) report(name string, t types.Type) {
	c.out = append(c.out, Violation{Pkg: c.pkg.Path(), Name: name, Type: t.String()})
}
