package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/photosocial"
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
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})
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

// TestOpenAPIDocumentsURLWarnings: the warnings of url/parse, an
// extension beyond the contract, are in the schema and described as
// an extension.
func TestOpenAPIDocumentsURLWarnings(t *testing.T) {
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})
	doc, err := openapi3.NewLoader().LoadFromData(fetchOpenAPI(t, h))
	if err != nil {
		t.Fatal(err)
	}
	op := doc.Paths.Find("/v1/dev/data/url/parse").GetOperation("POST")
	for _, want := range []string{"WHATWG URL Standard", "Extension beyond the contract: warnings", "backslash", "missing_slashes", "stripped_control", "empty_userinfo"} {
		if !strings.Contains(op.Description, want) {
			t.Errorf("url/parse description lacks %q: %s", want, op.Description)
		}
	}
	raw := string(fetchOpenAPI(t, h))
	if !strings.Contains(raw, `"webcheck.URLWarning"`) {
		t.Error("no URLWarning schema in the document")
	}
}

// documentRouter loads the document that h serves and routes requests of
// the host quiver.test through it.
func documentRouter(t *testing.T, h http.Handler) routers.Router {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(fetchOpenAPI(t, h))
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://quiver.test"}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return router
}

// checkExchange sends one request through h (a JSON POST, or a GET when
// method says so) and checks the response, and the request when it
// succeeded, against the document behind router.
func checkExchange(t *testing.T, router routers.Router, h http.Handler, method, path, body string) {
	t.Helper()
	newReq := func() *http.Request {
		req := httptest.NewRequest(method, "http://quiver.test"+path, strings.NewReader(body))
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "h")
		if method == http.MethodPost {
			req.Header.Set("Content-Type", "application/json")
		}
		return req
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, newReq())
	req := newReq() // the handler consumed the first body
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	if rec.Code == http.StatusOK {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			t.Errorf("%s %s %s: the request was served but does not match the document: %v", method, path, body, err)
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
		t.Errorf("%s %s %s -> %d %.300s\ndoes not match the document: %v", method, path, body, rec.Code, rec.Body, err)
	}
}

// TestOpenAPIResponsesMatch checks real responses of every service that
// runs offline against the document's schemas, so that the schemas
// describe what the handler sends. (The devutil routes have their own
// table in routes_devutil_openapi_test.go.)
func TestOpenAPIResponsesMatch(t *testing.T) {
	mb, err := microblog.NewFile(microblog.FileConfig{Paths: []string{"../examples/microblog/data/sample.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{
		Keys:          []secret.String{"k"},
		RatePerSecond: -1,
		Microblog:     microblogT(t, mb),
		Photosocial:   photosocialT(t, photosocial.Sample(), llm.Config{}),
	})
	router := documentRouter(t, h)
	article := strings.Repeat("Rooftop beekeeping has grown in many cities over the last decade. ", 3) +
		"Urban hives benefit from varied forage in parks and gardens. Critics worry about competition with wild bees. " +
		"Beekeepers answer that careful siting and planting can keep both thriving."
	calls := []struct{ method, path, body string }{
		{"POST", "/v1/dev/data/base64/encode", `{"value":"hello"}`},
		{"POST", "/v1/dev/data/base64/decode", `{"value":"%%%"}`},
		{"POST", "/v1/dev/data/base64/decode", `{}`},
		{"POST", "/v1/dev/data/base64/decode", `not json`},
		{"GET", "/healthz", ``},
		{"POST", "/v1/dev/email/validate", `{"email":"Ana.Torres+news@Example.COM"}`},
		{"POST", "/v1/utility/email/validate", `{"email":"not an address"}`},
		{"POST", "/v1/email/bulk/validate", `{"emails":["a@example.com","info@example.com","a@example.com","bad@"],"check_mx":false}`},
		{"POST", "/v1/email/disposable/check", `{"emails":["a@mailinator.com","b@example.com"]}`},
		{"POST", "/v1/email/role-account/check", `{"emails":["support@example.com","ana@example.com"]}`},
		{"POST", "/v1/email/bulk/validate", `{"emails":[]}`},
		{"POST", "/v1/dev/data/url/parse", `{"url":"HTTPS://User:pw@Example.COM:443/a/./b/../c?q=1&q=2#frag"}`},
		{"POST", "/v1/dev/data/url/parse", `{"url":"http://[::1"}`},
		{"POST", "/v1/dev/data/url/parse", `{"url":"http:\\\\127.1\\admin"}`},
		{"POST", "/v1/utility/ssl/check", `{"domain":"127.0.0.1"}`},
		{"POST", "/v1/content/summarize", `{"text":` + strconv.Quote(article) + `,"max_words":40}`},
		{"POST", "/v1/content/meta-tags", `{"page_content":` + strconv.Quote(article) + `}`},
		{"POST", "/v1/content/faq", `{"source_text":` + strconv.Quote(article) + `}`},
		{"POST", "/v1/content/headlines", `{"topic":"bees","count":50}`},
		{"GET", "/v1/photosocial/profile?username=ghost.sample", ``},
		{"GET", "/v1/microblog/profile?username=@ana_dev", ``},
		{"GET", "/v1/microblog/user-tweets?username=ana_dev&limit=5", ``},
		{"GET", "/v1/microblog/search/insights?query=queue", ``},
		{"GET", "/v1/microblog/profile/insights?username=ana_dev", ``},
		{"GET", "/v1/microblog/thread?tweet_id=1002&format=markdown", ``},
		{"GET", "/v1/microblog/user-tweets?username=ana_dev&limit=21", ``},
		{"GET", "/v1/microblog/profile?username=nobody_here", ``},
		{"GET", "/v1/photosocial/profile?username=sample.bakery", ``},
		{"GET", "/v1/photosocial/posts?username=@sample.bakery&limit=3", ``},
		{"GET", "/v1/photosocial/media?shortcode=C-9VcYrWAAR", ``},
		{"GET", "/v1/photosocial/comments?shortcode=C-9VcYrWAAR", ``},
		{"GET", "/v1/photosocial/search?query=sample&type=place", ``},
		{"POST", "/v1/photosocial/ai/profile-insights", `{"username":"sample.bakery"}`},
	}
	for _, c := range calls {
		checkExchange(t, router, h, c.method, c.path, c.body)
	}
}

// TestOpenAPIForClients checks what a generated client or the /docs page
// needs from the document: the gateway headers as security schemes on
// every /v1 operation, a relative server, an example body for every POST
// operation (validated by kin-openapi), the error envelope as shared
// responses that every operation's failures refer to, and described tags.
func TestOpenAPIForClients(t *testing.T) {
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})
	doc, err := openapi3.NewLoader().LoadFromData(fetchOpenAPI(t, h))
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background(), openapi3.EnableExamplesValidation()); err != nil {
		t.Fatalf("the document, examples included, is not valid: %v", err)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/" {
		t.Errorf("servers = %v, want the relative /", doc.Servers)
	}
	for name, header := range map[string]string{"gatewayKey": "X-Gateway-Key", "gatewayHost": "X-Gateway-Host"} {
		s := doc.Components.SecuritySchemes[name]
		if s == nil || s.Value.Type != "apiKey" || s.Value.In != "header" || s.Value.Name != header {
			t.Errorf("security scheme %s: %+v, want an apiKey header %s", name, s, header)
		}
	}
	requires := func(reqs openapi3.SecurityRequirements) bool {
		for _, r := range reqs { // alternatives: each must name both headers
			if _, ok := r["gatewayKey"]; !ok {
				return false
			}
			if _, ok := r["gatewayHost"]; !ok {
				return false
			}
		}
		return len(reqs) > 0
	}
	tags := map[string]bool{}
	for _, tag := range doc.Tags {
		if tag.Description == "" {
			t.Errorf("tag %s has no description", tag.Name)
		}
		tags[tag.Name] = true
	}
	shared := doc.Components.Responses
	urlSafeID := regexp.MustCompile(`^[A-Za-z0-9]+$`)
	operationIDs := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			name := method + " " + path
			security := doc.Security
			if op.Security != nil {
				security = *op.Security
			}
			if strings.HasPrefix(path, "/v1/") && !requires(security) {
				t.Errorf("%s does not require both gateway headers: %v", name, security)
			}
			if path == "/healthz" && len(security) != 0 {
				t.Errorf("%s requires credentials: %v", name, security)
			}
			// Redocly's operation-operationId-url-safe, and unique IDs for
			// generated clients.
			if !urlSafeID.MatchString(op.OperationID) || operationIDs[op.OperationID] {
				t.Errorf("%s: operationId %q is not URL-safe or not unique", name, op.OperationID)
			}
			operationIDs[op.OperationID] = true
			for _, tag := range op.Tags {
				if !tags[tag] {
					t.Errorf("%s: tag %s is not declared", name, tag)
				}
			}
			if method == http.MethodPost {
				for mt, c := range op.RequestBody.Value.Content {
					if c.Example == nil {
						t.Errorf("%s: no example %s body", name, mt)
					}
				}
			}
			if method == http.MethodGet && strings.HasPrefix(path, "/v1/") {
				examples := 0
				for _, p := range op.Parameters {
					if p.Value.Example != nil {
						examples++
					} else if p.Value.Required {
						t.Errorf("%s: the required parameter %s has no example", name, p.Value.Name)
					}
				}
				if examples == 0 {
					t.Errorf("%s: no parameter has an example", name)
				}
			}
			has4xx := false
			for status, r := range op.Responses.Map() {
				if status[0] == '2' { // 200, or 202 for a job accepted
					continue
				}
				has4xx = has4xx || status[0] == '4'
				ref := strings.TrimPrefix(r.Ref, "#/components/responses/")
				if ref == r.Ref || shared[ref] == nil || shared[ref].Value != r.Value {
					t.Errorf("%s: response %s is not a shared response (ref %q)", name, status, r.Ref)
				}
			}
			if !has4xx {
				t.Errorf("%s documents no 4xx response", name)
			}
		}
	}
	for name, r := range shared {
		if s := r.Value.Content.Get("application/json").Schema; s.Ref != "#/components/schemas/ErrorEnvelope" {
			t.Errorf("shared response %s: schema %q, want the error envelope", name, s.Ref)
		}
	}
}

// TestOpenAPIExamplesAreValidated shows that kin-openapi checks the
// examples against their schemas, so that TestOpenAPIForClients would
// catch a wrong one.
func TestOpenAPIExamplesAreValidated(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(fetchOpenAPI(t, mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})), &m); err != nil {
		t.Fatal(err)
	}
	media := m["paths"].(map[string]any)["/v1/dev/data/base64/encode"].(map[string]any)["post"].(map[string]any)["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)
	if media["example"] == nil {
		t.Fatal("the base64 encode operation has no example")
	}
	media["example"] = map[string]any{"value": 5}
	bad, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(bad)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background(), openapi3.EnableExamplesValidation()); err == nil {
		t.Error("a number where the schema wants a string passed validation")
	}
}
