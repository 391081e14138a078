package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/webcheck"
)

// The fault tests: a dependency stops answering, and each route ends
// within its timeout with the right envelope, leaving no goroutine
// behind once the servers are closed.

// noLeaks checks, after every other cleanup of the test (the fixture
// servers'), that no goroutine is left.
func noLeaks(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

// within sends a request and fails the test unless it ends within d.
func within(t *testing.T, d time.Duration, h http.Handler, method, target, body string) (*http.Response, envelopeBody) {
	t.Helper()
	ct := ""
	if body != "" {
		ct = "application/json"
	}
	// A fixed slack absorbs scheduling on a loaded machine under -race; it
	// stays far below what a request would take if the configured timeout
	// were not honoured (the resolver's default is seconds per attempt).
	const slack = 750 * time.Millisecond
	start := time.Now()
	res, env := send(t, h, method, target, ct, strings.NewReader(body))
	if took := time.Since(start); took > d+slack {
		t.Errorf("%s %s took %v, want at most %v", method, target, took.Round(time.Millisecond), d+slack)
	}
	return res, env
}

func TestFaultDNSStopsAnswering(t *testing.T) {
	noLeaks(t)
	// The embedded lists load once per process, on first use: load them
	// now so that the timings below measure DNS, not decompression.
	email.DefaultLists()
	const timeout = 200 * time.Millisecond
	dns := resolvertest.Start(t, resolvertest.Config{Zone: "$ORIGIN test.\n@ 300 SOA ns hostmaster 1 3600 600 86400 60\n", Drop: []string{"dead.test", "_dmarc.dead.test"}})
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}, Timeout: timeout, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Email: verifierT(t, email.Config{Resolver: r}),
		WebCheck: checker(t, webcheck.Config{Resolver: r})})

	// A DNS timeout proves nothing about an address: it stays valid, and
	// mx.status says what happened.
	res, env := within(t, 3*timeout, h, "POST", "/v1/utility/email/validate", `{"email":"a@dead.test"}`)
	if res.StatusCode != 200 || !env.Success || !strings.Contains(string(env.Data), `"mx":{"status":"timeout"`) {
		t.Errorf("validate: %d %s %s", res.StatusCode, env.Data, errorOf(env))
	}
	res, env = within(t, 3*timeout, h, "POST", "/v1/email/bulk/validate", `{"emails":["a@dead.test","b@dead.test"]}`)
	if res.StatusCode != 200 || strings.Count(string(env.Data), `"status":"timeout"`) != 2 {
		t.Errorf("bulk: %d %s %s", res.StatusCode, env.Data, errorOf(env))
	}
	// Domain health cannot decide: verdict unknown.
	res, env = within(t, 5*timeout, h, "POST", "/v1/email/domain/health", `{"domains":["dead.test"]}`)
	if res.StatusCode != 200 || !strings.Contains(string(env.Data), `"verdict":"unknown"`) {
		t.Errorf("domain health: %d %s %s", res.StatusCode, env.Data, errorOf(env))
	}
	// The DNS analysis is about DNS itself: its failure is the answer.
	res, env = within(t, 10*timeout, h, "POST", "/v1/utility/dns/analyze", `{"domain":"dead.test"}`)
	t.Logf("dns analyze: %d %s %s", res.StatusCode, env.Data, errorOf(env))
	if res.StatusCode != http.StatusGatewayTimeout || (env.Error == nil || env.Error.Code != "UPSTREAM_TIMEOUT") {
		t.Errorf("dns analyze: %d, want 504 UPSTREAM_TIMEOUT: %s %s", res.StatusCode, env.Data, errorOf(env))
	}
}

func TestFaultUpstreamProviderHangs(t *testing.T) {
	noLeaks(t)
	const timeout = 200 * time.Millisecond

	mb := microblogtest.StartTwitterAPIIO(t, "key")
	mb.Delay("/", time.Minute)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "key", BaseURL: mb.URL, Timeout: timeout, HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatal(err)
	}

	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer hang.Close()
	g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "t", UserID: "17841405309211844",
		BaseURL: hang.URL, Timeout: timeout, HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Microblog: microblogT(t, p), Photosocial: photosocialT(t, g, llm.Config{})})

	for _, target := range []string{
		"/v1/microblog/profile?username=ana_dev",
		"/v1/microblog/search?query=golang",
		"/v1/photosocial/profile?username=natgeo",
		"/v1/photosocial/posts?username=natgeo",
	} {
		res, env := within(t, 5*timeout, h, "GET", target, "")
		if res.StatusCode != http.StatusGatewayTimeout || (env.Error == nil || env.Error.Code != "UPSTREAM_TIMEOUT") {
			t.Errorf("%s: %d, want 504 UPSTREAM_TIMEOUT: %s", target, res.StatusCode, errorOf(env))
		}
	}
}

func TestFaultLLMHangs(t *testing.T) {
	noLeaks(t)
	const timeout = 200 * time.Millisecond
	s := llmtest.Start(t, llmtest.OpenAI)
	for range 8 {
		s.Push(llmtest.Reply{Delay: time.Minute})
	}
	h := mustNew(t, withLLM(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1}, llm.Config{Model: s.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini", Timeout: timeout}))
	for _, c := range []struct{ path, body string }{
		{"/v1/content/headlines", `{"topic":"remote work for small teams"}`},
		{"/v1/content/summarize", `{"text":"` + strings.Repeat("Quiver checks email addresses and domains. ", 5) + `"}`},
	} {
		res, env := within(t, 2*2*timeout+time.Second, h, "POST", c.path, c.body)
		if res.StatusCode != http.StatusGatewayTimeout || (env.Error == nil || env.Error.Code != "UPSTREAM_TIMEOUT") {
			t.Errorf("%s: %d, want 504 UPSTREAM_TIMEOUT: %s %s", c.path, res.StatusCode, env.Data, errorOf(env))
		}
	}
	// The stack-trace analysis has a deterministic answer: it gives it,
	// saying the model did not answer.
	res, env := within(t, 2*2*timeout+time.Second, h, "POST", "/v1/dev/stacktrace",
		`{"stacktrace":"panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/x.go:5 +0x1d"}`)
	if res.StatusCode != 200 || !strings.Contains(string(env.Data), `"ai_note":"no suggestion: the language model did not answer in time"`) {
		t.Errorf("stacktrace: %d %s %s", res.StatusCode, env.Data, errorOf(env))
	}
}

func errorOf(env envelopeBody) string {
	if env.Error == nil {
		return "no error"
	}
	return env.Error.Code + ": " + env.Error.Message
}
