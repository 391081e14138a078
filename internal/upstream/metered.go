package upstream

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/quiverkit/quiver/internal/metrics"
)

// Metered returns the HTTP client of a provider whose calls are counted
// in reg under the label provider (quiver_upstream_requests_total and
// quiver_upstream_request_duration_seconds): a copy of hc, or of the
// package's default client when hc is nil, whose transport records each
// call. The collectors are those of package metrics, shared with any
// httpapi handler registered in reg. A nil reg returns hc unchanged. The
// error is a registration conflict in reg.
func Metered(reg prometheus.Registerer, provider string, hc *http.Client) (*http.Client, error) {
	if reg == nil {
		return hc, nil
	}
	m, err := metrics.New(reg)
	if err != nil {
		return nil, err
	}
	if hc == nil {
		hc = defaultHTTP
	}
	c := *hc
	c.Transport = m.Transport(provider, hc.Transport)
	return &c, nil
}
