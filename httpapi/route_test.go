package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestRouteExamplesDecode: every row of the route table that takes a body
// or query parameters carries an example request, and the route's own
// decoder takes it, strictly; a route that takes neither carries none.
// The OpenAPI document shows these examples, and the /docs page sends
// them.
func TestRouteExamplesDecode(t *testing.T) {
	routes, _ := newServer(Config{}).routes() // a service that cannot be built still has its routes
	if len(routes) < 40 {
		t.Fatalf("the table has %d routes", len(routes))
	}
	for _, rt := range routes {
		t.Run(rt.pattern(), func(t *testing.T) {
			ex := rt.requestExample
			if ex == "" && (rt.query != nil || rt.body != nil || rt.form) {
				t.Fatal("no example request: give the row one with .example(...)")
			}
			switch {
			case rt.query != nil:
				r := httptest.NewRequest(rt.method, rt.path+"?"+ex, nil)
				if err := decodeQuery(r, reflect.New(rt.query).Interface()); err != nil {
					t.Errorf("the example query %q does not decode: %v", ex, err)
				}
			case rt.body != nil:
				r := httptest.NewRequest(rt.method, rt.path, strings.NewReader(ex))
				r.Header.Set("Content-Type", "application/json")
				if err := decodeJSON(r, reflect.New(rt.body).Interface()); err != nil {
					t.Errorf("the example body does not decode: %v\n%s", err, ex)
				}
			case rt.form:
				checkFormExample(t, rt, ex)
			case ex != "":
				t.Errorf("an example %q for a route that takes no body nor query", ex)
			}
		})
	}
}

// checkFormExample checks the example of an upload: an object of the file,
// a string, and of the route's boolean form fields.
func checkFormExample(t *testing.T, rt route, ex string) {
	t.Helper()
	var fields map[string]any
	if err := json.Unmarshal([]byte(ex), &fields); err != nil {
		t.Fatalf("the example is not a JSON object: %v", err)
	}
	if _, ok := fields["file"].(string); !ok {
		t.Errorf("the example has no file string: %s", ex)
	}
	for name, v := range fields {
		if _, ok := v.(bool); name != "file" && (!ok || !slices.Contains(rt.formFields, name)) {
			t.Errorf("the example's field %s=%v is not one of the boolean form fields %v", name, v, rt.formFields)
		}
	}
}
