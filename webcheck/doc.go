// Package webcheck checks web sites and domains: TLS certificates, URL
// parsing and normalization, CORS behaviour, DNS records with SPF and
// DMARC, URL safety (redirects, heuristics, threat intelligence),
// robots.txt and sitemaps.
//
// Every fetch of a user-supplied URL or host goes through
// internal/safehttp: destinations that resolve to loopback, private or
// other special-purpose addresses are refused with an INVALID_REQUEST
// ("destination not allowed"), and every fetch is bounded in time and
// size. [Config.AllowLoopback] lifts the loopback refusal for tests and
// internal deployments.
//
// The checks are methods of a [Checker]; [ParseURL] and [ParseRobots] do
// no I/O and are plain functions.
package webcheck
