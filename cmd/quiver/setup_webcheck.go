package main

import (
	"context"
	"fmt"
	"time"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/webcheck"
)

// webcheckSetup registers the flags of package webcheck. The checker
// resolves through the shared resolver that emailSetup builds.
func webcheckSetup(f *flags) func(context.Context, *httpapi.Config) error {
	var (
		allowLoopback bool
		timeout       time.Duration
		opTimeout     time.Duration
		maxBody       int64
		sbKey         secret.String
		sbEndpoint    string
		userAgent     string
	)
	f.Bool(&allowLoopback, "allow-loopback", "QUIVER_ALLOW_LOOPBACK", false, "let web checks fetch loopback addresses (internal deployments only; private ranges stay refused)")
	f.Duration(&timeout, "fetch-timeout", "QUIVER_FETCH_TIMEOUT", webcheck.DefaultTimeout, "time limit of one outbound fetch of a web check, redirects and body included")
	f.Duration(&opTimeout, "check-timeout", "QUIVER_CHECK_TIMEOUT", webcheck.DefaultOperationTimeout, "time limit of one whole web check, all its fetches together")
	f.Int64(&maxBody, "fetch-max-bytes", "QUIVER_FETCH_MAX_BYTES", webcheck.DefaultMaxBodyBytes, "size limit of one fetched body, and of a decompressed sitemap")
	f.Secret(&sbKey, "safe-browsing-key", "QUIVER_SAFE_BROWSING_KEY", "Google Safe Browsing v4 API key; URL safety uses heuristics only when empty")
	f.String(&sbEndpoint, "safe-browsing-endpoint", "QUIVER_SAFE_BROWSING_ENDPOINT", webcheck.DefaultSafeBrowsingBaseURL, "Safe Browsing API base URL")
	f.String(&userAgent, "fetch-user-agent", "QUIVER_FETCH_USER_AGENT", "", "User-Agent of outbound fetches; default QuiverBot")
	return func(_ context.Context, cfg *httpapi.Config) error {
		if timeout <= 0 || maxBody <= 0 {
			return fmt.Errorf("fetch-timeout and fetch-max-bytes must be positive")
		}
		wc := webcheck.Config{
			Resolver:         cfg.Resolver,
			AllowLoopback:    allowLoopback,
			Timeout:          timeout,
			OperationTimeout: opTimeout,
			MaxBodyBytes:     maxBody,
			UserAgent:        userAgent,
		}
		if sbKey != "" {
			wc.ThreatIntel = &webcheck.SafeBrowsing{APIKey: sbKey, BaseURL: sbEndpoint}
		}
		c, err := webcheck.New(wc)
		if err != nil {
			return fmt.Errorf("web checks: %w", err)
		}
		cfg.WebCheck = c
		return nil
	}
}
