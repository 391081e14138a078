package main

import (
	"github.com/quiverkit/quiver/webcheck"
)

// webcheckSetup binds the flags of package webcheck. The checker
// resolves through the shared resolver (dnsSetup).
func webcheckSetup(f *flags, c *config) {
	bind(f, &c.WebCheck.AllowLoopback, "allow-loopback", false, "let web checks fetch loopback addresses (internal deployments only; private ranges stay refused)")
	bind(f, &c.WebCheck.Timeout, "fetch-timeout", webcheck.DefaultTimeout, "time limit of one outbound fetch of a web check, redirects and body included")
	bind(f, &c.WebCheck.OperationTimeout, "check-timeout", webcheck.DefaultOperationTimeout, "time limit of one whole web check, all its fetches together")
	bind(f, &c.WebCheck.MaxBodyBytes, "fetch-max-bytes", webcheck.DefaultMaxBodyBytes, "size limit of one fetched body, and of a decompressed sitemap")
	bind(f, &c.SafeBrowsingKey, "safe-browsing-key", "", "Google Safe Browsing v4 API key; URL safety uses heuristics only when empty")
	bind(f, &c.SafeBrowsingEndpoint, "safe-browsing-endpoint", webcheck.DefaultSafeBrowsingBaseURL, "Safe Browsing API base URL")
	bind(f, &c.WebCheck.UserAgent, "fetch-user-agent", "", "User-Agent of outbound fetches; default QuiverBot")
}
