package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/social/photosocial/photosocialtest"
)

// TestEmbedderProvidersAreCounted: an embedder builds its providers
// itself, with the registry it gives httpapi.Config.Metrics, and their
// calls appear in quiver_upstream_requests_total (issue 22: the
// quiver_upstream_* metrics never got values for a provider passed in).
func TestEmbedderProvidersAreCounted(t *testing.T) {
	graphSrv := photosocialtest.StartGraph(t, "graph-token")
	apifySrv := photosocialtest.StartApify(t, "apify-token")
	twSrv := microblogtest.StartTwitterAPIIO(t, "tw-key")
	xSrv := microblogtest.StartXAPI(t, "x-token")

	for _, tt := range []struct {
		label string
		build func(reg prometheus.Registerer) (httpapi.Config, error)
		path  string
	}{
		{"instagram_graph", func(reg prometheus.Registerer) (httpapi.Config, error) {
			p, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "graph-token", UserID: photosocialtest.GraphUserID, BaseURL: graphSrv.URL, Metrics: reg})
			return photosocialConfig(p, err)
		}, "/v1/photosocial/profile?username=" + photosocialtest.Username},
		{"apify", func(reg prometheus.Registerer) (httpapi.Config, error) {
			p, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "apify-token", BaseURL: apifySrv.URL, Metrics: reg})
			return photosocialConfig(p, err)
		}, "/v1/photosocial/profile?username=" + photosocialtest.Username},
		{"twitterapi", func(reg prometheus.Registerer) (httpapi.Config, error) {
			p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "tw-key", BaseURL: twSrv.URL, Metrics: reg})
			return microblogConfig(p, err)
		}, "/v1/microblog/profile?username=" + microblogtest.Username},
		{"xapi", func(reg prometheus.Registerer) (httpapi.Config, error) {
			p, err := microblog.NewXAPI(microblog.XAPIConfig{Token: "x-token", BaseURL: xSrv.URL, Metrics: reg})
			return microblogConfig(p, err)
		}, "/v1/microblog/profile?username=" + microblogtest.Username},
	} {
		t.Run(tt.label, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			cfg, err := tt.build(reg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Keys, cfg.Metrics = []secret.String{"k"}, reg
			api, err := httpapi.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			mux := http.NewServeMux()
			mux.Handle("/quiver/", http.StripPrefix("/quiver", api))
			mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))

			req := httptest.NewRequest(http.MethodGet, "/quiver"+tt.path, nil)
			req.Header.Set("X-Gateway-Key", "k")
			req.Header.Set("X-Gateway-Host", "test")
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("%s: %d %s", tt.path, rec.Code, rec.Body)
			}
			scrape := httptest.NewRecorder()
			mux.ServeHTTP(scrape, httptest.NewRequest(http.MethodGet, "/metrics", nil))
			want := `quiver_upstream_requests_total{outcome="ok",provider="` + tt.label + `"}`
			if !strings.Contains(scrape.Body.String(), want) {
				t.Errorf("no %s in /metrics", want)
			}
		})
	}
}

// photosocialConfig is a handler Config whose photo-sharing routes are
// served by a client on p, the provider built with err.
func photosocialConfig(p photosocial.Provider, err error) (httpapi.Config, error) {
	if err != nil {
		return httpapi.Config{}, err
	}
	c, err := photosocial.New(photosocial.Config{Provider: p})
	return httpapi.Config{Photosocial: c}, err
}

// microblogConfig is a handler Config whose microblog routes are served
// by a client on p, the provider built with err.
func microblogConfig(p microblog.Provider, err error) (httpapi.Config, error) {
	if err != nil {
		return httpapi.Config{}, err
	}
	c, err := microblog.New(microblog.Config{Provider: p})
	return httpapi.Config{Microblog: c}, err
}
