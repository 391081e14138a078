package webcheck

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/internal/weburl"
)

func TestParseURL(t *testing.T) {
	user := "Alice"
	none := []URLWarning{}
	tests := []struct {
		in   string
		want URLParseResult
	}{
		{"https://example.com", URLParseResult{
			Scheme: "https", Host: "example.com", Port: 443, Path: "/", QueryParams: map[string][]string{},
			NormalizedURL: "https://example.com/", Warnings: none,
		}},
		{"HTTP://Alice:secret@WWW.Example.COM:80/a/./b/../c/%7euser/%3a?b=2&a=1&a=3#Frag", URLParseResult{
			Scheme: "http", Host: "www.example.com", Port: 80, Path: "/a/c/%7euser/%3a", Query: "b=2&a=1&a=3", Fragment: "Frag",
			Username: &user, HasPassword: true,
			QueryParams:   map[string][]string{"a": {"1", "3"}, "b": {"2"}},
			NormalizedURL: "http://Alice:secret@www.example.com/a/c/%7euser/%3a?b=2&a=1&a=3#Frag",
			Warnings:      []URLWarning{{Code: "credentials", Message: weburl.WarningMessage("credentials")}},
		}},
		{"https://Bücher.example/straße?q=ä", URLParseResult{
			Scheme: "https", Host: "xn--bcher-kva.example", Port: 443, Path: "/stra%C3%9Fe", Query: "q=%C3%A4",
			QueryParams:   map[string][]string{"q": {"ä"}},
			NormalizedURL: "https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4", Warnings: none,
		}},
		{"https://[2001:DB8::1]:8443/x", URLParseResult{
			Scheme: "https", Host: "[2001:db8::1]", Port: 8443, Path: "/x", QueryParams: map[string][]string{},
			NormalizedURL: "https://[2001:db8::1]:8443/x", Warnings: none,
		}},
		{"http://0x7f.1/", URLParseResult{
			Scheme: "http", Host: "127.0.0.1", Port: 80, Path: "/", QueryParams: map[string][]string{},
			NormalizedURL: "http://127.0.0.1/",
			Warnings: []URLWarning{
				{Code: "ipv4_non_decimal", Message: weburl.WarningMessage("ipv4_non_decimal")},
				{Code: "ipv4_shorthand", Message: weburl.WarningMessage("ipv4_shorthand")},
			},
		}},
		{"ftp://files.example/pub/../file.txt", URLParseResult{
			Scheme: "ftp", Host: "files.example", Port: 21, Path: "/file.txt", QueryParams: map[string][]string{},
			NormalizedURL: "ftp://files.example/file.txt", Warnings: none,
		}},
		{"wss://chat.example:443/socket?#", URLParseResult{
			Scheme: "wss", Host: "chat.example", Port: 443, Path: "/socket", QueryParams: map[string][]string{},
			NormalizedURL: "wss://chat.example/socket?#", Warnings: none,
		}},
		{"file:///etc/passwd", URLParseResult{
			Scheme: "file", Path: "/etc/passwd", QueryParams: map[string][]string{},
			NormalizedURL: "file:///etc/passwd", Warnings: none,
		}},
		{"postgres://db.internal/app?sslmode=require", URLParseResult{
			Scheme: "postgres", Host: "db.internal", Port: 5432, Path: "/app", Query: "sslmode=require",
			QueryParams:   map[string][]string{"sslmode": {"require"}},
			NormalizedURL: "postgres://db.internal/app?sslmode=require", Warnings: none,
		}},
		{"http://f:0/c", URLParseResult{
			Scheme: "http", Host: "f", Port: 0, Path: "/c", QueryParams: map[string][]string{},
			NormalizedURL: "http://f:0/c", Warnings: none,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseURL(context.Background(), URLParseRequest{URL: tt.in})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("ParseURL(%q) mismatch (-want +got):\n%s", tt.in, d)
			}
		})
	}
}

// TestParseURLStandard: each case is a rule or an example of the URL
// Standard's basic URL parser, host parser and serializer
// (https://url.spec.whatwg.org/), with the warnings the repair carries.
func TestParseURLStandard(t *testing.T) {
	tests := []struct {
		rule, in, href string
		warnings       []string
	}{
		// "Remove any leading and trailing C0 control or space from input."
		{"DEL is not C0: kept and escaped", " \x00\x1fhttps://example.com/ \x7f ", "https://example.com/%20%7F", []string{"stripped_control"}},
		{"leading and trailing spaces stripped", "  https://example.com/a  ", "https://example.com/a", []string{"stripped_control"}},
		{"C0 controls stripped", "\x01\x1fhttps://example.com/\x00", "https://example.com/", []string{"stripped_control"}},
		// "Remove all ASCII tab or newline from input."
		{"tab and newline removed", "https://exa\tmple.com/pa\nth?q\r=1", "https://example.com/path?q=1", []string{"stripped_tab_newline"}},
		{"newline in scheme removed", "ht\ntp://example.com/", "http://example.com/", []string{"stripped_tab_newline"}},
		// Special authority slashes state: "\" is read as "/".
		{"backslashes as slashes", `http:\\www.google.com\foo`, "http://www.google.com/foo", []string{"backslash"}},
		{"backslash in path", `https://example.com\a\b`, "https://example.com/a/b", []string{"backslash"}},
		{"mixed slash and backslash", `https:/\example.com/`, "https://example.com/", []string{"backslash"}},
		// special-scheme-missing-following-solidus.
		{"no slashes", "https:example.com/", "https://example.com/", []string{"missing_slashes"}},
		{"one slash", "http:/example.com/", "http://example.com/", []string{"missing_slashes"}},
		{"three slashes", "http:///example.com/", "http://example.com/", []string{"extra_slashes"}},
		{"many slashes", "https://////example.com/", "https://example.com/", []string{"extra_slashes"}},
		{"file without slashes", "file:/etc/hosts", "file:///etc/hosts", []string{"missing_slashes"}},
		// Credentials: serialized only when not empty.
		{"empty userinfo", "http://@example.com/", "http://example.com/", []string{"empty_userinfo"}},
		{"empty password", "https://test:@test", "https://test@test/", []string{"empty_userinfo", "credentials"}},
		{"empty user and password", "http://:@example.com/", "http://example.com/", []string{"empty_userinfo"}},
		{"empty user with password", "http://:pw@example.com/", "http://:pw@example.com/", []string{"credentials"}},
		{"credentials", "http://user:pass@example.com/", "http://user:pass@example.com/", []string{"credentials"}},
		{"the last @ ends the credentials", "http://a@b@example.com/", "http://a%40b@example.com/", []string{"credentials", "multiple_at"}},
		// Percent-encoded bytes are kept as written.
		{"escapes kept", "http://example.com/foo%41%7a", "http://example.com/foo%41%7a", nil},
		{"lower-case escape kept", "http://example.com/%3a", "http://example.com/%3a", nil},
		{"invalid escape kept", "http://example.com/%zz?%x#%", "http://example.com/%zz?%x#%", []string{"invalid_percent_escape"}},
		// Percent-encode sets.
		{"query: quote escaped", `http://example.com/?"`, "http://example.com/?%22", nil},
		{"special query: apostrophe escaped", "http://example.com/?'", "http://example.com/?%27", nil},
		{"path: space and quote escaped", `http://example.com/a b"c`, "http://example.com/a%20b%22c", nil},
		{"fragment: space escaped", "http://example.com/#a b", "http://example.com/#a%20b", nil},
		{"path: non-ASCII as UTF-8", "http://example.com/ü", "http://example.com/%C3%BC", nil},
		// Empty query and fragment are kept; "#" in a fragment is kept.
		{"empty fragment kept", "http://example.com/#", "http://example.com/#", nil},
		{"empty query kept", "http://example.com/?", "http://example.com/?", nil},
		{"# in fragment kept", "http://example.com/#f#g", "http://example.com/#f#g", nil},
		// Port state.
		{"port 0", "http://f:0/c", "http://f:0/c", nil},
		{"port leading zeros", "http://f:00000000000000080/c", "http://f/c", nil},
		{"http default port dropped", "http://example.com:80/", "http://example.com/", nil},
		{"https default port dropped", "https://example.com:443/", "https://example.com/", nil},
		{"ws default port dropped", "ws://example.com:80/", "ws://example.com/", nil},
		{"wss default port dropped", "wss://example.com:443/", "wss://example.com/", nil},
		{"ftp default port dropped", "ftp://example.com:21/", "ftp://example.com/", nil},
		{"other scheme's default kept", "https://example.com:80/", "https://example.com:80/", nil},
		{"empty port", "http://example.com:/", "http://example.com/", nil},
		// Path state: single- and double-dot segments, "%2e" included.
		{"dot segments", "http://example.com/a/./b/../c", "http://example.com/a/c", nil},
		{"encoded dot segments", "http://example.com/a/%2e/b/%2E%2e/c", "http://example.com/a/c", nil},
		{"above the root", "http://example.com/../../x", "http://example.com/x", nil},
		{"trailing ..", "http://example.com/a/b/..", "http://example.com/a/", nil},
		{"trailing .", "http://example.com/a/.", "http://example.com/a/", nil},
		{"empty path is /", "HTTP://EXAMPLE.COM", "http://example.com/", nil},
		// IPv4 parser.
		{"hex and short", "http://0x7f.1/", "http://127.0.0.1/", []string{"ipv4_non_decimal", "ipv4_shorthand"}},
		{"one number", "http://2130706433/", "http://127.0.0.1/", []string{"ipv4_shorthand"}},
		{"two parts", "http://127.1/", "http://127.0.0.1/", []string{"ipv4_shorthand"}},
		{"three parts", "http://127.0.1/", "http://127.0.0.1/", []string{"ipv4_shorthand"}},
		{"octal", "http://0177.0.0.1/", "http://127.0.0.1/", []string{"ipv4_non_decimal"}},
		{"hex number", "http://0x7F000001/", "http://127.0.0.1/", []string{"ipv4_non_decimal", "ipv4_shorthand"}},
		{"trailing dot", "http://1.2.3.4./", "http://1.2.3.4/", []string{"ipv4_trailing_dot"}},
		{"percent-encoded", "http://%31%32%37.0.0.1/", "http://127.0.0.1/", []string{"percent_encoded_host"}},
		{"full-width digits", "http://１２７.０.０.１/", "http://127.0.0.1/", []string{"host_mapped"}},
		{"0x alone", "http://0x/", "http://0.0.0.0/", []string{"ipv4_non_decimal", "ipv4_shorthand"}},
		// Host parser: domain to ASCII.
		{"IDN to A-labels", "http://Bücher.de/", "http://xn--bcher-kva.de/", nil},
		{"non-transitional ß", "http://faß.de/", "http://xn--fa-hia.de/", nil},
		{"full-width letters", "http://ＥＸＡＭＰＬＥ.com/", "http://example.com/", []string{"host_mapped"}},
		{"CJK", "http://日本.jp/", "http://xn--wgv71a.jp/", nil},
		{"ideographic full stop", "http://example。com/", "http://example.com/", []string{"host_mapped"}},
		{"domain trailing dot kept", "http://example.com./", "http://example.com./", nil},
		{"percent-encoded name", "http://ex%61mple.com/", "http://example.com/", []string{"percent_encoded_host"}},
		// IPv6 parser and serializer.
		{"IPv6 compressed", "http://[2001:DB8:0:0:0:0:0:1]/", "http://[2001:db8::1]/", nil},
		{"IPv4 in IPv6", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", nil},
		{"IPv6 loopback", "http://[0:0::1]/", "http://[::1]/", nil},
		// Parser differentials: read as a browser reads them.
		{"backslash before @", `http://127.0.0.1\@example.com/`, "http://127.0.0.1/@example.com/", []string{"backslash"}},
		{"backslash after host", `http://example.com\@127.0.0.1`, "http://example.com/@127.0.0.1", []string{"backslash"}},
		{"@ in credentials", "http://example.com@127.0.0.1/", "http://example.com@127.0.0.1/", []string{"credentials"}},
		// file URLs.
		{"file localhost", "FILE://localhost/x", "file:///x", nil},
		{"file host", "file://server/share", "file://server/share", nil},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			got, err := ParseURL(context.Background(), URLParseRequest{URL: tt.in})
			if tt.href == "" {
				assertInvalid(t, err, "url")
				return
			}
			if err != nil {
				t.Fatalf("ParseURL(%q): %v", tt.in, err)
			}
			if got.NormalizedURL != tt.href {
				t.Errorf("ParseURL(%q) = %q; want %q", tt.in, got.NormalizedURL, tt.href)
			}
			var codes []string
			for _, w := range got.Warnings {
				codes = append(codes, string(w.Code))
				if w.Message == "" {
					t.Errorf("warning %s has no message", w.Code)
				}
			}
			if !slices.Equal(codes, tt.warnings) {
				t.Errorf("ParseURL(%q) warnings %q; want %q", tt.in, codes, tt.warnings)
			}
		})
	}
}

// TestParseURLQueryParams: query_params follows the
// application/x-www-form-urlencoded parser: "+" is a space, then escapes
// are decoded, empty sequences dropped, a missing "=" an empty value.
func TestParseURLQueryParams(t *testing.T) {
	got, err := ParseURL(context.Background(), URLParseRequest{URL: "http://example.com/?a=1+2&b=%2B&c&=d&&e=%zz&f=%C3%A4&g=%ff&a=x=y&h=%E3%83"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"a": {"1 2", "x=y"}, "b": {"+"}, "c": {""}, "": {"d"}, "e": {"%zz"}, "f": {"ä"}, "g": {"\uFFFD"}, "h": {"\uFFFD"},
	}
	if d := cmp.Diff(want, got.QueryParams); d != "" {
		t.Errorf("query_params (-want +got):\n%s", d)
	}
}

func TestParseURLInvalid(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "is required"},
		{"   ", "is required"},
		{"example.com/path", "absolute URL with a scheme"},
		{"/relative", "absolute URL with a scheme"},
		{"http://exa mple.com/", "forbidden character \" \""},
		{"http://example.com:99999/", "port outside 0-65535"},
		{"http://example.com:8o/", "port that is not a decimal number"},
		{"mailto:someone@example.com", "must have a host"},
		{"http://", "must have a host"},
		{"http://user@/", "credentials (user@) but no host"},
		{"http://1.2.3.4.5/", "must be an IPv4 address, but is not one: it has more than four parts"},
		{"http://256.0.0.1/", "must be an IPv4 address, but is not one: a part is out of range"},
		{"http://4294967296/", "must be an IPv4 address"},
		{"http://09.1/", "must be an IPv4 address, but is not one: a part is not"},
		{"http://[::1/", "IPv6 host without its closing ]"},
		{"http://[1::2::3]/", "invalid IPv6 address"},
		{"http://xn--a.com/", "not a valid internationalized domain name"},
		{"http://1.+1/", "signed number part"},
		{"http://a\xffb/", "valid UTF-8"},
	}
	for _, tt := range tests {
		_, err := ParseURL(context.Background(), URLParseRequest{URL: tt.in})
		assertInvalid(t, err, tt.want)
	}
}

// TestParseURLNormalFormBound: a URL under MaxURLLength whose normal form
// is over it (percent-encoding makes one byte three characters) is refused
// naming url, instead of answering a normal form that no longer parses
// (a FuzzParseURL finding, kept as a seed in testdata).
func TestParseURLNormalFormBound(t *testing.T) {
	for _, raw := range []string{
		"http://a/#" + strings.Repeat("\x7f", 2800),
		"http://a/" + strings.Repeat("é", 2100),
		"http://a/?q=" + strings.Repeat("ü ", 1400),
	} {
		if len(raw) > MaxURLLength {
			t.Fatalf("input of %d characters; the case needs one under the bound", len(raw))
		}
		res, err := ParseURL(context.Background(), URLParseRequest{URL: raw})
		assertInvalid(t, err, "url: its normal form would be longer than 8192 characters")
		if err == nil {
			t.Errorf("normal form of %d characters answered", len(res.NormalizedURL))
		}
	}
	// Just under the bound, the normal form is answered and parses again.
	raw := "http://a/#" + strings.Repeat("\x7f", (MaxURLLength-len("http://a/#"))/3)
	res, err := ParseURL(context.Background(), URLParseRequest{URL: raw})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseURL(context.Background(), URLParseRequest{URL: res.NormalizedURL}); err != nil {
		t.Errorf("normal form of %d characters does not parse: %v", len(res.NormalizedURL), err)
	}
}

func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"https://example.com/a/../b?x=1#f", "http://u:p@[::1]:8080/%7e", "http://0x7f.1", "https://bücher.de/ä", "ftp://x/./..", "http://a/%2e%2E/b",
		`http:\\127.1\@example.com/`, "\x00 https:example.com\t/\n", "http://@a:@b/?\"#f#g", "file:/c|/x", "http://1.+1/", "foo://h:1/%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		res, err := ParseURL(context.Background(), URLParseRequest{URL: s})
		if err != nil {
			return
		}
		// The serialization parses to itself, with no repair left to make.
		again, err := ParseURL(context.Background(), URLParseRequest{URL: res.NormalizedURL})
		if err != nil {
			t.Fatalf("normalized %q -> %q, which does not parse: %v", s, res.NormalizedURL, err)
		}
		if again.NormalizedURL != res.NormalizedURL {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, res.NormalizedURL, again.NormalizedURL)
		}
		for _, w := range again.Warnings {
			switch w.Code {
			case "credentials", "multiple_at", "invalid_percent_escape", "empty_userinfo":
				// Kept in the serialization ("a%40b@", "%zz"), or a
				// ":@" the href keeps for an empty user with a password.
			default:
				t.Fatalf("%q -> %q still warns %s", s, res.NormalizedURL, w.Code)
			}
		}
		// For a fetch, the host the SSRF-safe client checks is the host
		// the parser read.
		if res.Scheme != "http" && res.Scheme != "https" {
			return
		}
		g, err := parseHTTPURL("url", s)
		if err != nil {
			return
		}
		h, err := safehttp.ParseHost(g.Hostname())
		if err != nil {
			return // the client's rules on top of the Standard refuse it
		}
		if want := strings.Trim(res.Host, "[]"); h.String() != want {
			t.Fatalf("%q: parser reads host %q, the client checks %q", s, want, h.String())
		}
	})
}

func BenchmarkParseURL(b *testing.B) {
	ctx := context.Background()
	req := URLParseRequest{URL: "HTTPS://User@Bücher.Example:443/a/./b/../c/%7euser?q=1&q=2&x=%e4#frag"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseURL(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckHomograph(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		checkHomograph("xn--80ak6aa92e.com")
		checkHomograph("login.accounts.example.co.uk")
	}
}
