package httpapi

import (
	"net/http"
	"time"
)

// withMetrics records every request in Config.Metrics: its route pattern
// (known once the mux has run, through reqInfo), status and duration. It
// is left out of the chain when metrics are off.
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
		if status == 0 {
			status = http.StatusOK // nothing written: net/http sends 200
		}
		m.ObserveRequest(info(r.Context()).pattern, status, time.Since(start))
	})
}
