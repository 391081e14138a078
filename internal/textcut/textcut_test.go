package textcut

import (
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
	if got := Mark("short", 10, "..."); got != "short" {
		t.Errorf("uncut text got a mark: %q", got)
	}
	if got := Mark("日本語", 7, "..."); got != "日本..." {
		t.Errorf("Mark = %q", got)
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
