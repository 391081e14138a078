package httpapi_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"maps"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/social/photosocial/photosocialtest"
	"github.com/quiverkit/quiver/webcheck"
)

// The error-text harness: every route is sent inputs that fail in every
// way that can be provoked on loopback (a bad value in each field, a
// refused destination, DNS failures, a provider or model that fails),
// and every error an HTTP caller reads (message and details) or a Go
// caller of the packages reads (the operation's error) must say its cause
// once and in the caller's words.

// errZone is the DNS data of the harness: names that resolve to
// loopback and private addresses (refused destinations), and a mail
// domain whose MX is loopback.
const errZone = `$ORIGIN test.
@          60 IN SOA ns hostmaster 1 3600 600 86400 60
loop       60 IN A   127.0.0.1
private    60 IN A   10.0.0.1
mail       60 IN MX  10 mx.mail.test.
mx.mail    60 IN A   127.0.0.1
mail       60 IN TXT "v=spf1 mx -all"
_dmarc.mail 60 IN TXT "v=DMARC1; p=reject"
_mta-sts.mail 60 IN TXT "v=STSv1; id=1"
mta-sts.mail 60 IN A 127.0.0.1
`

// errFixture holds the loopback peers of the harness.
type errFixture struct {
	// resolver answers errZone; servfail.test fails, refused.test is
	// refused, dead.test times out, after 2s. impatient is the same with
	// a timeout of 100ms, for the requests meant to time out: the others
	// do not, however busy the machine.
	resolver, impatient *resolver.Resolver
	web                 *httptest.Server // a web server whose paths fail: /404, /500, /redirect-private, /loop, /garbage
	jobs                *jobs.Manager
	jobID               string // a job of key "k"
}

func newErrFixture(t *testing.T) *errFixture {
	t.Helper()
	dns := resolvertest.Start(t, resolvertest.Config{Zone: errZone, ServFail: []string{"servfail.test"}, Refused: []string{"refused.test"}, Drop: []string{"dead.test"}})
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}, Timeout: 2 * time.Second, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	impatient, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}, Timeout: 100 * time.Millisecond, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/500":
			http.Error(w, "boom", http.StatusInternalServerError)
		case "/redirect-private":
			http.Redirect(w, r, "http://private.test/", http.StatusFound)
		case "/redirect-loop":
			http.Redirect(w, r, "http://loop.test/", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/garbage":
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte("<urlset><url><loc>\x00</loc>"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(web.Close)
	v, err := email.New(email.Config{Resolver: r})
	if err != nil {
		t.Fatal(err)
	}
	m := runJobs(t, jobs.Config{Verifier: v, MaxRows: 10})
	return &errFixture{resolver: r, impatient: impatient, web: web, jobs: m, jobID: exampleJob(t, m)}
}

// failingModel is a language model on loopback (llmtest's OpenAI
// server) that always answers reply.
type failingModel struct {
	srv     *llmtest.Server
	reply   llmtest.Reply
	timeout time.Duration // of each call; default 2s
}

func newFailingModel(t *testing.T, reply llmtest.Reply) *failingModel {
	// Not Start: a call beyond the armed replies is part of the test, not
	// a failure of it.
	srv, err := llmtest.New(llmtest.OpenAI)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return &failingModel{srv: srv, reply: reply}
}

// arm scripts the answers of one request: every call answers the reply.
func (m *failingModel) arm() {
	for range 8 {
		m.srv.Push(m.reply)
	}
}

func (m *failingModel) config(t *testing.T) llm.Config {
	return llm.Config{Model: m.srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini", Timeout: cmp.Or(m.timeout, 2*time.Second)}
}

// The providers and checkers of the harness, each failing the test when
// it cannot be built.
func twitterProvider(t *testing.T, baseURL, key string) microblog.Provider {
	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: secret.String(key), BaseURL: baseURL, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func graphProvider(t *testing.T, baseURL, token string) photosocial.Provider {
	p, err := photosocial.NewGraph(photosocial.GraphConfig{Token: secret.String(token), UserID: photosocialtest.GraphUserID, BaseURL: baseURL, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func apifyProvider(t *testing.T, baseURL string) photosocial.Provider {
	p, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "apify-token", BaseURL: baseURL, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func checker(t *testing.T, cfg webcheck.Config) *webcheck.Checker {
	c, err := webcheck.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// errCollector gathers the error texts that the harness provokes.
type errCollector struct {
	mu       sync.Mutex
	goErrors map[string][]string // text -> the requests that provoked it
	messages map[string][]string // envelope messages and detail issues
}

func (c *errCollector) add(m map[string][]string, text, where string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(m[text]) < 3 {
		m[text] = append(m[text], where)
	}
}

// scenario is a handler built on some failing peers, and the routes it is
// for (prefixes of their patterns; none: every route).
type scenario struct {
	name   string
	cfg    httpapi.Config
	model  *failingModel // armed before each request, when set
	ps     photosocial.Provider
	routes []string
	mutate bool // also send every mutation of each example, not only the example
	// values, when set, replace the hostile strings of the mutations,
	// and the other mutations are not sent.
	values []string
	// extra are members set in the JSON body of each request, by route
	// pattern.
	extra map[string]map[string]any
}

func TestErrorsSayTheirCauseOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("httpapi: the error-text harness sends thousands of requests")
	}
	f := newErrFixture(t)
	c := &errCollector{goErrors: map[string][]string{}, messages: map[string][]string{}}

	// The providers, each on its loopback replay server.
	twitter := microblogtest.StartTwitterAPIIO(t, "mb-key")
	mbTwitter := twitterProvider(t, twitter.URL, "mb-key")
	xapi := microblogtest.StartXAPI(t, "x-token")
	mbX, err := microblog.NewXAPI(microblog.XAPIConfig{Token: "x-token", BaseURL: xapi.URL, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	graph := photosocialtest.StartGraph(t, "graph-token")
	psGraph := graphProvider(t, graph.URL, "graph-token")
	apify := photosocialtest.StartApify(t, "apify-token")
	psApify := apifyProvider(t, apify.URL)
	wrongKey := twitterProvider(t, twitter.URL, "wrong")
	wrongToken := graphProvider(t, graph.URL, "wrong")
	refusing := checker(t, webcheck.Config{Resolver: f.resolver, Timeout: 2 * time.Second})
	loopback := checker(t, webcheck.Config{Resolver: f.resolver, AllowLoopback: true, Timeout: 2 * time.Second, OperationTimeout: 4 * time.Second})

	// The DNS questions of the email and web routes go to f.resolver.
	base := httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Email: verifierT(t, email.Config{Resolver: f.resolver}),
		WebCheck: refusing, Jobs: f.jobs, MaxBodyBytes: 64 << 10}
	with := func(mod func(*httpapi.Config)) httpapi.Config {
		cfg := base
		mod(&cfg)
		return cfg
	}
	contract := newFailingModel(t, llmtest.Reply{Content: `{"unexpected":true}`})
	// A TLS server whose certificate is for example.com, from a CA no one
	// trusts; the handshakes it fails are the point, not worth a log.
	tlsWeb := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsWeb.Config.ErrorLog = log.New(io.Discard, "", 0)
	tlsWeb.StartTLS()
	t.Cleanup(tlsWeb.Close)
	scenarios := []scenario{
		{name: "inputs", mutate: true, model: contract, ps: psGraph, cfg: with(func(c *httpapi.Config) {
			c.WebCheck, c.Microblog = refusing, microblogT(t, mbTwitter)
		})},
		{name: "loopback web", mutate: true, routes: []string{"POST /v1/utility/", "POST /v1/dev/data/url"}, cfg: with(func(c *httpapi.Config) {
			c.WebCheck = loopback
		}), extra: map[string]map[string]any{"POST /v1/utility/ssl/check": {"port": tlsWeb.Listener.Addr().(*net.TCPAddr).Port}}},
		{name: "x api", mutate: true, routes: []string{"GET /v1/microblog/"}, cfg: with(func(c *httpapi.Config) { c.Microblog = microblogT(t, mbX) })},
		{name: "apify", mutate: true, routes: []string{"GET /v1/photosocial/", "POST /v1/photosocial/"}, model: contract,
			ps: psApify, cfg: base},
		{name: "provider key refused", routes: []string{"GET /v1/microblog/", "GET /v1/photosocial/", "POST /v1/photosocial/"}, model: contract,
			ps: wrongToken, cfg: with(func(c *httpapi.Config) { c.Microblog = microblogT(t, wrongKey) })},
		{name: "no services", cfg: httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1}},
	}
	// A model that fails in each way a provider does.
	for _, reply := range []llmtest.Reply{
		{Content: "not json at all"},
		{Content: `{"truncated": [`},
		{Content: `{}`},
		{Content: `[]`},
		{Status: http.StatusTooManyRequests, RetryAfter: "7", Message: "Rate limit reached for gpt-4o-mini"},
		{Status: http.StatusInternalServerError},
		{Status: http.StatusServiceUnavailable},
		{Status: http.StatusNotFound, Message: "The model `gpt-4o-mini` does not exist"},
		{Status: http.StatusUnauthorized, Message: "Incorrect API key provided"},
		{Status: http.StatusBadRequest, Message: "This model's maximum context length is 128000 tokens"},
	} {
		m := newFailingModel(t, reply)
		scenarios = append(scenarios, scenario{name: fmt.Sprintf("model %d %.20s", reply.Status, reply.Content), model: m,
			routes: []string{"POST /v1/content/", "POST /v1/dev/", "POST /v1/photosocial/ai/"},
			ps:     psGraph, cfg: base})
	}
	// A model that does not answer in time.
	slow := newFailingModel(t, llmtest.Reply{Delay: time.Minute})
	slow.timeout = 100 * time.Millisecond
	scenarios = append(scenarios, scenario{name: "model timeout", model: slow,
		routes: []string{"POST /v1/content/headlines", "POST /v1/dev/", "POST /v1/photosocial/ai/"},
		ps:     psGraph, cfg: base})
	// Names whose DNS servers do not answer, in every field of the email
	// and web routes.
	dead := []string{"dead.test", "a@dead.test", "https://dead.test/"}
	scenarios = append(scenarios, scenario{name: "dns timeouts", mutate: true, values: dead,
		routes: []string{"POST /v1/utility/", "POST /v1/email/", "POST /v1/dev/email/"},
		cfg: with(func(c *httpapi.Config) {
			c.Email = verifierT(t, email.Config{Resolver: f.impatient})
			c.WebCheck = checker(t, webcheck.Config{Resolver: f.impatient, AllowLoopback: true, Timeout: 2 * time.Second})
		})})
	// Mail peers that fail: an MTA-STS policy host that speaks plain
	// HTTP, then one whose certificate is not trusted; an SMTP server
	// without STARTTLS.
	smtp := testutil.NewSMTPServer(t, testutil.SMTPOptions{})
	for _, web := range []*httptest.Server{f.web, tlsWeb} {
		port := web.Listener.Addr().(*net.TCPAddr).Port
		scenarios = append(scenarios, scenario{name: "mail peers " + web.URL[:5], mutate: true,
			values: []string{"mail.test", "a@mail.test"},
			extra: map[string]map[string]any{
				"POST /v1/email/domain/health":    {"check_starttls": true},
				"POST /v1/utility/email/validate": {"check_smtp": true},
				"POST /v1/dev/email/validate":     {"check_smtp": true},
			},
			routes: []string{"POST /v1/email/", "POST /v1/utility/email/", "POST /v1/dev/email/"},
			cfg: with(func(c *httpapi.Config) {
				c.Email = verifierT(t, email.Config{Resolver: f.resolver,
					MTASTS: mailauth.MTASTSOptions{Port: port, AllowLoopback: true, Timeout: 2 * time.Second},
					SMTP: email.SMTPOptions{Port: smtp.Port, AllowPrivateAddresses: true, HostInterval: -1,
						ConnectTimeout: 2 * time.Second, StepTimeout: 2 * time.Second}})
			})})
	}
	// A threat-intelligence source that fails.
	for _, status := range []int{http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusOK} {
		sb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "5")
			w.WriteHeader(status)
			w.Write([]byte(`{"matches": [`))
		}))
		t.Cleanup(sb.Close)
		wc := checker(t, webcheck.Config{Resolver: f.resolver, AllowLoopback: true, Timeout: 2 * time.Second,
			ThreatIntel: &webcheck.SafeBrowsing{APIKey: "sb-key", BaseURL: sb.URL}})
		scenarios = append(scenarios, scenario{name: fmt.Sprintf("safe browsing %d", status), mutate: true,
			values: []string{f.web.URL + "/404", f.web.URL + "/redirect-private"},
			routes: []string{"POST /v1/utility/url/safety"}, cfg: with(func(c *httpapi.Config) { c.WebCheck = wc })})
	}
	// Providers that fail in each way an HTTP API does.
	for _, fail := range []struct {
		status int
		header http.Header
		body   string
	}{
		{http.StatusNotFound, nil, `{"error":"not found"}`},
		{http.StatusTooManyRequests, http.Header{"Retry-After": {"9"}}, `{"error":"Too Many Requests"}`},
		{http.StatusInternalServerError, nil, `oops`},
		{http.StatusBadGateway, nil, `<html>bad gateway</html>`},
		{http.StatusOK, nil, `{"data": [`},
		{http.StatusOK, nil, `"a string"`},
	} {
		tw := microblogtest.StartTwitterAPIIO(t, "mb-key")
		tw.Respond("/", fail.status, fail.header, fail.body)
		p := twitterProvider(t, tw.URL, "mb-key")
		gr := photosocialtest.StartGraph(t, "graph-token")
		gr.Respond("/", fail.status, fail.header, fail.body)
		g := graphProvider(t, gr.URL, "graph-token")
		ap := photosocialtest.StartApify(t, "apify-token")
		ap.Respond("/", fail.status, fail.header, fail.body)
		a := apifyProvider(t, ap.URL)
		routes := []string{"GET /v1/microblog/", "GET /v1/photosocial/", "POST /v1/photosocial/"}
		scenarios = append(scenarios,
			scenario{name: fmt.Sprintf("providers %d %.10s", fail.status, fail.body), model: contract, routes: routes,
				ps: g, cfg: with(func(c *httpapi.Config) { c.Microblog = microblogT(t, p) })},
			scenario{name: fmt.Sprintf("apify %d %.10s", fail.status, fail.body), model: contract, routes: routes[1:],
				ps: a, cfg: base})
	}

	sent := 0
	for _, sc := range scenarios {
		var lc llm.Config
		if sc.model != nil {
			lc = sc.model.config(t)
		}
		sc.cfg = withLLM(t, sc.cfg, lc)
		if sc.ps != nil {
			sc.cfg.Photosocial = photosocialT(t, sc.ps, lc)
		}
		h, err := httpapi.NewReporting(sc.cfg, func(pattern string, err error) {
			c.add(c.goErrors, err.Error(), sc.name+": "+pattern)
		})
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		doc, err := openapi3.NewLoader().LoadFromData(fetchOpenAPI(t, h))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range slices.Sorted(maps.Keys(doc.Paths.Map())) {
			item := doc.Paths.Value(path)
			for _, method := range slices.Sorted(maps.Keys(item.Operations())) {
				op := item.Operations()[method]
				pattern := method + " " + path
				if !strings.HasPrefix(path, "/v1/") || !matchesAny(pattern, sc.routes) {
					continue
				}
				for _, in := range errInputs(t, f, method, path, op, sc.mutate, sc.values, sc.extra[pattern]) {
					if sc.model != nil {
						sc.model.arm()
					}
					sent++
					c.send(t, h, sc.name+": "+pattern+" "+in.name, in.req)
				}
			}
		}
	}
	c.checkJobs(t, f)
	t.Logf("sent %d requests: %d distinct messages, %d distinct Go errors", sent, len(c.messages), len(c.goErrors))
	c.report(t)
}

func matchesAny(pattern string, prefixes []string) bool {
	if len(prefixes) == 0 {
		return true
	}
	for _, p := range prefixes {
		if strings.HasPrefix(pattern, p) {
			return true
		}
	}
	return false
}

// send serves req and collects the texts of its error envelope.
func (c *errCollector) send(t *testing.T, h http.Handler, where string, req *http.Request) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/csv") {
		return
	}
	var env envelopeBody
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Errorf("%s: answered %d, not an envelope: %.200s", where, rec.Code, rec.Body)
		return
	}
	if env.Error == nil {
		c.addDataTexts(env.Data, where)
		return
	}
	if env.Error.Code == "INTERNAL_ERROR" {
		t.Errorf("%s: answered INTERNAL_ERROR", where)
	}
	c.add(c.messages, env.Error.Message, where)
	for _, d := range env.Error.Details {
		c.add(c.messages, d.Issue, where+" (detail of "+d.Field+")")
	}
}

// dataTextKeys are the members of an answer's data that carry the text of
// a failure the answer reports rather than fails with (a check that
// could not be made, a note on a missing suggestion).
var dataTextKeys = map[string]bool{"error": true, "message": true, "ai_note": true, "warnings": true, "reason": true}

// addDataTexts collects the failure texts of an answer's data.
func (c *errCollector) addDataTexts(data json.RawMessage, where string) {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return
	}
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				walk(k, e)
			}
		case []any:
			for _, e := range v {
				walk(key, e)
			}
		case string:
			if dataTextKeys[key] && v != "" {
				c.add(c.messages, v, where+" (data "+key+")")
			}
		}
	}
	walk("", v)
}

// checkJobs provokes the failures of the job routes that the document's
// examples do not: a job of another key, a job not done, an upload that
// is not CSV.
func (c *errCollector) checkJobs(t *testing.T, f *errFixture) {
	h, err := httpapi.NewReporting(httpapi.Config{Keys: []secret.String{"k", "other"}, RatePerSecond: -1, Jobs: f.jobs}, func(pattern string, err error) {
		c.add(c.goErrors, err.Error(), "jobs: "+pattern)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/v1/email/bulk/jobs/" + f.jobID, "/v1/email/bulk/jobs/" + f.jobID + "/results", "/v1/email/bulk/jobs/nope", "/v1/email/bulk/jobs/nope/results"} {
		req := httptest.NewRequest("GET", target, nil)
		req.Header.Set("X-Gateway-Key", "other")
		req.Header.Set("X-Gateway-Host", "test")
		c.send(t, h, "jobs: GET "+target+" of another key", req)
	}
	for _, body := range []string{"", "email\n" + strings.Repeat("a@mail.test\n", 20), "\"unterminated\nx", "\x00\x01\x02", "name\nana\n"} {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		fw, _ := mw.CreateFormFile("file", "f.csv")
		fw.Write([]byte(body))
		mw.Close()
		req := httptest.NewRequest("POST", "/v1/email/bulk/jobs", &b)
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "test")
		req.Header.Set("Content-Type", mw.FormDataContentType())
		c.send(t, h, fmt.Sprintf("jobs: upload %.20q", body), req)
	}
}

// report fails the test for each text that says a clause twice or names
// what the caller cannot know, and, with QUIVER_ERRTEXT_DUMP set to a
// file name, writes every text there for review.
func (c *errCollector) report(t *testing.T) {
	t.Helper()
	var dump strings.Builder
	for _, set := range []struct {
		kind   string
		texts  map[string][]string
		reader testutil.Reader
	}{{"message", c.messages, testutil.HTTPCaller}, {"Go error", c.goErrors, testutil.GoCaller}} {
		for _, text := range slices.Sorted(maps.Keys(set.texts)) {
			where := strings.Join(set.texts[text], "\n\tand ")
			fmt.Fprintf(&dump, "%s %q\n\tfrom %s\n", set.kind, text, where)
			for _, p := range testutil.ErrorTextProblems(text, set.reader) {
				t.Errorf("%s %s: %q\n\tfrom %s", set.kind, p, text, where)
			}
		}
	}
	if name := os.Getenv("QUIVER_ERRTEXT_DUMP"); name != "" {
		if err := os.WriteFile(name, []byte(dump.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// errInput is one request of the harness.
type errInput struct {
	name string
	req  *http.Request
}

// Values that each field is given in turn: each fails somewhere.
var (
	hostileStrings = []string{
		"", " ", "(", "a(b", "[z-a]", "(?<n>x)(?<n>y)", "*", "\\", "%zz", "\x00", "🙂", strings.Repeat("é", 3000),
		"http://", "ftp://example.com/x", "http://user:pw@/x", "http://[::1", "//loop.test", "not a url",
		"http://loop.test/", "https://private.test/", "http://127.0.0.1:1/", "http://[::1]/", "http://10.0.0.1/",
		"https://servfail.test/", "https://refused.test/", "https://nx.test/", "http://localhost/",
		"loop.test", "private.test", "servfail.test", "refused.test", "nx.test", "mail.test",
		"a@servfail.test", "a@nx.test", "a@refused.test", "a@mail.test", "not-an-address", "a@@b",
		"-1", "abc", "1e99", "0", "99999999999999999999",
	}
	hostileNumbers = []any{-1, 0, 1.5, 1e12, "7", true}
	hostileOther   = []any{nil, true, 1, "x", []any{}, []any{"("}, []any{1}, map[string]any{}, map[string]any{"x": 1}}
)

// errInputs returns the requests sent to the operation: its example,
// and when mutate, the example with each field given each hostile value,
// dropped, or joined by an unknown one, and bodies that are not JSON.
func errInputs(t *testing.T, f *errFixture, method, path string, op *openapi3.Operation, mutate bool, values []string, extra map[string]any) []errInput {
	path = strings.ReplaceAll(path, "{id}", f.jobID)
	base := exampleRequest(t, method, path, op)
	var ex map[string]any
	if mt := jsonBody(op); mt != nil {
		ex = maps.Clone(mt.Example.(map[string]any))
		maps.Copy(ex, extra)
		b, err := json.Marshal(ex)
		if err != nil {
			t.Fatal(err)
		}
		base = httptest.NewRequest(method, path, bytes.NewReader(b))
		base.Header = exampleRequest(t, method, path, op).Header
	}
	ins := []errInput{{"example", base}}
	if !mutate {
		return ins
	}
	webURL := func(p string) string { return f.web.URL + p }
	strs := append(slices.Clone(hostileStrings), webURL("/404"), webURL("/500"), webURL("/redirect-private"),
		webURL("/redirect-loop"), webURL("/loop"), webURL("/garbage"), strings.TrimPrefix(f.web.URL, "http://"))
	if values != nil {
		strs = values
	}
	if method == http.MethodGet || method == http.MethodDelete {
		q := base.URL.Query()
		withQuery := func(name string, q url.Values) {
			req := httptest.NewRequest(method, path+"?"+q.Encode(), nil)
			req.Header = base.Header.Clone()
			ins = append(ins, errInput{name, req})
		}
		for _, p := range op.Parameters {
			name := p.Value.Name
			if p.Value.In != openapi3.ParameterInQuery {
				continue
			}
			for _, v := range strs {
				q2 := maps.Clone(q)
				q2.Set(name, v)
				withQuery(fmt.Sprintf("%s=%.30q", name, v), q2)
			}
			if values != nil {
				continue
			}
			q2 := maps.Clone(q)
			q2.Del(name)
			withQuery("without "+name, q2)
			q2 = maps.Clone(q)
			q2[name] = []string{"a", "b"}
			withQuery(name+" twice", q2)
		}
		if values == nil {
			q2 := maps.Clone(q)
			q2.Set("unknown_param", "1")
			withQuery("unknown parameter", q2)
		}
		return ins
	}
	mt := jsonBody(op)
	if mt == nil {
		return ins // multipart: checkJobs and the CSV route's JSON form
	}
	withBody := func(name string, body []byte, ctype string) {
		req := httptest.NewRequest(method, path, bytes.NewReader(body))
		req.Header = base.Header.Clone()
		req.Header.Set("Content-Type", ctype)
		ins = append(ins, errInput{name, req})
	}
	withJSON := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		withBody(name, b, "application/json")
	}
	for _, name := range slices.Sorted(maps.Keys(mt.Schema.Value.Properties)) {
		prop := mt.Schema.Value.Properties[name].Value
		var vals []any
		switch {
		case prop.Type.Is("string"):
			for _, s := range strs {
				vals = append(vals, s)
			}
		case prop.Type.Is("array"):
			if values == nil {
				vals = []any{[]any{}, []any{""}, slices.Repeat([]any{"a@mail.test"}, 1001)}
			}
			for _, s := range strs {
				vals = append(vals, []any{s})
			}
		case (prop.Type.Is("integer") || prop.Type.Is("number")) && values == nil:
			vals = hostileNumbers
		}
		if values == nil {
			vals = append(vals, hostileOther...)
		}
		for _, v := range vals {
			m := maps.Clone(ex)
			m[name] = v
			withJSON(fmt.Sprintf("%s=%.40v", name, v), m)
		}
		if values == nil {
			m := maps.Clone(ex)
			delete(m, name)
			withJSON("without "+name, m)
		}
	}
	if values != nil {
		return ins
	}
	m := maps.Clone(ex)
	m["unknown_field"] = 1
	withJSON("unknown field", m)
	for _, body := range []string{"", "{", "[]", "null", `{"a":1}{`, "\xff", `{"x":` + strings.Repeat("[", 20000)} {
		withBody(fmt.Sprintf("body %.20q", body), []byte(body), "application/json")
	}
	withBody("text/plain", []byte(`{}`), "text/plain")
	return ins
}

// jsonBody is the JSON body of op with its example, or nil.
func jsonBody(op *openapi3.Operation) *openapi3.MediaType {
	if op.RequestBody == nil {
		return nil
	}
	mt := op.RequestBody.Value.Content.Get("application/json")
	if mt == nil {
		return nil
	}
	if _, ok := mt.Example.(map[string]any); !ok {
		return nil
	}
	return mt
}
