package webcheck_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/quiverkit/quiver/webcheck"
)

func ExampleParseRobots() {
	robots := webcheck.ParseRobots([]byte(`
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$

User-agent: QuiverBot
Disallow: /
`))
	fmt.Println(robots.Allowed("Mozilla/5.0", "https://example.com/private/press/2024"))
	fmt.Println(robots.Allowed("Mozilla/5.0", "https://example.com/private/plans"))
	fmt.Println(robots.Allowed("Mozilla/5.0", "/files/report.pdf"))
	fmt.Println(robots.Allowed("QuiverBot/1.0", "/index.html"))
	// Output:
	// true
	// false
	// false
	// false
}

func ExampleValidateSitemapXML() {
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc><priority>2</priority></url>
  <url><loc>/about</loc><lastmod>yesterday</lastmod></url>
</urlset>`
	rep := webcheck.ValidateSitemapXML(strings.NewReader(doc), webcheck.SitemapOptions{})
	fmt.Println(rep.IsValidXML, rep.URLCount)
	for _, w := range rep.Warnings {
		fmt.Println(w)
	}
	// Output:
	// true 2
	// entry 1: priority "2" is not a number from 0.0 to 1.0
	// entry 2: loc "/about" is relative; the protocol requires absolute URLs
	// entry 2: lastmod "yesterday" is not a W3C datetime
}

func ExampleParseURL() {
	res, err := webcheck.ParseURL(context.Background(), webcheck.URLParseRequest{
		URL: "HTTPS://User@Bücher.Example:443/a/./b/../c/%7euser?q=1&q=2#top",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Scheme, res.Host, res.Port, res.Path)
	fmt.Println(*res.Username, res.HasPassword, res.QueryParams["q"], res.Fragment)
	fmt.Println(res.NormalizedURL)

	// Repairs a browser makes that signal trouble come back as warnings.
	res, err = webcheck.ParseURL(context.Background(), webcheck.URLParseRequest{URL: `http:\\127.1\admin`})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.NormalizedURL)
	for _, w := range res.Warnings {
		fmt.Println(w.Code)
	}

	// A URL that does not parse is an INVALID_REQUEST naming the field.
	_, err = webcheck.ParseURL(context.Background(), webcheck.URLParseRequest{URL: "http://[::1/"})
	fmt.Println(err)
	// Output:
	// https xn--bcher-kva.example 443 /a/c/%7euser
	// User false [1 2] top
	// https://User@xn--bcher-kva.example/a/c/%7euser?q=1&q=2#top
	// http://127.0.0.1/admin
	// backslash
	// ipv4_shorthand
	// invalid request: url: has an IPv6 host without its closing ]
}

func ExampleRobots_Allowed() {
	robots := webcheck.ParseRobots([]byte("User-agent: *\nDisallow: /search\nAllow: /search/about$\n"))
	for _, u := range []string{"/search?q=go", "https://example.com/search/about", "/search/about/more", "/robots.txt"} {
		fmt.Println(u, robots.Allowed("AnyBot/2.0", u))
	}
	// Output:
	// /search?q=go false
	// https://example.com/search/about true
	// /search/about/more false
	// /robots.txt true
}

func ExampleRisks() {
	fmt.Println(webcheck.Risks())
	// Output: [none low medium high critical]
}

func ExampleKeyTypes() {
	fmt.Println(webcheck.KeyTypes())
	// Output: [RSA ECDSA Ed25519 unknown]
}

func ExampleURLWarningCodes() {
	codes := webcheck.URLWarningCodes()
	fmt.Println(len(codes), codes[0], codes[len(codes)-1])
	// Output: 14 stripped_control host_mapped
}
