package photosocial

import (
	"errors"
	"testing"
)

// Known pairs: posts whose URL shortcode and numeric media ID (pk) are
// both public, as the private API and instaloader-style clients report them.
var shortcodePairs = []struct{ code, id string }{
	{"B1LbfVPlwIA", "2110901750722920960"},
	{"BnGVSUvFfTM", "1857265514529027276"},
	{"CWvxAY7B0ci", "2715604631366879010"},
	{"B", "1"},
	{"BA", "64"},
	{"_", "63"},
	{"H__________", "9223372036854775807"}, // the largest int64
}

func TestShortcodeToMediaID(t *testing.T) {
	for _, p := range shortcodePairs {
		got, err := ShortcodeToMediaID(p.code)
		if err != nil || got != p.id {
			t.Errorf("ShortcodeToMediaID(%q) = %q, %v; want %q", p.code, got, err, p.id)
		}
	}
}

func TestMediaIDToShortcode(t *testing.T) {
	for _, p := range shortcodePairs {
		got, err := MediaIDToShortcode(p.id)
		if err != nil || got != p.code {
			t.Errorf("MediaIDToShortcode(%q) = %q, %v; want %q", p.id, got, err, p.code)
		}
	}
	// The private API's "<media>_<user>" form.
	got, err := MediaIDToShortcode("2110901750722920960_25025320")
	if err != nil || got != "B1LbfVPlwIA" {
		t.Errorf("with user suffix: %q, %v", got, err)
	}
}

func TestShortcodeErrors(t *testing.T) {
	for _, code := range []string{"", "CK1J+HqFVOy", "CK1J/qFVOy", "ÄB", "AAAAAAAAAAAA", "__________-"} {
		if _, err := ShortcodeToMediaID(code); !errors.Is(err, ErrInvalidShortcode) {
			t.Errorf("ShortcodeToMediaID(%q) error = %v, want ErrInvalidShortcode", code, err)
		}
	}
	for _, id := range []string{"", "abc", "-1", "+5", "_12", "18446744073709551616", "1.5"} {
		if _, err := MediaIDToShortcode(id); !errors.Is(err, ErrInvalidMediaID) {
			t.Errorf("MediaIDToShortcode(%q) error = %v, want ErrInvalidMediaID", id, err)
		}
	}
}

func FuzzShortcodeRoundTrip(f *testing.F) {
	for _, p := range shortcodePairs {
		f.Add(p.code)
	}
	f.Fuzz(func(t *testing.T, code string) {
		id, err := ShortcodeToMediaID(code)
		if err != nil {
			return
		}
		back, err := MediaIDToShortcode(id)
		if err != nil {
			t.Fatalf("MediaIDToShortcode(%q): %v", id, err)
		}
		// Leading "A"s are zero digits: the round trip drops them.
		if again, _ := ShortcodeToMediaID(back); again != id {
			t.Fatalf("%q -> %q -> %q -> %q", code, id, back, again)
		}
	})
}

func BenchmarkShortcodeToMediaID(b *testing.B) {
	for b.Loop() {
		ShortcodeToMediaID("CK1JqHqFVOy")
	}
}
