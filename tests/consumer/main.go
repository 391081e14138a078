// Command quiverconsumer is a program outside the Quiver module that uses
// Quiver the way README.md and docs/packages.md show, so that the public API is proven usable
// from another module: it imports nothing under internal/ (the Go
// toolchain would refuse), and `.ci/run` builds and tests it.
//
// It serves, in its own http.ServeMux:
//
//   - /quiver/: the Quiver HTTP API (package httpapi) under a path prefix,
//     with the program's own keys, DNS resolver, language model, metrics
//     registry, social providers and bulk job manager (in process, its
//     workers running for as long as the program);
//   - GET /metrics: that registry, served by promhttp;
//   - GET /report: the packages called directly, without httpapi.
//
// The resolver and the model are whatever -dns and -model-url point at:
// the test points them at resolver/resolvertest and llm/llmtest servers
// on loopback.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/webcheck"
)

// options configure the program.
type options struct {
	addr          string // listen address
	key           string // the X-Gateway-Key of the embedded API
	dns           string // host:port of the recursive DNS server
	modelURL      string // base URL of an OpenAI-compatible server
	modelName     string
	microblogFile string // JSON Lines export served as microblog data
	domain        string // the domain /report checks
}

func main() {
	var o options
	flag.StringVar(&o.addr, "addr", "127.0.0.1:8090", "listen address")
	flag.StringVar(&o.key, "key", "", "X-Gateway-Key of the embedded Quiver API (required)")
	flag.StringVar(&o.dns, "dns", "", "recursive DNS server, host:port (required)")
	flag.StringVar(&o.modelURL, "model-url", "", "base URL of an OpenAI-compatible model server (required)")
	flag.StringVar(&o.modelName, "model", "gpt-4o-mini", "model name")
	flag.StringVar(&o.microblogFile, "microblog-file", "", "JSON Lines export of tweets (required)")
	flag.StringVar(&o.domain, "domain", "example.com", "domain that /report checks")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run serves the program's mux on o.addr, and runs the bulk job
// workers, until ctx is done.
func run(ctx context.Context, o options, stdout io.Writer) error {
	app, err := newApp(o)
	if err != nil {
		return err
	}
	// Without Run, the jobs that the API accepts stay queued forever.
	ctx, cancel := context.WithCancel(ctx)
	workers := make(chan error, 1)
	go func() { workers <- app.jobs.Run(ctx) }()
	err = serve(ctx, app.mux, o.addr, stdout)
	cancel() // the workers stop with the server, whatever ended it
	if werr := <-workers; werr != nil {
		err = errors.Join(err, fmt.Errorf("jobs: %w", werr))
	}
	return err
}

// serve serves h on addr until ctx is done, then shuts it down.
func serve(ctx context.Context, h http.Handler, addr string, stdout io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// app is the program's own state: the Quiver values it built once.
type app struct {
	domain    string
	resolver  *resolver.Resolver
	verifier  *email.Verifier
	checker   *webcheck.Checker
	generator *content.Generator
	microblog *microblog.Client
	photos    *photosocial.Client
	jobs      *jobs.Manager
	mux       *http.ServeMux
}

// newApp builds every Quiver value from o, and the mux.
func newApp(o options) (*app, error) {
	r, err := resolver.New(resolver.Config{Servers: []string{o.dns}, Timeout: time.Second})
	if err != nil {
		return nil, err
	}
	model, err := openai.New(openai.WithBaseURL(o.modelURL), openai.WithToken("consumer-key"), openai.WithModel(o.modelName),
		openai.WithHTTPClient(llm.HTTPClient()))
	if err != nil {
		return nil, err
	}
	lc := llm.Config{Model: model, Name: o.modelName, Timeout: 10 * time.Second}
	mbFile, err := microblog.NewFile(microblog.FileConfig{Paths: []string{o.microblogFile}})
	if err != nil {
		return nil, err
	}
	checker, err := webcheck.New(webcheck.Config{Resolver: r})
	if err != nil {
		return nil, err
	}
	generator, err := content.New(content.Config{LLM: lc})
	if err != nil {
		return nil, err
	}
	mb, err := microblog.New(microblog.Config{Provider: mbFile})
	if err != nil {
		return nil, err
	}
	photos, err := photosocial.New(photosocial.Config{Provider: photosocial.Sample(), LLM: lc})
	if err != nil {
		return nil, err
	}
	verifier, err := email.New(email.Config{Resolver: r})
	if err != nil {
		return nil, err
	}
	dc := devutil.Config{LLM: lc}
	regex, err := devutil.NewRegexGenerator(dc)
	if err != nil {
		return nil, err
	}
	stacktrace, err := devutil.NewStacktraceAnalyzer(dc)
	if err != nil {
		return nil, err
	}
	readme, err := devutil.NewReadmeGenerator(dc)
	if err != nil {
		return nil, err
	}
	// No Redis: the jobs are kept in this process. run starts the workers.
	manager, err := jobs.New(jobs.Config{Verifier: verifier})
	if err != nil {
		return nil, err
	}
	// The handler serves the services built above, as an embedder does.
	reg := prometheus.NewRegistry()
	api, err := httpapi.New(httpapi.Config{
		Keys:        []secret.String{secret.String(o.key)},
		Metrics:     reg,
		Email:       verifier,
		WebCheck:    checker,
		Content:     generator,
		Regex:       regex,
		Stacktrace:  stacktrace,
		Readme:      readme,
		Microblog:   mb,
		Photosocial: photos,
		Jobs:        manager,
	})
	if err != nil {
		return nil, err
	}
	a := &app{
		domain:    o.domain,
		resolver:  r,
		verifier:  verifier,
		checker:   checker,
		generator: generator,
		microblog: mb,
		photos:    photos,
		jobs:      manager,
		mux:       http.NewServeMux(),
	}
	a.mux.Handle("/quiver/", http.StripPrefix("/quiver", api))
	a.mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	a.mux.HandleFunc("GET /report", a.report)
	return a, nil
}

// report is what the program learns from calling the packages directly.
type report struct {
	Base64       string         `json:"base64"`
	EmailValid   bool           `json:"email_valid"`
	DidYouMean   string         `json:"did_you_mean"`
	MXStatus     email.MXStatus `json:"mx_status"`
	Verdict      email.Verdict  `json:"verdict"`
	MXRecords    []string       `json:"mx_records"`
	URLHost      string         `json:"url_host"`
	Summary      string         `json:"summary"`
	Model        string         `json:"model"`
	Tweets       int            `json:"tweets"`
	TopHashtag   string         `json:"top_hashtag"`
	PhotoMedia   int            `json:"photo_media"`
	RobotsAllows bool           `json:"robots_allows"`
	DMARCPolicy  string         `json:"dmarc_policy"`
	NXDomain     bool           `json:"nxdomain"`
}

func (a *app) report(w http.ResponseWriter, r *http.Request) {
	rep, err := a.build(r.Context())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(rep)
}

// build calls each package as README.md and docs/packages.md show.
func (a *app) build(ctx context.Context) (report, error) {
	var rep report
	b64, err := devutil.EncodeBase64(ctx, devutil.Base64Request{Value: "hello"})
	if err != nil {
		return rep, fmt.Errorf("devutil: %w", err)
	}
	rep.Base64 = b64.Output

	res := a.verifier.Validate(ctx, "jane@"+a.domain, email.Checks{})
	rep.EmailValid = res.IsValid
	if res.MX != nil { // nil when Checks skip MX
		rep.MXStatus = res.MX.Status
	}
	typo := a.verifier.Validate(ctx, "Jane.Doe@gmial.com", email.Checks{})
	if typo.DidYouMean != nil {
		rep.DidYouMean = *typo.DidYouMean
	}
	health, err := a.verifier.DomainHealth(ctx, email.DomainHealthRequest{Domains: []string{a.domain}})
	if err != nil {
		return rep, fmt.Errorf("email: %w", err)
	}
	if len(health.Results) > 0 {
		rep.Verdict = health.Results[0].Verdict
	}

	dns, err := a.checker.AnalyzeDNS(ctx, webcheck.DNSRequest{Domain: a.domain})
	if err != nil {
		return rep, fmt.Errorf("webcheck: %w", err)
	}
	rep.MXRecords = dns.MXRecords
	dmarc, err := mailauth.CheckDMARC(ctx, a.resolver, a.domain)
	if err != nil {
		return rep, fmt.Errorf("mailauth: %w", err)
	}
	if dmarc != nil {
		rep.DMARCPolicy = dmarc.Policy
	}
	_, err = a.resolver.LookupMX(ctx, "missing."+a.domain)
	rep.NXDomain = errors.Is(err, resolver.ErrNXDomain)
	u, err := webcheck.ParseURL(ctx, webcheck.URLParseRequest{URL: "https://Example.COM:443/a/../b"})
	if err != nil {
		return rep, fmt.Errorf("webcheck: %w", err)
	}
	rep.URLHost = u.Host
	robots := webcheck.ParseRobots([]byte("User-agent: *\nDisallow: /private/\n"))
	rep.RobotsAllows = robots.Allowed("MyBot/1.0", "https://"+a.domain+"/public/page")

	sum, usage, err := a.generator.Summarize(ctx, content.SummarizeRequest{
		Text: "Quiver verifies email addresses, checks domains and web sites, and generates content with a language model.",
	})
	if err != nil {
		return rep, fmt.Errorf("content: %w", err)
	}
	if sum.Summary != nil {
		rep.Summary = *sum.Summary
	}
	rep.Model = usage.Model

	page, err := a.microblog.UserTweets(ctx, microblog.UserTweetsRequest{Username: "@ana_dev"})
	if err != nil {
		return rep, fmt.Errorf("microblog: %w", err)
	}
	rep.Tweets = len(page.Tweets)
	insights := microblog.AnalyzeTweets(page.Tweets)
	if len(insights.TopHashtags) > 0 {
		rep.TopHashtag = insights.TopHashtags[0].Value
	}

	posts, err := a.photos.Posts(ctx, photosocial.PostsRequest{Username: "@sample.bakery", Limit: 12})
	if err != nil {
		return rep, fmt.Errorf("photosocial: %w", err)
	}
	rep.PhotoMedia = len(posts.Media)
	return rep, nil
}
