package webcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/quiverkit/quiver/internal/textcut"
)

// MaxRobotsRedirects is how many redirects robots.txt fetching follows
// (RFC 9309 section 2.3.1.2: at least five).
const MaxRobotsRedirects = 5

// RobotsRequest is the request of [Checker.AnalyzeRobots].
type RobotsRequest struct {
	// URL is a site URL (its root's /robots.txt is fetched) or the URL of
	// a robots.txt file. Required.
	URL string `json:"url" openapi:"required"`
}

// RobotsResult is the result of [Checker.AnalyzeRobots].
type RobotsResult struct {
	// URL echoes the request.
	URL string `json:"url"`
	// RobotsURL is the robots.txt URL fetched.
	RobotsURL string `json:"robots_url"`
	// Exists reports whether a robots.txt file was served (2xx).
	Exists bool `json:"exists"`
	// StatusCode is the final HTTP status; 0 when the site was unreachable.
	StatusCode int `json:"status_code"`
	// DisallowRules are the distinct disallow paths of all groups.
	DisallowRules []string `json:"disallow_rules"`
	// SitemapURLs are the sitemap URLs the file lists.
	SitemapURLs []string `json:"sitemap_urls"`
	// UserAgents are the distinct user-agent tokens the file names.
	UserAgents []string `json:"user_agents"`
	// Warnings explain the parse problems and what the status means for
	// crawlers. At most 100 parse problems are listed; when there were
	// more, a last warning "N more warnings not shown" counts the rest.
	Warnings []string `json:"warnings"`
	// Groups are the groups of the file with their rules.
	Groups []RobotsGroup `json:"groups"`
	// BlocksAll reports whether a crawler without a group of its own may
	// fetch nothing: "Disallow: /" for "*", or a 5xx or unreachable
	// robots.txt (RFC 9309: complete disallow).
	BlocksAll bool `json:"blocks_all"`
	// RedirectChain lists the redirects followed to the file.
	RedirectChain []RedirectHop `json:"redirect_chain"`
}

// AnalyzeRobots fetches and parses the robots.txt of a site. The status
// decides as RFC 9309 section 2.3.1 says: 2xx is parsed; 4xx means no
// restrictions (allow all); 5xx, 429 and an unreachable site mean complete
// disallow; more than MaxRobotsRedirects redirects count as unavailable
// (allow all). The warnings say which applied.
func (c *Checker) AnalyzeRobots(ctx context.Context, req RobotsRequest) (RobotsResult, error) {
	ctx, cancel := c.operation(ctx)
	defer cancel()
	u, err := parseHTTPURL("url", req.URL)
	if err != nil {
		return RobotsResult{}, err
	}
	target := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/robots.txt"}
	if strings.HasSuffix(u.Path, "/robots.txt") {
		target = &url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host, Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}
	}
	res := RobotsResult{
		URL: req.URL, RobotsURL: target.String(),
		DisallowRules: []string{}, SitemapURLs: []string{}, UserAgents: []string{},
		Warnings: []string{}, Groups: []RobotsGroup{}, RedirectChain: []RedirectHop{},
	}
	if err := c.client.CheckURL(target); err != nil {
		return RobotsResult{}, fetchError("url", err)
	}
	f, err := c.follow(ctx, target, MaxRobotsRedirects)
	res.RedirectChain = append(res.RedirectChain, f.hops...)
	switch {
	case isRefused(err):
		return RobotsResult{}, fetchError("url", err)
	case errors.Is(err, errTooManyRedirects):
		res.StatusCode = f.hops[len(f.hops)-1].StatusCode
		res.Warnings = append(res.Warnings, fmt.Sprintf("more than %d redirects: the file counts as unavailable, so crawlers may access everything (RFC 9309 section 2.3.1.2)", MaxRobotsRedirects))
		return res, nil
	case err != nil:
		res.BlocksAll = true
		res.Warnings = append(res.Warnings, "robots.txt is unreachable ("+fetchFailure(err)+"): crawlers must assume complete disallow (RFC 9309 section 2.3.1.4)")
		return res, nil
	}
	defer f.resp.Body.Close()
	res.StatusCode = f.resp.StatusCode
	switch s := f.resp.StatusCode; {
	case s == 429 || s >= 500:
		res.BlocksAll = true
		res.Warnings = append(res.Warnings, fmt.Sprintf("robots.txt answered %d: crawlers must assume complete disallow (RFC 9309 section 2.3.1.4)", s))
		return res, nil
	case s >= 400:
		res.Warnings = append(res.Warnings, fmt.Sprintf("robots.txt answered %d: there are no restrictions, crawlers may access everything (RFC 9309 section 2.3.1.3)", s))
		return res, nil
	case s < 200 || s > 299:
		res.BlocksAll = true
		res.Warnings = append(res.Warnings, fmt.Sprintf("robots.txt answered %d without a usable redirect: treated as unreachable, complete disallow", s))
		return res, nil
	}
	body, err := io.ReadAll(io.LimitReader(f.resp.Body, MaxRobotsBytes+1))
	if err != nil {
		res.BlocksAll = true
		res.Warnings = append(res.Warnings, "reading robots.txt failed ("+fetchFailure(err)+"): crawlers must assume complete disallow")
		return res, nil
	}
	res.Exists = true
	if ct := f.resp.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "text/plain") {
		res.Warnings = append(res.Warnings, "Content-Type is "+textcut.Mark(ct, 60, "...")+", expected text/plain")
	}
	rb := ParseRobots(body)
	res.Warnings = append(res.Warnings, rb.warnings...)
	res.SitemapURLs = append(res.SitemapURLs, rb.Sitemaps()...)
	res.Groups = rb.Groups()
	seenUA, seenRule := map[string]bool{}, map[string]bool{}
	for _, g := range res.Groups {
		for _, a := range g.UserAgents {
			if !seenUA[a] {
				seenUA[a] = true
				res.UserAgents = append(res.UserAgents, a)
			}
		}
		for _, d := range g.Disallow {
			if !seenRule[d] {
				seenRule[d] = true
				res.DisallowRules = append(res.DisallowRules, d)
			}
		}
	}
	if blocksAll(rb.rulesFor("*")) && len(rb.rulesFor("*")) > 0 {
		res.BlocksAll = true
		res.Warnings = append(res.Warnings, "the site blocks every crawler without a group of its own (Disallow: / for *)")
	}
	if rb.dropped > 0 {
		res.Warnings = append(res.Warnings, moreWarnings(rb.dropped))
	}
	return res, nil
}
