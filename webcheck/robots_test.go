package webcheck

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// newTestChecker returns a Checker allowed to reach loopback, resolving
// through a loopback DNS server with the given zone.
func newTestChecker(t testing.TB, zone string, mod ...func(*Config)) *Checker {
	t.Helper()
	if zone == "" {
		zone = "placeholder.test. 60 IN A 127.0.0.1\n"
	}
	ns := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	r, err := resolver.New(resolver.Config{Servers: []string{ns.Addr}, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Resolver: r, AllowLoopback: true, Timeout: 5 * time.Second}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRobotsRFC9309(t *testing.T) {
	tests := []struct {
		name  string
		robot string
		agent string
		url   string
		want  bool
	}{
		// Longest match wins.
		{"longest match: allow longer", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "bot", "/a/b/c", true},
		{"longest match: disallow longer", "User-agent: *\nAllow: /a\nDisallow: /a/b\n", "bot", "/a/b/c", false},
		{"longest match counts octets", "User-agent: *\nAllow: /page\nDisallow: /*.html\n", "bot", "/page.html", false},
		// Allow wins a tie.
		{"tie: allow wins", "User-agent: *\nDisallow: /x\nAllow: /x\n", "bot", "/x/y", true},
		{"tie: allow wins either order", "User-agent: *\nAllow: /x\nDisallow: /x\n", "bot", "/x", true},
		// * and $.
		{"star in middle", "User-agent: *\nDisallow: /*/private\n", "bot", "/u/42/private/x", false},
		{"star no match", "User-agent: *\nDisallow: /*/private\n", "bot", "/private", true},
		{"dollar anchors", "User-agent: *\nDisallow: /*.pdf$\n", "bot", "/doc/a.pdf", false},
		{"dollar anchors: not at end", "User-agent: *\nDisallow: /*.pdf$\n", "bot", "/doc/a.pdf?x=1", true},
		{"trailing star is a no-op", "User-agent: *\nDisallow: /fish*\n", "bot", "/fishheads", false},
		{"exact with dollar", "User-agent: *\nDisallow: /$\n", "bot", "/", false},
		{"exact with dollar: other path", "User-agent: *\nDisallow: /$\n", "bot", "/a", true},
		{"query is matched", "User-agent: *\nDisallow: /*?sessionid=\n", "bot", "/page?sessionid=1", false},
		// Groups merge; * applies when nothing matches.
		{"specific group wins over *", "User-agent: *\nDisallow: /\n\nUser-agent: quiverbot\nAllow: /\n", "QuiverBot/1.0", "/x", true},
		{"star fallback", "User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n", "quiverbot", "/private/x", false},
		{"star fallback allows the rest", "User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n", "quiverbot", "/public", true},
		{"groups for one agent merge", "User-agent: quiverbot\nDisallow: /a\n\nUser-agent: other\nDisallow: /c\n\nUser-agent: quiverbot\nDisallow: /b\n", "quiverbot", "/b/1", false},
		{"consecutive user-agents share a group", "User-agent: a\nUser-agent: quiverbot\nDisallow: /x\n", "quiverbot", "/x", false},
		{"other records do not split a group", "User-agent: quiverbot\nCrawl-delay: 5\nUser-agent: other\nDisallow: /x\n", "quiverbot", "/x", false},
		{"sitemap does not split a group", "User-agent: quiverbot\nSitemap: https://a.test/s.xml\nUser-agent: other\nDisallow: /x\n", "quiverbot", "/x", false},
		{"agent match is case-insensitive", "User-agent: QUIVERBOT\nDisallow: /x\n", "quiverbot", "/x", false},
		{"no group at all allows", "Sitemap: https://e.test/s.xml\n", "quiverbot", "/x", true},
		{"empty disallow allows", "User-agent: *\nDisallow:\n", "bot", "/x", true},
		{"robots.txt always allowed", "User-agent: *\nDisallow: /\n", "bot", "/robots.txt", true},
		// Percent-encoding normalization.
		{"escape case-insensitive", "User-agent: *\nDisallow: /a%3cd\n", "bot", "/a%3Cd", false},
		{"unreserved escapes decoded", "User-agent: *\nDisallow: /%7Ejoe\n", "bot", "/~joe/x", false},
		{"non-ASCII pattern matches encoded URL", "User-agent: *\nDisallow: /ä\n", "bot", "/%C3%A4/x", false},
		{"reserved escapes stay distinct", "User-agent: *\nDisallow: /a%2Fb\n", "bot", "/a/b", true},
		{"full URL", "User-agent: *\nDisallow: /x\n", "bot", "https://example.test/x?y", false},
		// Robustness.
		{"comments and CRLF", "User-agent: * # all\r\nDisallow: /x # no\r\n", "bot", "/x", false},
		{"missing colon tolerated", "User-agent *\nDisallow /x\n", "bot", "/x", false},
		{"typo tolerated", "User-agent: *\nDissallow: /x\n", "bot", "/x", false},
		{"rules before user-agent ignored", "Disallow: /x\nUser-agent: *\nAllow: /\n", "bot", "/x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseRobots([]byte(tt.robot)).Allowed(tt.agent, tt.url); got != tt.want {
				t.Errorf("Allowed(%q, %q) = %v; want %v\nrobots.txt:\n%s", tt.agent, tt.url, got, tt.want, tt.robot)
			}
		})
	}
}

// TestRobotsRFC9309Encoding takes the examples of RFC 9309 sections 2.2.2
// (percent-encoding of paths) and 2.2.3 (special characters): under
// "Disallow: /", the Allow rule must match the URL exactly when the RFC
// says so.
func TestRobotsRFC9309Encoding(t *testing.T) {
	tests := []struct {
		allow, url string
		match      bool
	}{
		// 2.2.2: the path to match, whatever way either side is written.
		{"/foo/bar?baz=quz", "/foo/bar?baz=quz", true},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84", true},
		{"/foo/bar/ツ", "https://example.com/foo/bar/ツ", true},
		{"/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", true},
		{"/foo/bar/%E3%83%84", "/foo/bar/ツ", true},
		{"/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84", true},
		{"/foo/bar/%62%61%7A", "/foo/bar/baz", true},
		{"/foo/bar/baz", "/foo/bar/%62%61%7A", true},
		{"/foo/bar/%62%61%7A", "/foo/bar/bat", false},
		// 2.2.3: %2A and %24 in a rule are a literal * and $.
		{"/path/file-with-a-%2A.html", "https://www.example.com/path/file-with-a-*.html", true},
		{"/path/file-with-a-%2A.html", "/path/file-with-a-%2A.html", true},
		{"/path/file-with-a-%2A.html", "/path/file-with-a-b.html", false},
		{"/path/foo-%24", "https://www.example.com/path/foo-$", true},
		{"/path/foo-%24", "/path/foo-", false},
		{"/path/foo-$", "/path/foo-", true},
		{"/path/foo-$", "/path/foo-$", false},
	}
	for _, tt := range tests {
		r := ParseRobots([]byte("User-agent: *\nDisallow: /\nAllow: " + tt.allow + "\n"))
		if got := r.Allowed("bot", tt.url); got != tt.match {
			t.Errorf("Allow: %s, URL %s: allowed %v; want %v", tt.allow, tt.url, got, tt.match)
		}
	}
}

// TestRobotsByteOrderMark: a UTF-8 byte order mark, whole or cut short,
// is ignored (RFC 9309 section 2.2), so the first line is not lost.
func TestRobotsByteOrderMark(t *testing.T) {
	for _, bom := range []string{"", "\xef", "\xef\xbb", "\xef\xbb\xbf"} {
		r := ParseRobots([]byte(bom + "User-agent: *\nDisallow: /private\n"))
		if r.Allowed("bot", "/private/x") || len(r.Warnings()) != 0 {
			t.Errorf("BOM %q: the first line was lost (warnings %q)", bom, r.Warnings())
		}
	}
}

func TestRobotsParsingStopsAt500KiB(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for b.Len() < MaxRobotsBytes {
		b.WriteString("Disallow: /filler/abcdefghijklmnopqrstuvwxyz\n")
	}
	b.WriteString("Disallow: /beyond\n")
	r := ParseRobots([]byte(b.String()))
	if !r.Allowed("bot", "/beyond") {
		t.Error("a rule after 500 KiB was applied")
	}
	if w := r.Warnings(); len(w) == 0 || !strings.Contains(w[0], "only the first") {
		t.Errorf("warnings = %q; want the truncation warning", w)
	}
}

// TestRobotsWarningQuotesLittle: a warning quotes a long value as every
// message does (textcut.Quote): 100 characters, the cut marked.
func TestRobotsWarningQuotesLittle(t *testing.T) {
	long := strings.Repeat("é", 300)
	r := ParseRobots([]byte("User-agent: *\nSitemap: /" + long + "\n"))
	want := "line 2: sitemap URL is not absolute: " + textcut.Quote("/"+long)
	if !slices.Contains(r.Warnings(), want) {
		t.Errorf("warnings %q; want %q", r.Warnings(), want)
	}
	if !strings.HasSuffix(want, "\"…") || strings.Count(want, "é") != 99 {
		t.Errorf("quote %q: want 100 characters and the cut marked", want)
	}
}

func TestRobotsWarnings(t *testing.T) {
	r := ParseRobots([]byte("Disallow: /early\nUser-agent: *\nCrawl-delay: 10\nHost: example.test\nNoindex: /x\nFoo: bar\njust text\nSitemap: https://example.test/sitemap.xml\n"))
	w := strings.Join(r.Warnings(), "\n")
	for _, want := range []string{"before any user-agent", "crawl-delay is not part", "host is not part", "noindex is not part", `unknown directive "foo"`, "no colon"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	if s := r.Sitemaps(); len(s) != 1 || s[0] != "https://example.test/sitemap.xml" {
		t.Errorf("sitemaps = %q", s)
	}
}

func TestAnalyzeRobots(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "User-agent: *\nDisallow: /\n\nUser-agent: goodbot\nDisallow: /private\nCrawl-delay: 5\nSitemap: https://example.test/sitemap.xml\n")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	defer gone.Close()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) }))
	defer broken.Close()
	var hops int
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops++
		http.Redirect(w, r, fmt.Sprintf("/r%d/robots.txt", hops), http.StatusMovedPermanently)
	}))
	defer loop.Close()
	deadAddr := func() string { s := httptest.NewServer(nil); u := s.URL; s.Close(); return u }()

	c := newTestChecker(t, "")
	ctx := context.Background()

	res, err := c.AnalyzeRobots(ctx, RobotsRequest{URL: srv.URL + "/some/page?x=1"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Exists || res.StatusCode != 200 || res.RobotsURL != srv.URL+"/robots.txt" {
		t.Errorf("exists=%v status=%d robots_url=%s", res.Exists, res.StatusCode, res.RobotsURL)
	}
	if strings.Join(res.UserAgents, ",") != "*,goodbot" || strings.Join(res.DisallowRules, ",") != "/,/private" {
		t.Errorf("user_agents=%q disallow=%q", res.UserAgents, res.DisallowRules)
	}
	if len(res.SitemapURLs) != 1 || !res.BlocksAll {
		t.Errorf("sitemaps=%q blocks_all=%v", res.SitemapURLs, res.BlocksAll)
	}
	assertWarning(t, res.Warnings, "blocks every crawler")
	assertWarning(t, res.Warnings, "crawl-delay")

	res, err = c.AnalyzeRobots(ctx, RobotsRequest{URL: gone.URL + "/robots.txt"})
	if err != nil || res.Exists || res.StatusCode != 404 || res.BlocksAll {
		t.Errorf("404: %+v, %v", res, err)
	}
	assertWarning(t, res.Warnings, "may access everything")

	res, err = c.AnalyzeRobots(ctx, RobotsRequest{URL: broken.URL})
	if err != nil || res.Exists || res.StatusCode != 503 || !res.BlocksAll {
		t.Errorf("503: %+v, %v", res, err)
	}
	assertWarning(t, res.Warnings, "complete disallow")

	res, err = c.AnalyzeRobots(ctx, RobotsRequest{URL: deadAddr})
	if err != nil || res.StatusCode != 0 || !res.BlocksAll {
		t.Errorf("unreachable: %+v, %v", res, err)
	}
	assertWarning(t, res.Warnings, "unreachable")

	res, err = c.AnalyzeRobots(ctx, RobotsRequest{URL: loop.URL})
	if err != nil || len(res.RedirectChain) != MaxRobotsRedirects+1 || res.BlocksAll {
		t.Errorf("redirect loop: chain=%d %+v, %v", len(res.RedirectChain), res, err)
	}
	assertWarning(t, res.Warnings, "more than 5 redirects")
}

// TestAnalyzeRobotsWarningsCapped: a hostile file cannot make the answer
// grow with its number of problems (issue 13: 12,166 warnings, a 1 MB
// answer); the warnings past the cap are counted in a last one.
func TestAnalyzeRobotsWarningsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < MaxRobotsBytes-100; i++ {
		fmt.Fprintf(&b, "Sitemap: /relative-%d.xml\nFoo%d: bar\n", i, i)
	}
	body := b.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, body)
	}))
	defer srv.Close()
	res, err := newTestChecker(t, "").AnalyzeRobots(context.Background(), RobotsRequest{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > maxRobotsWarnings+5 {
		t.Fatalf("%d warnings; want at most about %d", len(res.Warnings), maxRobotsWarnings)
	}
	last := res.Warnings[len(res.Warnings)-1]
	if !regexp.MustCompile(`^\d{4,} more warnings not shown$`).MatchString(last) {
		t.Errorf("last warning = %q; want the count of the rest", last)
	}
	assertWarning(t, res.Warnings, "sitemap URL is not absolute")
}

func TestAnalyzeRobotsRefusesLoopbackByDefault(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c := newTestChecker(t, "", func(c *Config) { c.AllowLoopback = false })
	_, err := c.AnalyzeRobots(context.Background(), RobotsRequest{URL: srv.URL})
	assertInvalid(t, err, "destination not allowed")
}

func FuzzParseRobots(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /a*b$\nAllow: /a\n"), "/a/xb")
	f.Add([]byte("user-agent: x\nuser-agent: y\ndisallow: /%E4\nsitemap: z\n"), "/%e4?q")
	f.Add([]byte("\xef\xbb\xbfUser-agent *\r\nDisallow /\r"), "")
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		r := ParseRobots(data)
		a := r.Allowed("quiverbot", path)
		if a != r.Allowed("QuiverBot/2.0", path) {
			t.Fatal("verdict depends on the agent's case or version")
		}
		if len(r.Warnings()) > maxRobotsWarnings+1 {
			t.Fatalf("%d warnings", len(r.Warnings()))
		}
		_ = r.Groups()
	})
}

// BenchmarkRobots parses a 500 KiB file and matches 1,000 URLs against it.
func BenchmarkRobots(b *testing.B) {
	var sb strings.Builder
	for g := 0; sb.Len() < MaxRobotsBytes; g++ {
		fmt.Fprintf(&sb, "User-agent: bot-%s\n", letters(g))
		for i := 0; i < 20; i++ {
			fmt.Fprintf(&sb, "Disallow: /section%d/*/page%d.html$\nAllow: /section%d/public%d/\n", g, i, g, i)
		}
	}
	sb.WriteString("User-agent: *\nDisallow: /private/\nAllow: /private/ok$\n")
	data := []byte(sb.String())[:MaxRobotsBytes]
	urls, agents := make([]string, 1000), make([]string, 1000)
	for i := range urls {
		urls[i] = fmt.Sprintf("https://example.test/section%d/x/page%d.html?q=%d", i%50, i%20, i)
		agents[i] = "Bot-" + letters(i%60) + "/1.0"
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := ParseRobots(data)
		for i, u := range urls {
			r.Allowed(agents[i], u)
		}
	}
}

// letters spells n in base 26 with the letters a-z.
func letters(n int) string {
	s := string(rune('a' + n%26))
	for n /= 26; n > 0; n /= 26 {
		s = string(rune('a'+n%26)) + s
	}
	return s
}
