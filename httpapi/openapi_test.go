package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/quiverkit/quiver/httpapi"
)

func fetchOpenAPI(t *testing.T, h http.Handler) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/openapi.json", nil))
	if rec.Code != 200 {
		t.Fatalf("GET /openapi.json: %d", rec.Code)
	}
	return rec.Body.Bytes()
}

// TestOpenAPIDocument validates the served document as OpenAPI 3.1 and
// checks that it lists exactly the routes the handler serves.
func TestOpenAPIDocument(t *testing.T) {
	h := httpapi.New(httpapi.Config{Keys: []string{"k"}})
	raw := fetchOpenAPI(t, h)
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatalf("loading: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Errorf("openapi = %q, want 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("the document is not valid OpenAPI: %v", err)
	}
	routes := httpapi.Routes()
	if len(routes) == 0 {
		t.Fatal("no routes")
	}
	documented := 0
	for _, item := range doc.Paths.Map() {
		documented += len(item.Operations())
	}
	if documented != len(routes)+1 { // + /healthz
		t.Errorf("document has %d operations, handler serves %d routes + /healthz", documented, len(routes))
	}
	for _, rt := range routes {
		method, path, _ := strings.Cut(rt, " ")
		item := doc.Paths.Find(path)
		if item == nil || item.GetOperation(method) == nil {
			t.Errorf("route %s is not in the document", rt)
			continue
		}
		// Every documented route is served: anything but 404 and 405.
		req := httptest.NewRequest(method, path, nil)
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "h")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if strings.Contains(rec.Body.String(), `"no route for `) || rec.Code == http.StatusMethodNotAllowed {
			t.Errorf("%s: documented but answered %d: %s", rt, rec.Code, rec.Body)
		}
	}
}

// TestOpenAPIResponsesMatch checks real responses against the document's
// schemas, so the schemas describe what the handler sends.
func TestOpenAPIResponsesMatch(t *testing.T) {
	h := httpapi.New(httpapi.Config{Keys: []string{"k"}})
	doc, err := openapi3.NewLoader().LoadFromData(fetchOpenAPI(t, h))
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://quiver.test"}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	calls := []struct{ method, path, body string }{
		{"POST", "/v1/dev/data/base64/encode", `{"value":"hello"}`},
		{"POST", "/v1/dev/data/base64/decode", `{"value":"%%%"}`},
		{"POST", "/v1/dev/data/base64/decode", `{}`},
		{"POST", "/v1/dev/data/base64/decode", `not json`},
		{"GET", "/healthz", ``},
	}
	for _, c := range calls {
		req := httptest.NewRequest(c.method, "http://quiver.test"+c.path, strings.NewReader(c.body))
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "h")
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		route, params, err := router.FindRoute(req)
		if err != nil {
			t.Fatalf("%s %s: %v", c.method, c.path, err)
		}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
		out := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: in,
			Status:                 rec.Code,
			Header:                 rec.Header(),
			Body:                   io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
			Options:                &openapi3filter.Options{IncludeResponseStatus: true},
		}
		if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
			t.Errorf("%s %s -> %d %s\ndoes not match the document: %v", c.method, c.path, rec.Code, rec.Body, err)
		}
		var env map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &env) != nil {
			t.Errorf("not JSON: %s", rec.Body)
		}
	}
}
