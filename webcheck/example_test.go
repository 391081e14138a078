package webcheck_test

import (
	"fmt"
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
