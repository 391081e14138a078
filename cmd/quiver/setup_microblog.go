package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
)

// microblogSetup registers the flags of package microblog: the provider
// (twitterapi, xapi or file), its key, base URL and timeout, or the export
// file. With no provider, the microblog routes answer 503.
func microblogSetup(f *flags) func(context.Context, *httpapi.Config) error {
	var kind, baseURL, file string
	var key secret.String
	var timeout time.Duration
	var maxBytes int64
	f.String(&kind, "microblog-provider", "QUIVER_MICROBLOG_PROVIDER", "", "microblog data provider: twitterapi, xapi or file; none disables the microblog routes (503)")
	f.Secret(&key, "microblog-api-key", "QUIVER_MICROBLOG_API_KEY", "twitterapi.io API key, or X API v2 bearer token (prefer the environment variable: flags show in ps)")
	f.String(&baseURL, "microblog-base-url", "QUIVER_MICROBLOG_BASE_URL", "", "provider API root; default https://api.twitterapi.io or https://api.x.com/2")
	f.String(&file, "microblog-file", "QUIVER_MICROBLOG_FILE", "", "JSON Lines export served by the file provider")
	f.Duration(&timeout, "microblog-timeout", "QUIVER_MICROBLOG_TIMEOUT", microblog.DefaultTimeout, "timeout of each provider request")
	f.Int64(&maxBytes, "microblog-max-bytes", "QUIVER_MICROBLOG_MAX_BYTES", microblog.DefaultMaxResponseBytes, "largest provider response accepted, in bytes")
	return func(_ context.Context, cfg *httpapi.Config) error {
		p, err := microblogProvider(kind, key, baseURL, file, timeout, maxBytes, f.deps.upstreamClient(kind))
		if err != nil {
			return usageError{err} // a configuration mistake, as for photosocial
		}
		cfg.MicroblogProvider = p
		return nil
	}
}

// microblogProvider builds the configured provider; nil when none is.
// Errors never include the key.
func microblogProvider(kind string, key secret.String, baseURL, file string, timeout time.Duration, maxBytes int64, hc *http.Client) (microblog.Provider, error) {
	needKey := func(name string) error {
		if key == "" {
			return fmt.Errorf("QUIVER_MICROBLOG_PROVIDER=%s needs QUIVER_MICROBLOG_API_KEY (-microblog-api-key)", name)
		}
		return nil
	}
	switch kind {
	case "":
		return nil, nil
	case "twitterapi":
		if err := needKey(kind); err != nil {
			return nil, err
		}
		return microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: key, BaseURL: baseURL, HTTPClient: hc, MaxResponseBytes: maxBytes, Timeout: timeout})
	case "xapi":
		if err := needKey(kind); err != nil {
			return nil, err
		}
		return microblog.NewXAPI(microblog.XAPIConfig{Token: key, BaseURL: baseURL, HTTPClient: hc, MaxResponseBytes: maxBytes, Timeout: timeout})
	case "file":
		if file == "" {
			return nil, fmt.Errorf("QUIVER_MICROBLOG_PROVIDER=file needs QUIVER_MICROBLOG_FILE (-microblog-file)")
		}
		p, err := microblog.NewFile(microblog.FileConfig{Paths: []string{file}})
		if err != nil {
			return nil, fmt.Errorf("-microblog-file (QUIVER_MICROBLOG_FILE): %w", err)
		}
		return p, nil
	}
	return nil, fmt.Errorf("QUIVER_MICROBLOG_PROVIDER must be twitterapi, xapi or file, not %q", kind)
}
