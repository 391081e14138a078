package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/secret"
)

const testKey = "test-key"

// testServer returns a handler over the given routes, with the gateway
// configured for testKey and the rest from cfg.
func testServer(t testing.TB, cfg Config, routes ...route) http.Handler {
	t.Helper()
	if cfg.Keys == nil {
		cfg.Keys = []secret.String{testKey}
	}
	s := newServer(cfg)
	return s.handler(routes)
}

type echoReq struct {
	Name  string   `json:"name"`
	Count int      `json:"count"`
	Tags  []string `json:"tags"`
	Inner struct {
		Flag bool `json:"flag"`
	} `json:"inner"`
}

type echoQuery struct {
	Name  string   `json:"name"`
	Limit *int     `json:"limit"`
	Deep  bool     `json:"deep"`
	Tags  []string `json:"tags"`
	Ratio float64  `json:"ratio"`
}

func echoRoutes() []route {
	return []route{
		post(groupDev, "/v1/test/echo", "echo", func(_ context.Context, r echoReq) (echoReq, error) { return r, nil }),
		get(groupDev, "/v1/test/query", "query", func(_ context.Context, q echoQuery) (echoQuery, error) { return q, nil }),
		postAI(groupContent, "/v1/test/ai", "ai", func(_ context.Context, r echoReq) (echoReq, llm.Usage, error) {
			return r, llm.Usage{Model: "m", PromptTokens: 5, CompletionTokens: 7, CostUSD: 0.001}, nil
		}),
		{
			method: http.MethodPost, path: "/v1/test/panic", group: groupDev, response: typeOf[struct{}](),
			op: func(*http.Request) (any, *llm.Usage, error) { panic("secret: the database password is hunter2") },
		},
		{
			method: http.MethodGet, path: "/v1/test/fail", group: groupDev, query: typeOf[struct {
				Code string `json:"code"`
			}](), response: typeOf[struct{}](),
			op: func(r *http.Request) (any, *llm.Usage, error) {
				code := envelope.Code(r.URL.Query().Get("code"))
				return nil, nil, &envelope.Error{Code: code, Message: "failed with " + string(code), RetryAfter: 3 * time.Second}
			},
		},
	}
}

type result struct {
	status int
	header http.Header
	env    struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   *envelope.Error `json:"error"`
		Meta    map[string]any  `json:"meta"`
	}
	raw string
}

func do(t testing.TB, h http.Handler, method, target, body string, mods ...func(*http.Request)) result {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	req.Header.Set("X-Gateway-Key", testKey)
	req.Header.Set("X-Gateway-Host", "api.test")
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, m := range mods {
		m(req)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var res result
	res.status = rec.Code
	res.header = rec.Header()
	res.raw = rec.Body.String()
	if err := json.Unmarshal(rec.Body.Bytes(), &res.env); err != nil {
		t.Fatalf("%s %s: body is not an envelope: %v\n%s", method, target, err, res.raw)
	}
	return res
}

func header(k, v string) func(*http.Request) { return func(r *http.Request) { r.Header.Set(k, v) } }
func delHeader(k string) func(*http.Request) { return func(r *http.Request) { r.Header.Del(k) } }

// checkEnvelope asserts the invariants every response shares.
func checkEnvelope(t *testing.T, res result, status int, code envelope.Code) {
	t.Helper()
	if res.status != status {
		t.Errorf("status = %d, want %d; body %s", res.status, status, res.raw)
	}
	if ct := res.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	id, _ := res.env.Meta["request_id"].(string)
	if !envelope.ValidRequestID(id) {
		t.Errorf("meta.request_id = %q, want req_<ULID>", id)
	}
	if got := res.header.Get("X-Request-Id"); got != id {
		t.Errorf("X-Request-Id = %q, meta.request_id = %q", got, id)
	}
	if code == "" {
		if !res.env.Success || res.env.Error != nil {
			t.Errorf("want success, got %s", res.raw)
		}
		return
	}
	if res.env.Success || res.env.Error == nil || string(res.env.Data) != "null" {
		t.Fatalf("want failure envelope with null data, got %s", res.raw)
	}
	if res.env.Error.Code != code {
		t.Errorf("error.code = %s, want %s", res.env.Error.Code, code)
	}
	if res.env.Error.Message == "" {
		t.Error("error.message is empty")
	}
}

func TestSuccessEnvelope(t *testing.T) {
	h := testServer(t, Config{}, echoRoutes()...)
	res := do(t, h, "POST", "/v1/test/echo", `{"name":"ada","count":3,"tags":["x"],"inner":{"flag":true}}`)
	checkEnvelope(t, res, 200, "")
	var got echoReq
	if err := json.Unmarshal(res.env.Data, &got); err != nil {
		t.Fatal(err)
	}
	want := echoReq{Name: "ada", Count: 3, Tags: []string{"x"}}
	want.Inner.Flag = true
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("data mismatch (-want +got):\n%s", diff)
	}
	if len(res.env.Meta) != 1 {
		t.Errorf("meta = %v, want only request_id", res.env.Meta)
	}
}

func TestAIMeta(t *testing.T) {
	h := testServer(t, Config{}, echoRoutes()...)
	res := do(t, h, "POST", "/v1/test/ai", `{"name":"x"}`)
	checkEnvelope(t, res, 200, "")
	want := map[string]any{"model": "m", "prompt_tokens": 5.0, "completion_tokens": 7.0, "cost_usd": 0.001}
	for k, v := range want {
		if res.env.Meta[k] != v {
			t.Errorf("meta.%s = %v, want %v", k, res.env.Meta[k], v)
		}
	}
}

func TestEveryErrorCode(t *testing.T) {
	h := testServer(t, Config{}, echoRoutes()...)
	for _, code := range envelope.Codes {
		t.Run(string(code), func(t *testing.T) {
			res := do(t, h, "GET", "/v1/test/fail?code="+string(code), "")
			checkEnvelope(t, res, code.HTTPStatus(), code)
			if code == envelope.CodeInternal {
				if strings.Contains(res.raw, "failed with") {
					t.Errorf("internal message leaked: %s", res.raw)
				}
			} else if res.env.Error.Message != "failed with "+string(code) {
				t.Errorf("message = %q", res.env.Error.Message)
			}
			if code != envelope.CodeInternal && res.header.Get("Retry-After") != "3" {
				t.Errorf("Retry-After = %q, want 3", res.header.Get("Retry-After"))
			}
		})
	}
}

func TestGatewayAuth(t *testing.T) {
	h := testServer(t, Config{Keys: []secret.String{"k1", testKey}, Hosts: []string{"API.test", "other.test"}}, echoRoutes()...)
	tests := []struct {
		name string
		mods []func(*http.Request)
	}{
		{"missing key", []func(*http.Request){delHeader("X-Gateway-Key")}},
		{"empty key", []func(*http.Request){header("X-Gateway-Key", "")}},
		{"wrong key", []func(*http.Request){header("X-Gateway-Key", "test-kez")}},
		{"key prefix", []func(*http.Request){header("X-Gateway-Key", "test")}},
		{"missing host", []func(*http.Request){delHeader("X-Gateway-Host")}},
		{"wrong host", []func(*http.Request){header("X-Gateway-Host", "evil.test")}},
	}
	var bodies []string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, h, "POST", "/v1/test/echo", `{}`, tt.mods...)
			checkEnvelope(t, res, 401, envelope.CodeUnauthorized)
			bodies = append(bodies, res.env.Error.Message)
			if res.header.Get("X-RateLimit-Limit") != "" {
				t.Error("rate limit headers on a request that never reached the limiter")
			}
		})
	}
	for _, b := range bodies[1:] {
		if b != bodies[0] {
			t.Errorf("401 messages differ (%q vs %q): they must not tell which part was wrong", b, bodies[0])
		}
	}
	t.Run("second key, host case-insensitive", func(t *testing.T) {
		res := do(t, h, "POST", "/v1/test/echo", `{}`, header("X-Gateway-Key", "k1"), header("X-Gateway-Host", "OTHER.test"))
		checkEnvelope(t, res, 200, "")
	})
	t.Run("no keys configured refuses all", func(t *testing.T) {
		s := newServer(Config{Keys: []secret.String{}})
		res := do(t, s.handler(echoRoutes()), "POST", "/v1/test/echo", `{}`, header("X-Gateway-Key", ""))
		checkEnvelope(t, res, 401, envelope.CodeUnauthorized)
	})
	t.Run("healthz needs no key", func(t *testing.T) {
		res := do(t, h, "GET", "/healthz", "", delHeader("X-Gateway-Key"), delHeader("X-Gateway-Host"))
		checkEnvelope(t, res, 200, "")
	})
}

func TestRateLimit(t *testing.T) {
	h := testServer(t, Config{RatePerSecond: 0.5, Burst: 3}, echoRoutes()...)
	for i := range 3 {
		res := do(t, h, "POST", "/v1/test/echo", `{}`)
		checkEnvelope(t, res, 200, "")
		if got, want := res.header.Get("X-RateLimit-Limit"), "3"; got != want {
			t.Errorf("X-RateLimit-Limit = %q, want %q", got, want)
		}
		if got, want := res.header.Get("X-RateLimit-Remaining"), strconv.Itoa(2-i); got != want {
			t.Errorf("request %d: X-RateLimit-Remaining = %q, want %q", i, got, want)
		}
	}
	res := do(t, h, "POST", "/v1/test/echo", `{}`)
	checkEnvelope(t, res, 429, envelope.CodeRateLimitExceeded)
	ra, err := strconv.Atoi(res.header.Get("Retry-After"))
	if err != nil || ra < 1 || ra > 2 {
		t.Errorf("Retry-After = %q, want 1 or 2 seconds at 0.5/s", res.header.Get("Retry-After"))
	}
	if res.header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("X-RateLimit-Remaining = %q on 429", res.header.Get("X-RateLimit-Remaining"))
	}
	// Another key has its own bucket.
	h2 := testServer(t, Config{Keys: []secret.String{testKey, "other"}, RatePerSecond: 0.5, Burst: 1}, echoRoutes()...)
	checkEnvelope(t, do(t, h2, "POST", "/v1/test/echo", `{}`), 200, "")
	checkEnvelope(t, do(t, h2, "POST", "/v1/test/echo", `{}`), 429, envelope.CodeRateLimitExceeded)
	checkEnvelope(t, do(t, h2, "POST", "/v1/test/echo", `{}`, header("X-Gateway-Key", "other")), 200, "")
}

func TestMemoryLimiterEvictsIdleKeys(t *testing.T) {
	m := NewMemoryLimiter(100, 10)
	now := time.Unix(1_000_000, 0)
	m.now = func() time.Time { return now }
	for i := range 50 {
		if _, err := m.Allow(context.Background(), "key"+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	if m.Len() != 50 {
		t.Fatalf("Len = %d, want 50", m.Len())
	}
	now = now.Add(2 * time.Minute)
	if _, err := m.Allow(context.Background(), "fresh"); err != nil {
		t.Fatal(err)
	}
	if m.Len() != 1 {
		t.Errorf("after idle period Len = %d, want 1", m.Len())
	}
}

type failingLimiter struct{}

func (failingLimiter) Allow(context.Context, string) (Decision, error) {
	return Decision{}, errors.New("store down")
}

func TestLimiterFailureFailsOpen(t *testing.T) {
	h := testServer(t, Config{Limiter: failingLimiter{}}, echoRoutes()...)
	checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`), 200, "")
}

func TestBodyLimit(t *testing.T) {
	h := testServer(t, Config{MaxBodyBytes: 64}, echoRoutes()...)
	big := `{"name":"` + strings.Repeat("a", 100) + `"}`
	t.Run("declared length", func(t *testing.T) {
		checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", big), 413, envelope.CodePayloadTooLarge)
	})
	t.Run("chunked", func(t *testing.T) {
		res := do(t, h, "POST", "/v1/test/echo", big, func(r *http.Request) { r.ContentLength = -1 })
		checkEnvelope(t, res, 413, envelope.CodePayloadTooLarge)
	})
	t.Run("at the limit", func(t *testing.T) {
		body := `{"name":"` + strings.Repeat("a", 64-11) + `"}`
		checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", body), 200, "")
	})
}

func TestMediaType(t *testing.T) {
	h := testServer(t, Config{}, echoRoutes()...)
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "application/jsonx", "multipart/form-data; boundary=x"} {
		res := do(t, h, "POST", "/v1/test/echo", `{}`, header("Content-Type", ct))
		checkEnvelope(t, res, 415, envelope.CodeUnsupportedMediaType)
	}
	checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, header("Content-Type", "Application/JSON; charset=utf-8")), 200, "")
}

func TestRouting(t *testing.T) {
	h := testServer(t, Config{}, echoRoutes()...)
	t.Run("404", func(t *testing.T) {
		checkEnvelope(t, do(t, h, "GET", "/v1/nope", ""), 404, envelope.CodeNotFound)
		checkEnvelope(t, do(t, h, "GET", "/elsewhere", "", delHeader("X-Gateway-Key")), 404, envelope.CodeNotFound)
	})
	t.Run("405", func(t *testing.T) {
		res := do(t, h, "GET", "/v1/test/echo", "")
		checkEnvelope(t, res, 405, envelope.CodeMethodNotAllowed)
		if res.header.Get("Allow") != "POST" {
			t.Errorf("Allow = %q, want POST", res.header.Get("Allow"))
		}
		res = do(t, h, "DELETE", "/v1/test/query", "")
		checkEnvelope(t, res, 405, envelope.CodeMethodNotAllowed)
		if res.header.Get("Allow") != "GET" {
			t.Errorf("Allow = %q, want GET", res.header.Get("Allow"))
		}
	})
}

func TestStrictJSON(t *testing.T) {
	h := testServer(t, Config{RatePerSecond: -1, MaxBodyBytes: 4 << 20}, echoRoutes()...)
	tests := []struct {
		name, body, field, issue string
	}{
		{"empty body", ``, "", "a JSON object body is required"},
		{"malformed", `{"name": "x",}`, "", "malformed JSON at line 1, column 14"},
		{"malformed multiline", "{\n  \"name\": \"x\"\n  \"count\": 1\n}", "", "malformed JSON at line 3, column 3"},
		{"truncated", `{"name": "x"`, "", "malformed JSON: unexpected end of input"},
		{"wrong type", `{"name": 42}`, "name", "must be a string, not number"},
		{"wrong nested type", `{"inner": {"flag": "yes"}}`, "inner.flag", "must be a boolean, not string"},
		{"wrong array element", `{"tags": ["a", 1]}`, "tags[1]", "must be a string, not number"},
		{"out of range", `{"count": 1e400}`, "count", "number 1e400 is out of range for an integer"},
		{"fraction for integer", `{"count": 1.5}`, "count", "must be an integer, not 1.5"},
		{"negative fraction", `{"count": -0.25e1}`, "count", "must be an integer, not -0.25e1"},
		{"long fraction quoted in part", `{"count": 1.` + strings.Repeat("5", 5000) + `}`, "count", "must be an integer, not 1.555"},

		// Strict JSON (issue 13): what a lenient decoder reads differently
		// from a gateway or firewall in front of us.
		{"upper-case name", `{"NAME": "x"}`, "NAME", "is not a known field"},
		{"title-case name", `{"Name": "x"}`, "Name", "is not a known field"},
		{"Unicode case folding", `{"inner": {"ſlag": true}}`, "inner.ſlag", "is not a known field"},
		{"Kelvin sign folding", "{\"tags\": [], \"\u212aey\": 1}", "\u212aey", "is not a known field"},
		{"duplicate name", `{"name": "a", "name": "b"}`, "name", "is given twice"},
		{"duplicate nested name", `{"inner": {"flag": true, "flag": false}}`, "inner.flag", "is given twice"},
		{"duplicate by escape", `{"name": "a", "n\u0061me": "b"}`, "name", "is given twice"},
		{"invalid UTF-8", "{\"name\": \"a\xffb\"}", "name", "must be valid UTF-8 text"},
		{"invalid UTF-8 in array", "{\"tags\": [\"ok\", \"\xc3\"]}", "tags[1]", "must be valid UTF-8 text"},
		{"lone high surrogate", `{"name": "\ud800"}`, "name", "must be valid UTF-8 text"},
		{"lone low surrogate", `{"name": "x\udc00y"}`, "name", "must be valid UTF-8 text"},
		{"reversed surrogates", `{"name": "\udc00\ud800"}`, "name", "must be valid UTF-8 text"},
		{"null in an array of strings", `{"tags": ["a", null]}`, "tags[1]", "must be a string, not null"},
		{"1 MiB unknown name", `{"` + strings.Repeat("k", 1<<20) + `": 1}`, strings.Repeat("k", textcut.MaxExcerpt) + "…", "is not a known field"},
		{"overflow", `{"count": 99999999999999999999}`, "count", "number 99999999999999999999 is out of range for an integer"},
		{"unknown field", `{"nmae": "x"}`, "nmae", "is not a known field"},
		{"trailing data", `{"name": "x"} {"name": "y"}`, "", "line 1, column 15: unexpected data after the JSON value"},
		{"trailing garbage", `{"name": "x"}]`, "", "line 1, column 14: unexpected data after the JSON value"},
		{"array body", `[1,2]`, "", "the body must be a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, h, "POST", "/v1/test/echo", tt.body)
			checkEnvelope(t, res, 400, envelope.CodeInvalidRequest)
			d := res.env.Error.Details
			if len(d) != 1 || d[0].Field != tt.field || !strings.HasPrefix(d[0].Issue, tt.issue) {
				t.Errorf("details = %+v, want field %q issue %q...", d, tt.field, tt.issue)
			}
		})
	}
}

func TestStrictJSONAccepts(t *testing.T) {
	h := testServer(t, Config{MaxBodyBytes: 4 << 20}, echoRoutes()...)
	for _, body := range []string{
		`{"name": "\ud83d\ude00", "tags": null, "inner": null}`, // a surrogate pair is one character
		`{"name": null}`, // null for a member means absent
		"{\"name\": \"caf\u00e9 \xc3\xa9\"}",
	} {
		checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", body), 200, "")
	}
}

// TestErrorsQuoteExcerpts: a message quotes at most an excerpt of the
// input, so a huge field name or value does not come back whole.
func TestErrorsQuoteExcerpts(t *testing.T) {
	h := testServer(t, Config{RatePerSecond: -1, MaxBodyBytes: 4 << 20}, echoRoutes()...)
	huge := strings.Repeat("z", 1<<20)
	for _, tc := range []struct{ method, target, body string }{
		{"POST", "/v1/test/echo", `{"` + huge + `": 1}`},
		{"POST", "/v1/test/echo", `{"count": ` + strings.Repeat("9", 1<<20) + `}`},
		{"POST", "/v1/test/echo", `{"name": "` + huge + `" ` + huge + `}`},
		{"POST", "/v1/test/echo?" + huge + "=1", `{}`},
		{"GET", "/v1/test/query?" + huge + "=1", ``},
		{"GET", "/v1/test/query?%" + huge, ``},
	} {
		res := do(t, h, tc.method, tc.target, tc.body)
		checkEnvelope(t, res, 400, envelope.CodeInvalidRequest)
		if len(res.raw) > 2000 {
			t.Errorf("%s %.40s... %.40s...: a %d-byte answer: %.300s", tc.method, tc.target, tc.body, len(res.raw), res.raw)
		}
	}
}

// TestPostRefusesQuery: a POST route takes its input in the body; a query
// parameter would be silently ignored.
func TestPostRefusesQuery(t *testing.T) {
	h := testServer(t, Config{}, echoRoutes()...)
	for _, tc := range []struct{ query, field string }{
		{"name=x", "name"},
		{"debug", "debug"},
		{"%zz=1", ""},
	} {
		res := do(t, h, "POST", "/v1/test/echo?"+tc.query, `{"name":"ada"}`)
		checkEnvelope(t, res, 400, envelope.CodeInvalidRequest)
		if d := res.env.Error.Details; len(d) != 1 || d[0].Field != tc.field || !strings.Contains(d[0].Issue, "body") {
			t.Errorf("?%s: details = %+v, want field %q", tc.query, d, tc.field)
		}
	}
}

func TestQueryDecoding(t *testing.T) {
	h := testServer(t, Config{}, echoRoutes()...)
	res := do(t, h, "GET", "/v1/test/query?name=%40ada&limit=5&deep=true&tags=a,b&tags=c&ratio=0.5", "")
	checkEnvelope(t, res, 200, "")
	var got echoQuery
	if err := json.Unmarshal(res.env.Data, &got); err != nil {
		t.Fatal(err)
	}
	five := 5
	if diff := cmp.Diff(echoQuery{Name: "@ada", Limit: &five, Deep: true, Tags: []string{"a", "b", "c"}, Ratio: 0.5}, got); diff != "" {
		t.Errorf("query mismatch (-want +got):\n%s", diff)
	}
	bad := []struct{ query, field, issue string }{
		{"limit=many", "limit", "must be an integer in range"},
		{"limit=99999999999999999999", "limit", "must be an integer in range"},
		{"deep=maybe", "deep", "must be true or false"},
		{"name=a&name=b", "name", "must be given once"},
		{"ratio=x", "ratio", "must be a finite number"},
		{"ratio=NaN", "ratio", "must be a finite number"},
		{"ratio=-Inf", "ratio", "must be a finite number"},
		{"colour=red", "colour", "is not a known parameter"},
		{"name=a&%zz=1", "", `the query string is malformed: invalid percent-encoding "%zz" (write % as %25)`},
		{"name=a%zz", "", `the query string is malformed: invalid percent-encoding "%zz" (write % as %25)`},
		{"name=a;limit=5", "", "the query string is malformed: a semicolon is not a separator; use &"},
	}
	for _, tt := range bad {
		res := do(t, h, "GET", "/v1/test/query?"+tt.query, "")
		checkEnvelope(t, res, 400, envelope.CodeInvalidRequest)
		if d := res.env.Error.Details; len(d) != 1 || d[0].Field != tt.field || d[0].Issue != tt.issue {
			t.Errorf("%s: details = %+v, want %s: %s", tt.query, d, tt.field, tt.issue)
		}
	}
}

func TestPanicRecovery(t *testing.T) {
	var logs testutil.SyncBuffer
	h := testServer(t, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))}, echoRoutes()...)
	res := do(t, h, "POST", "/v1/test/panic", `{}`)
	checkEnvelope(t, res, 500, envelope.CodeInternal)
	id := res.env.Meta["request_id"].(string)
	for _, leak := range []string{"hunter2", "secret", "goroutine", ".go:"} {
		if strings.Contains(res.raw, leak) {
			t.Errorf("response leaks %q: %s", leak, res.raw)
		}
	}
	if !strings.Contains(res.env.Error.Message, id) {
		t.Errorf("message %q does not quote the request ID", res.env.Error.Message)
	}
	l := logs.String()
	if !strings.Contains(l, "hunter2") || !strings.Contains(l, "httpapi_test.go") || !strings.Contains(l, id) {
		t.Errorf("log lacks the panic, its stack or the request ID:\n%s", l)
	}
}

func TestUnencodableDataIsInternalError(t *testing.T) {
	var logs testutil.SyncBuffer
	nan := route{
		method: http.MethodGet, path: "/v1/test/nan", group: groupDev, response: typeOf[float64](),
		op: func(*http.Request) (any, *llm.Usage, error) { return math.NaN(), nil, nil },
	}
	h := testServer(t, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))}, nan)
	res := do(t, h, "GET", "/v1/test/nan", "")
	checkEnvelope(t, res, 500, envelope.CodeInternal)
	if !strings.Contains(logs.String(), "encoding response") {
		t.Errorf("the encoding failure is not logged:\n%s", logs.String())
	}
}

func TestRequestTimeout(t *testing.T) {
	waits := route{
		method: http.MethodGet, path: "/v1/test/waits", group: groupDev, response: typeOf[struct{}](),
		op: func(r *http.Request) (any, *llm.Usage, error) {
			select {
			case <-r.Context().Done():
				return nil, nil, fmt.Errorf("upstream: %w", r.Context().Err())
			case <-time.After(10 * time.Second):
				return struct{}{}, nil, nil
			}
		},
	}
	h := testServer(t, Config{RequestTimeout: 100 * time.Millisecond}, waits)
	start := time.Now()
	res := do(t, h, "GET", "/v1/test/waits", "")
	checkEnvelope(t, res, 504, envelope.CodeUpstreamTimeout)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %v with a 100 ms request timeout", took)
	}
	// Negative disables it: the operation sees no deadline.
	noDeadline := route{
		method: http.MethodGet, path: "/v1/test/deadline", group: groupDev, response: typeOf[bool](),
		op: func(r *http.Request) (any, *llm.Usage, error) {
			_, ok := r.Context().Deadline()
			return ok, nil, nil
		},
	}
	res = do(t, testServer(t, Config{RequestTimeout: -1}, noDeadline), "GET", "/v1/test/deadline", "")
	if string(res.env.Data) != "false" {
		t.Errorf("with RequestTimeout -1 the request has a deadline: %s", res.raw)
	}
}

// A download route streams stored data for as long as the client keeps
// reading: the request timeout does not cut it; every other route,
// streamed or not, has it.
func TestRequestTimeoutSparesDownloads(t *testing.T) {
	deadline := func(w io.Writer, r *http.Request) error {
		_, ok := r.Context().Deadline()
		_, err := fmt.Fprintf(w, "deadline\n%t\n", ok)
		return err
	}
	stream := route{method: http.MethodGet, path: "/v1/test/stream", group: groupDev, csv: deadline}
	download := route{method: http.MethodGet, path: "/v1/test/download", group: groupDev, csv: deadline, download: true}
	h := testServer(t, Config{RequestTimeout: time.Hour}, stream, download)
	for path, want := range map[string]string{"/v1/test/stream": "true", "/v1/test/download": "false"} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("X-Gateway-Key", testKey)
		req.Header.Set("X-Gateway-Host", "api.test")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Body.String() != "deadline\n"+want+"\n" {
			t.Errorf("GET %s = %d %q, want a deadline %s", path, rec.Code, rec.Body, want)
		}
	}
}

func TestClientGoneIsNotInternalError(t *testing.T) {
	var logs testutil.SyncBuffer
	stopped := route{
		method: http.MethodGet, path: "/v1/test/stopped", group: groupDev, response: typeOf[struct{}](),
		op: func(r *http.Request) (any, *llm.Usage, error) {
			<-r.Context().Done()
			return nil, nil, fmt.Errorf("fetch: %w", r.Context().Err())
		},
	}
	h := testServer(t, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))}, stopped)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the client has gone
	req := httptest.NewRequestWithContext(ctx, "GET", "/v1/test/stopped", nil)
	req.Header.Set("X-Gateway-Key", testKey)
	req.Header.Set("X-Gateway-Host", "api.test")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 499 {
		t.Errorf("status = %d, want 499", rec.Code)
	}
	if l := logs.String(); strings.Contains(l, "internal error") || !strings.Contains(l, "client closed request") {
		t.Errorf("log:\n%s", l)
	}
}

func TestAccessLog(t *testing.T) {
	var logs testutil.SyncBuffer
	h := testServer(t, Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil))}, echoRoutes()...)
	res := do(t, h, "GET", "/v1/test/query?name=secretquery", "")
	var line map[string]any
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	last := lines[len(lines)-1] // after the start-up warning about the short test key
	if err := json.Unmarshal([]byte(last), &line); err != nil {
		t.Fatalf("log is not one JSON line: %v\n%s", err, logs.String())
	}
	want := map[string]any{"msg": "request", "method": "GET", "route": "GET /v1/test/query", "status": 200.0, "request_id": res.env.Meta["request_id"]}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("log %s = %v, want %v", k, line[k], v)
		}
	}
	if _, ok := line["duration"]; !ok {
		t.Error("log has no duration")
	}
	if strings.Contains(logs.String(), testKey) || strings.Contains(logs.String(), "secretquery") {
		t.Errorf("log leaks the key or the query: %s", logs.String())
	}
}

func BenchmarkMiddleware(b *testing.B) {
	routes := echoRoutes()
	body := `{"name":"ada","count":3}`
	run := func(b *testing.B, h http.Handler) {
		b.ReportAllocs()
		for b.Loop() {
			req := httptest.NewRequest("POST", "/v1/test/echo", strings.NewReader(body))
			req.Header.Set("X-Gateway-Key", testKey)
			req.Header.Set("X-Gateway-Host", "api.test")
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Fatalf("status %d", rec.Code)
			}
		}
	}
	b.Run("bare", func(b *testing.B) {
		// The same operation and envelope, without mux or middleware.
		s := newServer(Config{Keys: []secret.String{testKey}})
		op := routes[0].op
		run(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			data, ai, err := op(r)
			s.respond(w, r, data, ai, err)
		}))
	})
	b.Run("chain", func(b *testing.B) {
		run(b, testServer(b, Config{RatePerSecond: 1e9, Burst: 1 << 30}, routes...))
	})
}
