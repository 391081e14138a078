package main

import (
	"fmt"
	"time"

	"github.com/quiverkit/quiver/social/photosocial"
)

// photosocialConfig chooses and configures the photo-sharing data
// provider: each provider's own Config, bound by the flags.
type photosocialConfig struct {
	Provider string // graph, apify or file; empty: none
	Graph    photosocial.GraphConfig
	Apify    photosocial.ApifyConfig
	Files    []string
	Sample   bool
}

// photosocialSetup binds the flags of package photosocial. With no
// provider chosen the photo-sharing routes answer 503 saying how to
// choose one.
func photosocialSetup(f *flags, c *config) {
	bind(f, &c.Photosocial.Provider, "photosocial-provider", "", "photo-sharing data provider: graph, apify or file; empty disables the routes (503)")
	bind(f, &c.Photosocial.Graph.Token, "photosocial-graph-token", "", "Instagram Graph API access token of the app user (provider graph)")
	bind(f, &c.Photosocial.Graph.UserID, "photosocial-graph-user-id", "", "the app user's Instagram professional account ID (provider graph)")
	bind(f, &c.Photosocial.Graph.BaseURL, "photosocial-graph-base-url", photosocial.DefaultGraphBaseURL, "Graph API root, without the version (provider graph; override for tests)")
	bind(f, &c.Photosocial.Graph.APIVersion, "photosocial-graph-api-version", photosocial.DefaultGraphAPIVersion, "Graph API version every request names, such as v25.0 (provider graph)")
	bind(f, &c.Photosocial.Apify.Token, "photosocial-apify-token", "", "Apify API token (provider apify)")
	bind(f, &c.Photosocial.Apify.Actor, "photosocial-apify-actor", photosocial.DefaultApifyActor, "Apify actor to run (provider apify)")
	bind(f, &c.Photosocial.Apify.BaseURL, "photosocial-apify-base-url", photosocial.DefaultApifyBaseURL, "Apify API root (provider apify; override for tests)")
	bind(f, &c.Photosocial.Apify.Timeout, "photosocial-apify-timeout", photosocial.DefaultApifyTimeout, "how long one actor run may take, at most 300s (provider apify)")
	bind(f, &c.Photosocial.Apify.RunItems, "photosocial-apify-run-items", photosocial.DefaultApifyRunItems, "items the one actor run of a paged query scrapes; its pages are read from the run's dataset, 1 to 1000 (provider apify)")
	bind(f, &c.Photosocial.Graph.Timeout, "photosocial-timeout", 15*time.Second, "timeout of one Graph API request (provider graph)")
	bind(f, &c.Photosocial.Files, "photosocial-file", nil, "comma-separated JSON Lines exports to serve (provider file)")
	bind(f, &c.Photosocial.Sample, "photosocial-sample", false, "serve the bundled SAMPLE dataset of fictional accounts (provider file, no -photosocial-file)")
}

// provider builds the configured provider; nil when none is.
func (c photosocialConfig) provider(d *deps) (photosocial.Provider, error) {
	graph, apify, files := c.Graph, c.Apify, c.Files
	switch c.Provider {
	case "":
		return nil, nil
	case "graph":
		if graph.Token == "" || graph.UserID == "" {
			return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_PROVIDER=graph needs QUIVER_PHOTOSOCIAL_GRAPH_TOKEN and QUIVER_PHOTOSOCIAL_GRAPH_USER_ID")
		}
		graph.HTTPClient = d.upstreamClient("instagram_graph")
		return photosocial.NewGraph(graph)
	case "apify":
		if apify.Token == "" {
			return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_PROVIDER=apify needs QUIVER_PHOTOSOCIAL_APIFY_TOKEN")
		}
		if apify.Timeout > 300*time.Second {
			return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_APIFY_TIMEOUT=%s: the Apify provider waits at most 300s for an actor run", apify.Timeout)
		}
		if apify.RunItems < 1 || apify.RunItems > 1000 {
			return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_APIFY_RUN_ITEMS=%d: want 1 to 1000", apify.RunItems)
		}
		apify.HTTPClient = d.upstreamClient("apify")
		return photosocial.NewApify(apify)
	case "file":
		switch {
		case len(files) > 0:
			p, err := photosocial.NewFile(photosocial.FileConfig{Paths: files})
			if err != nil {
				return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_FILE: %w", err)
			}
			return p, nil
		case c.Sample:
			return photosocial.Sample(), nil
		}
		return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_PROVIDER=file needs QUIVER_PHOTOSOCIAL_FILE (or QUIVER_PHOTOSOCIAL_SAMPLE=true for the sample dataset)")
	}
	return nil, fmt.Errorf("QUIVER_PHOTOSOCIAL_PROVIDER=%q: want graph, apify or file", c.Provider)
}
