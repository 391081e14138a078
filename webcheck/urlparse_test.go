package webcheck

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseURL(t *testing.T) {
	user := "Alice"
	tests := []struct {
		in   string
		want URLParseResult
	}{
		{"https://example.com", URLParseResult{
			Scheme: "https", Host: "example.com", Port: 443, QueryParams: map[string][]string{},
			NormalizedURL: "https://example.com/",
		}},
		{"HTTP://Alice:secret@WWW.Example.COM:80/a/./b/../c/%7euser/%3a?b=2&a=1&a=3#Frag", URLParseResult{
			Scheme: "http", Host: "www.example.com", Port: 80, Path: "/a/./b/../c/~user/:", Query: "b=2&a=1&a=3", Fragment: "Frag",
			Username: &user, HasPassword: true,
			QueryParams:   map[string][]string{"a": {"1", "3"}, "b": {"2"}},
			NormalizedURL: "http://Alice:secret@www.example.com/a/c/~user/%3A?b=2&a=1&a=3#Frag",
		}},
		{"https://Bücher.example/straße?q=ä", URLParseResult{
			Scheme: "https", Host: "xn--bcher-kva.example", Port: 443, Path: "/straße", Query: "q=ä",
			QueryParams:   map[string][]string{"q": {"ä"}},
			NormalizedURL: "https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4",
		}},
		{"https://[2001:DB8::1]:8443/x", URLParseResult{
			Scheme: "https", Host: "2001:db8::1", Port: 8443, Path: "/x", QueryParams: map[string][]string{},
			NormalizedURL: "https://[2001:db8::1]:8443/x",
		}},
		{"http://0x7f.1/", URLParseResult{
			Scheme: "http", Host: "127.0.0.1", Port: 80, Path: "/", QueryParams: map[string][]string{},
			NormalizedURL: "http://127.0.0.1/",
		}},
		{"ftp://files.example/pub/../file.txt", URLParseResult{
			Scheme: "ftp", Host: "files.example", Port: 21, Path: "/pub/../file.txt", QueryParams: map[string][]string{},
			NormalizedURL: "ftp://files.example/file.txt",
		}},
		{"wss://chat.example:443/socket?", URLParseResult{
			Scheme: "wss", Host: "chat.example", Port: 443, Path: "/socket", QueryParams: map[string][]string{},
			NormalizedURL: "wss://chat.example/socket?",
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

func TestParseURLInvalid(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "is required"},
		{"   ", "is required"},
		{"example.com/path", "absolute URL with a scheme"},
		{"/relative", "absolute URL with a scheme"},
		{"http://exa mple.com/", "not a valid URL"},
		{"http://example.com:99999/", "port outside 1-65535"},
		{"http://example.com/%zz", "not a valid URL"},
		{"mailto:someone@example.com", "must have a host"},
		{"http:///nohost", "must have a host"},
		{"http://1.2.3.4.5/", "invalid host"},
		{"http://[::1/", "not a valid URL"},
		{"http://-bad-.example/", "invalid host"},
	}
	for _, tt := range tests {
		_, err := ParseURL(context.Background(), URLParseRequest{URL: tt.in})
		assertInvalid(t, err, tt.want)
	}
}

func TestRemoveDotSegments(t *testing.T) {
	// The examples of RFC 3986 section 5.4.
	for in, want := range map[string]string{
		"/a/b/c/./../../g":   "/a/g",
		"mid/content=5/../6": "mid/6",
		"/b/c/.":             "/b/c/",
		"/b/c/..":            "/b/",
		"/../g":              "/g",
		"/./g":               "/g",
		"/g.":                "/g.",
		"/..g":               "/..g",
		"/b/c/g/./h":         "/b/c/g/h",
		"":                   "",
	} {
		if got := removeDotSegments(in); got != want {
			t.Errorf("removeDotSegments(%q) = %q; want %q", in, got, want)
		}
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
	for _, s := range []string{"https://example.com/a/../b?x=1#f", "http://u:p@[::1]:8080/%7e", "http://0x7f.1", "https://bücher.de/ä", "ftp://x/./..", "http://a/%2e%2E/b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		res, err := ParseURL(context.Background(), URLParseRequest{URL: s})
		if err != nil {
			return
		}
		// The normal form parses, and normalizing it again changes nothing.
		again, err := ParseURL(context.Background(), URLParseRequest{URL: res.NormalizedURL})
		if err != nil {
			t.Fatalf("normalized %q -> %q, which does not parse: %v", s, res.NormalizedURL, err)
		}
		if again.NormalizedURL != res.NormalizedURL {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, res.NormalizedURL, again.NormalizedURL)
		}
		if _, err := url.Parse(res.NormalizedURL); err != nil {
			t.Fatal(err)
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
