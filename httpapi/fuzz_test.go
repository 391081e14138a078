package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/quiverkit/quiver/envelope"
)

// FuzzDecode sends arbitrary bodies and query strings through the real
// middleware and decoders: whatever arrives, the answer is an envelope
// with a status the decoders may give, never a panic or a 500.
func FuzzDecode(f *testing.F) {
	for _, seed := range []struct{ body, query string }{
		{`{"name":"ada","count":3,"tags":["x"],"inner":{"flag":true}}`, "name=a&limit=5"},
		{`{"count":1e400}`, "limit=99999999999999999999"},
		{`{"name":"x"} trailing`, "tags=a,b&tags=c"},
		{"{\"name\":\"\xff\"}", "deep=maybe"},
		{`[`, "%zz"},
		{``, "name=a&name=b"},
		{`{"inner":{"flag":"yes"}}`, "ratio=NaN"},
		// Strict JSON and queries (issue 13).
		{`{"NAME":"x","ſame":1}`, "&%zz=1"},
		{`{"name":"a","name":"b"}`, "name=a;limit=1"},
		{`{"name":"\ud800"}`, ""},
		{`{"name":"\udc00\ud800","tags":[null]}`, "tags=%ff"},
		{`{"count":1.5}`, ""},
		{`{"count":-0.0e-0}`, ""},
		{`{"inner":{"flag":true,"flag":true}}`, ""},
	} {
		f.Add(seed.body, seed.query)
	}
	h := testServer(f, Config{RatePerSecond: -1, MaxBodyBytes: 4096}, echoRoutes()...)
	allowed := map[int]bool{200: true, 400: true, 413: true}
	f.Fuzz(func(t *testing.T, body, query string) {
		for _, req := range []*http.Request{
			httptest.NewRequest("POST", "/v1/test/echo", strings.NewReader(body)),
			httptest.NewRequest("GET", "/v1/test/query?"+url.PathEscape(query), nil),
		} {
			req.URL.RawQuery = query
			req.Header.Set("X-Gateway-Key", testKey)
			req.Header.Set("X-Gateway-Host", "api.test")
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if !allowed[rec.Code] {
				t.Fatalf("%s body %q query %q: status %d: %s", req.Method, body, query, rec.Code, rec.Body)
			}
			if req.Method == "POST" && rec.Code == 200 && !jsontext.Value(body).IsValid() {
				// Strict: only an RFC 8259 text with unique names and valid
				// UTF-8 is accepted, what any other parser reads alike.
				t.Fatalf("body %q is not strict JSON but was accepted: %s", body, rec.Body)
			}
			var env struct {
				Success bool
				Error   *envelope.Error
				Meta    map[string]any
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
				t.Fatalf("not an envelope: %v: %s", err, rec.Body)
			}
			if env.Success != (rec.Code == 200) || (rec.Code != 200 && env.Error == nil) {
				t.Fatalf("status %d with envelope %s", rec.Code, rec.Body)
			}
		}
	})
}
