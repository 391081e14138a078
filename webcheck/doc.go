// Package webcheck checks web sites and domains: TLS certificates, URL
// parsing and normalization, CORS behaviour, DNS records with SPF and
// DMARC, URL safety (redirects, heuristics, threat intelligence),
// robots.txt and sitemaps.
//
// The checks that do I/O are methods of a [Checker], built with [New];
// [ParseURL], [ParseRobots] and [ValidateSitemapXML] do no I/O and are
// plain functions.
//
// # Outbound safety
//
// Every fetch of a user-supplied URL or host goes through one SSRF-safe
// client (internal/safehttp): destinations that resolve to loopback,
// private, link-local, CGNAT, multicast, reserved or IPv4-embedding IPv6
// addresses are refused at dial time, on every redirect hop, and hosts
// are read as browsers read them ("http://2130706433/" is 127.0.0.1). A
// refused destination is an INVALID_REQUEST whose message says
// "destination not allowed". Every fetch is bounded in time
// ([Config.Timeout]) and size ([Config.MaxBodyBytes]).
// [Config.AllowLoopback] lifts the loopback refusal for tests and internal
// deployments; private ranges stay refused.
//
// # Decisions on what the contract leaves open
//
//   - SSL subject and issuer are objects with common_name, organization,
//     organizational_unit, country, locality and province; multi-valued
//     attributes are joined with ", ". A host that cannot be reached or
//     whose handshake fails is a result with is_valid false and error set,
//     never an error status. error names every failed check ("certificate
//     expired on ...; host name mismatch: ...").
//   - CORS risk_level is one of none, low, medium, high, critical; see
//     [RiskNone] for what each means. Credentials raise the level: a
//     reflected arbitrary origin or an allowed "null" with credentials is
//     critical.
//   - URL safety threat_types are the Threat constants ([ThreatIPLiteral]
//     and the rest) plus the lower-case types of the threat-intelligence
//     source (Safe Browsing: malware, social_engineering,
//     unwanted_software, potentially_harmful_application). A redirect to a
//     refused address is reported as [ThreatPrivateRedirect], not followed.
//     [ThreatURLObfuscation] (an extension) reports each repair a browser
//     makes to the URL as written, one finding per [URLWarning] code.
//   - DNS analyze spf and dmarc are the objects of the shared mail
//     authentication parser (the one email's domain health uses):
//     [mailauth.SPF] with its terms, all qualifier, lookup counts, errors
//     and warnings; [mailauth.DMARC] with its tags, errors and warnings;
//     null when absent.
//   - robots.txt is judged for the "*" group: blocks_all says whether a
//     crawler without its own group may fetch nothing. Unreachable and 5xx
//     robots.txt mean complete disallow, 4xx allow all (RFC 9309).
//   - Sitemap indexes are validated, not followed: the sitemaps they list
//     are counted and their loc checked, but not fetched.
package webcheck
