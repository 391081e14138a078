package weburl

import (
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseHost(t *testing.T) {
	tests := []struct {
		in, host, addr string
	}{
		{"Example.COM", "example.com", ""},
		{"example.com.", "example.com.", ""},
		{"bücher.de", "xn--bcher-kva.de", ""},
		{"0x7f.1", "127.0.0.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1", "127.0.0.1"},
		{"127.1.", "127.0.0.1", "127.0.0.1"},
		{"%31%32%37.1", "127.0.0.1", "127.0.0.1"},
		{"::1", "[::1]", "::1"},
		{"[::FFFF:127.0.0.1]", "[::ffff:7f00:1]", "::ffff:127.0.0.1"},
		{"１２７．０．０．１", "127.0.0.1", "127.0.0.1"},
	}
	for _, tt := range tests {
		host, addr, err := ParseHost(tt.in)
		if err != nil {
			t.Errorf("ParseHost(%q): %v", tt.in, err)
			continue
		}
		var want netip.Addr
		if tt.addr != "" {
			want = netip.MustParseAddr(tt.addr)
		}
		if host != tt.host || addr != want {
			t.Errorf("ParseHost(%q) = %q, %v; want %q, %v", tt.in, host, addr, tt.host, want)
		}
	}
	// Characters that would end a host in a URL are refused, not cut at:
	// "a/b" is not the host "a".
	for _, bad := range []string{"", "a/b", "a?b", "a#b", "u@a", `a\b`, "a b", "a\tb", "[::1]:80", "a:80", "1.+1", "1.2.3.4.5", "[::1"} {
		var e *Error
		if _, _, err := ParseHost(bad); !errors.As(err, &e) {
			t.Errorf("ParseHost(%q): err = %v; want an *Error", bad, err)
		}
	}
}

// TestParseEmptyQueryAndFragment: an empty query or fragment is told from
// none, as the serialization tells them.
func TestParseEmptyQueryAndFragment(t *testing.T) {
	tests := []struct {
		in                  string
		query, fragment     string
		hasQuery, hasFragmt bool
	}{
		{"http://a/", "", "", false, false},
		{"http://a/?", "", "", true, false},
		{"http://a/#", "", "", false, true},
		{"http://a/?#", "", "", true, true},
		{"http://a/#?", "", "?", false, true},
		{"http://a/??#f#", "?", "f#", true, true},
		{"http://a/%3F%23", "", "", false, false},
		{"foo://h?", "", "", true, false},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if u.Query != tt.query || u.Fragment != tt.fragment || u.HasQuery != tt.hasQuery || u.HasFragment != tt.hasFragmt {
			t.Errorf("Parse(%q): query %q %v, fragment %q %v; want %q %v, %q %v", tt.in,
				u.Query, u.HasQuery, u.Fragment, u.HasFragment, tt.query, tt.hasQuery, tt.fragment, tt.hasFragmt)
		}
	}
}

// TestGoRefusesAnotherReading: a URL whose host net/url does not read as
// the Standard does is not handed to an HTTP client.
func TestGoRefusesAnotherReading(t *testing.T) {
	u, err := Parse("http://a{b}.example/")
	if err != nil {
		t.Fatalf("the Standard accepts braces in a domain: %v", err)
	}
	if _, err := u.Go(); err == nil {
		t.Error("Go() accepted a host net/url refuses")
	}
	u, err = Parse(`http:\\127.1:8080\@example.com/x`)
	if err != nil {
		t.Fatal(err)
	}
	g, err := u.Go()
	if err != nil {
		t.Fatal(err)
	}
	if g.Hostname() != "127.0.0.1" || g.Port() != "8080" || g.EscapedPath() != "/@example.com/x" {
		t.Errorf("Go() = host %q port %q path %q", g.Hostname(), g.Port(), g.EscapedPath())
	}
}

// TestParseRef: a reference resolves as in a browser; a backslash starts
// a scheme-relative reference in a special URL.
func TestParseRef(t *testing.T) {
	for ref, want := range map[string]string{
		`\\evil.example\x`: "http://evil.example/x",
		"../d":             "http://a/d",
		"?q":               "http://a/b/c?q",
		"//h:0/":           "http://h:0/",
		"https:x":          "https://x/",
	} {
		u, err := ParseRef("http://a/b/c", ref)
		if err != nil || u.Href != want {
			t.Errorf("ParseRef(http://a/b/c, %q) = %v, %v; want %q", ref, u, err, want)
		}
	}
}

func TestParseForm(t *testing.T) {
	got := ParseForm("a+b=%2B+%20&&=&x&%E2%82%AC=%e2%82&a+b=2")
	want := map[string][]string{"a b": {"+  ", "2"}, "": {""}, "x": {""}, "€": {"\uFFFD"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ParseForm (-want +got):\n%s", d)
	}
	if got := ParseForm(""); len(got) != 0 {
		t.Errorf("ParseForm(\"\") = %v", got)
	}
}

// TestWarningsOnlyForRepairs: a trailing dot after a name is kept, not
// repaired, and carries no IPv4 warning (the library records an empty
// IPv4 part while it checks whether the name ends in a number).
func TestWarningsOnlyForRepairs(t *testing.T) {
	for _, in := range []string{"http://a./", "http://./", "https://example.com/a?b#c", "http://[::1]/", "file:///x"} {
		u, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if len(u.Warnings) != 0 {
			t.Errorf("Parse(%q) warns %v", in, u.Warnings)
		}
	}
}

// TestParseBoundsCredentials: credentials over MaxUserinfo are refused
// before the library builds them (at a cost in the square of their
// length); "@" outside the authority does not count.
func TestParseBoundsCredentials(t *testing.T) {
	for _, tt := range []struct {
		raw, base string
		ok        bool
	}{
		{"http://" + strings.Repeat("@", 8000) + "x/", "", false},
		{"http://u:" + strings.Repeat(":", 2000) + "@x/", "", false},
		{"\t http:" + strings.Repeat("/", 50) + strings.Repeat("a", MaxUserinfo+1) + "@x/", "", false},
		{"//" + strings.Repeat("@", 2000) + "x/", "http://base/", false},
		{"http://" + strings.Repeat("a", MaxUserinfo) + "@x/", "", true},
		{"http://x\\" + strings.Repeat("@", 2000), "", true},
		{"http://x/?" + strings.Repeat("@", 2000), "", true},
		{"foo://x/" + strings.Repeat("@", 2000), "", true},
		// A relative reference has credentials only after "//".
		{"/" + strings.Repeat("x", 1100) + "@y", "http://base/", true},
		{"http:" + strings.Repeat("x", 1100) + "@y", "http://base/", true},
		{"\\\\" + strings.Repeat("x", 1100) + "@y", "http://base/", false},
		{"https:" + strings.Repeat("x", 1100) + "@y", "http://base/", false},
	} {
		var err error
		if tt.base == "" {
			_, err = Parse(tt.raw)
		} else {
			_, err = ParseRef(tt.base, tt.raw)
		}
		var e *Error
		switch {
		case tt.ok && err != nil:
			t.Errorf("Parse(%.30q...): %v", tt.raw, err)
		case !tt.ok && (!errors.As(err, &e) || !strings.Contains(e.Rule, "credentials")):
			t.Errorf("Parse(%.30q...): err = %v; want credentials over the limit", tt.raw, err)
		}
	}
}

// A URL or reference over MaxLength is refused before the library reads
// it: 64 KiB of "/" in a Location header took 2.5 s of CPU.
func TestParseBoundsLength(t *testing.T) {
	for _, tt := range []struct{ raw, base string }{
		{"http://x/" + strings.Repeat("a", MaxLength), ""},
		{strings.Repeat("/", 64<<10), "http://base/"},
	} {
		var err error
		if tt.base == "" {
			_, err = Parse(tt.raw)
		} else {
			_, err = ParseRef(tt.base, tt.raw)
		}
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Rule, "over the limit of 8192") {
			t.Errorf("Parse of %d bytes: err = %v; want the length limit", len(tt.raw), err)
		}
	}
	if _, err := Parse("http://x/" + strings.Repeat("a", MaxLength-len("http://x/"))); err != nil {
		t.Errorf("a URL of exactly MaxLength: %v", err)
	}
}

// The Standard refuses an IPv6 host whose brackets do not pair; the
// library trims them all.
func TestParseRefusesUnbalancedBrackets(t *testing.T) {
	for _, raw := range []string{"http://[::1]]/", "http://[[::1]]/", "http://[[::1]/"} {
		if u, err := Parse(raw); err == nil {
			t.Errorf("Parse(%q) = %s, want an error", raw, u.Href)
		}
	}
	if u, err := Parse("http://[::1]/"); err != nil || u.Href != "http://[::1]/" {
		t.Errorf("Parse(http://[::1]/) = %v, %v", u, err)
	}
}

// A host that reads as something else only through UTS #46 mapping is
// flagged; a name in its own script, in any case, is not.
func TestHostMappedWarning(t *testing.T) {
	for raw, want := range map[string]bool{
		"http://１２７.０.０.１/":                         true, // full-width digits and dots
		"http://example。com/":                       true, // ideographic full stop
		"http://exa\u200bmple.com/":                 true, // zero-width space dropped
		"http://bü\u00adcher.de/":                   true, // soft hyphen dropped
		"http://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1/": true, // full-width, percent-encoded
		"http://ｅｘａｍｐｌｅ.com/":                       true, // full-width letters
		"http://bücher.de/":                         false,
		"http://BÜCHER.de/":                         false,
		"http://bu\u0308cher.de/":                   false, // decomposed, same name
		"http://xn--bcher-kva.de/":                  false,
		"http://москва.рф/":                         false,
		"http://EXAMPLE.com/":                       false,
		"http://127.0.0.1/":                         false,
	} {
		u, err := Parse(raw)
		if err != nil {
			t.Errorf("Parse(%q): %v", raw, err)
			continue
		}
		got := slices.ContainsFunc(u.Warnings, func(w Warning) bool { return w.Code == WarnHostMapped })
		if got != want {
			t.Errorf("Parse(%q) = host %q, warnings %v; host_mapped %t, want %t", raw, u.Host, u.Warnings, got, want)
		}
	}
}
