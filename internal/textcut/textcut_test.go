package textcut

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"abc", -1, ""},
		{"aé", 2, "a"},  // é is 2 bytes: not split
		{"aé", 3, "aé"}, // fits exactly
		{"日本", 5, "日"},
		{"日本", 0, ""},
		{"\xff\xfe", 1, "\xff"}, // invalid bytes count as characters
	}
	for _, tt := range tests {
		if got := Cut(tt.s, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestMark(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"short", 5, "short"},
		{"abcdef", 3, "abc..."},
		{"日本語", 7, "日本..."},
		{"aé€", 2, "a..."},  // é is 2 bytes: cutting at 2 would split it
		{"aé€", 4, "aé..."}, // € is 3 bytes starting at offset 3
		{"€€", 1, "..."},
	} {
		if got := Mark(tt.in, tt.n, "..."); got != tt.want || !utf8.ValidString(got) {
			t.Errorf("Mark(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestCutEveryBound(t *testing.T) {
	for _, s := range []string{"日本語 text", "a\u00e9\U0001F600b", "\xff\xfeab"} {
		for n := -1; n <= len(s)+1; n++ {
			got := Cut(s, n)
			if len(got) > max(n, 0) && got != s {
				t.Fatalf("Cut(%q, %d) = %q: longer than the bound", s, n, got)
			}
			if s[:len(got)] != got {
				t.Fatalf("Cut(%q, %d) = %q: not a prefix", s, n, got)
			}
			if utf8.ValidString(s) && !utf8.ValidString(got) {
				t.Fatalf("Cut(%q, %d) = %q: split a character", s, n, got)
			}
			if n >= 0 && n < len(s) && len(got) < n-3 {
				t.Fatalf("Cut(%q, %d) = %q: cut more than one character short", s, n, got)
			}
		}
	}
}

func TestRunes(t *testing.T) {
	tests := []struct {
		s       string
		n       int
		want    string
		mark    string // MarkRunes(s, n, "…")
		wantCut bool
	}{
		{"", 3, "", "", false},
		{"abc", 3, "abc", "abc", false},
		{"abcd", 3, "abc", "abc…", true},
		{"abc", 0, "", "…", true},
		{"abc", -1, "", "…", true},
		{"日本語", 2, "日本", "日本…", true},
		{"日本語", 3, "日本語", "日本語", false},
		{"\xff\xfeab", 2, "\xff\xfe", "\xff\xfe…", true}, // invalid bytes count one each, kept
	}
	for _, tt := range tests {
		if got := Runes(tt.s, tt.n); got != tt.want {
			t.Errorf("Runes(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
		if got := MarkRunes(tt.s, tt.n, "…"); got != tt.mark {
			t.Errorf("MarkRunes(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.mark)
		}
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"", 10, ""},
		{"  user\n\tnot   found ", 20, "user not found"},
		{"  a \n\t b  ", 3, "a b"},
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abcdef..."},
		{"ééééé", 3, "ééé..."},
		{"one two three four", 7, "one two..."},
	}
	for _, tt := range tests {
		if got := OneLine(tt.s, tt.n, "..."); got != tt.want {
			t.Errorf("OneLine(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"", 2, ""},
		{" a  b ", 2, " a  b "}, // not cut: kept as it is
		{"a  b\nc d", 2, "a b"},
		{"a b", 0, ""},
	}
	for _, tt := range tests {
		if got := Words(tt.s, tt.n); got != tt.want {
			t.Errorf("Words(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestExcerptAndQuote(t *testing.T) {
	long := strings.Repeat("é", MaxExcerpt+5)
	a := strings.Repeat("a", MaxExcerpt)
	tests := []struct{ in, excerpt, quote string }{
		{"", "", `""`},
		{"md6", "md6", `"md6"`},
		{a, a, `"` + a + `"`},
		{a + "b", a + "…", `"` + a + `"…`}, // one character over: the mark still outside the quotes
		{strings.Repeat("a", 1<<20), a + "…", `"` + a + `"…`},
		{long, strings.Repeat("é", MaxExcerpt) + "…", `"` + strings.Repeat("é", MaxExcerpt) + `"…`},
		{"a\nb", "a\nb", `"a\nb"`},
		{"\xff" + a, "\xff" + a[1:] + "…", `"\xff` + a[1:] + `…"`}, // invalid UTF-8: quoted whole
	}
	for _, tt := range tests {
		if got := Excerpt(tt.in); got != tt.excerpt {
			t.Errorf("Excerpt(%.20q...) = %.30q..., want %.30q...", tt.in, got, tt.excerpt)
		}
		if got := Quote(tt.in); got != tt.quote {
			t.Errorf("Quote(%.20q...) = %.30q..., want %.30q...", tt.in, got, tt.quote)
		}
	}
}

func ExampleQuote() {
	name := strings.Repeat("x", 1<<20) // a 1 MiB field name
	msg := "unknown field " + Quote(name)
	fmt.Println(len(msg) < 200, strings.HasSuffix(msg, `xxx"…`))
	fmt.Println(Quote("md6"))
	// Output:
	// true true
	// "md6"
}
