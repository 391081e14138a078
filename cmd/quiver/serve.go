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

// setup registers a service's flags and returns the function that, once
// the flags are parsed, fills the service's part of the handler config.
type setup func(f *flags) func(ctx context.Context, cfg *httpapi.Config) error

// services lists the setup of every service package.
var services = []setup{
	emailSetup,
	webcheckSetup,
	devutilSetup,
	contentSetup,
	microblogSetup,
	photosocialSetup,
}

// run parses args and the environment, then serves until ctx is done.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	f := &flags{FlagSet: flag.NewFlagSet("quiver", flag.ContinueOnError), getenv: getenv, deps: &deps{}}
	f.SetOutput(stdout)
	var sc serverConfig
	f.String(&sc.addr, "addr", "QUIVER_ADDR", "127.0.0.1:8080", "address to listen on")
	f.Strings(&sc.keys, "api-keys", "QUIVER_API_KEYS", nil, "comma-separated X-Gateway-Key values to accept; one is generated when none is set")
	f.Strings(&sc.hosts, "hosts", "QUIVER_HOSTS", nil, "comma-separated X-Gateway-Host values to accept; any non-empty host when none is set")
	f.Float(&sc.rate, "rate-limit", "QUIVER_RATE_LIMIT", httpapi.DefaultRatePerSecond, "requests per second allowed per key; negative disables the limit")
	f.Int(&sc.burst, "burst", "QUIVER_BURST", httpapi.DefaultBurst, "requests a key may make at once")
	f.Int64(&sc.maxBody, "max-body", "QUIVER_MAX_BODY", httpapi.DefaultMaxBodyBytes, "maximum request body in bytes")
	f.Duration(&sc.requestTimeout, "request-timeout", "QUIVER_REQUEST_TIMEOUT", httpapi.DefaultRequestTimeout, "time limit of the work of one request (keep it below -write-timeout); negative disables it")
	f.Duration(&sc.readHeaderTimeout, "read-header-timeout", "QUIVER_READ_HEADER_TIMEOUT", 5*time.Second, "time allowed to read request headers")
	f.Duration(&sc.readTimeout, "read-timeout", "QUIVER_READ_TIMEOUT", 30*time.Second, "time allowed to read a whole request")
	f.Duration(&sc.writeTimeout, "write-timeout", "QUIVER_WRITE_TIMEOUT", 120*time.Second, "time allowed to handle a request and write the response")
	f.Duration(&sc.idleTimeout, "idle-timeout", "QUIVER_IDLE_TIMEOUT", 120*time.Second, "how long an idle keep-alive connection stays open")
	f.Duration(&sc.shutdownTimeout, "shutdown-timeout", "QUIVER_SHUTDOWN_TIMEOUT", 30*time.Second, "how long shutdown waits for requests in flight")
	f.String(&sc.logFormat, "log-format", "QUIVER_LOG_FORMAT", "text", "log format: text or json")
	f.Bool(&sc.noDocs, "no-docs", "QUIVER_NO_DOCS", false, "do not serve the interactive API reference at /docs (nor the redirect to it from /)")
	ms := metricsFlags(f) // operations: metrics.go
	ab := abuseFlags(f)   // abuse limits: abuse.go
	rc := redisFlags(f)   // operations: redis.go
	jc := jobsFlags(f)    // bulk jobs: jobs.go
	applies := make([]func(context.Context, *httpapi.Config) error, len(services))
	for i, s := range services {
		applies[i] = s(f)
	}
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if err := errors.Join(f.errs...); err != nil {
		return usageError{err}
	}
	if f.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", f.Arg(0))}
	}

	var logger *slog.Logger
	switch sc.logFormat {
	case "text":
		logger = slog.New(slog.NewTextHandler(stdout, nil))
	case "json":
		logger = slog.New(slog.NewJSONHandler(stdout, nil))
	default:
		return usageError{fmt.Errorf("-log-format %q: want text or json", sc.logFormat)}
	}

	generated := len(sc.keys) == 0
	if generated {
		sc.keys = []string{newKey()}
	}
	cfg := httpapi.Config{
		Keys:           secretKeys(sc.keys),
		Hosts:          sc.hosts,
		RatePerSecond:  sc.rate,
		Burst:          sc.burst,
		MaxBodyBytes:   sc.maxBody,
		RequestTimeout: sc.requestTimeout,
		DisableDocs:    sc.noDocs,
		Logger:         logger,
	}
	if err := ab.apply(&cfg, logger); err != nil {
		return err
	}
	// operations: the metrics and Redis come first, for the services to
	// feed and use (metrics.go, redis.go, deps.go).
	m, err := ms.create(&cfg)
	if err != nil {
		return err
	}
	if err := rc.connect(ctx, logger); err != nil {
		return err
	}
	defer rc.close()
	f.deps.metrics = m
	if f.deps.cache, err = rc.upstreamCache(logger); err != nil {
		return err
	}

	for _, apply := range applies {
		if err := apply(ctx, &cfg); err != nil {
			return err
		}
	}
	if c, ok := cfg.LLM.Model.(io.Closer); ok { // the Google AI client holds a gRPC connection
		defer c.Close()
	}

	if err := rc.install(&cfg, logger); err != nil { // operations: redis.go
		return err
	}
	// The job workers stop with ctx, before the Redis client closes.
	wctx, stopWorkers := context.WithCancel(ctx)
	defer jc.wait()
	defer stopWorkers()
	if err := jc.start(wctx, &cfg, rc, logger); err != nil { // bulk jobs: jobs.go
		return err
	}
	if err := ms.listen(logger, stdout); err != nil { // operations: metrics.go
		return err
	}
	defer ms.stop()

	ln, err := net.Listen("tcp", sc.addr)
	if err != nil {
		return err
	}
	api, err := httpapi.New(cfg) // logs a warning when the model's price is unknown
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           ms.handler(api), // operations: /metrics on this listener
		ReadHeaderTimeout: sc.readHeaderTimeout,
		ReadTimeout:       sc.readTimeout,
		WriteTimeout:      sc.writeTimeout,
		IdleTimeout:       sc.idleTimeout,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
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
