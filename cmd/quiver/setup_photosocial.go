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
		if graph.Token != "" || graph.UserID != "" || apify.Token != "" || len(files) > 0 || c.Sample {
			return nil, fmt.Errorf("%s, %s, %s, %s or %s is set but %s is not",
				flagName("photosocial-graph-token"), flagName("photosocial-graph-user-id"), flagName("photosocial-apify-token"),
				flagName("photosocial-file"), flagName("photosocial-sample"), flagName("photosocial-provider"))
		}
		return nil, nil
	case "graph":
		if graph.Token == "" || graph.UserID == "" {
			return nil, fmt.Errorf("%s graph needs %s and %s", flagName("photosocial-provider"), flagName("photosocial-graph-token"), flagName("photosocial-graph-user-id"))
		}
		graph.HTTPClient = d.upstreamClient("instagram_graph")
		p, err := photosocial.NewGraph(graph)
		if err != nil {
			return nil, flagsErr("Graph", "photo-sharing provider graph", err)
		}
		return p, nil
	case "apify":
		if apify.Token == "" {
			return nil, fmt.Errorf("%s apify needs %s", flagName("photosocial-provider"), flagName("photosocial-apify-token"))
		}
		apify.HTTPClient = d.upstreamClient("apify")
		p, err := photosocial.NewApify(apify)
		if err != nil {
			return nil, flagsErr("Apify", "photo-sharing provider apify", err)
		}
		return p, nil
	case "file":
		switch {
		case len(files) > 0:
			p, err := photosocial.NewFile(photosocial.FileConfig{Paths: files})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", flagName("photosocial-file"), err)
			}
			return p, nil
		case c.Sample:
			return photosocial.Sample(), nil
		}
		return nil, fmt.Errorf("%s file needs %s (or %s for the sample dataset)", flagName("photosocial-provider"), flagName("photosocial-file"), flagName("photosocial-sample"))
	}
	return nil, fmt.Errorf("%s %q: want graph, apify or file", flagName("photosocial-provider"), c.Provider)
}
