package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// statusClientClosed labels, in metrics only, requests whose client
// disconnected before the operation ended.
const statusClientClosed = 499

// withMetrics records every request in Config.Metrics: its route pattern
// (known once the mux has run, through reqInfo), status and duration. A
// request whose client disconnected and whose operation then failed is
// recorded with status 499, so that clients giving up do not count as
// server errors. It is left out of the chain when metrics are off.
func (s *server) withMetrics(next http.Handler) http.Handler {
	m := s.cfg.Metrics
	if m == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		done := m.RequestStarted()
		defer done()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		status := sw.status
		switch {
		case status == 0:
			status = http.StatusOK // nothing written: net/http sends 200
		case status >= 500 && errors.Is(r.Context().Err(), context.Canceled):
			// The client went away and the operation failed for it: count
			// it as nginx's 499 "client closed request", not as our error.
			status = statusClientClosed
		}
		m.ObserveRequest(info(r.Context()).pattern, status, time.Since(start))
	})
}
