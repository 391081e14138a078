package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/secret"
)

// serverConfig is the configuration of the server itself; each service
// adds its own through its setup function.
type serverConfig struct {
	addr              string
	keys              []string
	hosts             []string
	rate              float64
	burst             int
	maxBody           int64
	requestTimeout    time.Duration
	readHeaderTimeout time.Duration
	readTimeout       time.Duration
	writeTimeout      time.Duration
	idleTimeout       time.Duration
	shutdownTimeout   time.Duration
	logFormat         string
	noDocs            bool
}

// setup binds the flags of a service (or of a part shared by several,
// as the DNS resolver) to its settings in c.
type setup func(f *flags, c *config)

// settings is every setting of serve, as the flags and their QUIVER_*
// twins fill it.
type settings struct {
	server   serverConfig
	abuse    *abuseConfig
	metrics  *metricsServer
	redis    *redisConfig
	jobs     *jobsConfig
	services config
}

// flagGroups are the flags of serve, in groups: each binds its flags to
// its part of st. serveFlags binds them all, in this order, and
// docs/operations.md lists them under these titles.
var flagGroups = []struct {
	title string
	bind  func(f *flags, st *settings)
}{
	{"Server", func(f *flags, st *settings) { serverFlags(f, &st.server) }},
	{"Abuse limits", func(f *flags, st *settings) { st.abuse = abuseFlags(f) }},          // abuse.go
	{"Metrics", func(f *flags, st *settings) { st.metrics = metricsFlags(f) }},           // metrics.go
	{"Redis: many instances", func(f *flags, st *settings) { st.redis = redisFlags(f) }}, // redis.go
	{"Bulk jobs", func(f *flags, st *settings) { st.jobs = jobsFlags(f) }},               // jobs.go
	{"DNS resolver", func(f *flags, st *settings) { dnsSetup(f, &st.services) }},
	{"Email", func(f *flags, st *settings) { emailSetup(f, &st.services) }},
	{"Web checks", func(f *flags, st *settings) { webcheckSetup(f, &st.services) }},
	{"Language model", func(f *flags, st *settings) { contentSetup(f, &st.services) }},
	{"Developer utilities", func(f *flags, st *settings) { devutilSetup(f, &st.services) }},
	{"Microblog", func(f *flags, st *settings) { microblogSetup(f, &st.services) }},
	{"Photo-sharing", func(f *flags, st *settings) { photosocialSetup(f, &st.services) }},
}

// serveFlags binds every flag of serve to st.
func serveFlags(f *flags, st *settings) {
	for _, g := range flagGroups {
		g.bind(f, st)
	}
}

// serverFlags binds the flags of the HTTP server itself.
func serverFlags(f *flags, sc *serverConfig) {
	bind(f, &sc.addr, "addr", "127.0.0.1:8080", "address to listen on")
	bind(f, &sc.keys, "api-keys", nil, "comma-separated X-Gateway-Key values to accept; one is generated when none is set")
	bind(f, &sc.hosts, "hosts", nil, "comma-separated X-Gateway-Host values to accept; any non-empty host when none is set")
	bind(f, &sc.rate, "rate-limit", httpapi.DefaultRatePerSecond, "requests per second allowed per key; negative disables the limit")
	bind(f, &sc.burst, "burst", httpapi.DefaultBurst, "requests a key may make at once")
	bind(f, &sc.maxBody, "max-body", httpapi.DefaultMaxBodyBytes, "maximum request body in bytes")
	bind(f, &sc.requestTimeout, "request-timeout", httpapi.DefaultRequestTimeout, "time limit of the work of one request (keep it below -write-timeout); negative disables it")
	bind(f, &sc.readHeaderTimeout, "read-header-timeout", 5*time.Second, "time allowed to read request headers")
	bind(f, &sc.readTimeout, "read-timeout", 30*time.Second, "time allowed to read a whole request")
	bind(f, &sc.writeTimeout, "write-timeout", 120*time.Second, "time allowed to handle a request and write the response")
	bind(f, &sc.idleTimeout, "idle-timeout", 120*time.Second, "how long an idle keep-alive connection stays open")
	bind(f, &sc.shutdownTimeout, "shutdown-timeout", 30*time.Second, "how long shutdown waits for requests in flight")
	bind(f, &sc.logFormat, "log-format", "text", "log format: text or json")
	bind(f, &sc.noDocs, "no-docs", false, "do not serve the interactive API reference at /docs (nor the redirect to it from /)")
}

// parseServe parses args and the environment into the settings of serve.
// With -help it prints the flags to stdout and returns flag.ErrHelp.
func parseServe(args []string, getenv func(string) string, stdout io.Writer) (*settings, error) {
	f := &flags{FlagSet: flag.NewFlagSet("quiver", flag.ContinueOnError), getenv: getenv}
	f.SetOutput(stdout)
	st := &settings{}
	serveFlags(f, st)
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err}
	}
	if err := errors.Join(f.errs...); err != nil {
		return nil, usageError{err}
	}
	if f.NArg() > 0 {
		return nil, usageError{fmt.Errorf("unexpected argument %q", f.Arg(0))}
	}
	return st, nil
}

// run parses args and the environment, then serves until ctx is done.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	st, err := parseServe(args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	sc := &st.server
	var logger *slog.Logger
	switch sc.logFormat {
	case "text":
		logger = slog.New(slog.NewTextHandler(stdout, nil))
	case "json":
		logger = slog.New(slog.NewJSONHandler(stdout, nil))
	default:
		return usageError{fmt.Errorf("%s %q: want text or json", flagName("log-format"), sc.logFormat)}
	}
	if sc.requestTimeout > 0 && sc.writeTimeout > 0 && sc.requestTimeout >= sc.writeTimeout {
		return usageError{fmt.Errorf("%s %v must be below %s %v: a request past -write-timeout loses its answer", flagName("request-timeout"), sc.requestTimeout, flagName("write-timeout"), sc.writeTimeout)}
	}
	generated := len(sc.keys) == 0
	if generated {
		sc.keys = []string{newKey()}
	}
	cfg := handlerSettings(st)
	cfg.Logger = logger
	if err := st.abuse.apply(logger); err != nil {
		return err
	}
	// operations: the metrics and Redis come first, for the services to
	// feed and use (metrics.go, redis.go, deps.go).
	d := &deps{logger: logger}
	if d.metrics, err = st.metrics.create(&cfg); err != nil {
		return err
	}
	rc := st.redis
	if err := rc.connect(ctx, logger); err != nil {
		return err
	}
	defer rc.close()
	if d.cache, err = rc.upstreamCache(logger); err != nil {
		return err
	}
	d.cacheLLM = func(lc llm.Config) (llm.Config, error) { return rc.cacheLLM(lc, logger) }
	svc := newServices(ctx, &st.services, d)
	defer svc.Close()
	if err := svc.handlerConfig(&cfg); err != nil {
		return err
	}
	if err := rc.install(&cfg, logger); err != nil { // operations: redis.go
		return err
	}
	// The job workers stop with ctx, before the Redis client closes.
	wctx, stopWorkers := context.WithCancel(ctx)
	defer st.jobs.wait()
	defer stopWorkers()
	if err := st.jobs.start(wctx, &cfg, svc, rc, logger); err != nil { // bulk jobs: jobs.go
		return err
	}
	if err := st.metrics.listen(logger, stdout); err != nil { // operations: metrics.go
		return err
	}
	defer st.metrics.stop()
	api, err := httpapi.New(cfg)
	if err != nil {
		return flagsErr("HTTP", "server settings", err)
	}
	return serve(ctx, sc, &http.Server{
		Handler:           st.metrics.handler(api), // operations: /metrics on this listener
		ReadHeaderTimeout: sc.readHeaderTimeout,
		ReadTimeout:       sc.readTimeout,
		WriteTimeout:      sc.writeTimeout,
		IdleTimeout:       sc.idleTimeout,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}, generated, logger, stdout)
}

// handlerSettings is the httpapi.Config of the server and abuse-limit
// flags, before the services, limiter, metrics and jobs are built into
// it.
func handlerSettings(st *settings) httpapi.Config {
	sc, a := &st.server, st.abuse
	return httpapi.Config{
		Keys:                    secretKeys(sc.keys),
		Hosts:                   sc.hosts,
		RatePerSecond:           sc.rate,
		Burst:                   sc.burst,
		MaxBodyBytes:            sc.maxBody,
		RequestTimeout:          sc.requestTimeout,
		DisableDocs:             sc.noDocs,
		MemoryBudget:            a.memoryBudget,
		KeyMemoryBudget:         a.keyMemoryBudget,
		HeavySlots:              a.heavySlots,
		SlowWriteTimeout:        a.slowWriteTimeout,
		AuthFailureBurst:        a.authBurst,
		AuthFailureRate:         a.authRate,
		AuthFailurePrefixBurst:  a.authPrefixBurst,
		AuthFailurePrefixRate:   a.authPrefixRate,
		AuthFailureMaxAddresses: a.authMaxAddresses,
		TrustedProxies:          a.trustedProxies,
	}
}

// serve listens on -addr, says where with a curl command when the key was
// generated, and serves srv until ctx is done; then it waits
// -shutdown-timeout for the requests in flight.
func serve(ctx context.Context, sc *serverConfig, srv *http.Server, generated bool, logger *slog.Logger, stdout io.Writer) error {
	ln, err := net.Listen("tcp", sc.addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "quiver listening on %s\n", base)
	if generated {
		host := "localhost"
		if len(sc.hosts) > 0 {
			host = sc.hosts[0]
		}
		fmt.Fprintf(stdout, "no API key configured; generated one for this run: %s\n", sc.keys[0])
		fmt.Fprintf(stdout, "try:\n  curl -s -X POST %s/v1/dev/data/base64/encode -H 'X-Gateway-Key: %s' -H 'X-Gateway-Host: %s' -H 'Content-Type: application/json' -d '{\"value\":\"hello\"}'\n",
			base, sc.keys[0], host)
		if !sc.noDocs {
			fmt.Fprintf(stdout, "or open %s/docs in a browser, enter the key and the host in Authorize, and run any route\n", base)
		}
	} else if !sc.noDocs {
		fmt.Fprintf(stdout, "API reference: %s/docs\n", base)
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down; finishing requests in flight", "timeout", sc.shutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), sc.shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close() // the requests still in flight lose their connections
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// newKey returns a random API key: "qk_" and 26 base32 characters (130 bits).
func newKey() string {
	return "qk_" + rand.Text()
}

// secretKeys returns the gateway keys as the credentials httpapi takes.
func secretKeys(keys []string) []secret.String {
	out := make([]secret.String, len(keys))
	for i, k := range keys {
		out[i] = secret.String(k)
	}
	return out
}
