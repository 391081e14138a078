package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
)

// TestRoutesDecodeStrictly: the lenient readings of issue 13 on real
// routes. Each was a 200 before: a hash of corrupted input, an empty
// address read from null, a field named after a Go type.
func TestRoutesDecodeStrictly(t *testing.T) {
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1})
	tests := []struct{ name, path, body, field, issue string }{
		{"upper-case member", "/v1/dev/data/base64/encode", `{"VALUE":"x"}`, "VALUE", "is not a known field"},
		{"Unicode-folded member", "/v1/dev/stacktrace", `{"ſtacktrace":"panic: x"}`, "ſtacktrace", "is not a known field"},
		{"duplicate member", "/v1/dev/data/hash", `{"value":"a","value":"b"}`, "value", "is given twice"},
		{"lone surrogate", "/v1/dev/data/hash", `{"value":"\ud800"}`, "value", "must be valid UTF-8"},
		{"invalid UTF-8", "/v1/dev/data/base64/encode", "{\"value\":\"\xff\xfe\"}", "value", "must be valid UTF-8"},
		{"null address", "/v1/email/disposable/check", `{"emails":["a@b.test",null]}`, "emails[1]", "must be a string, not null"},
		{"embedded field named by its JSON name", "/v1/dev/data/hash", `{"value":"a","algorithms":"md5"}`, "algorithms", "must be an array"},
		{"query on a POST route", "/v1/dev/data/base64/encode?urlsafe=true", `{"value":"x"}`, "urlsafe", "is not a known parameter"},
	}
	t.Run("query on the CSV upload", func(t *testing.T) {
		resp, env := send(t, h, http.MethodPost, "/v1/email/bulk/validate-csv?column=email", "multipart/form-data; boundary=x", strings.NewReader("--x--\r\n"))
		if resp.StatusCode != http.StatusBadRequest || env.Error == nil || len(env.Error.Details) != 1 || env.Error.Details[0].Field != "column" {
			t.Errorf("status %d, error %+v", resp.StatusCode, env.Error)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, env := send(t, h, http.MethodPost, tt.path, "application/json", strings.NewReader(tt.body))
			if resp.StatusCode != http.StatusBadRequest || env.Error == nil || env.Error.Code != "INVALID_REQUEST" {
				t.Fatalf("status %d, error %+v; want 400 INVALID_REQUEST", resp.StatusCode, env.Error)
			}
			if d := env.Error.Details; len(d) != 1 || d[0].Field != tt.field || !strings.HasPrefix(d[0].Issue, tt.issue) {
				t.Errorf("details %+v, want %s: %s...", d, tt.field, tt.issue)
			}
		})
	}
}

// TestRouteErrorsQuoteExcerpts: a huge domain, URL, field or value is
// quoted by at most an excerpt in the error: no 2 MiB answer to a 1 MiB
// domain.
func TestRouteErrorsQuoteExcerpts(t *testing.T) {
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, MaxBodyBytes: 4 << 20})
	huge := strings.Repeat("a", 1<<20)
	for _, c := range []struct{ path, body string }{
		{"/v1/utility/dns/analyze", `{"domain":"` + huge + `"}`},
		{"/v1/utility/ssl/check", `{"domain":"` + huge + `"}`},
		{"/v1/utility/dns/analyze", `{"domain":"[` + huge + `"}`},
		{"/v1/dev/data/url/parse", `{"url":"` + huge + `"}`},
		{"/v1/utility/email/validate", `{"email":"` + huge + `"}`},
		{"/v1/email/domain/health", `{"domains":["` + huge + `"]}`},
		{"/v1/dev/regex/explain", `{"pattern":"` + huge + `("}`},
		{"/v1/dev/data/hash", `{"value":"x","encoding":"` + huge + `"}`},
		{"/v1/utility/cors/check", `{"url":"` + huge + `"}`},
		{"/v1/content/summarize", `{"text":"x","format":"` + huge + `"}`},
		{"/v1/dev/regex/generate", `{"description":"x","flavor":"` + huge + `"}`},
		{"/v1/dev/data/base64/encode", `{"` + huge + `":"x"}`},
	} {
		resp, env := send(t, h, http.MethodPost, c.path, "application/json", strings.NewReader(c.body))
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", c.path, resp.StatusCode)
			continue
		}
		if text := errorText(env); len(text) > 800 {
			t.Errorf("%s: a %d-byte error: %.300s", c.path, len(text), text)
		}
	}
}
