package main

import (
	"context"
	"fmt"
	"time"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/photosocial"
)

// photosocialSetup registers the flags of package photosocial. With no
// provider chosen the photo-sharing routes answer 503 saying how to
// choose one.
func photosocialSetup(f *flags) func(context.Context, *httpapi.Config) error {
	var (
		provider, graphUser, graphBase string
		graphVersion                   string
		graphToken, apifyToken         secret.String
		apifyActor, apifyBase          string
		apifyTimeout, timeout          time.Duration
		apifyRunItems                  int
		files                          []string
		sample                         bool
	)
	f.String(&provider, "photosocial-provider", "QUIVER_PHOTOSOCIAL_PROVIDER", "", "photo-sharing data provider: graph, apify or file; empty disables the routes (503)")
	f.Secret(&graphToken, "photosocial-graph-token", "QUIVER_PHOTOSOCIAL_GRAPH_TOKEN", "Instagram Graph API access token of the app user (provider graph)")
	f.String(&graphUser, "photosocial-graph-user-id", "QUIVER_PHOTOSOCIAL_GRAPH_USER_ID", "", "the app user's Instagram professional account ID (provider graph)")
	f.String(&graphBase, "photosocial-graph-base-url", "QUIVER_PHOTOSOCIAL_GRAPH_BASE_URL", photosocial.DefaultGraphBaseURL, "Graph API root, without the version (provider graph; override for tests)")
	f.String(&graphVersion, "photosocial-graph-api-version", "QUIVER_PHOTOSOCIAL_GRAPH_API_VERSION", photosocial.DefaultGraphAPIVersion, "Graph API version every request names, such as v25.0 (provider graph)")
	f.Secret(&apifyToken, "photosocial-apify-token", "QUIVER_PHOTOSOCIAL_APIFY_TOKEN", "Apify API token (provider apify)")
	f.String(&apifyActor, "photosocial-apify-actor", "QUIVER_PHOTOSOCIAL_APIFY_ACTOR", photosocial.DefaultApifyActor, "Apify actor to run (provider apify)")
	f.String(&apifyBase, "photosocial-apify-base-url", "QUIVER_PHOTOSOCIAL_APIFY_BASE_URL", photosocial.DefaultApifyBaseURL, "Apify API root (provider apify; override for tests)")
	f.Duration(&apifyTimeout, "photosocial-apify-timeout", "QUIVER_PHOTOSOCIAL_APIFY_TIMEOUT", photosocial.DefaultApifyTimeout, "how long one actor run may take, at most 300s (provider apify)")
	f.Int(&apifyRunItems, "photosocial-apify-run-items", "QUIVER_PHOTOSOCIAL_APIFY_RUN_ITEMS", photosocial.DefaultApifyRunItems, "items the one actor run of a paged query scrapes; its pages are read from the run's dataset, 1 to 1000 (provider apify)")
	f.Duration(&timeout, "photosocial-timeout", "QUIVER_PHOTOSOCIAL_TIMEOUT", 15*time.Second, "timeout of one Graph API request (provider graph)")
	f.Strings(&files, "photosocial-file", "QUIVER_PHOTOSOCIAL_FILE", nil, "comma-separated JSON Lines exports to serve (provider file)")
	f.Bool(&sample, "photosocial-sample", "QUIVER_PHOTOSOCIAL_SAMPLE", false, "serve the bundled SAMPLE dataset of fictional accounts (provider file, no -photosocial-file)")
	return func(_ context.Context, cfg *httpapi.Config) error {
		graph := photosocial.GraphConfig{Token: graphToken, UserID: graphUser, BaseURL: graphBase, APIVersion: graphVersion, Timeout: timeout}
		p, err := newPhotosocialProvider(provider, graph, apifyToken, apifyActor, apifyBase, apifyTimeout, apifyRunItems, files, sample, f.deps)
		if err != nil {
			return usageError{err}
		}
		if p != nil {
			cfg.PhotosocialProvider = p
		}
		return nil
	}
}

func newPhotosocialProvider(kind string, graph photosocial.GraphConfig, apifyToken secret.String, apifyActor, apifyBase string,
	apifyTimeout time.Duration, apifyRunItems int, files []string, sample bool, d *deps) (photosocial.Provider, error) {
	switch kind {
	case "":
		return nil, nil
	case "graph":
		if graph.Token == "" || graph.UserID == "" {
			return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_PROVIDER=graph needs QUIVER_PHOTOSOCIAL_GRAPH_TOKEN and QUIVER_PHOTOSOCIAL_GRAPH_USER_ID")
		}
		graph.HTTPClient = d.upstreamClient("instagram_graph")
		return photosocial.NewGraph(graph)
	case "apify":
		if apifyToken == "" {
			return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_PROVIDER=apify needs QUIVER_PHOTOSOCIAL_APIFY_TOKEN")
		}
		if apifyTimeout > 300*time.Second {
			return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_APIFY_TIMEOUT=%s: the Apify provider waits at most 300s for an actor run", apifyTimeout)
		}
		if apifyRunItems < 1 || apifyRunItems > 1000 {
			return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_APIFY_RUN_ITEMS=%d: want 1 to 1000", apifyRunItems)
		}
		return photosocial.NewApify(photosocial.ApifyConfig{Token: apifyToken, Actor: apifyActor, BaseURL: apifyBase, Timeout: apifyTimeout, RunItems: apifyRunItems, HTTPClient: d.upstreamClient("apify")})
	case "file":
		switch {
		case len(files) > 0:
			p, err := photosocial.NewFile(photosocial.FileConfig{Paths: files})
			if err != nil {
				return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_FILE: %w", err)
			}
			return p, nil
		case sample:
			return photosocial.Sample(), nil
		}
		return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_PROVIDER=file needs QUIVER_PHOTOSOCIAL_FILE (or QUIVER_PHOTOSOCIAL_SAMPLE=true for the sample dataset)")
	}
	return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_PROVIDER=%q: want graph, apify or file", kind)
}
