package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// statusClientClosed labels requests whose client
// disconnected before the operation ended.
const statusClientClosed = 499

// withMetrics records every request in the metrics: its route pattern
// (known once the mux has run, through reqInfo), status and duration. A
// request whose client disconnected and whose operation then failed is
// recorded with status 499, so that clients giving up do not count as
// server errors. It is left out of the chain when metrics are off.
func (s *server) withMetrics(next http.Handler) http.Handler {
	m := s.metrics
	if m == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		m.RequestStarted()
		sw := &statusWriter{ResponseWriter: w}
		returned := false
		defer func() {
			// Deferred, so that a handler aborted by http.ErrAbortHandler
			// is recorded too.
			m.RequestDone(info(r.Context()).pattern, metricsStatus(r, sw.status, returned), time.Since(start))
		}()
		next.ServeHTTP(sw, r)
		returned = true
	})
}

// metricsStatus is the status label of a request that wrote status, the
// handler having returned or panicked.
func metricsStatus(r *http.Request, status int, returned bool) int {
	switch {
	case status == 0 && !returned:
		status = http.StatusInternalServerError // aborted before writing
	case status == 0:
		status = http.StatusOK // nothing written: net/http sends 200
	case status >= 500 && errors.Is(r.Context().Err(), context.Canceled):
		// The client went away and the operation failed for it: count
		// it as nginx's 499 "client closed request", not as our error.
		status = statusClientClosed
	}
	return status
}
