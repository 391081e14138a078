package devutil

import (
	"go/ast"
	"go/parser"
	"go/token"
	"iter"
	"maps"
	"strings"
	"testing"
)

// fieldDoc returns the doc comment of the field of a struct type declared
// in file.
func fieldDoc(t *testing.T, file, typeName, field string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	ast.Inspect(f, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == typeName {
			for _, fl := range ts.Type.(*ast.StructType).Fields.List {
				if len(fl.Names) > 0 && fl.Names[0].Name == field {
					doc = fl.Doc.Text()
				}
			}
		}
		return true
	})
	if doc == "" {
		t.Fatalf("%s.%s has no doc", typeName, field)
	}
	return doc
}

// docWords returns the words of doc, each passed through fold.
func docWords(doc string, fold func(string) string) map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(doc, func(r rune) bool {
		return r == ' ' || r == '\n' || r == ',' || r == ';' || r == '"' || r == '(' || r == ')'
	}) {
		words[fold(strings.TrimRight(w, ".:"))] = true
		words[fold(w)] = true
	}
	return words
}

// TestAcceptedNamesDocumented keeps the docs of the request fields that
// take a name from a closed set in step with the names accepted: every
// alias is named in the doc, so that no caller has to guess one (issue
// 22).
func TestAcceptedNamesDocumented(t *testing.T) {
	hashDoc := docWords(fieldDoc(t, "hash.go", "HashRequest", "Algorithms"), foldAlgorithm)
	for alias, name := range hashAliases {
		if !hashDoc[alias] {
			t.Errorf("the alias %s of %s is not in the doc of HashRequest.Algorithms", alias, name)
		}
	}
	for _, tt := range []struct {
		file, typ, field string
		names            iter.Seq[string]
	}{
		{"regexgen.go", "RegexGenerateRequest", "Flavor", maps.Keys(flavorNames)},
		{"stacktrace.go", "StacktraceRequest", "Language", maps.Keys(languageNames)},
	} {
		doc := docWords(fieldDoc(t, tt.file, tt.typ, tt.field), strings.ToLower)
		for name := range tt.names {
			if name != "" && !doc[name] {
				t.Errorf("%s.%s accepts %q, which its doc does not name", tt.typ, tt.field, name)
			}
		}
	}
}
