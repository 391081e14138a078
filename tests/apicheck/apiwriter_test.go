package apicheck

import (
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// API returns the lines of the API file of the packages matching
// patterns in the module at dir: one line per exported identifier of
// every non-internal, non-main package that has code outside its tests,
// sorted, in the style of the Go project's api/go1.*.txt:
//
//	pkg example.com/m/p, const Max = 10
//	pkg example.com/m/p, const Max ideal-int
//	pkg example.com/m/p, const StatusOK Status
//	pkg example.com/m/p, func New(Config) (*Client, error)
//	pkg example.com/m/p, method (*Client) Do(context.Context, []uint8) error
//	pkg example.com/m/p, type Config struct
//	pkg example.com/m/p, type Config struct, Timeout time.Duration
//	pkg example.com/m/p, type Config struct, embedded Base
//	pkg example.com/m/p, type Doer interface { Do }
//	pkg example.com/m/p, type Doer interface, Do(context.Context, []uint8) error
//	pkg example.com/m/p, type Set[$0 comparable] struct
//	pkg example.com/m/p, var ErrClosed error
//
// A line says what a user can name, and with which type: a line that
// changes or goes away is a change a user's program may notice. So that
// only such changes move a line, the writing is canonical: types are
// written whole and by their identity (an alias by its target, byte as
// uint8 and rune as int32, the empty interface as any), another
// package's types are qualified by its name, type parameters are
// numbered ($0, $1...) in the order they are declared, and a method set
// counts the methods promoted from embedded fields.
func API(dir string, patterns ...string) ([]string, error) {
	imp, listed, err := Importer(dir, patterns...)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, p := range listed {
		if p.Name == "main" || p.TestOnly || isInternal(p.Path) || slices.Contains(strings.Split(p.Path, "/"), "tests") {
			continue
		}
		pkg, err := imp.ImportFrom(p.Path, dir, 0)
		if err != nil {
			return nil, fmt.Errorf("import %s: %w", p.Path, err)
		}
		lines = append(lines, packageAPI(pkg)...)
	}
	slices.Sort(lines)
	return slices.Compact(lines), nil
}

// apiWriter writes the API lines of one package.
type apiWriter struct {
	pkg    *types.Package
	tparam map[*types.TypeName]string // type parameter in scope → "$N"
	lines  []string
}

func packageAPI(pkg *types.Package) []string {
	w := &apiWriter{pkg: pkg, tparam: map[*types.TypeName]string{}}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Const:
			if obj.Exported() {
				w.constant(obj)
			}
		case *types.Var:
			if obj.Exported() {
				w.emit("var %s %s", name, w.typ(obj.Type()))
			}
		case *types.Func:
			if obj.Exported() {
				sig := obj.Signature()
				tps := w.tparams(sig.TypeParams())
				w.emit("func %s%s%s", name, tps, w.signature(sig))
				w.unbind(sig.TypeParams())
			}
		case *types.TypeName:
			if obj.Exported() {
				w.typeDecl(obj)
			}
		}
	}
	return w.lines
}

func (w *apiWriter) emit(format string, args ...any) {
	w.lines = append(w.lines, "pkg "+w.pkg.Path()+", "+fmt.Sprintf(format, args...))
}

// constant writes a constant's type and its value: both are what a
// program compiled against it sees.
func (w *apiWriter) constant(c *types.Const) {
	w.emit("const %s %s", c.Name(), w.typ(c.Type()))
	// Exact, so that every change shows: a float may read as a fraction.
	w.emit("const %s = %s", c.Name(), c.Val().ExactString())
}

// typeDecl writes a declared type: an alias's target; or a named type's
// type parameters and structure (exported fields and embedded ones, or
// interface methods), and the exported methods of its method set and of
// its pointer's, promoted ones included.
func (w *apiWriter) typeDecl(obj *types.TypeName) {
	name := obj.Name()
	if obj.IsAlias() {
		w.emit("type %s = %s", name, w.typ(obj.Type()))
		return
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		return
	}
	// The type's parameters stay bound for its fields, and for the
	// methods promoted from a field whose type is instantiated with them.
	head := name + w.tparams(named.TypeParams())
	defer w.unbind(named.TypeParams())
	switch u := named.Underlying().(type) {
	case *types.Struct:
		w.emit("type %s struct", head)
		w.fields(head, u, 0)
	case *types.Interface:
		w.emit("type %s interface %s", head, w.interfaceSummary(u))
		for m := range u.Methods() {
			if m.Exported() {
				w.emit("type %s interface, %s%s", head, m.Name(), w.signature(m.Signature()))
			}
		}
		return // an interface's methods are its lines above
	default:
		w.emit("type %s %s", head, w.typ(u))
	}

	value := types.NewMethodSet(named)
	for sel := range value.Methods() {
		w.method(named, false, sel)
	}
	for sel := range types.NewMethodSet(types.NewPointer(named)).Methods() {
		if value.Lookup(sel.Obj().Pkg(), sel.Obj().Name()) == nil {
			w.method(named, true, sel)
		}
	}
}

// fields writes the exported fields of a struct and its embedded fields
// of exported types. A field embedded by an unexported type is no name a
// user can write, but the exported fields it promotes are: they are
// written as the struct's own (to a depth that no real struct reaches).
func (w *apiWriter) fields(head string, st *types.Struct, depth int) {
	for f := range st.Fields() {
		switch {
		case f.Embedded() && f.Exported():
			w.emit("type %s struct, embedded %s", head, w.typ(f.Type()))
		case f.Embedded():
			t := f.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if inner, ok := t.Underlying().(*types.Struct); ok && depth < 8 {
				w.fields(head, inner, depth+1)
			}
		case f.Exported():
			w.emit("type %s struct, %s %s", head, f.Name(), w.typ(f.Type()))
		}
	}
}

// method writes one method of recv's method set (of *recv if ptr).
func (w *apiWriter) method(recv *types.Named, ptr bool, sel *types.Selection) {
	m := sel.Obj().(*types.Func)
	if !m.Exported() {
		return
	}
	sig := m.Signature()
	// A method declared on a generic type has its own receiver type
	// parameters; one promoted from a field has those of its type.
	w.bind(sig.RecvTypeParams())
	defer w.unbind(sig.RecvTypeParams())
	r := recv.Obj().Name()
	if n := recv.TypeParams().Len(); n > 0 {
		var args []string
		for i := range n {
			args = append(args, "$"+strconv.Itoa(i))
		}
		r += "[" + strings.Join(args, ", ") + "]"
	}
	if ptr {
		r = "*" + r
	}
	w.emit("method (%s) %s%s", r, m.Name(), w.signature(sig))
}

// bind numbers type parameters $0, $1... in their order; unbind forgets them.
func (w *apiWriter) bind(l *types.TypeParamList) {
	for i := range l.Len() {
		w.tparam[l.At(i).Obj()] = "$" + strconv.Itoa(i)
	}
}

func (w *apiWriter) unbind(l *types.TypeParamList) {
	for tp := range l.TypeParams() {
		delete(w.tparam, tp.Obj())
	}
}

// tparams writes a type parameter list, "[$0 comparable, $1 any]", and
// binds its names for the declaration it heads (the caller unbinds them).
func (w *apiWriter) tparams(l *types.TypeParamList) string {
	if l.Len() == 0 {
		return ""
	}
	w.bind(l)
	var b strings.Builder
	b.WriteByte('[')
	for i := range l.Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		tp := l.At(i)
		b.WriteString(w.tparam[tp.Obj()] + " " + w.typ(tp.Constraint()))
	}
	b.WriteByte(']')
	return b.String()
}

// interfaceSummary writes the braces of a declared interface: the names
// of its exported methods, embedded ones included, then its type terms.
func (w *apiWriter) interfaceSummary(it *types.Interface) string {
	var parts []string
	unexported := false
	for m := range it.Methods() {
		if m.Exported() {
			parts = append(parts, m.Name())
		} else {
			unexported = true
		}
	}
	if unexported {
		parts = append(parts, "unexported methods")
	}
	parts = append(parts, w.terms(it)...)
	if len(parts) == 0 {
		return "{}"
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// terms writes what an interface embeds besides methods: unions, single
// type terms and comparable, as a constraint declares them.
func (w *apiWriter) terms(it *types.Interface) []string {
	var out []string
	for e := range it.EmbeddedTypes() {
		if types.IsInterface(e) && !isComparable(e) {
			// Its methods are in it.Methods(); its terms, if any, are
			// written through it.
			if u, ok := e.Underlying().(*types.Interface); ok {
				out = append(out, w.terms(u)...)
			}
			continue
		}
		out = append(out, w.typ(e))
	}
	return out
}

func isComparable(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() == nil && n.Obj().Name() == "comparable"
}

// signature writes a function's parameters and results, without names.
func (w *apiWriter) signature(sig *types.Signature) string {
	var b strings.Builder
	b.WriteByte('(')
	for i := range sig.Params().Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		t := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			b.WriteString("..." + w.typ(t.(*types.Slice).Elem()))
			continue
		}
		b.WriteString(w.typ(t))
	}
	b.WriteByte(')')
	switch res := sig.Results(); res.Len() {
	case 0:
	case 1:
		b.WriteString(" " + w.typ(res.At(0).Type()))
	default:
		b.WriteString(" (")
		for i := range res.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(w.typ(res.At(i).Type()))
		}
		b.WriteByte(')')
	}
	return b.String()
}

// typ writes a type as the API file says it.
func (w *apiWriter) typ(t types.Type) string {
	switch t := t.(type) {
	case *types.Alias:
		return w.typ(types.Unalias(t))
	case *types.Basic:
		return basicName(t)
	case *types.Named:
		obj := t.Obj()
		s := obj.Name()
		if p := obj.Pkg(); p != nil && p != w.pkg {
			s = p.Name() + "." + s
		}
		if args := t.TypeArgs(); args.Len() > 0 {
			var as []string
			for a := range args.Types() {
				as = append(as, w.typ(a))
			}
			s += "[" + strings.Join(as, ", ") + "]"
		}
		return s
	case *types.TypeParam:
		if s, ok := w.tparam[t.Obj()]; ok {
			return s
		}
		return t.Obj().Name()
	case *types.Pointer:
		return "*" + w.typ(t.Elem())
	case *types.Slice:
		return "[]" + w.typ(t.Elem())
	case *types.Array:
		return "[" + strconv.FormatInt(t.Len(), 10) + "]" + w.typ(t.Elem())
	case *types.Map:
		return "map[" + w.typ(t.Key()) + "]" + w.typ(t.Elem())
	case *types.Chan:
		elem := w.typ(t.Elem())
		switch t.Dir() {
		case types.SendOnly:
			return "chan<- " + elem
		case types.RecvOnly:
			return "<-chan " + elem
		}
		if c, ok := t.Elem().(*types.Chan); ok && c.Dir() == types.RecvOnly {
			elem = "(" + elem + ")"
		}
		return "chan " + elem
	case *types.Signature:
		return "func" + w.signature(t)
	case *types.Struct:
		if t.NumFields() == 0 {
			return "struct{}"
		}
		var fs []string
		for f := range t.Fields() {
			if f.Embedded() {
				fs = append(fs, w.typ(f.Type()))
			} else {
				fs = append(fs, f.Name()+" "+w.typ(f.Type()))
			}
		}
		return "struct{ " + strings.Join(fs, "; ") + " }"
	case *types.Interface:
		var parts []string
		for m := range t.Methods() {
			parts = append(parts, m.Name()+w.signature(m.Signature()))
		}
		parts = append(parts, w.terms(t)...)
		if len(parts) == 0 {
			return "any"
		}
		return "interface{ " + strings.Join(parts, "; ") + " }"
	case *types.Union:
		var ts []string
		for term := range t.Terms() {
			s := w.typ(term.Type())
			if term.Tilde() {
				s = "~" + s
			}
			ts = append(ts, s)
		}
		return strings.Join(ts, " | ")
	case *types.Tuple:
		var ts []string
		for v := range t.Variables() {
			ts = append(ts, w.typ(v.Type()))
		}
		return "(" + strings.Join(ts, ", ") + ")"
	}
	return t.String()
}

// basicName writes a basic type by its kind, so that byte and uint8 (and
// rune and int32), one type under two names, are written alike; an
// untyped constant's type is written as Go's api files do, ideal-int.
func basicName(t *types.Basic) string {
	switch t.Kind() {
	case types.Uint8:
		return "uint8"
	case types.Int32:
		return "int32"
	case types.UnsafePointer:
		return "unsafe.Pointer"
	case types.UntypedBool:
		return "ideal-bool"
	case types.UntypedInt:
		return "ideal-int"
	case types.UntypedRune:
		return "ideal-rune"
	case types.UntypedFloat:
		return "ideal-float"
	case types.UntypedComplex:
		return "ideal-complex"
	case types.UntypedString:
		return "ideal-string"
	case types.UntypedNil:
		return "nil"
	}
	return types.Typ[t.Kind()].Name()
}
