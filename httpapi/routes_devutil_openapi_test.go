package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/internal/llmtest"
)

// TestDevOpenAPI checks the requests and responses of every devutil
// route, successes and failures, against the served OpenAPI document.
func TestDevOpenAPI(t *testing.T) {
	srv := llmtest.NewOpenAI(t,
		llmtest.Reply{Content: `{"pattern":"^[0-9]{5}$","explanation":"Five digits.","test_cases":[{"string":"10115","should_match":true},{"string":"80331","should_match":true},{"string":"1011","should_match":false},{"string":"x","should_match":false}]}`, PromptTokens: 10, CompletionTokens: 5},
		llmtest.Reply{Content: `{"suggestion":"Initialize the map."}`, PromptTokens: 10, CompletionTokens: 5},
		llmtest.Reply{Content: `{"description":"A tool.","features":["F."]}`, PromptTokens: 10, CompletionTokens: 5})
	withModel := httpapi.New(httpapi.Config{Keys: []string{"k"}, RatePerSecond: -1, LLM: srv.Model(t, "m"), LLMSettings: httpapi.LLMSettings{Model: "m"}})
	plain := httpapi.New(httpapi.Config{Keys: []string{"k"}, RatePerSecond: -1})
	doc, err := openapi3.NewLoader().LoadFromData(fetchOpenAPI(t, plain))
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://quiver.test"}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	goTrace := jsonString("panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:9 +0x45\n")
	calls := []struct {
		model bool
		path  string
		body  string
	}{
		{false, "/v1/dev/data/hash", `{"value":"abc","algorithms":["sha256","nope"],"hmac_key":"k"}`},
		{false, "/v1/dev/data/hash", `{"value":"a","encoding":"x"}`},
		{false, "/v1/dev/data/json/format", `{"text":"{\"a\":1,\"a\":2}","indent":0,"sort_keys":true}`},
		{false, "/v1/dev/data/json/format", `{"text":"{,}"}`},
		{false, "/v1/dev/data/json/format", `{"text":"1","indent":9}`},
		{false, "/v1/dev/regex/explain", `{"pattern":"^(?<y>\\d+)+$"}`},
		{false, "/v1/dev/regex/explain", `{"pattern":"("}`},
		{false, "/v1/dev/regex/generate", `{"description":"uuid","flavor":"javascript"}`},
		{false, "/v1/dev/regex/generate", `{"description":"German postcodes"}`},
		{true, "/v1/dev/regex/generate", `{"description":"German postcodes","flavor":"go"}`},
		{false, "/v1/dev/stacktrace", `{"stacktrace":` + goTrace + `}`},
		{false, "/v1/dev/stacktrace", `{"stacktrace":"hello"}`},
		{true, "/v1/dev/stacktrace", `{"stacktrace":` + goTrace + `,"framework":"gin"}`},
		{false, "/v1/dev/readme", `{"repo_name":"r","description":"d","language":"go","stack":["Go"],"features":["f"],"install_commands":["make"],"usage_example":"x","license":"MIT"}`},
		{false, "/v1/dev/readme", `{"repo_name":"r"}`},
		{false, "/v1/dev/readme", `{"repo_name":"r","description":"d","polish":true}`},
		{true, "/v1/dev/readme", `{"repo_name":"r","description":"d","features":["f"],"polish":true}`},
	}
	for _, c := range calls {
		h := plain
		if c.model {
			h = withModel
		}
		req := httptest.NewRequest("POST", "http://quiver.test"+c.path, strings.NewReader(c.body))
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "h")
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		route, params, err := router.FindRoute(req)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		in := &openapi3filter.RequestValidationInput{Request: httptest.NewRequest("POST", "http://quiver.test"+c.path, strings.NewReader(c.body)), PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
		in.Request.Header = req.Header
		if rec.Code == 200 {
			if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
				t.Errorf("%s %s: request does not match the document: %v", c.path, c.body, err)
			}
		}
		out := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: in,
			Status:                 rec.Code,
			Header:                 rec.Header(),
			Body:                   io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
			Options:                &openapi3filter.Options{IncludeResponseStatus: true},
		}
		if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
			t.Errorf("%s %s -> %d %.300s\ndoes not match the document: %v", c.path, c.body, rec.Code, rec.Body, err)
		}
	}
}
