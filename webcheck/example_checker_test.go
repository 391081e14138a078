package webcheck_test

import (
	"compress/gzip"
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/webcheck"
)

// newLoopbackChecker returns a Checker that resolves names from zone on a
// loopback DNS server and may reach loopback addresses, and a func that
// stops the DNS server.
func newLoopbackChecker(zone string, mod func(*webcheck.Config)) (*webcheck.Checker, func()) {
	ns, err := resolvertest.New(resolvertest.Config{Zone: zone})
	if err != nil {
		log.Fatal(err)
	}
	r, err := resolver.New(resolver.Config{Servers: []string{ns.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	cfg := webcheck.Config{Resolver: r, AllowLoopback: true}
	if mod != nil {
		mod(&cfg)
	}
	c, err := webcheck.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	return c, ns.Close
}

// closedPort returns a loopback port on which nothing listens.
func closedPort() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func ExampleNew() {
	// The zero Config refuses loopback and private destinations and reads
	// /etc/resolv.conf; here the resolver is given and loopback allowed.
	ns, err := resolvertest.New(resolvertest.Config{Zone: "site.test. 60 IN A 127.0.0.1\n"})
	if err != nil {
		log.Fatal(err)
	}
	defer ns.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{ns.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	c, err := webcheck.New(webcheck.Config{Resolver: r, AllowLoopback: true, Timeout: 5 * time.Second})
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /admin/\n")
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	res, err := c.AnalyzeRobots(context.Background(), webcheck.RobotsRequest{URL: "http://site.test:" + port + "/"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Exists, res.DisallowRules)
	// Output: true [/admin/]
}

func ExampleChecker_CheckSSL() {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // CheckSSL hangs up after the handshake
	srv.StartTLS()
	defer srv.Close()
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c, stop := newLoopbackChecker("", func(cfg *webcheck.Config) {
		cfg.RootCAs = roots
		cfg.Now = func() time.Time { return now }
	})
	defer stop()
	ctx := context.Background()
	port := srv.Listener.Addr().(*net.TCPAddr).Port

	for _, p := range []int{port, closedPort()} {
		res, err := c.CheckSSL(ctx, webcheck.SSLRequest{Domain: "127.0.0.1", Port: p})
		if err != nil {
			log.Fatal(err) // only a bad request or a refused destination
		}
		if res.Error != nil {
			// No certificate was obtained: Subject and Issuer are nil.
			fmt.Println("invalid:", *res.Error, res.Issuer == nil)
			continue
		}
		fmt.Println("valid:", res.IsValid, res.Issuer.Organization, res.NotAfter, res.DaysRemaining)
	}
	// Output:
	// valid: true Acme Co 2084-01-29T16:00:00Z 21212
	// invalid: unreachable: no connection could be made true
}

func ExampleChecker_CheckCORS() {
	// A server that trusts every origin that starts with its own.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); len(o) >= 19 && o[:19] == "https://example.com" {
			w.Header().Set("Access-Control-Allow-Origin", o)
			w.Header().Set("Access-Control-Allow-Credentials", "true")
			w.Header().Set("Vary", "Origin")
		}
	}))
	defer srv.Close()
	c, stop := newLoopbackChecker("", nil)
	defer stop()

	res, err := c.CheckCORS(context.Background(), webcheck.CORSRequest{URL: srv.URL + "/api", Origin: "https://example.com"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.StatusCode, res.AllowsOrigin, res.AllowsCredentials, res.RiskLevel)
	for _, p := range res.Probes {
		if p.Allowed {
			fmt.Println(p.Name, p.Origin)
		}
	}

	// A URL that cannot be reached is a result too, with Error set.
	res, err = c.CheckCORS(context.Background(), webcheck.CORSRequest{URL: "http://127.0.0.1:" + strconv.Itoa(closedPort()) + "/api"})
	if err != nil {
		log.Fatal(err) // only a bad request or a refused destination
	}
	fmt.Println(res.StatusCode, res.RiskLevel, *res.Error)
	// Output:
	// 200 true true high
	// suffix_append https://example.com.quiver-cors-probe.test
	// special_char_underscore https://example.com_.quiver-cors-probe.test
	// special_char_backtick https://example.com`.quiver-cors-probe.test
	// special_char_brace https://example.com}.quiver-cors-probe.test
	// 0 none unreachable: no connection could be made
}

func ExampleChecker_AnalyzeDNS() {
	c, stop := newLoopbackChecker(`
$ORIGIN example.test.
@       300 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@       300 IN NS  ns1.example.test.
@       300 IN A   192.0.2.10
@       300 IN MX  10 mx1.example.test.
@       300 IN TXT "v=spf1 ip4:192.0.2.0/24 -all"
_dmarc  300 IN TXT "v=DMARC1; p=reject; rua=mailto:dmarc@example.test"
`, nil)
	defer stop()

	res, err := c.AnalyzeDNS(context.Background(), webcheck.DNSRequest{Domain: "example.test"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.ARecords, res.MXRecords, res.NSRecords)
	if res.SPF != nil { // nil when the domain publishes no SPF record
		fmt.Println("spf:", res.SPF.All, res.SPF.DNSLookups, res.SPF.Valid())
	}
	if res.DMARC != nil {
		fmt.Println("dmarc:", res.DMARC.Policy, res.DMARC.RUA)
	}
	// Output:
	// [192.0.2.10] [10 mx1.example.test] [ns1.example.test]
	// spf: -all 0 true
	// dmarc: reject [mailto:dmarc@example.test]
}

func ExampleChecker_CheckURLSafety() {
	mux := http.NewServeMux()
	mux.HandleFunc("/go", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://other.test:"+r.URL.Query().Get("port")+"/landing", http.StatusFound)
	})
	mux.HandleFunc("/landing", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, stop := newLoopbackChecker("shop.test. 60 IN A 127.0.0.1\nother.test. 60 IN A 127.0.0.1\n", nil)
	defer stop()
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)

	res, err := c.CheckURLSafety(context.Background(), webcheck.URLSafetyRequest{URL: "http://shop.test:" + port + "/go?port=" + port})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.StatusCode, res.RedirectCount, res.IsSafe, res.ThreatTypes)
	// Output: 200 1 false [non_standard_port cross_domain_redirect]
}

func ExampleChecker_AnalyzeRobots() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "User-agent: *\nDisallow: /\n\nUser-agent: QuiverBot\nAllow: /\nCrawl-delay: 5\nSitemap: https://example.com/sitemap.xml\n")
	}))
	defer srv.Close()
	c, stop := newLoopbackChecker("", nil)
	defer stop()

	res, err := c.AnalyzeRobots(context.Background(), webcheck.RobotsRequest{URL: srv.URL + "/any/page"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Exists, res.StatusCode, res.BlocksAll, res.UserAgents, res.SitemapURLs)
	for _, w := range res.Warnings {
		fmt.Println(w)
	}
	// Output:
	// true 200 true [* quiverbot] [https://example.com/sitemap.xml]
	// line 6: crawl-delay is not part of RFC 9309 and is ignored by major crawlers
	// the site blocks every crawler without a group of its own (Disallow: / for *)
}

func ExampleChecker_ValidateSitemap() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/gzip")
		zw := gzip.NewWriter(w)
		fmt.Fprintf(zw, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://%[1]s/</loc><changefreq>daily</changefreq></url>
  <url><loc>http://%[1]s/about</loc><changefreq>sometimes</changefreq></url>
  <url><loc>http://%[1]s/news</loc><lastmod>2024-13-01</lastmod></url>
</urlset>`, r.Host)
		zw.Close()
	}))
	defer srv.Close()
	c, stop := newLoopbackChecker("", nil)
	defer stop()

	res, err := c.ValidateSitemap(context.Background(), webcheck.SitemapRequest{URL: srv.URL + "/sitemap.xml.gz"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Exists, res.IsValidXML, res.Type, res.URLCount)
	for _, w := range res.Warnings {
		fmt.Println(w)
	}
	// Output:
	// true true urlset 3
	// entry 2: changefreq "sometimes" is not one of always, hourly, daily, weekly, monthly, yearly, never
	// entry 3: lastmod "2024-13-01" is not a W3C datetime
}

func ExampleSafeBrowsing_Lookup() {
	// A stand-in for the Safe Browsing API that lists one URL as malware.
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Goog-Api-Key") != "my-key" {
			http.Error(w, "bad key", http.StatusForbidden)
			return
		}
		fmt.Fprint(w, `{"matches":[{"threatType":"MALWARE","threat":{"url":"http://malware.test/"}}]}`)
	}))
	defer api.Close()

	sb := &webcheck.SafeBrowsing{APIKey: "my-key", BaseURL: api.URL}
	matches, err := sb.Lookup(context.Background(), []string{"https://example.com/", "http://malware.test/"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(matches)
	// Output: [{http://malware.test/ malware}]
}
