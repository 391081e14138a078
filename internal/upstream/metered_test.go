package upstream

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestMetered(t *testing.T) {
	if hc, err := Metered(nil, "p", nil); hc != nil || err != nil {
		t.Errorf("nil registry: %v, %v; want the client unchanged", hc, err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	reg := prometheus.NewRegistry()
	base := &http.Client{Timeout: 7e9}
	hc, err := Metered(reg, "acme", base)
	if err != nil || hc == base || hc.Timeout != base.Timeout {
		t.Fatalf("Metered = %+v, %v; want a copy keeping the timeout", hc, err)
	}
	res, err := hc.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	want := `
# HELP quiver_upstream_requests_total Calls to upstream providers, by provider and outcome.
# TYPE quiver_upstream_requests_total counter
quiver_upstream_requests_total{outcome="ok",provider="acme"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "quiver_upstream_requests_total"); err != nil {
		t.Error(err)
	}
}
