package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/secret"
)

const emailZone = `
$ORIGIN test.
@            SOA ns h 1 3600 600 86400 60
mx           MX 10 mail.mx.test.
mail.mx      A 127.0.0.1
nullmx       MX 0 .
good         MX 10 mail.mx.test.
good         TXT "v=spf1 mx -all"
_dmarc.good  TXT "v=DMARC1; p=reject; rua=mailto:d@good.test"
1.0.0.127.bl A 127.0.0.2
1.0.0.127.bl TXT "listed in the test zone"
$ORIGIN 0.0.127.in-addr.arpa.
1            PTR mail.mx.test.
`

// emailHandler is the handler with a resolver pointed at a loopback DNS
// server serving emailZone.
// The DNS timeout is generous: domain health asks some 30 questions per
// domain at once, and a saturated machine must not turn a slow answer
// into a dns_error. No test here relies on a timeout.
func emailHandler(t *testing.T, cfg httpapi.Config) http.Handler {
	return emailHandlerLists(t, cfg, nil)
}

// emailHandlerLists is emailHandler with the verifier's lists.
func emailHandlerLists(t *testing.T, cfg httpapi.Config, lists *email.Lists) http.Handler {
	t.Helper()
	srv := resolvertest.Start(t, resolvertest.Config{Zone: emailZone})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 2 * time.Second, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Keys = []secret.String{"k"}
	cfg.Email = verifierT(t, email.Config{Resolver: r, Lists: lists})
	return mustNew(t, cfg)
}

func call(t *testing.T, h http.Handler, path, contentType string, body io.Reader) (int, envelopeBody) {
	t.Helper()
	resp, env := send(t, h, http.MethodPost, path, contentType, body)
	return resp.StatusCode, env
}

func postJSON(t *testing.T, h http.Handler, path, body string) (int, envelopeBody) {
	t.Helper()
	return call(t, h, path, "application/json", strings.NewReader(body))
}

// errorText flattens an error envelope for assertions.
func errorText(env envelopeBody) string {
	if env.Error == nil {
		return ""
	}
	s := env.Error.Code + " " + env.Error.Message
	for _, d := range env.Error.Details {
		s += " " + d.Field + ": " + d.Issue
	}
	return s
}

func TestEmailValidateRoutes(t *testing.T) {
	h := emailHandler(t, httpapi.Config{})
	for _, path := range []string{"/v1/dev/email/validate", "/v1/utility/email/validate"} {
		t.Run(path, func(t *testing.T) {
			code, env := postJSON(t, h, path, `{"email":"Jane.Doe@MX.test"}`)
			if code != 200 || !env.Success {
				t.Fatalf("status %d: %s", code, errorText(env))
			}
			var res map[string]any
			json.Unmarshal(env.Data, &res)
			for field, want := range map[string]any{
				"is_valid": true, "email": "Jane.Doe@mx.test", "local_part": "Jane.Doe", "domain": "mx.test",
				"is_disposable": false, "has_mx_records": true, "smtp_verified": false, "is_role_account": false, "reason": nil,
			} {
				if got, ok := res[field]; !ok || got != want {
					t.Errorf("%s = %v (present %v), want %v", field, got, ok, want)
				}
			}

			code, env = postJSON(t, h, path, `{"email":"user@nullmx.test"}`)
			var inv email.Validation
			json.Unmarshal(env.Data, &inv)
			if code != 200 || inv.IsValid || inv.Reason == nil || *inv.Reason != email.ReasonNullMX || inv.Email != nil {
				t.Errorf("null MX: status %d, %+v", code, inv)
			}

			for _, bad := range []struct{ body, want string }{
				{`{}`, "email: is required"},
				{`{"email":""}`, "email: is required"},
				{`{"email":"a@b.co","check_smtp":"yes"}`, "check_smtp"},
				{`{"email":"a@b.co","extra":1}`, "extra"},
				{`{"email":42}`, "email"},
			} {
				code, env := postJSON(t, h, path, bad.body)
				if code != 400 || env.Error == nil || env.Error.Code != "INVALID_REQUEST" || !strings.Contains(errorText(env), bad.want) {
					t.Errorf("%s: status %d, %s; want 400 naming %q", bad.body, code, errorText(env), bad.want)
				}
			}
		})
	}
}

func TestEmailBulkValidateRoute(t *testing.T) {
	h := emailHandler(t, httpapi.Config{})
	code, env := postJSON(t, h, "/v1/email/bulk/validate", `{"emails":["a@mx.test","A@mx.test","a@mx.test","info@mx.test","bad"]}`)
	if code != 200 {
		t.Fatalf("status %d: %s", code, errorText(env))
	}
	var res email.BulkResult
	if err := json.Unmarshal(env.Data, &res); err != nil {
		t.Fatal(err)
	}
	want := email.Summary{Total: 5, Valid: 4, Invalid: 1, RoleAccounts: 1, DomainsWithMX: 1, Duplicates: 1}
	if res.Summary != want || res.Results[4].Input != "bad" || !res.Results[0].HasMXRecords {
		t.Errorf("summary %+v, results %+v", res.Summary, res.Results)
	}
	if id, _ := env.Meta["request_id"].(string); !strings.HasPrefix(id, "req_") {
		t.Errorf("meta %v lacks request_id", env.Meta)
	}
	var raw struct {
		Results []map[string]any `json:"results"`
	}
	json.Unmarshal(env.Data, &raw)
	if _, ok := raw.Results[0]["smtp_verified"]; ok {
		t.Error("bulk items carry smtp_verified")
	}
	if _, ok := raw.Results[0]["input"]; !ok {
		t.Error("bulk items lack input")
	}

	// Default-true switches: false turns a check off, absent keeps it.
	_, env = postJSON(t, h, "/v1/email/bulk/validate", `{"emails":["info@mx.test"],"check_mx":false,"check_role_account":false}`)
	json.Unmarshal(env.Data, &res)
	if it := res.Results[0]; it.HasMXRecords || it.MX != nil || it.IsRoleAccount {
		t.Errorf("switched-off checks ran: %+v", it)
	}

	many := make([]string, 501)
	for i := range many {
		many[i] = fmt.Sprintf("u%d@mx.test", i)
	}
	tooMany, _ := json.Marshal(map[string]any{"emails": many})
	for _, bad := range []struct{ body, want string }{
		{`{"emails":[]}`, "emails: is required"},
		{`{}`, "emails: is required"},
		{string(tooMany), "emails: has 501 items; at most 500"},
		{`{"emails":"a@b.co"}`, "emails"},
		{`{"emails":["a@b.co"],"check_mx":"no"}`, "check_mx"},
	} {
		code, env := postJSON(t, h, "/v1/email/bulk/validate", bad.body)
		if code != 400 || !strings.Contains(errorText(env), bad.want) {
			t.Errorf("status %d, %s; want 400 naming %q", code, errorText(env), bad.want)
		}
	}
}

// multipartBody builds a multipart/form-data body with the given parts:
// name, filename ("" for an ordinary field) and content.
func multipartBody(t *testing.T, parts ...[3]string) (string, *bytes.Buffer) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, p := range parts {
		hdr := textproto.MIMEHeader{}
		if p[1] != "" {
			hdr.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, p[0], p[1]))
			hdr.Set("Content-Type", "text/csv")
		} else {
			hdr.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, p[0]))
		}
		pw, err := w.CreatePart(hdr)
		if err != nil {
			t.Fatal(err)
		}
		pw.Write([]byte(p[2]))
	}
	w.Close()
	return w.FormDataContentType(), &b
}

func TestEmailCSVRoute(t *testing.T) {
	h := emailHandler(t, httpapi.Config{})
	const path = "/v1/email/bulk/validate-csv"

	ct, body := multipartBody(t, [3]string{"note", "", "not a file"}, [3]string{"upload", "list.csv", "\xef\xbb\xbfName,EMAIL\r\n\"Doe, Jane\",jane@mx.test\r\nBob,bob@nullmx.test\r\n"})
	code, env := call(t, h, path, ct, body)
	if code != 200 {
		t.Fatalf("status %d: %s", code, errorText(env))
	}
	var res email.CSVResult
	json.Unmarshal(env.Data, &res)
	if res.Column != "EMAIL" || res.Rows != 2 || res.Summary.Valid != 1 || res.Summary.Invalid != 1 || res.Results[0].Input != "jane@mx.test" {
		t.Errorf("got %+v", res)
	}

	rows := func(n int) string {
		var b strings.Builder
		b.WriteString("email\n")
		for i := range n {
			fmt.Fprintf(&b, "u%d@mx.test\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name   string
		ct     string
		body   io.Reader
		status int
		want   string
	}{
		{name: "too many rows", status: 400, want: "more than the limit of 1000 data rows"},
		{name: "too large", status: 400, want: "larger than the limit of 524288 bytes"},
		{name: "over the body limit", status: 413, want: "PAYLOAD_TOO_LARGE"},
		{name: "no header", status: 400, want: "a header row is required"},
		{name: "header only", status: 400, want: "no data rows"},
		{name: "bad quoting", status: 400, want: "row 2"},
		{name: "no file part", status: 400, want: "file: is required"},
		{name: "not multipart", status: 415, want: "multipart/form-data"},
		{name: "broken multipart", status: 400, want: "malformed"},
	}
	files := map[string]string{
		"too many rows": rows(1001), "too large": "email\n" + strings.Repeat("a", email.MaxCSVBytes),
		"over the body limit": "email\n" + strings.Repeat("a", 2<<20),
		"no header":           "", "header only": "email\n", "bad quoting": "email\na@mx.test\n\"b@mx.test\n",
	}
	for i := range tests {
		tt := &tests[i]
		switch {
		case files[tt.name] != "" || tt.name == "no header":
			tt.ct, tt.body = multipartBody(t, [3]string{"file", "f.csv", files[tt.name]})
		case tt.name == "no file part":
			tt.ct, tt.body = multipartBody(t, [3]string{"note", "", "email\na@mx.test\n"})
		case tt.name == "not multipart":
			tt.ct, tt.body = "text/csv", strings.NewReader("email\na@mx.test\n")
		case tt.name == "broken multipart":
			tt.ct, tt.body = "multipart/form-data; boundary=xyz", strings.NewReader("--xyz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.csv\"\r\n\r\nemail\na@mx.test\n")
		}
	}
	t.Run("field file without a file name", func(t *testing.T) {
		ct, body := multipartBody(t, [3]string{"file", "", "email\na@mx.test\n"})
		code, env := call(t, h, path, ct, body)
		if code != 200 || !env.Success || !strings.Contains(string(env.Data), "a@mx.test") {
			t.Errorf("%d %s %s", code, env.Data, errorText(env))
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, env := call(t, h, path, tt.ct, tt.body)
			if code != tt.status || env.Success || !strings.Contains(errorText(env), tt.want) {
				t.Errorf("status %d, %s; want %d mentioning %q", code, errorText(env), tt.status, tt.want)
			}
		})
	}
	// Exactly at the limits is fine.
	ct, body = multipartBody(t, [3]string{"file", "f.csv", rows(1000)})
	if code, env := call(t, h, path, ct, body); code != 200 {
		t.Errorf("1000 rows: status %d, %s", code, errorText(env))
	}
}

func TestEmailDomainHealthRoute(t *testing.T) {
	h := emailHandler(t, httpapi.Config{})
	code, env := postJSON(t, h, "/v1/email/domain/health", `{"domains":["good.test","nullmx.test"]}`)
	if code != 200 {
		t.Fatalf("status %d: %s", code, errorText(env))
	}
	var res email.DomainHealthResult
	json.Unmarshal(env.Data, &res)
	if len(res.Results) != 2 || res.Results[0].Verdict != email.VerdictReady || res.Results[1].Verdict != email.VerdictNotReady ||
		res.Results[0].SPF == nil || res.Results[0].DMARC == nil || res.Results[0].DMARC.Policy != "reject" {
		t.Errorf("got %+v", res)
	}
	code, env = postJSON(t, h, "/v1/email/domain/health", `{"domains":["good.test","not a domain"]}`)
	if code != 400 || !strings.Contains(errorText(env), "domains[1]") {
		t.Errorf("status %d, %s; want 400 naming domains[1]", code, errorText(env))
	}
	code, env = postJSON(t, mustNew(t, httpapi.Config{Keys: []secret.String{"k"}}), "/v1/email/domain/health", `{"domains":["good.test"]}`)
	if code != 503 {
		t.Errorf("without a resolver: status %d, %s", code, errorText(env))
	}
}

// TestEmailDomainHealthRouteDedupe: 500 spellings of two domains get two
// results, each with the indexes it answers, not 500 copies.
func TestEmailDomainHealthRouteDedupe(t *testing.T) {
	h := emailHandler(t, httpapi.Config{})
	spellings := []string{"good.test", "GOOD.test.", "Good.Test", "nullmx.test"}
	domains := make([]string, 500)
	var wantGood, wantNull []int
	for i := range domains {
		domains[i] = spellings[i%len(spellings)]
		if i%len(spellings) == 3 {
			wantNull = append(wantNull, i)
		} else {
			wantGood = append(wantGood, i)
		}
	}
	body, _ := json.Marshal(map[string]any{"domains": domains})
	code, env := postJSON(t, h, "/v1/email/domain/health", string(body))
	if code != 200 {
		t.Fatalf("status %d: %s", code, errorText(env))
	}
	var data email.DomainHealthResult
	if err := json.Unmarshal(env.Data, &data); err != nil {
		t.Fatal(err)
	}
	r := data.Results
	if len(r) != 2 || r[0].Domain != "good.test" || r[1].Domain != "nullmx.test" ||
		!slices.Equal(r[0].Inputs, wantGood) || !slices.Equal(r[1].Inputs, wantNull) {
		t.Fatalf("got %d results: %+v", len(r), r)
	}
	// One good.test result is a few KB; 375 copies of it would be over
	// a megabyte.
	if len(env.Data) > 64<<10 {
		t.Errorf("answer of %d bytes", len(env.Data))
	}
}

// TestEmailDomainHealthRouteCharged: domain health's results are charged
// to the request's share of the memory budget as they are built: past
// the key's share the request gets 429 with Retry-After instead of an
// answer; within it, the same request is answered whole.
func TestEmailDomainHealthRouteCharged(t *testing.T) {
	var zone strings.Builder
	zone.WriteString("$ORIGIN test.\n$TTL 300\n@ SOA ns h 1 3600 600 86400 60\n")
	domains := make([]string, 40)
	for i := range domains {
		domains[i] = fmt.Sprintf("big%d.test", i)
		fmt.Fprintf(&zone, "big%d MX 10 mx.big%d.test.\nbig%d TXT \"v=spf1 -all %s\"\n", i, i, i, strings.Repeat("x", 240))
		for sel := range 8 {
			fmt.Fprintf(&zone, "s%d._domainkey.big%d TXT \"v=DKIM1; p=%s\" \"%s\"\n", sel, i, strings.Repeat("A", 240), strings.Repeat("B", 240))
		}
	}
	srv := resolvertest.Start(t, resolvertest.Config{Zone: zone.String()})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 2 * time.Second, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"domains": domains, "dkim_selectors": []string{"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"}})
	// Each result is some 12 KB: 40 are about 500 KB, over a share of
	// 256 KiB, within the default one.
	for _, tt := range []struct {
		share  int64
		status int
	}{{256 << 10, 429}, {0, 200}} {
		h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Email: verifierT(t, email.Config{Resolver: r}), KeyMemoryBudget: tt.share})
		resp, env := send(t, h, http.MethodPost, "/v1/email/domain/health", "application/json", bytes.NewReader(body))
		if resp.StatusCode != tt.status {
			t.Fatalf("share %d: status %d, %s", tt.share, resp.StatusCode, errorText(env))
		}
		if tt.status == 429 && (resp.Header.Get("Retry-After") == "" || !strings.Contains(errorText(env), "share")) {
			t.Errorf("Retry-After %q, %s", resp.Header.Get("Retry-After"), errorText(env))
		}
		if tt.status == 200 && len(env.Data) < 300<<10 {
			t.Errorf("answer of %d bytes; the test proves nothing", len(env.Data))
		}
	}
}

func TestEmailListRoutes(t *testing.T) {
	h := emailHandlerLists(t, httpapi.Config{}, email.DefaultLists().WithAllowed("yopmail.com"))
	code, env := postJSON(t, h, "/v1/email/disposable/check", `{"emails":["a@mailinator.com","b@x.mailinator.com","c@yopmail.com","d@gmail.com"]}`)
	var d email.DisposableResult
	json.Unmarshal(env.Data, &d)
	if code != 200 || !d.Results[0].IsDisposable || !d.Results[1].IsDisposable || d.Results[2].IsDisposable || d.Results[3].IsDisposable || d.Summary.Matched != 2 {
		t.Errorf("status %d, %+v", code, d)
	}
	code, env = postJSON(t, h, "/v1/email/role-account/check", `{"emails":["Support+EU@x.com","jane@x.com"]}`)
	var r email.RoleResult
	json.Unmarshal(env.Data, &r)
	if code != 200 || !r.Results[0].IsRoleAccount || r.Results[1].IsRoleAccount || r.Summary.Matched != 1 {
		t.Errorf("status %d, %+v", code, r)
	}
	for _, path := range []string{"/v1/email/disposable/check", "/v1/email/role-account/check"} {
		if code, env := postJSON(t, h, path, `{"emails":[]}`); code != 400 || !strings.Contains(errorText(env), "emails") {
			t.Errorf("%s: status %d, %s", path, code, errorText(env))
		}
	}
}
