package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/internal/metrics"
)

// metricsServer serves GET /metrics when -metrics is set: on the main
// listener when -metrics-addr is empty, else on a listener of its own
// (the usual choice: a private address that the scraper reaches and the
// load balancer does not expose).
type metricsServer struct {
	enabled bool
	addr    string

	reg *prometheus.Registry // nil when metrics are off
	srv *http.Server         // the separate listener, if any
}

// metricsFlags registers -metrics and -metrics-addr.
func metricsFlags(f *flags) *metricsServer {
	ms := &metricsServer{}
	bind(f, &ms.enabled, "metrics", false, "serve Prometheus metrics at GET /metrics")
	bind(f, &ms.addr, "metrics-addr", "", "address of a separate listener for /metrics; empty serves it on -addr")
	return ms
}

// create creates the registry, when metrics are enabled, with the Go
// runtime and process collectors, and hands it to the handler config;
// the returned Metrics, registered in it, is for the services to feed
// (DNS cache, upstream calls). It runs before the services are set up.
func (ms *metricsServer) create(cfg *httpapi.Config) (*metrics.Metrics, error) {
	if !ms.enabled {
		if ms.addr != "" {
			return nil, usageError{fmt.Errorf("%s is set but %s is not", flagName("metrics-addr"), flagName("metrics"))}
		}
		return nil, nil
	}
	ms.reg = prometheus.NewRegistry()
	ms.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	cfg.Metrics = ms.reg
	return metrics.New(ms.reg)
}

// scrape serves the registry in the Prometheus exposition format.
func (ms *metricsServer) scrape() http.Handler {
	return promhttp.HandlerFor(ms.reg, promhttp.HandlerOpts{Registry: ms.reg})
}

// listen starts the separate listener of /metrics when -metrics-addr is
// set.
func (ms *metricsServer) listen(logger *slog.Logger, stdout io.Writer) error {
	if ms.reg == nil || ms.addr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", ms.addr)
	if err != nil {
		return fmt.Errorf("metrics listener: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", ms.scrape())
	ms.srv = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		WriteTimeout:      30 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	fmt.Fprintf(stdout, "quiver metrics on http://%s/metrics\n", ln.Addr())
	go func() {
		if err := ms.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics listener failed", "error", err)
		}
	}()
	return nil
}

// handler adds GET /metrics in front of api when metrics are served on
// the main listener.
func (ms *metricsServer) handler(api http.Handler) http.Handler {
	if ms.reg == nil || ms.srv != nil {
		return api
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", ms.scrape())
	mux.Handle("/", api)
	return mux
}

// stop closes the separate listener, if any, letting a scrape in flight
// finish for a few seconds.
func (ms *metricsServer) stop() {
	if ms.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ms.srv.Shutdown(ctx)
	}
}
