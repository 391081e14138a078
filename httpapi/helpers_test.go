package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/photosocial"
)

// envelopeBody is the envelope as route tests decode it.
type envelopeBody struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *errorBody      `json:"error"`
	Meta    map[string]any  `json:"meta"`
}

// errorBody is the envelope's error object as route tests decode it.
type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details []struct {
		Field string `json:"field"`
		Issue string `json:"issue"`
	} `json:"details"`
}

// send makes one request through h with the gateway headers of key "k",
// and decodes the envelope, failing the test when the body is not one.
// contentType is set when not empty.
func send(t *testing.T, h http.Handler, method, target, contentType string, body io.Reader) (*http.Response, envelopeBody) {
	t.Helper()
	req := httptest.NewRequest(method, target, body)
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "test")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var env envelopeBody
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("%s %s: body %q is not an envelope: %v", method, target, rec.Body.String(), err)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s %s: Content-Type %q", method, target, ct)
	}
	return rec.Result(), env
}

// mustNew returns the handler of cfg, failing the test when New refuses
// the configuration.
func mustNew(t testing.TB, cfg httpapi.Config) *httpapi.Handler {
	t.Helper()
	h, err := httpapi.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// runJobs returns a jobs.Manager of cfg whose workers run until the test
// ends.
func runJobs(t testing.TB, cfg jobs.Config) *jobs.Manager {
	t.Helper()
	m, err := jobs.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return m
}

// The services of a Config, built as an embedder builds them.

// verifierT returns the email verifier of c.
func verifierT(t testing.TB, c email.Config) *email.Verifier {
	t.Helper()
	v, err := email.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// microblogT returns a microblog client on p.
func microblogT(t testing.TB, p microblog.Provider) *microblog.Client {
	t.Helper()
	c, err := microblog.New(microblog.Config{Provider: p})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// photosocialT returns a photo-sharing client on p, with the model of lc.
func photosocialT(t testing.TB, p photosocial.Provider, lc llm.Config) *photosocial.Client {
	t.Helper()
	c, err := photosocial.New(photosocial.Config{Provider: p, LLM: lc})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// withLLM returns cfg with the content and devutil services on the model
// of lc.
func withLLM(t testing.TB, cfg httpapi.Config, lc llm.Config) httpapi.Config {
	t.Helper()
	var err error
	check := func(e error) {
		if e != nil && err == nil {
			err = e
		}
	}
	var e error
	cfg.Content, e = content.New(content.Config{LLM: lc})
	check(e)
	dc := devutil.Config{LLM: lc}
	cfg.Regex, e = devutil.NewRegexGenerator(dc)
	check(e)
	cfg.Stacktrace, e = devutil.NewStacktraceAnalyzer(dc)
	check(e)
	cfg.Readme, e = devutil.NewReadmeGenerator(dc)
	check(e)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
