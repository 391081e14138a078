package main

import (
	"fmt"
	"time"

	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
)

// microblogConfig chooses and configures the microblog data provider.
type microblogConfig struct {
	Provider string // twitterapi, xapi or file; empty: none
	APIKey   secret.String
	BaseURL  string
	File     string
	Timeout  time.Duration
	MaxBytes int64
}

// microblogSetup binds the flags of package microblog: the provider
// (twitterapi, xapi or file), its key, base URL and timeout, or the export
// file. With no provider, the microblog routes answer 503.
func microblogSetup(f *flags, c *config) {
	bind(f, &c.Microblog.Provider, "microblog-provider", "", "microblog data provider: twitterapi, xapi or file; none disables the microblog routes (503)")
	bind(f, &c.Microblog.APIKey, "microblog-api-key", "", "twitterapi.io API key, or X API v2 bearer token (prefer the environment variable: flags show in ps)")
	bind(f, &c.Microblog.BaseURL, "microblog-base-url", "", "provider API root; default https://api.twitterapi.io or https://api.x.com/2")
	bind(f, &c.Microblog.File, "microblog-file", "", "JSON Lines export served by the file provider")
	bind(f, &c.Microblog.Timeout, "microblog-timeout", microblog.DefaultTimeout, "timeout of each provider request")
	bind(f, &c.Microblog.MaxBytes, "microblog-max-bytes", microblog.DefaultMaxResponseBytes, "largest provider response accepted, in bytes")
}

// provider builds the configured provider; nil when none is.
// Errors never include the key.
func (c microblogConfig) provider(d *deps) (microblog.Provider, error) {
	kind, key, baseURL, timeout, maxBytes := c.Provider, c.APIKey, c.BaseURL, c.Timeout, c.MaxBytes
	hc := d.upstreamClient(kind)
	needKey := func(name string) error {
		if key == "" {
			return fmt.Errorf("%s %s needs %s", flagName("microblog-provider"), name, flagName("microblog-api-key"))
		}
		return nil
	}
	switch kind {
	case "":
		if key != "" || baseURL != "" || c.File != "" {
			return nil, fmt.Errorf("%s, %s or %s is set but %s is not", flagName("microblog-api-key"), flagName("microblog-base-url"), flagName("microblog-file"), flagName("microblog-provider"))
		}
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
		if c.File == "" {
			return nil, fmt.Errorf("%s file needs %s", flagName("microblog-provider"), flagName("microblog-file"))
		}
		p, err := microblog.NewFile(microblog.FileConfig{Paths: []string{c.File}})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flagName("microblog-file"), err)
		}
		return p, nil
	}
	return nil, fmt.Errorf("%s must be twitterapi, xapi or file, not %q", flagName("microblog-provider"), kind)
}
