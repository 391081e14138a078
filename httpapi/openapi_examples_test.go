package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/webcheck"
)

// exampleHandler serves every route with what runs offline: DNS from a
// loopback server whose zone holds the examples' domains, web checks
// that may reach loopback, the sample social providers, and no language
// model.
func exampleHandler(t *testing.T) (http.Handler, *jobs.Manager) {
	t.Helper()
	ns := resolvertest.Start(t, resolvertest.Config{Zone: `
example.com.        60 IN A   127.0.0.1
example.com.        60 IN MX  10 mx.example.com.
mx.example.com.     60 IN A   127.0.0.1
example.com.        60 IN TXT "v=spf1 mx -all"
_dmarc.example.com. 60 IN TXT "v=DMARC1; p=reject; rua=mailto:dmarc@example.com"
`})
	r, err := resolver.New(resolver.Config{Servers: []string{ns.Addr}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wc, err := webcheck.New(webcheck.Config{Resolver: r, AllowLoopback: true, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	mb, err := microblog.NewFile(microblog.FileConfig{Paths: []string{"../examples/microblog/data/sample.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := email.New(email.Config{Resolver: r})
	if err != nil {
		t.Fatal(err)
	}
	m := runJobs(t, jobs.Config{Verifier: v})
	return mustNew(t, httpapi.Config{
		Keys: []secret.String{"k"}, RatePerSecond: -1, Email: verifierT(t, email.Config{Resolver: r}), WebCheck: wc,
		Microblog: microblogT(t, mb), Photosocial: photosocialT(t, photosocial.Sample(), llm.Config{}), Jobs: m,
	}), m
}

// exampleJob submits a job of key "k" and returns its ID once it is
// done: the {id} of the job routes' examples.
func exampleJob(t *testing.T, m *jobs.Manager) string {
	t.Helper()
	ctx := context.Background()
	j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: hexKey("k"), File: strings.NewReader("email\nana.torres@example.com\n")})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); j.Status != jobs.StatusDone; time.Sleep(10 * time.Millisecond) {
		if j, err = m.Get(ctx, hexKey("k"), j.ID); err != nil || time.Now().After(deadline) {
			t.Fatalf("example job: %+v %v", j, err)
		}
	}
	return j.ID
}

// exampleRequest builds the request that sends op's example: its body,
// or its parameters' examples as the query.
func exampleRequest(t *testing.T, method, path string, op *openapi3.Operation) *http.Request {
	t.Helper()
	if method == http.MethodGet || method == http.MethodDelete {
		q := url.Values{}
		for _, p := range op.Parameters {
			if p.Value.In == openapi3.ParameterInPath {
				continue // in the path already
			}
			switch ex := p.Value.Example.(type) {
			case nil:
			case []any: // style form, not exploded
				var parts []string
				for _, v := range ex {
					parts = append(parts, fmt.Sprint(v))
				}
				q.Set(p.Value.Name, strings.Join(parts, ","))
			default:
				q.Set(p.Value.Name, fmt.Sprint(ex))
			}
		}
		req := httptest.NewRequest(method, path+"?"+q.Encode(), nil)
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "test")
		return req
	}
	if op.RequestBody == nil {
		t.Fatalf("%s %s: no request body", method, path)
	}
	var body bytes.Buffer
	var ctype string
	content := op.RequestBody.Value.Content
	switch {
	case content.Get("application/json") != nil:
		ex := content.Get("application/json").Example
		if ex == nil {
			t.Fatalf("%s %s: no example", method, path)
		}
		json.NewEncoder(&body).Encode(ex)
		ctype = "application/json"
	case content.Get("multipart/form-data") != nil:
		ex, _ := content.Get("multipart/form-data").Example.(map[string]any)
		if ex == nil {
			t.Fatalf("%s %s: no example", method, path)
		}
		mw := multipart.NewWriter(&body)
		for _, name := range slices.Sorted(func(yield func(string) bool) {
			for k := range ex {
				if !yield(k) {
					return
				}
			}
		}) {
			fw, _ := mw.CreateFormFile(name, name+".csv")
			fw.Write([]byte(ex[name].(string)))
		}
		mw.Close()
		ctype = mw.FormDataContentType()
	default:
		t.Fatalf("%s %s: no JSON or multipart body", method, path)
	}
	req := httptest.NewRequest(method, path, &body)
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "test")
	req.Header.Set("Content-Type", ctype)
	return req
}

// TestOpenAPIExamplesAreServed sends the example of every /v1 operation
// of the document to its route (the body of a POST, the parameters of a
// GET): each is answered 200, or 503 SERVICE_UNAVAILABLE when the route
// needs the language model that this handler lacks.
func TestOpenAPIExamplesAreServed(t *testing.T) {
	h, m := exampleHandler(t)
	jobID := exampleJob(t, m)
	doc, err := openapi3.NewLoader().LoadFromData(fetchOpenAPI(t, h))
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if !strings.HasPrefix(path, "/v1/") {
				continue
			}
			sent++
			t.Run(method+" "+strings.TrimPrefix(path, "/v1/"), func(t *testing.T) {
				id := jobID // the job routes: a job of key k
				if method == http.MethodDelete {
					id = exampleJob(t, m) // DELETE deletes a done job: one of its own
				}
				path := strings.ReplaceAll(path, "{id}", id)
				checkExample(t, h, exampleRequest(t, method, path, op))
			})
		}
	}
	if sent != len(httpapi.Routes()) {
		t.Errorf("sent %d examples for %d routes", sent, len(httpapi.Routes()))
	}
}

// checkExample sends req through h and checks that it is answered 200,
// or 503 for want of a language model.
func checkExample(t *testing.T, h http.Handler, req *http.Request) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code == http.StatusOK && strings.HasPrefix(rec.Header().Get("Content-Type"), "text/csv") {
		t.Logf("%.300s", rec.Body) // a job's results
		return
	}
	var env envelopeBody
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("not an envelope: %v: %s", err, rec.Body)
	}
	switch {
	case (rec.Code == http.StatusOK || rec.Code == http.StatusAccepted && req.Method == http.MethodPost) && env.Success:
		t.Logf("%.300s", env.Data)
	case rec.Code == http.StatusServiceUnavailable && env.Error != nil && env.Error.Code == "SERVICE_UNAVAILABLE" &&
		strings.Contains(strings.ToLower(env.Error.Message), "model"):
		t.Logf("503 without a language model: %s", env.Error.Message)
	default:
		t.Errorf("answered %d: %.400s", rec.Code, rec.Body)
	}
}
