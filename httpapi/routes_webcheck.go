package httpapi

import (
	"context"
	"fmt"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/webcheck"
)

// webcheckRoutes returns the routes served by package webcheck.
func (s *server) webcheckRoutes() ([]route, error) {
	wc := s.cfg.WebCheck
	var err error
	if wc == nil {
		if wc, err = webcheck.New(webcheck.Config{}); err != nil {
			err = fmt.Errorf("web checks: %w", err)
		}
	}
	return []route{
		post(groupUtility, "/v1/utility/ssl/check", "Check the TLS certificate of a domain", needs(wc, (*webcheck.Checker).CheckSSL)).describe(
			"port is 1 to 65535; absent or 0 means the default: the port of domain when it carries one (host:8443), else 443.").
			example(`{"domain":"example.com","port":443}`),
		post(groupDev, "/v1/dev/data/url/parse", "Parse and normalize a URL", webcheck.ParseURL).describe(urlParseDescription).
			example(`{"url":"https://user@example.com:8443/docs/a/../guide?lang=en&page=2#install"}`),
		post(groupUtility, "/v1/utility/cors/check", "Check the CORS policy of a URL against attacker origins", needs(wc, (*webcheck.Checker).CheckCORS)).
			example(`{"url":"https://example.com/api","origin":"https://app.example.org"}`),
		post(groupUtility, "/v1/utility/dns/analyze", "Query the DNS records of a domain with SPF and DMARC", needs(wc, (*webcheck.Checker).AnalyzeDNS)).
			example(`{"domain":"example.com"}`).
			// Every record list up to webcheck.MaxDNSRecordsListed, TXT
			// records up to 2 KiB, SPF and DMARC bounded by mailauth:
			// under 1 MiB.
			weigh(resultKind(1 << 20)),
		post(groupUtility, "/v1/utility/url/safety", "Follow a URL's redirects and flag threats", needs(wc, (*webcheck.Checker).CheckURLSafety)).
			example(`{"url":"https://example.com/welcome"}`),
		post(groupUtility, "/v1/utility/robots/analyze", "Fetch and analyze a site's robots.txt", needs(wc, (*webcheck.Checker).AnalyzeRobots)).
			example(`{"url":"https://example.com/"}`).
			// A robots.txt of up to webcheck.MaxRobotsBytes (500 KiB),
			// its groups and the rules merged per agent: 4 MiB.
			weigh(resultKind(4 << 20)),
		post(groupUtility, "/v1/utility/sitemap/validate", "Fetch and validate a sitemap or sitemap index", needs(wc, (*webcheck.Checker).ValidateSitemap)).
			example(`{"url":"https://example.com/sitemap.xml"}`).
			weigh(sitemapKind),
	}, err
}

// needs binds a Checker method, answering 503 when no Checker could be
// built.
func needs[Req, Res any](wc *webcheck.Checker, m func(*webcheck.Checker, context.Context, Req) (Res, error)) func(context.Context, Req) (Res, error) {
	return func(ctx context.Context, req Req) (Res, error) {
		if wc == nil {
			var zero Res
			return zero, envelope.Errorf(envelope.CodeServiceUnavailable, "web checks are not configured on this server")
		}
		return m(wc, ctx, req)
	}
}

// urlParseDescription documents how url/parse reads a URL and its
// extension beyond the contract.
const urlParseDescription = "Parses the URL as browsers do, by the WHATWG URL Standard: normalized_url is the Standard's href; " +
	"host, port, path, query, fragment, username and has_password are its components (port falls back to the scheme's default); " +
	"query_params follows application/x-www-form-urlencoded. " +
	"Extension beyond the contract: warnings, an array of {code, message} naming each repair a browser makes that signals a " +
	"parser-differential trick: stripped_control, stripped_tab_newline, backslash, missing_slashes, extra_slashes, empty_userinfo, " +
	"credentials, multiple_at, percent_encoded_host, ipv4_non_decimal, ipv4_shorthand, ipv4_trailing_dot, invalid_percent_escape, host_mapped."
