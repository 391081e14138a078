package email

import (
	"net/mail"
	"strings"
	"testing"
	"unicode/utf8"
)

// syntaxCases are addresses with the normalized form (valid) or the
// reason (invalid) expected under the default options.
var syntaxCases = []struct {
	in     string
	want   string // normalized address when valid
	reason Reason // when invalid
}{
	// Plain dot-atoms.
	{in: "user@example.com", want: "user@example.com"},
	{in: "a@b.co", want: "a@b.co"},
	{in: "first.last@example.com", want: "first.last@example.com"},
	{in: "first.middle.last@example.com", want: "first.middle.last@example.com"},
	{in: "user+tag@example.com", want: "user+tag@example.com"},
	{in: "user+tag+more@example.com", want: "user+tag+more@example.com"},
	{in: "user-name@example.com", want: "user-name@example.com"},
	{in: "user_name@example.com", want: "user_name@example.com"},
	{in: "u@example.com", want: "u@example.com"},
	{in: "1234567890@example.com", want: "1234567890@example.com"},
	{in: "!#$%&'*+-/=?^_`{|}~@example.com", want: "!#$%&'*+-/=?^_`{|}~@example.com"},
	{in: "o'reilly@example.com", want: "o'reilly@example.com"},
	{in: "x@sub.example.com", want: "x@sub.example.com"},
	{in: "x@a.b.c.d.e.example.com", want: "x@a.b.c.d.e.example.com"},
	{in: "x@example.museum", want: "x@example.museum"},
	{in: "x@example.co.uk", want: "x@example.co.uk"},
	{in: "x@example.technology", want: "x@example.technology"},
	{in: "x@123.example.com", want: "x@123.example.com"},
	{in: "x@example.com4", want: "x@example.com4"},
	{in: "x@a-b.example.com", want: "x@a-b.example.com"},
	{in: "x@a--b.example.com", want: "x@a--b.example.com"},
	{in: "x@a-b-c.example.com", want: "x@a-b-c.example.com"},
	{in: "x@1.2.3.example", want: "x@1.2.3.example"},
	{in: "x@example.x1", want: "x@example.x1"},
	{in: "x@e.io", want: "x@e.io"},
	{in: "x@localhost.localdomain", want: "x@localhost.localdomain"},
	{in: "x@xn--e1afmkfd.com", want: "x@пример.com"},
	// Case: domain lowercased, local part kept.
	{in: "User@Example.COM", want: "User@example.com"},
	{in: "JOHN.DOE@EXAMPLE.ORG", want: "JOHN.DOE@example.org"},
	{in: "MixedCase+Tag@Sub.Example.Net", want: "MixedCase+Tag@sub.example.net"},
	// Surrounding whitespace is ignored.
	{in: "  user@example.com  ", want: "user@example.com"},
	{in: "\tuser@example.com\n", want: "user@example.com"},
	// Quoted local parts.
	{in: `"john doe"@example.com`, want: `"john doe"@example.com`},
	{in: `"john.doe"@example.com`, want: `john.doe@example.com`},
	{in: `"user"@example.com`, want: `user@example.com`},
	{in: `"a@b"@example.com`, want: `"a@b"@example.com`},
	{in: `"a\"b"@example.com`, want: `"a\"b"@example.com`},
	{in: `"a\\b"@example.com`, want: `"a\\b"@example.com`},
	{in: `"\a"@example.com`, want: `a@example.com`},
	{in: `"a..b"@example.com`, want: `"a..b"@example.com`},
	{in: `".a"@example.com`, want: `".a"@example.com`},
	{in: `"a."@example.com`, want: `"a."@example.com`},
	{in: `"(comment)"@example.com`, want: `"(comment)"@example.com`},
	{in: `"<>[]:;,"@example.com`, want: `"<>[]:;,"@example.com`},
	{in: `""@example.com`, want: `""@example.com`},
	{in: `" "@example.com`, want: `" "@example.com`},
	{in: `"üser name"@example.com`, want: `"üser name"@example.com`},
	// Internationalized local parts (SMTPUTF8) and domains (IDNA2008).
	{in: "用户@例子.广告", want: "用户@例子.广告"},
	{in: "ñoño@example.com", want: "ñoño@example.com"},
	{in: "δοκιμή@παράδειγμα.δοκιμή", want: "δοκιμή@παράδειγμα.δοκιμή"},
	{in: "我買@屋企.香港", want: "我買@屋企.香港"},
	{in: "二ノ宮@黒川.日本", want: "二ノ宮@黒川.日本"},
	{in: "медведь@с-балалайкой.рф", want: "медведь@с-балалайкой.рф"},
	{in: "संपर्क@डाटामेल.भारत", want: "संपर्क@डाटामेल.भारत"},
	{in: "user@bücher.de", want: "user@bücher.de"},
	{in: "user@BÜCHER.de", want: "user@bücher.de"},
	{in: "user@xn--bcher-kva.de", want: "user@bücher.de"},
	{in: "user@münchen.example", want: "user@münchen.example"},
	{in: "user@faß.de", want: "user@faß.de"},
	{in: "user@ｅｘａｍｐｌｅ.com", want: "user@example.com"},
	{in: "Pelé@example.com", want: "Pelé@example.com"},
	{in: "Pele\u0301@example.com", want: "Pelé@example.com"}, // NFD input, NFC output
	{in: "user@cafe\u0301.fr", want: "user@café.fr"},
	{in: "jørgen@example.no", want: "jørgen@example.no"},
	{in: "user@例え.テスト", want: "user@例え.テスト"},
	{in: "user@한국.kr", want: "user@한국.kr"},
	{in: "user@مثال.إختبار", want: "user@مثال.إختبار"},
	{in: "emoji😀@example.com", want: "emoji😀@example.com"},
	// Lengths at the limits.
	{in: strings.Repeat("a", 64) + "@example.com", want: strings.Repeat("a", 64) + "@example.com"},
	{in: "x@" + strings.Repeat("a", 63) + ".com", want: "x@" + strings.Repeat("a", 63) + ".com"},
	{in: strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 57) + ".com", want: strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 57) + ".com"},

	// Empty and missing parts.
	{in: "", reason: ReasonEmpty},
	{in: "   ", reason: ReasonEmpty},
	{in: "\t\n", reason: ReasonEmpty},
	{in: "plainaddress", reason: ReasonMissingAt},
	{in: "user.example.com", reason: ReasonMissingAt},
	{in: "user at example.com", reason: ReasonMissingAt},
	{in: "user＠example.com", reason: ReasonMissingAt},
	{in: "@example.com", reason: ReasonLocalEmpty},
	{in: "@", reason: ReasonLocalEmpty},
	{in: "user@", reason: ReasonDomainEmpty},
	{in: "user@ ", reason: ReasonDomainEmpty},
	// More than one @.
	{in: "a@b@example.com", reason: ReasonMultipleAt},
	{in: "a@@example.com", reason: ReasonMultipleAt},
	{in: "user@example.com@", reason: ReasonDomainEmpty},
	{in: "user@@", reason: ReasonDomainEmpty},
	{in: "a@b@c@example.com", reason: ReasonMultipleAt},
	// Dots in the local part.
	{in: ".user@example.com", reason: ReasonLocalInvalidDot},
	{in: "user.@example.com", reason: ReasonLocalInvalidDot},
	{in: "us..er@example.com", reason: ReasonLocalInvalidDot},
	{in: "...@example.com", reason: ReasonLocalInvalidDot},
	{in: ".@example.com", reason: ReasonLocalInvalidDot},
	{in: "a...b@example.com", reason: ReasonLocalInvalidDot},
	// Characters not allowed unquoted.
	{in: "user name@example.com", reason: ReasonInvalidCharacter},
	{in: "user(comment)@example.com", reason: ReasonLocalInvalidChar},
	{in: "user<x>@example.com", reason: ReasonLocalInvalidChar},
	{in: "user[x]@example.com", reason: ReasonLocalInvalidChar},
	{in: "user,x@example.com", reason: ReasonLocalInvalidChar},
	{in: "user;x@example.com", reason: ReasonLocalInvalidChar},
	{in: "user:x@example.com", reason: ReasonLocalInvalidChar},
	{in: `user\x@example.com`, reason: ReasonLocalInvalidChar},
	{in: `us"er@example.com`, reason: ReasonLocalInvalidChar},
	{in: "John Doe <john@example.com>", reason: ReasonInvalidCharacter},
	{in: "<john@example.com>", reason: ReasonLocalInvalidChar},
	{in: "mailto:john@example.com", reason: ReasonLocalInvalidChar},
	{in: "user\u00a0name@example.com", reason: ReasonInvalidCharacter},
	{in: "user\u3000name@example.com", reason: ReasonInvalidCharacter},
	// Malformed quoted local parts.
	{in: `"unterminated@example.com`, reason: ReasonLocalInvalidQuoted},
	{in: `"a"b"@example.com`, reason: ReasonLocalInvalidQuoted},
	{in: `"a"."b"@example.com`, reason: ReasonLocalInvalidQuoted},
	{in: `"a\"@example.com`, reason: ReasonLocalInvalidQuoted},
	{in: `"@example.com`, reason: ReasonLocalInvalidQuoted},
	{in: `"a"x@example.com`, reason: ReasonLocalInvalidQuoted},
	{in: `x"a"@example.com`, reason: ReasonLocalInvalidChar},
	// Local part too long (65 octets; 33 two-octet runes).
	{in: strings.Repeat("a", 65) + "@example.com", reason: ReasonLocalTooLong},
	{in: strings.Repeat("é", 33) + "@example.com", reason: ReasonLocalTooLong},
	{in: `"` + strings.Repeat("a b", 22) + `"@example.com`, reason: ReasonLocalTooLong},
	// Whole address too long.
	{in: strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 58) + ".com", reason: ReasonTooLong},
	{in: strings.Repeat("a", 2000) + "@example.com", reason: ReasonTooLong},
	{in: "x@" + strings.Repeat("a.", 600) + "com", reason: ReasonTooLong},
	// Domain labels and characters.
	{in: "user@example", reason: ReasonDomainNoDot},
	{in: "user@localhost", reason: ReasonDomainNoDot},
	{in: "user@com", reason: ReasonDomainNoDot},
	{in: "user@例子", reason: ReasonDomainNoDot},
	{in: "user@.example.com", reason: ReasonDomainInvalidLabel},
	{in: "user@example.com.", reason: ReasonDomainInvalidLabel},
	{in: "user@example..com", reason: ReasonDomainInvalidLabel},
	{in: "user@.", reason: ReasonDomainInvalidLabel},
	{in: "user@..", reason: ReasonDomainInvalidLabel},
	{in: "user@example。com", want: "user@example.com"},
	{in: "user@-example.com", reason: ReasonDomainHyphen},
	{in: "user@example-.com", reason: ReasonDomainHyphen},
	{in: "user@example.-com", reason: ReasonDomainHyphen},
	{in: "user@example.com-", reason: ReasonDomainHyphen},
	{in: "user@ab--cd.example.com", reason: ReasonDomainHyphen},
	{in: "user@-.com", reason: ReasonDomainHyphen},
	{in: "user@example.123", reason: ReasonDomainNumericTLD},
	{in: "user@192.168.1.1", reason: ReasonDomainNumericTLD},
	{in: "user@1.2", reason: ReasonDomainNumericTLD},
	{in: "user@example.0", reason: ReasonDomainNumericTLD},
	{in: "user@exa_mple.com", reason: ReasonDomainInvalidChar},
	{in: "user@exa mple.com", reason: ReasonInvalidCharacter},
	{in: "user@example.com>", reason: ReasonDomainInvalidChar},
	{in: "user@example!.com", reason: ReasonDomainInvalidChar},
	{in: "user@exam/ple.com", reason: ReasonDomainInvalidChar},
	{in: "user@exam\\ple.com", reason: ReasonDomainInvalidChar},
	{in: "user@(comment)example.com", reason: ReasonDomainInvalidChar},
	{in: "user@example.com (comment)", reason: ReasonInvalidCharacter},
	{in: "user@*.example.com", reason: ReasonDomainInvalidChar},
	{in: "user@ex%ample.com", reason: ReasonDomainInvalidChar},
	{in: "user@" + strings.Repeat("a", 64) + ".com", reason: ReasonDomainLabelTooLong},
	{in: "user@" + strings.Repeat("a", 70) + ".example.com", reason: ReasonDomainLabelTooLong},
	{in: "u@" + strings.Repeat("abcdefghi.", 26) + "com", reason: ReasonDomainTooLong},
	// IDNA failures.
	{in: "user@xn--.com", reason: ReasonDomainHyphen},
	{in: "user@xn--a.com", reason: ReasonDomainIDNA},
	{in: "user@exa\u200dmple.com", reason: ReasonInvalidCharacter},
	{in: "user@☃\u0301x.com", want: "user@☃́x.com"},
	{in: "user@\u0301abc.com", reason: ReasonDomainIDNA},
	{in: "user@a\u05d0.com", reason: ReasonDomainIDNA},
	{in: "user@\u2163.com", want: "user@iv.com"},
	// Domain literals: rejected by default.
	{in: "user@[192.0.2.1]", reason: ReasonDomainLiteralNotAllowed},
	{in: "user@[IPv6:2001:db8::1]", reason: ReasonDomainLiteralNotAllowed},
	{in: "user@[ipv6:2001:db8::1]", reason: ReasonDomainLiteralNotAllowed},
	{in: "user@[2001:db8::1]", reason: ReasonDomainLiteralInvalid},
	{in: "user@[300.0.0.1]", reason: ReasonDomainLiteralInvalid},
	{in: "user@[192.0.2]", reason: ReasonDomainLiteralInvalid},
	{in: "user@[example.com]", reason: ReasonDomainLiteralInvalid},
	{in: "user@[]", reason: ReasonDomainLiteralInvalid},
	{in: "user@[192.0.2.1", reason: ReasonDomainLiteralInvalid},
	{in: "user@192.0.2.1]", reason: ReasonDomainInvalidChar},
	{in: "user@[", reason: ReasonDomainLiteralInvalid},
	// Hostile input.
	{in: "user@example.com\x00", reason: ReasonInvalidCharacter},
	{in: "us\x00er@example.com", reason: ReasonInvalidCharacter},
	{in: "user@example.com\r\nRCPT TO:<victim@example.org>", reason: ReasonInvalidCharacter},
	{in: "user\r\n@example.com", reason: ReasonInvalidCharacter},
	{in: "user@exa\nmple.com", reason: ReasonInvalidCharacter},
	{in: "user\x7f@example.com", reason: ReasonInvalidCharacter},
	{in: "user\u0085@example.com", reason: ReasonInvalidCharacter},
	{in: "user\x1b[31m@example.com", reason: ReasonInvalidCharacter},
	{in: "\xff\xfe@example.com", reason: ReasonInvalidUTF8},
	{in: "user@exam\xc3ple.com", reason: ReasonInvalidUTF8},
	{in: "user\u202e@example.com", reason: ReasonInvalidCharacter},
	{in: "user\u200b@example.com", reason: ReasonInvalidCharacter},
	{in: "user\ufeff@example.com", reason: ReasonInvalidCharacter},
	{in: "\ufeffuser@example.com", reason: ReasonInvalidCharacter},
	{in: "user\ue000@example.com", reason: ReasonInvalidCharacter},
	{in: `"a\` + "\x00" + `"@example.com`, reason: ReasonInvalidCharacter},
	{in: `"a` + "\r\n" + `"@example.com`, reason: ReasonInvalidCharacter},
	{in: "user@example.com\u2028", want: "user@example.com"},
	{in: "'; DROP TABLE users; --@example.com", reason: ReasonLocalInvalidChar},
	{in: "<script>alert(1)</script>@example.com", reason: ReasonLocalInvalidChar},
	{in: "user@<script>.com", reason: ReasonDomainInvalidChar},
	{in: "${jndi:ldap://x}@example.com", reason: ReasonLocalInvalidChar},
	{in: "user@%0d%0a.example.com", reason: ReasonDomainInvalidChar},
	{in: strings.Repeat("@", 100), reason: ReasonDomainEmpty},
	{in: strings.Repeat(".", 100) + "@example.com", reason: ReasonLocalInvalidDot},
	{in: strings.Repeat(`"`, 101) + "@example.com", reason: ReasonLocalInvalidQuoted},
	{in: strings.Repeat(`\`, 50) + "@example.com", reason: ReasonLocalInvalidChar},
	{in: "a@" + strings.Repeat("[", 50), reason: ReasonDomainLiteralInvalid},
	{in: strings.Repeat("a@", 400) + "example.com", reason: ReasonMultipleAt},
	{in: "user@" + strings.Repeat("é", 500) + ".com", reason: ReasonDomainTooLong},
	{in: "user@" + strings.Repeat("é", 600) + ".com", reason: ReasonTooLong},
	// Common typos of real addresses are still valid syntax.
	{in: "user@gmial.com", want: "user@gmial.com"},
	{in: "user@gmail.con", want: "user@gmail.con"},
	{in: "user@hotmial.com", want: "user@hotmial.com"},
	{in: "user@yahooo.com", want: "user@yahooo.com"},
	{in: "user@outlok.com", want: "user@outlok.com"},
	// More valid shapes servers accept.
	{in: "a.b-c_d+e@f-g.h-i.jk", want: "a.b-c_d+e@f-g.h-i.jk"},
	{in: "x@x.x", want: "x@x.x"},
	{in: "_@example.com", want: "_@example.com"},
	{in: "-@example.com", want: "-@example.com"},
	{in: "+@example.com", want: "+@example.com"},
	{in: "~@example.com", want: "~@example.com"},
	{in: "a=b@example.com", want: "a=b@example.com"},
	{in: "a?b@example.com", want: "a?b@example.com"},
	{in: "a/b@example.com", want: "a/b@example.com"},
	{in: "a{b}@example.com", want: "a{b}@example.com"},
	{in: "a|b@example.com", want: "a|b@example.com"},
	{in: "postmaster@example.com", want: "postmaster@example.com"},
	{in: "x@xn--ls8h.la", want: "x@💩.la"},
	{in: "x@EXAMPLE.CoM", want: "x@example.com"},
	{in: "x@sub-domain.example-site.com", want: "x@sub-domain.example-site.com"},
	{in: "x@0.example.com", want: "x@0.example.com"},
	{in: "x@example.a1b2", want: "x@example.a1b2"},
	{in: "x@x--y.example.com", want: "x@x--y.example.com"},
	{in: "x@x.example.museum", want: "x@x.example.museum"},
	{in: "disposable.style.email.with+symbol@example.com", want: "disposable.style.email.with+symbol@example.com"},
	{in: "other.email-with-hyphen@example.com", want: "other.email-with-hyphen@example.com"},
	{in: "fully-qualified-domain@example.com", want: "fully-qualified-domain@example.com"},
	{in: "user.name+tag+sorting@example.com", want: "user.name+tag+sorting@example.com"},
	{in: "example-indeed@strange-example.com", want: "example-indeed@strange-example.com"},
	{in: "test/test@test.com", want: "test/test@test.com"},
	{in: `" "@example.org`, want: `" "@example.org`},
	{in: `"john..doe"@example.org`, want: `"john..doe"@example.org`},
	{in: "mailhost!username@example.org", want: "mailhost!username@example.org"},
	{in: "user%example.com@example.org", want: "user%example.com@example.org"},
	{in: "user-@example.org", want: "user-@example.org"},
	// Classic invalid examples.
	{in: "Abc.example.com", reason: ReasonMissingAt},
	{in: "A@b@c@example.com", reason: ReasonMultipleAt},
	{in: `a"b(c)d,e:f;g<h>i[j\k]l@example.com`, reason: ReasonLocalInvalidChar},
	{in: `just"not"right@example.com`, reason: ReasonLocalInvalidChar},
	{in: `this is"not\allowed@example.com`, reason: ReasonInvalidCharacter},
	{in: `this\ still\"not\\allowed@example.com`, reason: ReasonLocalInvalidChar},
	{in: "i.like.underscores@but_they_are_not_allowed_in_this_part", reason: ReasonDomainInvalidChar},
	{in: "QA[icon]CHOCOLATE[icon]@test.com", reason: ReasonLocalInvalidChar},
	{in: "john.doe@example..com", reason: ReasonDomainInvalidLabel},
	{in: "john..doe@example.com", reason: ReasonLocalInvalidDot},
}

func TestParseTable(t *testing.T) {
	if len(syntaxCases) < 200 {
		t.Fatalf("only %d cases", len(syntaxCases))
	}
	for _, tt := range syntaxCases {
		a, reason := Parse(tt.in, SyntaxOptions{})
		switch {
		case tt.want != "" && reason != "":
			t.Errorf("Parse(%q): reason %q, want valid %q", tt.in, reason, tt.want)
		case tt.want != "" && a.String() != tt.want:
			t.Errorf("Parse(%q) = %q, want %q", tt.in, a.String(), tt.want)
		case tt.want == "" && reason != tt.reason:
			t.Errorf("Parse(%q): reason %q, want %q (got address %q)", tt.in, reason, tt.reason, a.String())
		}
		if reason != "" && reason.Message() == "" {
			t.Errorf("reason %q has no message", reason)
		}
	}
}

func TestParseDetails(t *testing.T) {
	a, _ := Parse("用户@例子.广告", SyntaxOptions{})
	if !a.SMTPUTF8 || a.ASCIIDomain != "xn--fsqu00a.xn--4rr70v" {
		t.Errorf("got %+v (%s); want SMTPUTF8 and the A-label domain", a, a.ASCIIDomain)
	}
	a, _ = Parse("user@bücher.de", SyntaxOptions{})
	if a.SMTPUTF8 || a.ASCIIDomain != "xn--bcher-kva.de" {
		t.Errorf("got %+v; an IDN domain alone does not need SMTPUTF8", a)
	}
	if _, r := Parse("ñ@example.com", SyntaxOptions{ASCIIOnly: true}); r != ReasonLocalNotASCII {
		t.Errorf("ASCIIOnly: reason %q", r)
	}
	for _, tt := range []struct {
		in, want string
		opts     SyntaxOptions
	}{
		{"user@[192.0.2.1]", "user@[192.0.2.1]", SyntaxOptions{AllowIPv4Literal: true}},
		{"user@[IPv6:2001:DB8:0:0::1]", "user@[IPv6:2001:db8::1]", SyntaxOptions{AllowIPv6Literal: true}},
		{"user@[ipv6:::1]", "user@[IPv6:::1]", SyntaxOptions{AllowIPv6Literal: true}},
	} {
		a, r := Parse(tt.in, tt.opts)
		if r != "" || a.String() != tt.want || !a.Literal {
			t.Errorf("Parse(%q, %+v) = %q, %q; want %q", tt.in, tt.opts, a.String(), r, tt.want)
		}
	}
	for _, tt := range []struct {
		in   string
		opts SyntaxOptions
		want Reason
	}{
		{"user@[IPv6:2001:db8::1]", SyntaxOptions{AllowIPv4Literal: true}, ReasonDomainLiteralNotAllowed},
		{"user@[192.0.2.1]", SyntaxOptions{AllowIPv6Literal: true}, ReasonDomainLiteralNotAllowed},
		{"user@[IPv6:192.0.2.1]", SyntaxOptions{AllowIPv6Literal: true}, ReasonDomainLiteralInvalid},
		{"user@[IPv6:::ffff:192.0.2.1]", SyntaxOptions{AllowIPv6Literal: true}, ReasonDomainLiteralInvalid},
		{"user@[IPv6:fe80::1%eth0]", SyntaxOptions{AllowIPv6Literal: true}, ReasonDomainLiteralInvalid},
		{"user@[192.0.2.01]", SyntaxOptions{AllowIPv4Literal: true}, ReasonDomainLiteralInvalid},
		{"user@[IPv6:2001:db8::1]", SyntaxOptions{}, ReasonDomainLiteralNotAllowed},
	} {
		if _, r := Parse(tt.in, tt.opts); r != tt.want {
			t.Errorf("Parse(%q, %+v): reason %q, want %q", tt.in, tt.opts, r, tt.want)
		}
	}
}

func TestReasonsDocumented(t *testing.T) {
	rs := Reasons()
	if len(rs) != len(reasonMessages) {
		t.Fatalf("%d reasons", len(rs))
	}
	for _, r := range rs {
		if r.Message() == "" || strings.ToLower(string(r)) != string(r) {
			t.Errorf("reason %q: message %q", r, r.Message())
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, tt := range syntaxCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		a, reason := Parse(in, SyntaxOptions{AllowIPv4Literal: true, AllowIPv6Literal: true})
		if reason != "" {
			if reason.Message() == "" {
				t.Fatalf("undocumented reason %q", reason)
			}
			return
		}
		s := a.String()
		if !utf8.ValidString(s) || len(a.Local) > 64 || len(a.Local)+1+len(a.ASCIIDomain) > 254 {
			t.Fatalf("Parse(%q) = %q breaks a limit", in, s)
		}
		if strings.ContainsAny(s, "\r\n\x00") {
			t.Fatalf("Parse(%q) = %q contains a control character", in, s)
		}
		// Normalization is idempotent.
		b, r2 := Parse(s, SyntaxOptions{AllowIPv4Literal: true, AllowIPv6Literal: true})
		if r2 != "" || b != a {
			t.Fatalf("Parse(Parse(%q) = %q) = %+v, %q; want the same address", in, s, b, r2)
		}
	})
}

var benchAddrs = []string{
	"user@example.com", "first.last+tag@sub.example.co.uk", `"john doe"@example.com`,
	"USER@EXAMPLE.ORG", "a@b.io", "very.long.local.part.with.dots@mail.example-company.com",
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range benchAddrs {
			Parse(a, SyntaxOptions{})
		}
	}
}

func BenchmarkNetMailParseAddress(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range benchAddrs {
			mail.ParseAddress(a)
		}
	}
}

func BenchmarkParseIDN(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Parse("用户@例子.广告", SyntaxOptions{})
	}
}
