package microblog

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/quiverkit/quiver/internal/upstream"
)

func TestParseTime(t *testing.T) {
	want := time.Date(2018, 10, 10, 20, 19, 24, 0, time.UTC)
	for _, s := range []string{
		"Wed Oct 10 20:19:24 +0000 2018",
		"2018-10-10T20:19:24.000Z",
		"2018-10-10T20:19:24Z",
		"2018-10-10T22:19:24+02:00",
		"2018-10-10T20:19:24.123456789Z",
		"2018-10-10 20:19:24",
	} {
		got := parseTime(s)
		if !got.Truncate(time.Second).Equal(want) {
			t.Errorf("parseTime(%q) = %v", s, got)
		}
		if f := formatCreatedAt(got); f != "Wed Oct 10 20:19:24 +0000 2018" {
			t.Errorf("formatCreatedAt(%q) = %q", s, f)
		}
	}
	if !parseTime("yesterday").IsZero() || formatCreatedAt(time.Time{}) != "" {
		t.Error("unparseable dates must give the zero time and an empty created_at")
	}
}

func TestEntities(t *testing.T) {
	text := "RT @Gopher: see https://go.dev/x#frag and #GoLang #1 a@b.c &#39; #café_2 @toolonghandle_1234567 (@ok)"
	if got := strings.Join(mentions(text), " "); got != "@gopher @ok" {
		t.Errorf("mentions = %s", got)
	}
	if got := strings.Join(hashtags(text), " "); got != "#golang #café_2" {
		t.Errorf("hashtags = %s", got)
	}
	if !hasLink(text) || hasLink("no links, http: alone") {
		t.Error("hasLink")
	}
	if got := strip("Love #Go at @x https://y.z !", true); got != "Love  Go at     !" {
		t.Errorf("strip = %q", got)
	}
}

func FuzzScanEntities(f *testing.F) {
	for _, s := range []string{"@a #b https://c", "#", "@", "x@y", "héllo #ünï @_", "https://"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		last := 0
		scanEntities(text, func(kind byte, s, e int) {
			if s < last || e <= s || e > len(text) {
				t.Fatalf("bad range %d..%d after %d in %q", s, e, last, text)
			}
			last = e
		})
		if utf8.ValidString(text) && !utf8.ValidString(strip(text, true)) {
			t.Fatalf("strip broke UTF-8 of %q", text)
		}
	})
}

func FuzzNewFile(f *testing.F) {
	f.Add(`{"id":"1","text":"hi #go","created_at":"2024-01-01T00:00:00Z","author":{"username":"a"}}`)
	f.Add(`{"type":"profile","username":"a","followers_count":3}`)
	f.Add("// comment\n\n{\"id\":\"2\",\"author\":{\"username\":\"b\"},\"in_reply_to_id\":\"1\"}")
	f.Fuzz(func(t *testing.T, data string) {
		p, err := NewFile(FileConfig{Name: "fuzz", Reader: strings.NewReader(data)})
		if err != nil {
			return
		}
		q := compileQuery(data)
		for _, tw := range p.tweets {
			q.match(tw)
		}
	})
}

// The documented defaults are the ones the upstream client applies when
// a config leaves them at 0.
func TestDocumentedDefaultsAreApplied(t *testing.T) {
	if DefaultTimeout != upstream.DefaultTimeout || DefaultMaxResponseBytes != upstream.DefaultMaxBytes {
		t.Errorf("DefaultTimeout %v, DefaultMaxResponseBytes %d; upstream applies %v and %d",
			DefaultTimeout, DefaultMaxResponseBytes, upstream.DefaultTimeout, upstream.DefaultMaxBytes)
	}
}
