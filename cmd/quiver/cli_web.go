package main

import (
	"context"
	"net"
	"strconv"
	"strings"

	"github.com/quiverkit/quiver/webcheck"
)

// webServices are the setups the web checks need: the shared DNS
// resolver and the checker.
var webServices = []setup{dnsSetup, webcheckSetup}

// webCommands are the commands of package webcheck: quiver web ...
var webCommands = []command{
	op(opSpec{
		command: command{
			name: "web ssl", args: "HOST[:PORT]",
			summary: "Check the TLS certificate of a host; exit status 1 when it is not valid.",
			example: `quiver web ssl example.com
				quiver web ssl example.com:8443 -o table`,
			services: webServices,
		},
		operand: "domain",
	}, func(ctx context.Context, env *cmdEnv, req webcheck.SSLRequest) (any, bool, error) {
		if host, port, err := net.SplitHostPort(req.Domain); err == nil && req.Port == 0 && !strings.Contains(req.Domain, "/") {
			if p, err := strconv.Atoi(port); err == nil {
				req.Domain, req.Port = host, p
			}
		}
		wc, err := env.svc.WebCheck()
		if err != nil {
			return nil, false, err
		}
		res, err := wc.CheckSSL(ctx, req)
		if err != nil {
			return nil, false, err
		}
		return res, res.IsValid, nil
	}),
	webOp("dns", "DOMAIN", "Query the DNS records of a domain, with SPF and DMARC.", "domain",
		`quiver web dns example.com
			quiver web dns example.com | jq .records.MX`, (*webcheck.Checker).AnalyzeDNS),
	webOp("robots", "URL", "Fetch and analyze a site's robots.txt.", "url",
		`quiver web robots https://example.com`, (*webcheck.Checker).AnalyzeRobots),
	webOp("sitemap", "URL", "Fetch and validate a sitemap or sitemap index.", "url",
		`quiver web sitemap https://example.com/sitemap.xml -o table`, (*webcheck.Checker).ValidateSitemap),
	webOp("cors", "URL", "Check the CORS policy of a URL against attacker origins.", "url",
		`quiver web cors https://api.example.com/v1/me -origin https://app.example.com`, (*webcheck.Checker).CheckCORS),
	op(opSpec{
		command: command{
			name: "web safety", args: "URL",
			summary:  "Follow a URL's redirects and flag threats; exit status 1 when it is not safe.",
			example:  `quiver web safety http://example.com/login`,
			services: webServices,
		},
		operand: "url",
	}, func(ctx context.Context, env *cmdEnv, req webcheck.URLSafetyRequest) (any, bool, error) {
		wc, err := env.svc.WebCheck()
		if err != nil {
			return nil, false, err
		}
		res, err := wc.CheckURLSafety(ctx, req)
		if err != nil {
			return nil, false, err
		}
		return res, res.IsSafe, nil
	}),
	op(opSpec{
		command: command{
			name: "web parse-url", args: "URL",
			summary: "Parse and normalize a URL (no network).",
			example: `quiver web parse-url 'HTTPS://Example.COM:443/a/../b?q=1#top' -o table`,
		},
		operand: "url",
	}, func(ctx context.Context, _ *cmdEnv, req webcheck.URLParseRequest) (any, bool, error) {
		return done(webcheck.ParseURL(ctx, req))
	}),
}

func webOp[Req, Res any](name, args, summary, operand, example string, fn func(*webcheck.Checker, context.Context, Req) (Res, error)) command {
	return op(opSpec{
		command: command{name: "web " + name, args: args, summary: summary, example: example, services: webServices},
		operand: operand,
	}, func(ctx context.Context, env *cmdEnv, req Req) (any, bool, error) {
		wc, err := env.svc.WebCheck()
		if err != nil {
			return nil, false, err
		}
		return done(fn(wc, ctx, req))
	})
}
