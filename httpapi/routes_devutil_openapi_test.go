package httpapi_test

import (
	"testing"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/secret"
)

// TestDevOpenAPI checks the requests and responses of every devutil
// route, successes and failures, against the served OpenAPI document.
func TestDevOpenAPI(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI,
		llmtest.Reply{Content: `{"pattern":"^[0-9]{5}$","explanation":"Five digits.","test_cases":[{"string":"10115","should_match":true},{"string":"80331","should_match":true},{"string":"1011","should_match":false},{"string":"x","should_match":false}]}`, PromptTokens: 10, CompletionTokens: 5},
		llmtest.Reply{Content: `{"suggestion":"Initialize the map."}`, PromptTokens: 10, CompletionTokens: 5},
		llmtest.Reply{Content: `{"description":"A tool.","features":["F."]}`, PromptTokens: 10, CompletionTokens: 5})
	withModel := mustNew(t, withLLM(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1}, llm.Config{Model: srv.ModelT(t, "m"), Name: "m"}))
	plain := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1})
	router := documentRouter(t, plain)
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
		checkExchange(t, router, h, "POST", c.path, c.body)
	}
}
