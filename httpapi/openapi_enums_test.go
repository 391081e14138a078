package httpapi

import (
	"reflect"
	"slices"
	"testing"
)

// TestStringEnumsCoverRoutes walks the request, query and response types
// of every route as encoding/json sees them and fails for each named
// string type that has no entry in stringEnums: a closed set whose values
// the OpenAPI document would not list.
func TestStringEnumsCoverRoutes(t *testing.T) {
	routes, _ := newServer(Config{}).routes() // a service that cannot be built still has its routes
	seen := map[reflect.Type]bool{}
	missing := map[reflect.Type][]string{}
	var walk func(t reflect.Type, where string)
	walk = func(t reflect.Type, where string) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.String:
			if t.PkgPath() != "" {
				if _, ok := stringEnums[t]; !ok {
					missing[t] = append(missing[t], where)
				}
			}
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			walk(t.Elem(), where)
		case reflect.Struct:
			for i := range t.NumField() {
				sf := t.Field(i)
				if sf.Anonymous || jsonName(sf) != "" {
					walk(sf.Type, where+"."+sf.Name)
				}
			}
		}
	}
	for _, rt := range routes {
		for _, typ := range []reflect.Type{rt.body, rt.query, rt.response} {
			if typ != nil {
				walk(typ, rt.pattern()+" "+typ.String())
			}
		}
	}
	if len(routes) < 50 {
		t.Fatalf("walked %d routes; the table has more", len(routes))
	}
	var names []string
	for typ, where := range missing {
		names = append(names, typ.String()+" (at "+where[0]+")")
	}
	slices.Sort(names)
	for _, n := range names {
		t.Errorf("named string type %s has no entry in stringEnums", n)
	}
}

// TestStringEnumsAreLists checks each registry entry: values, none empty,
// none twice.
func TestStringEnumsAreLists(t *testing.T) {
	for typ, vals := range stringEnums {
		if len(vals) == 0 {
			t.Errorf("%s: no values", typ)
		}
		seen := map[string]bool{}
		for _, v := range vals {
			if v == "" || seen[v] {
				t.Errorf("%s: value %q empty or listed twice", typ, v)
			}
			seen[v] = true
		}
	}
}
