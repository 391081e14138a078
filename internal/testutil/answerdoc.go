package testutil

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// contractLine is one line of an answer contract in a doc comment: a
// tab, the JSON field, its type, and the rules.
var contractLine = regexp.MustCompile(`^\t([a-z_]+)\s+(string\|null|string|number|boolean|\[\]string|\[\]\{[^}]*\})(?:\s|$)`)

// AnswerContract returns the answer contract documented in the doc
// comment of the method recv.method (or of the function method when recv
// is "") declared in the Go files of dir: each field with its type, in
// the notation of the packages' docs. The contract is the code block
// that follows the line holding "Answer contract"; lines whose text
// starts with a space continue the previous one.
func AnswerContract(tb testing.TB, dir, recv, method string) map[string]string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		tb.Fatal(err)
	}
	var doc string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ParseComments)
		if err != nil {
			tb.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == method && receiver(fd) == recv {
				doc = fd.Doc.Text()
			}
		}
	}
	_, contract, found := strings.Cut(doc, "Answer contract")
	if !found {
		tb.Fatalf("the doc of %s.%s has no answer contract", recv, method)
	}
	fields := map[string]string{}
	for line := range strings.SplitSeq(contract, "\n") {
		if strings.HasPrefix(line, "\t ") || !strings.HasPrefix(line, "\t") {
			continue
		}
		m := contractLine.FindStringSubmatch(line)
		if m == nil {
			tb.Errorf("%s.%s: the contract line %q does not read as a field and a type", recv, method, line)
			continue
		}
		fields[m[1]] = m[2]
	}
	return fields
}

func receiver(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// CheckAnswerContract checks that the answer contract documented for
// recv.method names exactly the JSON fields of answer, the type the
// model's answer decodes into, with their types (and, for arrays of
// objects, the objects' fields), apart from the fields in setByQuiver,
// which the operation fills itself.
func CheckAnswerContract(tb testing.TB, dir, recv, method string, answer reflect.Type, setByQuiver ...string) {
	tb.Helper()
	doc := AnswerContract(tb, dir, recv, method)
	want := map[string]string{}
	for name, t := range jsonFields(answer) {
		if !slices.Contains(setByQuiver, name) {
			want[name] = notation(t)
		}
	}
	for name, typ := range doc {
		switch w, ok := want[name]; {
		case !ok:
			tb.Errorf("%s.%s: the doc names %s, which the answer does not have", recv, method, name)
		case w != normalize(typ):
			tb.Errorf("%s.%s: the doc gives %s the type %s; the answer's is %s", recv, method, name, typ, w)
		}
	}
	for name, w := range want {
		if _, ok := doc[name]; !ok {
			tb.Errorf("%s.%s: the answer's field %s (%s) is not in the doc", recv, method, name, w)
		}
	}
}

// jsonFields returns the JSON fields of a struct type, embedded structs
// flattened, by name.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, hasTag := sf.Tag.Lookup("json")
		name, _, _ := strings.Cut(tag, ",")
		if sf.Anonymous && !hasTag && sf.Type.Kind() == reflect.Struct {
			for n, ft := range jsonFields(sf.Type) {
				out[n] = ft
			}
			continue
		}
		if !sf.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		out[name] = sf.Type
	}
	return out
}

// notation writes a Go type in the contracts' notation.
func notation(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return notation(t.Elem()) + "|null"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64, reflect.Float32:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			var names []string
			for n := range jsonFields(t.Elem()) {
				names = append(names, n)
			}
			slices.Sort(names)
			return "[]{" + strings.Join(names, ", ") + "}"
		}
		return "[]" + notation(t.Elem())
	}
	return t.String()
}

// normalize sorts the fields of an array-of-objects type.
func normalize(typ string) string {
	inner, ok := strings.CutPrefix(typ, "[]{")
	if !ok {
		return typ
	}
	var names []string
	for n := range strings.SplitSeq(strings.TrimSuffix(inner, "}"), ",") {
		names = append(names, strings.TrimSpace(n))
	}
	slices.Sort(names)
	return "[]{" + strings.Join(names, ", ") + "}"
}
