package webcheck

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/publicsuffix"

	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/internal/weburl"
)

// MaxSafetyRedirects is how many redirects, HTTP and meta refresh
// together, URL safety analysis follows.
const MaxSafetyRedirects = 10

// maxHTMLScan bounds the bytes of an HTML page searched for a meta refresh.
const maxHTMLScan = 256 << 10

// The threat types of [URLSafetyResult.ThreatTypes]. Heuristic types flag
// what phishing and malware links commonly do; a threat-intelligence
// source adds its own types (e.g. "malware", "social_engineering").
const (
	ThreatIPLiteral        = "ip_literal_host"             // the host is an IP address, not a name
	ThreatHomograph        = "homograph"                   // a host label fails the UTS #39 checks
	ThreatPunycode         = "punycode"                    // the host has an IDN (xn--) label
	ThreatExcessiveSubdoms = "excessive_subdomains"        // more than 3 labels before the registrable domain
	ThreatCredentials      = "credentials_in_url"          // user:password@ in the URL
	ThreatHTTPDowngrade    = "http_downgrade"              // a redirect from https to http
	ThreatCrossDomain      = "cross_domain_redirect"       // the chain ends on another registrable domain
	ThreatNonStandardPort  = "non_standard_port"           // an explicit port other than 80/443
	ThreatShortener        = "url_shortener"               // a known URL shortener hides the target
	ThreatTooManyRedirects = "too_many_redirects"          // more than 10 redirects
	ThreatPrivateRedirect  = "redirect_to_private_address" // a redirect points at a refused address
	// ThreatURLObfuscation: the URL as written relies on a repair that
	// browsers make and other parsers do not (a backslash for a slash,
	// missing slashes, stripped controls, a mapped host, a 0x IPv4...):
	// one finding per repair, its detail the [URLWarning] code.
	ThreatURLObfuscation = "url_obfuscation"
)

// shorteners are registrable domains of well-known URL shorteners.
var shorteners = map[string]bool{
	"bit.ly": true, "tinyurl.com": true, "t.co": true, "goo.gl": true, "ow.ly": true, "is.gd": true,
	"buff.ly": true, "rebrand.ly": true, "cutt.ly": true, "shorturl.at": true, "tiny.cc": true,
	"bl.ink": true, "t.ly": true, "rb.gy": true, "lnkd.in": true, "s.id": true, "v.gd": true,
	"bitly.com": true, "tr.im": true, "shorte.st": true, "adf.ly": true, "clck.ru": true,
	"qr.ae": true, "soo.gd": true, "trib.al": true, "dlvr.it": true, "surl.li": true,
}

// URLSafetyRequest is the request of [Checker.CheckURLSafety].
type URLSafetyRequest struct {
	// URL is the http or https URL to analyze. Required.
	URL string `json:"url" openapi:"required"`
}

// SafetyFinding is one heuristic or threat-intelligence finding.
type SafetyFinding struct {
	// ThreatType is one of the threat types.
	ThreatType string `json:"threat_type"`
	// URL is the URL of the chain it concerns.
	URL string `json:"url"`
	// Detail explains the finding.
	Detail string `json:"detail"`
}

// URLSafetyResult is the result of [Checker.CheckURLSafety].
type URLSafetyResult struct {
	// URL echoes the request.
	URL string `json:"url"`
	// FinalURL is the last URL of the redirect chain.
	FinalURL string `json:"final_url"`
	// RedirectCount is the number of redirects followed.
	RedirectCount int `json:"redirect_count"`
	// RedirectChain lists each redirect: {url, status_code, location,
	// kind}.
	RedirectChain []RedirectHop `json:"redirect_chain"`
	// IsSafe is false when any threat type was found.
	IsSafe bool `json:"is_safe"`
	// ThreatTypes lists the distinct threat types found.
	ThreatTypes []string `json:"threat_types"`
	// IsHomograph reports whether a host of the chain fails the UTS #39
	// checks.
	IsHomograph bool `json:"is_homograph"`
	// StatusCode is the status of the final URL; 0 when unreachable.
	StatusCode int `json:"status_code"`
	// Findings explain each threat type with the URL it concerns.
	Findings []SafetyFinding `json:"findings"`
	// Error says why the chain could not be followed to its end; null
	// when it could.
	Error *string `json:"error"`
}

// CheckURLSafety follows the URL's redirects (HTTP and meta refresh, up
// to MaxSafetyRedirects) and applies the documented heuristics to every
// URL of the chain, plus the configured [ThreatIntel]. A URL whose own
// host is refused is an INVALID_REQUEST; a redirect to a refused address
// is a finding.
func (c *Checker) CheckURLSafety(ctx context.Context, req URLSafetyRequest) (URLSafetyResult, error) {
	ctx, cancel := c.operation(ctx)
	defer cancel()
	u, err := parseHTTPURL("url", req.URL)
	if err != nil {
		return URLSafetyResult{}, err
	}
	if err := c.client.CheckURL(u); err != nil {
		return URLSafetyResult{}, fetchError("url", err)
	}
	res := URLSafetyResult{URL: req.URL, FinalURL: u.String(), RedirectChain: []RedirectHop{}, ThreatTypes: []string{}, Findings: []SafetyFinding{}}
	add := func(t, at, detail string) {
		res.Findings = append(res.Findings, SafetyFinding{ThreatType: t, URL: at, Detail: detail})
		for _, have := range res.ThreatTypes {
			if have == t {
				return
			}
		}
		res.ThreatTypes = append(res.ThreatTypes, t)
	}
	setErr := func(msg string) { res.Error = &msg }
	// The URL as written, not only as normalized: the repairs a browser
	// makes are how a link hides from a filter that reads it otherwise.
	if w, err := weburl.Parse(req.URL); err == nil {
		for _, warn := range w.Warnings {
			add(ThreatURLObfuscation, req.URL, warn.Code+": "+warn.Message)
		}
	}

	cur := u
	for first := true; ; first = false {
		left := MaxSafetyRedirects - len(res.RedirectChain)
		f, err := c.follow(ctx, cur, left)
		if len(res.RedirectChain)+len(f.hops) > MaxSafetyRedirects {
			f.hops = f.hops[:MaxSafetyRedirects-len(res.RedirectChain)]
		}
		res.RedirectChain = append(res.RedirectChain, f.hops...)
		res.FinalURL = f.final.String()
		if err != nil {
			switch {
			case errors.Is(err, errTooManyRedirects):
				add(ThreatTooManyRedirects, res.FinalURL, "the chain is longer than 10 redirects")
			case isRefused(err) && !first || isRefused(err) && len(f.hops) > 0:
				last := res.RedirectChain[len(res.RedirectChain)-1]
				add(ThreatPrivateRedirect, last.Location, "redirects to an address that is not public: "+err.Error())
				res.FinalURL = last.Location
			case isRefused(err):
				return URLSafetyResult{}, fetchError("url", err)
			default:
				setErr("the URL could not be fetched: " + fetchFailure(err))
			}
			break
		}
		res.StatusCode = f.resp.StatusCode
		target := metaRefresh(f.resp.Header.Get("Content-Type"), f.resp.Body, f.final)
		f.resp.Body.Close()
		if target == nil {
			break
		}
		if len(res.RedirectChain) >= MaxSafetyRedirects {
			add(ThreatTooManyRedirects, res.FinalURL, "the chain is longer than 10 redirects")
			break
		}
		res.RedirectChain = append(res.RedirectChain, RedirectHop{URL: f.final.String(), StatusCode: f.resp.StatusCode, Location: target.String(), Kind: "meta_refresh"})
		if err := c.client.CheckURL(target); err != nil {
			add(ThreatPrivateRedirect, target.String(), "meta refresh to a refused destination: "+err.Error())
			res.FinalURL = target.String()
			break
		}
		cur = target
	}
	res.RedirectCount = len(res.RedirectChain)

	chain := []string{u.String()}
	for _, h := range res.RedirectChain {
		chain = append(chain, h.Location)
	}
	for i, raw := range chain {
		cu, err := url.Parse(raw)
		if err != nil {
			continue
		}
		c.urlHeuristics(cu, add, &res)
		if i > 0 {
			if prev, err := url.Parse(chain[i-1]); err == nil && prev.Scheme == "https" && cu.Scheme == "http" {
				add(ThreatHTTPDowngrade, raw, "redirect from https to http")
			}
		}
	}
	if fu, err := url.Parse(res.FinalURL); err == nil {
		if a, b := registrable(u.Hostname()), registrable(fu.Hostname()); a != b {
			add(ThreatCrossDomain, res.FinalURL, "the chain ends on "+b+", not "+a)
		}
	}
	if c.cfg.ThreatIntel != nil {
		matches, err := c.cfg.ThreatIntel.Lookup(ctx, dedupe(chain))
		if err != nil {
			return URLSafetyResult{}, err
		}
		for _, m := range matches {
			add(m.ThreatType, m.URL, "listed by the threat-intelligence source")
		}
	}
	res.IsSafe = len(res.ThreatTypes) == 0
	return res, nil
}

// urlHeuristics applies the per-URL heuristics.
func (c *Checker) urlHeuristics(u *url.URL, add func(t, at, detail string), res *URLSafetyResult) {
	at := u.String()
	if u.User != nil {
		add(ThreatCredentials, at, "the URL carries user information, a common way to disguise the real host")
	}
	if p := u.Port(); p != "" && !(u.Scheme == "http" && p == "80") && !(u.Scheme == "https" && p == "443") {
		add(ThreatNonStandardPort, at, "explicit port "+p)
	}
	h, err := safehttp.ParseHost(u.Hostname())
	if err != nil {
		return
	}
	if h.IsIP() {
		add(ThreatIPLiteral, at, "the host is the IP address "+h.Addr.String())
		return
	}
	host := strings.TrimSuffix(h.Name, ".")
	for _, label := range strings.Split(host, ".") {
		if strings.HasPrefix(label, "xn--") {
			add(ThreatPunycode, at, "the host has the IDN label "+label)
			break
		}
	}
	for _, f := range checkHomograph(host) {
		res.IsHomograph = true
		add(ThreatHomograph, at, f.Reason+": "+f.Label)
	}
	reg := registrable(host)
	if shorteners[reg] {
		add(ThreatShortener, at, reg+" is a URL shortener")
	}
	if sub := strings.TrimSuffix(strings.TrimSuffix(host, reg), "."); sub != "" && strings.Count(sub, ".")+1 > 3 {
		add(ThreatExcessiveSubdoms, at, "the host has "+strconv.Itoa(strings.Count(sub, ".")+1)+" labels before "+reg)
	}
}

// registrable returns the registrable domain (eTLD+1) of host, or host.
func registrable(host string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if r, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return r
	}
	return host
}

// metaRefresh returns the target of an HTML meta refresh in body, nil
// when there is none.
func metaRefresh(contentType string, body io.Reader, base *url.URL) *url.URL {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt != "text/html" && mt != "application/xhtml+xml" {
		return nil
	}
	z := html.NewTokenizer(io.LimitReader(body, maxHTMLScan))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return nil
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) == "body" {
				return nil
			}
			if string(name) != "meta" || !hasAttr {
				continue
			}
			var equiv, content string
			for {
				k, v, more := z.TagAttr()
				switch strings.ToLower(string(k)) {
				case "http-equiv":
					equiv = strings.ToLower(string(v))
				case "content":
					content = string(v)
				}
				if !more {
					break
				}
			}
			if equiv != "refresh" {
				continue
			}
			if t := refreshTarget(content); t != "" {
				if ru, err := resolveRef(base, t); err == nil {
					return ru
				}
			}
		}
	}
}

// refreshTarget extracts the URL of a refresh value "5; url=/next".
func refreshTarget(content string) string {
	i := strings.IndexAny(content, ";,")
	if i < 0 {
		return ""
	}
	rest := strings.TrimSpace(content[i+1:])
	if len(rest) >= 4 && strings.EqualFold(rest[:3], "url") {
		rest = strings.TrimSpace(rest[3:])
		if strings.HasPrefix(rest, "=") {
			rest = strings.TrimSpace(rest[1:])
		}
	}
	return strings.Trim(rest, `"' `)
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
