package webcheck

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
)

// DefaultOrigin is the origin a CORS check sends when none is given.
const DefaultOrigin = "https://example.com"

// A Risk is the CORS risk level of a URL.
type Risk string

// The CORS risk levels, from none to critical:
//
//   - none: the URL grants no cross-origin access beyond the origin asked
//     about, or sends no CORS headers.
//   - low: a wildcard "*" without credentials (public data), or trust of
//     every subdomain, or the http variant of the origin without
//     credentials.
//   - medium: an attacker-made origin (prefix, suffix, unescaped dot or
//     special-character bypass) is allowed without credentials, or the http
//     variant is allowed with credentials.
//   - high: any origin is reflected, or "null" is allowed, without
//     credentials; or a bypass origin is allowed with credentials.
//   - critical: any origin is reflected, or "null" is allowed, with
//     credentials: any site can read authenticated responses.
const (
	RiskNone     Risk = "none"
	RiskLow      Risk = "low"
	RiskMedium   Risk = "medium"
	RiskHigh     Risk = "high"
	RiskCritical Risk = "critical"
)

// Risks returns the CORS risk levels, from none to critical.
func Risks() []Risk { return []Risk{RiskNone, RiskLow, RiskMedium, RiskHigh, RiskCritical} }

var riskRank = map[Risk]int{RiskNone: 0, RiskLow: 1, RiskMedium: 2, RiskHigh: 3, RiskCritical: 4}

// CORSRequest is the request of [Checker.CheckCORS].
type CORSRequest struct {
	// URL is the http or https URL to check. Required.
	URL string `json:"url" openapi:"required"`
	// Origin is the origin sent in the check requests. Default
	// DefaultOrigin ("https://example.com").
	Origin string `json:"origin"`
}

// CORSProbe is the outcome of one attacker-origin probe.
type CORSProbe struct {
	// Name says what the probe tests, e.g. "arbitrary_origin", "null".
	Name string `json:"name"`
	// Origin is the Origin header sent.
	Origin string `json:"origin"`
	// Allowed reports whether Access-Control-Allow-Origin granted it.
	Allowed bool `json:"allowed"`
	// Credentials reports whether Access-Control-Allow-Credentials was
	// true on that answer.
	Credentials bool `json:"credentials"`
	// Error says why the probe's request failed; null when it got an
	// answer. A failed probe is not counted in the risk level.
	Error *string `json:"error"`
}

// CORSResult is the result of [Checker.CheckCORS].
type CORSResult struct {
	// URL echoes the request.
	URL string `json:"url"`
	// StatusCode is the status of the simple GET.
	StatusCode int `json:"status_code"`
	// AllowsOrigin reports whether the given origin is allowed (by name or
	// by "*").
	AllowsOrigin bool `json:"allows_origin"`
	// AllowsCredentials reports whether credentials are allowed for it.
	AllowsCredentials bool `json:"allows_credentials"`
	// AllowedMethods are the methods of the preflight's
	// Access-Control-Allow-Methods.
	AllowedMethods []string `json:"allowed_methods"`
	// ExposedHeaders are the Access-Control-Expose-Headers of the GET.
	ExposedHeaders []string `json:"exposed_headers"`
	// RiskLevel is none, low, medium, high or critical (see the Risk
	// constants).
	RiskLevel Risk `json:"risk_level"`
	// Warnings explain each finding.
	Warnings []string `json:"warnings"`
	// AllowedHeaders are the preflight's Access-Control-Allow-Headers.
	AllowedHeaders []string `json:"allowed_headers"`
	// MaxAge is the preflight's Access-Control-Max-Age, "" when absent.
	MaxAge string `json:"max_age"`
	// PreflightStatus is the status of the OPTIONS preflight; 0 when it
	// failed.
	PreflightStatus int `json:"preflight_status"`
	// Probes are the attacker-origin probes and their outcomes.
	Probes []CORSProbe `json:"probes"`
	// Error says why the URL could not be reached (it does not resolve,
	// refuses connections, or does not answer in time); null when it
	// answered. When set, nothing was checked: StatusCode is 0, RiskLevel
	// is none and Probes is empty.
	Error *string `json:"error"`
}

// CheckCORS sends a preflight and a simple GET with the origin, then
// probes origins an attacker could use (any origin, null, prefix and
// suffix tricks, an unescaped dot, http instead of https, special
// characters, a subdomain) and rates the risk. A URL that cannot be
// reached (no such host, connection refused, no answer in time) gives a
// result with Error set, not an error; a URL whose host is refused is an
// INVALID_REQUEST.
func (c *Checker) CheckCORS(ctx context.Context, req CORSRequest) (CORSResult, error) {
	ctx, cancel := c.operation(ctx)
	defer cancel()
	u, err := parseHTTPURL("url", req.URL)
	if err != nil {
		return CORSResult{}, err
	}
	origin, err := parseOrigin(req.Origin)
	if err != nil {
		return CORSResult{}, err
	}
	if err := c.client.CheckURL(u); err != nil {
		return CORSResult{}, fetchError("url", err)
	}
	res := CORSResult{URL: req.URL, AllowedMethods: []string{}, ExposedHeaders: []string{}, AllowedHeaders: []string{}, Warnings: []string{}, Probes: []CORSProbe{}}

	get, err := c.corsRequest(ctx, http.MethodGet, u, origin)
	switch {
	case isRefused(err):
		return CORSResult{}, fetchError("url", err)
	case err != nil:
		msg := "unreachable: " + fetchFailure(err)
		res.Error, res.RiskLevel = &msg, RiskNone
		res.Warnings = append(res.Warnings, "the URL could not be reached ("+fetchFailure(err)+"): nothing was checked")
		return res, nil
	}
	res.StatusCode = get.status
	acao := get.header.Get("Access-Control-Allow-Origin")
	res.AllowsOrigin = acao == "*" || acao == origin
	res.AllowsCredentials = res.AllowsOrigin && strings.EqualFold(get.header.Get("Access-Control-Allow-Credentials"), "true")
	res.ExposedHeaders = splitHeaderList(get.header.Values("Access-Control-Expose-Headers"))

	if pre, err := c.corsRequest(ctx, http.MethodOptions, u, origin); err == nil {
		res.PreflightStatus = pre.status
		res.AllowedMethods = splitHeaderList(pre.header.Values("Access-Control-Allow-Methods"))
		res.AllowedHeaders = splitHeaderList(pre.header.Values("Access-Control-Allow-Headers"))
		res.MaxAge = pre.header.Get("Access-Control-Max-Age")
		if a := pre.header.Get("Access-Control-Allow-Origin"); a != "" && !res.AllowsOrigin {
			res.AllowsOrigin = a == "*" || a == origin
		}
	} else {
		res.Warnings = append(res.Warnings, "the preflight request failed: "+fetchFailure(err))
	}

	risk := RiskNone
	raise := func(level Risk, warning string) {
		if riskRank[level] > riskRank[risk] {
			risk = level
		}
		res.Warnings = append(res.Warnings, warning)
	}
	if acao == "*" {
		if strings.EqualFold(get.header.Get("Access-Control-Allow-Credentials"), "true") {
			raise(RiskLow, "Access-Control-Allow-Origin is * with Access-Control-Allow-Credentials: true; browsers refuse this combination, which suggests a misconfiguration")
		} else {
			raise(RiskLow, "Access-Control-Allow-Origin is *: any site can read responses, acceptable only for public data")
		}
	}
	if acao != "" && acao != "*" && acao != origin && !strings.Contains(acao, "://") && acao != "null" {
		res.Warnings = append(res.Warnings, "Access-Control-Allow-Origin has a malformed value: "+textcut.Mark(acao, 80, "..."))
	}
	if get.header.Get("Access-Control-Allow-Origin") != "" && acao != "*" && !headerHasToken(get.header.Values("Vary"), "Origin") {
		res.Warnings = append(res.Warnings, "the answer varies with Origin but lacks Vary: Origin, so caches may serve one origin's grant to another")
	}
	for _, m := range res.AllowedMethods {
		if m == "*" {
			raise(RiskLow, "the preflight allows every method (*)")
		}
	}

	probes := attackerOrigins(u, origin)
	var wg sync.WaitGroup
	results := make([]CORSProbe, len(probes))
	sem := make(chan struct{}, 4)
	for i, p := range probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = CORSProbe{Name: p.name, Origin: p.origin}
			r, err := c.corsRequest(ctx, http.MethodGet, u, p.origin)
			if err != nil {
				msg := fetchFailure(err)
				results[i].Error = &msg
				return
			}
			a := r.header.Get("Access-Control-Allow-Origin")
			results[i].Allowed = a == p.origin
			results[i].Credentials = results[i].Allowed && strings.EqualFold(r.header.Get("Access-Control-Allow-Credentials"), "true")
		}()
	}
	wg.Wait()
	res.Probes = results
	var failed []string
	for _, p := range results {
		if p.Error != nil {
			failed = append(failed, p.Name)
		}
	}
	if len(failed) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d of %d probes failed (%s): the risk level does not cover them", len(failed), len(results), strings.Join(failed, ", ")))
	}
	for i, p := range results {
		if !p.Allowed {
			continue
		}
		level, what := probes[i].risk(p.Credentials)
		cred := " without credentials"
		if p.Credentials {
			cred = " with credentials"
		}
		raise(level, "the origin "+p.Origin+" is allowed"+cred+": "+what)
	}
	res.RiskLevel = risk
	return res, nil
}

type corsAnswer struct {
	status int
	header http.Header
}

// corsRequest sends one request with the Origin header (a preflight for
// OPTIONS), without following redirects.
func (c *Checker) corsRequest(ctx context.Context, method string, u *url.URL, origin string) (corsAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return corsAnswer{}, err
	}
	req.Header.Set("Origin", origin)
	if method == http.MethodOptions {
		req.Header.Set("Access-Control-Request-Method", "GET")
		req.Header.Set("Access-Control-Request-Headers", "content-type, authorization")
	}
	resp, err := c.client.RoundTrip(req)
	if err != nil {
		return corsAnswer{}, err
	}
	resp.Body.Close()
	return corsAnswer{status: resp.StatusCode, header: resp.Header}, nil
}

type probe struct {
	name, origin string
	risk         func(credentials bool) (level Risk, what string)
}

// attackerOrigins builds the probe origins for the target u and the
// legitimate origin.
func attackerOrigins(u *url.URL, origin string) []probe {
	host := u.Hostname()
	if ou, err := url.Parse(origin); err == nil && ou.Hostname() != "" {
		host = ou.Hostname() // the origin the site trusts is what attackers imitate
	}
	reg := registrable(host)
	severe := func(what string) func(bool) (Risk, string) {
		return func(cred bool) (Risk, string) {
			if cred {
				return RiskCritical, what + "; with credentials any site can read authenticated responses"
			}
			return RiskHigh, what
		}
	}
	bypass := func(what string) func(bool) (Risk, string) {
		return func(cred bool) (Risk, string) {
			if cred {
				return RiskHigh, what
			}
			return RiskMedium, what
		}
	}
	ps := []probe{
		{"arbitrary_origin", "https://quiver-cors-probe.test", severe("the server reflects any origin")},
		{"null_origin", "null", severe("the null origin (sandboxed iframes, data: URLs) is trusted")},
		{"suffix_append", "https://" + host + ".quiver-cors-probe.test", bypass("the origin check only tests the prefix")},
		{"prefix_prepend", "https://quiver" + reg, bypass("the origin check only tests the suffix")},
		{"http_downgrade", "http://" + host, func(cred bool) (Risk, string) {
			if cred {
				return RiskMedium, "a plain-http origin is trusted; a network attacker can inject script into it"
			}
			return RiskLow, "a plain-http origin is trusted"
		}},
		{"subdomain", "https://quiver-cors-probe." + reg, func(cred bool) (Risk, string) {
			if cred {
				return RiskMedium, "every subdomain is trusted; one vulnerable subdomain exposes authenticated data"
			}
			return RiskLow, "every subdomain is trusted"
		}},
		{"special_char_underscore", "https://" + host + "_.quiver-cors-probe.test", bypass("special characters after the host pass the origin check")},
		{"special_char_backtick", "https://" + host + "`.quiver-cors-probe.test", bypass("special characters after the host pass the origin check")},
		{"special_char_brace", "https://" + host + "}.quiver-cors-probe.test", bypass("special characters after the host pass the origin check")},
	}
	if i := strings.IndexByte(host, '.'); i > 0 && strings.Count(host, ".") >= 2 {
		ps = append(ps, probe{"unescaped_dot", "https://" + host[:i] + "x" + host[i+1:], bypass("a dot in the origin pattern is not escaped (regex . matches any character)")})
	}
	return ps
}

// parseOrigin validates an Origin value: "null" or scheme://host[:port].
func parseOrigin(o string) (string, error) {
	o = strings.TrimSpace(o)
	if o == "" {
		return DefaultOrigin, nil
	}
	if o == "null" {
		return o, nil
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", envelope.Invalid("origin", `must be an origin like "https://example.com" (scheme, host and optional port) or "null"`)
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), nil
}

// splitHeaderList splits comma-separated header values.
func splitHeaderList(vs []string) []string {
	out := []string{}
	for _, v := range vs {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func headerHasToken(vs []string, token string) bool {
	for _, v := range splitHeaderList(vs) {
		if strings.EqualFold(v, token) || v == "*" {
			return true
		}
	}
	return false
}
