// Package httpapi serves the Quiver packages over HTTP: the documented
// /v1 routes, gateway authentication, rate limits, body limits and the
// response envelope.
//
// The package is a thin adapter. A route decodes its request, calls the
// package that implements it, and encodes the result; validation and
// business logic live in the packages. [New] returns an [http.Handler] that
// can be mounted in any mux.
//
// # Requests
//
// Every /v1 request carries X-Gateway-Key (one of [Config.Keys]) and
// X-Gateway-Host (one of [Config.Hosts] when that list is set). POST bodies
// are JSON with Content-Type application/json, decoded strictly: unknown
// fields, wrong types, out-of-range numbers and trailing data are
// INVALID_REQUEST naming the field. GET routes take query parameters and
// reject unknown ones the same way.
//
// # Responses
//
// Every response, errors included, is the envelope of package envelope,
// with the request ID in meta.request_id and in the X-Request-Id header.
// Every /v1 response also carries X-RateLimit-Limit (the burst: how many
// requests a key may make at once) and X-RateLimit-Remaining; a 429 adds
// Retry-After in seconds.
//
// # Limits
//
// Besides the rate limit per key, the handler bounds the work in flight
// ([Config.MemoryBudget]: 429 for a key over its share, 503 when the
// server is full, never a queue), the failed authentications per client
// address, and the time a large response may take to write
// ([Config.SlowWriteTimeout]).
//
// Failed authentications are counted per IPv4 address and per IPv6 /64
// ([Config.AuthFailureBurst]: 10, then one per 10 s), and over all the
// /64s of each IPv6 /48 ([Config.AuthFailurePrefixBurst]: 100, then one a
// second), so that over t seconds a /48 is worth at most 100 + t guesses
// rather than 65,536 times a /64's 10 + t/10. A client past its limit gets 429 with
// Retry-After, even with the right key. X-Forwarded-For is believed only
// from [Config.TrustedProxies]. The state is bounded: at most
// [Config.AuthFailureMaxAddresses] addresses and /48s (100,000 by
// default) of 64 bytes each, 6.1 MiB; a client is tracked only while it
// earns failures back, and when the table is full a tracked one is never
// dropped to make room: new clients share a bucket per IPv6 /32 or IPv4
// /16 instead.
//
// GET /healthz (no authentication) answers {"status":"ok"} in the
// envelope, and GET /openapi.json serves an OpenAPI 3.1 description of
// every route. GET /docs (no authentication either; GET / redirects to
// it) is an interactive reference of that document, in which a visitor
// enters the gateway key once and calls any route: Swagger UI, embedded
// in the binary and served under a strict Content-Security-Policy, so
// that the page loads nothing from another origin. [Config.DisableDocs]
// turns it off.
//
// # Metrics
//
// [Config.Metrics] takes a [prometheus.Registerer] rather than a metrics
// type of this package: the embedder keeps one registry for its whole
// program, adds its own collectors (and the Go runtime and process ones
// if it wants them), and serves it with promhttp.HandlerFor. New
// registers these collectors in it:
//
//	quiver_http_requests_total{route,status}     requests, by route pattern and status
//	quiver_http_request_duration_seconds{route}  latency histogram
//	quiver_http_requests_in_flight               requests being served
//	quiver_rate_limit_rejections_total           requests refused by the rate limit
//	quiver_rate_limiter_errors_total             limiter failures (request let through)
//	quiver_llm_tokens_total{model,kind}          language model tokens, prompt or completion
//	quiver_llm_cost_usd_total{model}             estimated language model cost in US dollars
//	quiver_upstream_requests_total{provider,outcome}, quiver_upstream_request_duration_seconds{provider}
//	                                             calls of the providers built with the same registry
//	                                             (their Config's Metrics field)
//
// Route labels are route patterns, never raw paths (a 405 is counted
// under the pattern of its path's route); requests refused before
// routing, or matching no route, share the label "unmatched".
package httpapi

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/cfgerr"
	"github.com/quiverkit/quiver/internal/metrics"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/webcheck"
)

// Defaults of [Config].
const (
	DefaultRatePerSecond = 10
	DefaultBurst         = 20
	DefaultMaxBodyBytes  = 1 << 20
	// DefaultRequestTimeout leaves room for a slow language model and stays
	// below cmd/quiver's default WriteTimeout of 120 s.
	DefaultRequestTimeout = 100 * time.Second
)

// ErrInvalidConfig is wrapped by the error of [New] when a [Config] field
// holds a value that cannot work; the message names the field.
var ErrInvalidConfig = errors.New("httpapi: invalid configuration")

// Config configures the handler that [New] returns. Keys is required;
// every other field's zero value works and its comment gives the default.
type Config struct {
	// Keys are the accepted X-Gateway-Key values, credentials whose
	// printed forms show "[redacted]" (see package secret). Required: New
	// fails when it is empty or holds an empty key.
	Keys []secret.String
	// Hosts, when set, are the accepted X-Gateway-Host values, compared
	// case-insensitively. Default (empty): any non-empty host is accepted.
	Hosts []string

	// RatePerSecond is the sustained request rate allowed per key.
	// Default (0): DefaultRatePerSecond; negative disables rate limiting.
	RatePerSecond float64
	// Burst is how many requests a key may make at once. Default (0):
	// DefaultBurst.
	Burst int
	// Limiter replaces the in-process per-key limiter, e.g. with one that
	// shares its state between instances (package httpapi/redislimit).
	// RatePerSecond and Burst are then the limiter's business. Default
	// (nil): a [MemoryLimiter] of RatePerSecond and Burst.
	Limiter Limiter

	// MaxBodyBytes bounds request bodies; larger ones are answered 413.
	// Default (0): DefaultMaxBodyBytes (1 MiB).
	MaxBodyBytes int64

	// RequestTimeout bounds the work of one request: its context ends
	// then, and an operation still waiting on an upstream answers 504
	// UPSTREAM_TIMEOUT. Default (0): DefaultRequestTimeout; negative
	// disables it. Keep it below the server's WriteTimeout. The download
	// of a bulk job's results is exempt: each of its writes must finish
	// within SlowWriteTimeout instead, so a million rows can be fetched
	// over a slow link.
	RequestTimeout time.Duration

	// MemoryBudget bounds the work in flight: the bytes that the requests
	// being served may use together, as estimated by each route's weight
	// (its declared body size times its kind's cost: json/format, sitemap,
	// hash, stack trace and CSV are heavy). A request that does not fit is
	// refused at once with 503 and Retry-After, never queued. Its answer
	// is charged too, as it is built (domain health's results) and
	// encoded (past 64 KiB); an answer that does not fit is not sent, the
	// request getting the 503 (or the 429 of KeyMemoryBudget) instead.
	// Default DefaultMemoryBudget (512 MiB); negative disables admission
	// control.
	MemoryBudget int64
	// KeyMemoryBudget is the share of MemoryBudget that one key may hold;
	// a key over it gets 429 with Retry-After. Default half of
	// MemoryBudget.
	KeyMemoryBudget int64
	// HeavySlots is how many CPU-bound requests (json/format, sitemap,
	// hash, stack trace, CSV) run at once; more get 503. Default
	// GOMAXPROCS-1, at least 1, so that cheap routes keep a core.
	HeavySlots int
	// SlowWriteTimeout is the time allowed to write a response larger
	// than 64 KiB, so that a client that does not read cannot hold its
	// memory until the server's WriteTimeout. Default
	// DefaultSlowWriteTimeout (10 s); negative leaves only WriteTimeout.
	// It also bounds each read of a bulk job upload, which the server's
	// ReadTimeout and WriteTimeout then do not cut.
	SlowWriteTimeout time.Duration

	// AuthFailureBurst is how many failed authentications a client
	// address (an IPv4 address, or an IPv6 /64) may make before it is
	// answered 429 with Retry-After; even the right key is then refused
	// from that address until it has earned a failure back. Default
	// DefaultAuthFailureBurst (10); negative disables the limit, and the
	// three fields below with it.
	AuthFailureBurst int
	// AuthFailureRate is how many failures per second an address earns
	// back. Default DefaultAuthFailureRate (one every 10 s).
	AuthFailureRate float64
	// AuthFailurePrefixBurst is how many failed authentications all the
	// /64s of one IPv6 /48 may make together, on top of each /64's own
	// limit, before the whole /48 is answered 429: a /48 holds 65,536
	// /64s, and is what one site or customer usually gets. A /48 is then
	// worth at most AuthFailurePrefixBurst guesses at once and
	// AuthFailurePrefixRate a second after that, whatever the number of
	// its /64s. IPv4 addresses are not grouped: a /24 is worth 256
	// addresses, a burst of 2,560 at the defaults, and groups unrelated
	// clients (cloud hosts, carrier-grade NAT) whom a shared limit would
	// lock out. Default DefaultAuthFailurePrefixBurst (100); negative
	// turns the /48 limit off.
	AuthFailurePrefixBurst int
	// AuthFailurePrefixRate is how many failures per second an IPv6 /48
	// earns back. Default DefaultAuthFailurePrefixRate (1).
	AuthFailurePrefixRate float64
	// AuthFailureMaxAddresses is how many client addresses and IPv6
	// /48s the failed-authentication limit tracks at most, which bounds
	// its memory: 64 bytes each at most, 6.1 MiB at the default. An
	// address is tracked from its first failure until it has earned every
	// failure back (100 s at most at the defaults), and forgotten within
	// a minute after that. When the table is full, a tracked address is
	// never dropped to make room, so a blocked one stays blocked however
	// many new addresses come; the addresses that do not fit share 1,024
	// buckets, chosen by their IPv6 /32 or IPv4 /16, each limited as a
	// /48 is, and Logger is warned once a minute. Default
	// DefaultAuthFailureMaxAddresses (100,000); negative is an error.
	AuthFailureMaxAddresses int
	// TrustedProxies are the IP addresses or CIDR prefixes of the reverse
	// proxies in front of the server. Only when a request comes from one
	// is its X-Forwarded-For believed, to find the client address that
	// failed authentications are counted by. Default none: the client is
	// the connection's peer. An entry that does not parse fails New.
	TrustedProxies []string

	// DisableDocs turns off the interactive API reference that GET /docs
	// serves without authentication (Swagger UI rendering /openapi.json,
	// embedded: it loads nothing from another origin), and the redirect
	// to it from GET /; both then answer 404. Default false: the page is
	// served.
	DisableDocs bool

	// Logger receives access logs and internal errors. Default (nil):
	// discard.
	Logger *slog.Logger

	// Metrics, when set, is the Prometheus registry in which New registers
	// the handler's collectors: requests by route and status, latency,
	// requests in flight, rate-limit rejections and limiter failures,
	// language model tokens and cost by model (quiver_* names; see the
	// package documentation). Serve it with promhttp.HandlerFor. Several
	// handlers may share one registry, and then share their counters.
	// The calls of the microblog and photo-sharing providers are counted
	// (quiver_upstream_*) when the providers were built with this
	// registry as their Config's Metrics. Default (nil): no metrics.
	Metrics prometheus.Registerer

	// The services follow, each built by its own package from its own
	// Config (the DNS resolver, lists, SMTP and MTA-STS settings of the
	// email routes are the email.Config of Email; the language model is
	// the llm.Config of Content, Regex, Stacktrace, Readme and
	// Photosocial). A nil service keeps the default its comment gives, or
	// makes its routes answer 503 SERVICE_UNAVAILABLE saying what to
	// configure. New builds no service from settings of its own.

	// Email serves the email routes: single and bulk validation, CSV
	// lists, disposable and role checks, and domain health. Default
	// (nil): the Verifier of email.New(email.Config{}), which checks
	// syntax and the embedded lists only and reports no MX (it has no
	// resolver).
	Email *email.Verifier

	// Jobs runs the bulk verification jobs of /v1/email/bulk/jobs, an
	// extension beyond the contract: package email/jobs, on Redis
	// or in process; the embedder runs its workers (Manager.Run). The
	// upload's body limit is the Manager's file limit, not MaxBodyBytes.
	// Default (nil): those routes answer 503.
	Jobs *jobs.Manager

	// WebCheck runs the web and domain checks. Default (nil): the Checker
	// of webcheck.New(webcheck.Config{}), which resolves with the
	// nameservers of /etc/resolv.conf and refuses loopback and private
	// destinations; New fails when it cannot be built.
	WebCheck *webcheck.Checker

	// Content runs the content generation routes. Default (nil): a
	// Generator without a model, as content.New(content.Config{}):
	// summarize and meta-tags use their extractive engine and the other
	// content routes answer 503.
	Content *content.Generator

	// Regex serves /v1/dev/regex/generate. Default (nil): a generator
	// without a model, which answers from its built-in catalog.
	Regex *devutil.RegexGenerator
	// Stacktrace serves /v1/dev/stacktrace. Default (nil): an analyzer
	// without a model, the deterministic analysis alone.
	Stacktrace *devutil.StacktraceAnalyzer
	// Readme serves /v1/dev/readme. Default (nil): a generator without a
	// model, which answers 503 when a request asks to polish.
	Readme *devutil.ReadmeGenerator

	// Microblog serves the /v1/microblog routes. Default (nil): a Client
	// without a provider, whose routes answer 503 saying how to
	// configure one.
	Microblog *microblog.Client

	// Photosocial serves the /v1/photosocial routes, its insights with
	// the model of its Config. Default (nil): a Client without a provider
	// or a model, whose routes answer 503 saying how to configure them.
	Photosocial *photosocial.Client
}

// validate reports the fields of c that hold values that cannot work.
func (c *Config) validate() error {
	problems := cfgerr.List{Sentinel: ErrInvalidConfig}
	bad := func(field, rule string) { problems.Add("%s %s", field, rule) }
	if len(c.Keys) == 0 {
		bad("Keys", "is empty: every /v1 request would be refused")
	}
	if _, err := parseProxies(c.TrustedProxies); err != nil {
		bad("TrustedProxies", err.Error())
	}
	for i, k := range c.Keys {
		if strings.TrimSpace(k.Reveal()) == "" {
			bad(fmt.Sprintf("Keys[%d]", i), "is empty")
		}
	}
	for i, h := range c.Hosts {
		if strings.TrimSpace(h) == "" {
			bad(fmt.Sprintf("Hosts[%d]", i), "is empty")
		}
	}
	if math.IsNaN(c.RatePerSecond) || math.IsInf(c.RatePerSecond, 0) {
		bad("RatePerSecond", "must be a finite number")
	}
	if c.Burst < 0 {
		bad("Burst", "must not be negative")
	}
	if math.IsNaN(c.AuthFailureRate) || math.IsInf(c.AuthFailureRate, 0) {
		bad("AuthFailureRate", "must be a finite number")
	}
	if math.IsNaN(c.AuthFailurePrefixRate) || math.IsInf(c.AuthFailurePrefixRate, 0) {
		bad("AuthFailurePrefixRate", "must be a finite number")
	}
	if c.AuthFailureMaxAddresses < 0 {
		bad("AuthFailureMaxAddresses", "must not be negative")
	}
	if c.MaxBodyBytes < 0 {
		bad("MaxBodyBytes", "must not be negative")
	}
	return problems.Err()
}

// server holds the handler's state. Its methods are the route operations
// and middleware.
type server struct {
	cfg     Config
	metrics *metrics.Metrics // nil when Config.Metrics is
	log     *slog.Logger
	ids     envelope.IDSource
	limiter Limiter
	keys    [][32]byte // SHA-256 of each configured key
	hosts   map[string]bool
	bufs    sync.Pool // *answerBuffer for encoding responses

	admission    *admission       // nil when Config.MemoryBudget < 0
	authFailures *failureTable    // failed authentications per client address; nil when disabled
	proxies      []netip.Prefix   // Config.TrustedProxies
	bodyLimits   map[string]int64 // "METHOD /path" -> body limit of routes with their own
}

// Handler serves every Quiver route. It is an [http.Handler]: mount it in
// any mux, under a path prefix with [http.StripPrefix]. Build it with
// [New]; it is safe for concurrent use.
type Handler struct {
	h http.Handler
}

// ServeHTTP implements [http.Handler].
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.h.ServeHTTP(w, r) }

// New returns the Quiver HTTP handler configured by cfg. The error wraps
// [ErrInvalidConfig] when a field of cfg cannot work, names the field,
// and reports the default of a nil service that cannot be built (a
// WebCheck without /etc/resolv.conf) or metrics that cannot be
// registered in cfg.Metrics.
func New(cfg Config) (*Handler, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s := newServer(cfg)
	m, err := metrics.New(cfg.Metrics)
	if err != nil {
		return nil, fmt.Errorf("httpapi: Metrics: %w", err)
	}
	s.metrics = m
	routes, err := s.routes()
	if err != nil {
		return nil, fmt.Errorf("httpapi: %w", err)
	}
	return &Handler{h: s.handler(routes)}, nil
}

// newServer applies the defaults of cfg.
func newServer(cfg Config) *server {
	s := &server{cfg: cfg, log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxBodyBytes <= 0 {
		s.cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.RequestTimeout == 0 {
		s.cfg.RequestTimeout = DefaultRequestTimeout
	}
	for _, k := range cfg.Keys {
		if k != "" {
			s.keys = append(s.keys, hashKey(k.Reveal()))
		}
	}
	if len(cfg.Hosts) > 0 {
		s.hosts = make(map[string]bool, len(cfg.Hosts))
		for _, h := range cfg.Hosts {
			s.hosts[strings.ToLower(strings.TrimSpace(h))] = true
		}
	}
	s.guard()
	s.limiter = cfg.Limiter
	if s.limiter == nil && cfg.RatePerSecond >= 0 {
		rps, burst := cfg.RatePerSecond, cfg.Burst
		if rps == 0 {
			rps = DefaultRatePerSecond
		}
		if burst <= 0 {
			burst = DefaultBurst
		}
		s.limiter = NewMemoryLimiter(rps, burst)
	}
	return s
}

// handler builds the mux from the route table and wraps it in the
// middleware chain, outermost first.
func (s *server) handler(routes []route) http.Handler {
	mux := http.NewServeMux()
	methods := make(map[string][]string)
	s.bodyLimits = make(map[string]int64)
	for _, rt := range routes {
		if rt.maxBody > 0 {
			s.bodyLimits[rt.pattern()] = rt.maxBody
		}
		mux.Handle(rt.pattern(), s.serveRoute(rt))
		methods[rt.path] = append(methods[rt.path], rt.method)
	}
	// A path without a method matches whatever the routes above do not:
	// the envelope's 405, with the Allow header. Its metrics label is the
	// route's pattern, as its served requests' is: one route, one label.
	// A path that several routes share labels it with their methods
	// ("GET|DELETE /v1/email/bulk/jobs/{id}").
	for path, ms := range methods {
		allow := strings.Join(ms, ", ")
		label := strings.Join(ms, "|") + " " + path
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			setPattern(r.Context(), label)
			w.Header().Set("Allow", allow)
			s.fail(w, r, envelope.CodeMethodNotAllowed, "method "+r.Method+" is not allowed; use "+allow)
		})
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		setPattern(r.Context(), "GET /healthz")
		s.respond(w, r, map[string]string{"status": "ok"}, nil, nil)
	})
	doc := s.openAPI(routes)
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, r *http.Request) {
		setPattern(r.Context(), "GET /openapi.json")
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc)
	})
	notFound := func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, envelope.CodeNotFound, "no route for "+r.Method+" "+textcut.Excerpt(r.URL.Path))
	}
	if !s.cfg.DisableDocs {
		docs().register(mux, notFound)
	}
	mux.HandleFunc("/", notFound)
	return chain(mux,
		s.withRequestID,
		s.withCleanPath,
		s.withMetrics,
		s.withAccessLog,
		s.withRecovery,
		s.withGateway,
		s.withRateLimit,
		s.withBodyLimit,
	)
}

// serveRoute runs one route's operation and writes its envelope.
func (s *server) serveRoute(rt route) http.Handler {
	pattern := rt.pattern()
	return s.withRequestTimeout(rt, s.admit(rt, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setPattern(r.Context(), pattern)
		if rt.csv != nil {
			s.streamCSV(w, r, rt)
			return
		}
		data, ai, err := rt.op(r)
		if err == nil && rt.status != 0 {
			s.respondStatus(w, r, rt.status, data, ai, nil)
			return
		}
		s.respond(w, r, data, ai, err)
	})))
}

// chain wraps h in the middleware mw, the first being the outermost.
func chain(h http.Handler, mw ...func(http.Handler) http.Handler) http.Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}
