package safehttp

import (
	"errors"
	"strings"
	"testing"
)

// hostCases are hosts in the spellings SSRF payloads use: IPv4 number
// forms, IPv6, IDN, percent-encoding, trailing dots.
var hostCases = []string{
	// IPv4 number forms.
	"127.0.0.1", "2130706433", "0x7f000001", "0X7F000001", "0x7f.1", "0x7f.0.0.1", "0177.0.0.1", "0177.1",
	"017700000001", "127.1", "127.0.1", "0x7f.0x0.0x0.0x1", "0", "0x", "0x0", "00", "1.2.3.4.", "127.0.0.1.",
	"4294967295", "4294967296", "1.2.3.256", "1.2.3.4.5", "1.2.3.4..", "256.0.0.1", "0x100.0.0.1", "1.0x1000000",
	"09.1.1.1", "08", "0x1g.1", "999999999999", "1.2.3.09", "１２７.０.０.１", "127。0。0。1", "0x７f.1",
	"1.+1", "1.-1", "+1", "0x+7f", "1.2.3.4a", "a.1", "1.a", "1.0x", "0xffffffff", "0xffffffff.", "1e1",
	// IPv6.
	"[::1]", "::1", "[::]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[2001:DB8::1]",
	"[::1", "[1::2::3]", "[::127.0.0.01]", "[fe80::1%25eth0]", "[::1.2.3]", "[1:2:3:4:5:6:7:8:9]",
	// IDN and case.
	"example.com", "EXAMPLE.com", "Bücher.de", "BÜCHER.DE", "xn--bcher-kva.de", "faß.de", "日本.jp",
	"ＥＸＡＭＰＬＥ.com", "a_b.example.com", "xn--a.com", "xn--.com", "-a.com", "a-.com", "ab--c.com",
	"a\u200db.com", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629.com", "a\u0663b.com",
	// Percent-encoded hosts.
	"%31%32%37.0.0.1", "%37%66.0.0.1", "ex%61mple.com", "%65xample.com", "%zz.com", "%", "a%2eb", "%2e",
	"b%C3%BCcher.de", "%ff.com", "a%20b.com", "a%2fb.com", "%5b::1%5d",
	// Trailing dots and labels.
	"example.com.", "example.com..", ".example.com", "a..b", "localhost", "LOCALHOST", "localhost.",
	"a.localhost", "a.localhost.", ".", "..",
	// Forbidden code points.
	"exa mple.com", "a<b", "a^b", "a|b", "a\x00b", "a\x7fb", "a:b", "a@b", "a#b", "a\\b", "a/b", "a?b",
	"a!b.com", "a*b.com", "a{b}.com", "a~b.com",
}

// refDisagree lists the hosts on which the hand-written parser and the
// URL Standard library differ, and why the library's reading is the one
// kept.
var refDisagree = map[string]string{
	"-a.com":                            "the Standard does not check hyphens; browsers accept -a.com, the reference refused it",
	"a-.com":                            "as -a.com",
	"ab--c.com":                         "as -a.com",
	"1.+1":                              "the Standard reads a domain (a part with a sign is not a number), the library reads 1.0.0.1: weburl refuses it rather than differ from browsers",
	"+1":                                "as 1.+1",
	"0x+7f":                             "as 1.+1",
	"[fe80::1%25eth0]":                  "the Standard has no IPv6 zone identifiers; the reference let netip accept one",
	"0X0000000000000000000000000000000": "a number part has no length limit in the Standard (0.0.0.0, refused as unspecified); the reference read a part over 20 digits as a name",
	"0000000000000000000000000000001.1": "as above: 0.0.0.1, not a name",
}

// longNumberPart reports whether a label of name is a number by the
// Standard's IPv4 number parser (decimal, 0 octal, 0x hex) with more than
// 20 digits: the reference's "part too long" read such a host as a name
// (a FuzzHostParsersAgree finding, kept as a seed).
func longNumberPart(name string) bool {
	for l := range strings.SplitSeq(strings.TrimSuffix(name, "."), ".") {
		digits, set := l, "0123456789"
		if strings.HasPrefix(strings.ToLower(l), "0x") {
			digits, set = l[2:], "0123456789abcdefABCDEF"
		}
		if len(digits) > 20 && strings.Trim(digits, set) == "" {
			return true
		}
	}
	return false
}

// TestHostParsersAgree: the host parser safehttp checks with (the URL
// Standard's, through internal/weburl) reads every host of the table as
// the hand-written parser it replaced did, except the listed cases.
func TestHostParsersAgree(t *testing.T) {
	for _, h := range hostCases {
		got, gotErr := ParseHost(h)
		ref, refErr := refParseHost(h)
		same := (gotErr == nil) == (refErr == nil) && got == ref &&
			errors.Is(gotErr, ErrDestinationNotAllowed) == errors.Is(refErr, ErrDestinationNotAllowed)
		if why, ok := refDisagree[h]; ok {
			if same {
				t.Errorf("%q: listed as a disagreement (%s), but both read %q, %v", h, why, got, gotErr)
			}
			continue
		}
		if !same {
			t.Errorf("%q: library %q, %v; reference %q, %v", h, got, gotErr, ref, refErr)
		}
	}
}

// FuzzHostParsersAgree: wherever the library's host parser or the
// hand-written one it replaced reads an IP address, the other reads the
// same address or refuses the host. An address read as a name (or as
// another address) by one of them is the parser differential an SSRF
// check must not have.
func FuzzHostParsersAgree(f *testing.F) {
	for _, h := range hostCases {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) {
		got, gotErr := ParseHost(h)
		ref, refErr := refParseHost(h)
		if gotErr != nil || refErr != nil {
			return
		}
		if got.IsIP() && !ref.IsIP() && longNumberPart(ref.Name) {
			return // the reference's bug, listed in refDisagree
		}
		if (got.IsIP() || ref.IsIP()) && got.Addr != ref.Addr {
			t.Fatalf("%q: library reads %q, the hand-written parser %q", h, got, ref)
		}
	})
}
