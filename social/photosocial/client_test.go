package photosocial

import (
	"context"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/envelope"
)

func TestValidation(t *testing.T) {
	c := newClient(Sample())
	ctx := context.Background()
	tests := []struct {
		name  string
		call  func() error
		field string
		issue string
	}{
		{"username required", func() error { _, err := c.Profile(ctx, ProfileRequest{Username: " @ "}); return err }, "username", "is required"},
		{"username chars", func() error { _, err := c.Profile(ctx, ProfileRequest{Username: "a b"}); return err }, "username", "letters"},
		{"limit above 100", func() error { _, err := c.Posts(ctx, PostsRequest{Username: "x", Limit: 101}); return err }, "limit", "between 1 and 100"},
		{"negative limit", func() error { _, err := c.Reels(ctx, ReelsRequest{Username: "x", Limit: -1}); return err }, "limit", "between 1 and 100"},
		{"cursor too long", func() error {
			_, err := c.Posts(ctx, PostsRequest{Username: "x", Cursor: strings.Repeat("a", 3000)})
			return err
		}, "cursor", "at most"},
		{"media needs a key", func() error { _, err := c.Media(ctx, MediaRequest{}); return err }, "shortcode", "is required when media_id is not given"},
		{"bad shortcode", func() error { _, err := c.Media(ctx, MediaRequest{Shortcode: "ab+c"}); return err }, "shortcode", "code of a post URL"},
		{"bad media id", func() error { _, err := c.Comments(ctx, CommentsRequest{MediaID: "12x"}); return err }, "media_id", "decimal digits"},
		{"hashtag required", func() error { _, err := c.HashtagSearch(ctx, HashtagRequest{Hashtag: "#"}); return err }, "hashtag", "is required"},
		{"hashtag sort", func() error {
			_, err := c.HashtagSearch(ctx, HashtagRequest{Hashtag: "x", Sort: "old"})
			return err
		}, "sort", "top or recent"},
		{"search query required", func() error { _, err := c.Search(ctx, SearchRequest{}); return err }, "query", "is required"},
		{"place search", func() error { _, err := c.Search(ctx, SearchRequest{Query: "paris", Type: "place"}); return err }, "type", "the upstream provider does not support place search"},
		{"search type", func() error { _, err := c.Search(ctx, SearchRequest{Query: "x", Type: "video"}); return err }, "type", "profile, hashtag or place"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := wantCode(t, tt.call(), envelope.CodeInvalidRequest)
			if len(e.Details) == 0 || e.Details[0].Field != tt.field || !strings.Contains(e.Details[0].Issue, tt.issue) {
				t.Errorf("details = %+v, want %s: ...%s...", e.Details, tt.field, tt.issue)
			}
		})
	}
}

func TestNoProvider(t *testing.T) {
	var c Client
	_, err := c.Profile(context.Background(), ProfileRequest{Username: "x"})
	e := wantCode(t, err, envelope.CodeServiceUnavailable)
	if !strings.Contains(e.Message, "configure a data provider") {
		t.Errorf("message %q does not say how to configure a provider", e.Message)
	}
	// Validation comes first: a bad request is 400 even without a provider.
	_, err = c.Posts(context.Background(), PostsRequest{})
	wantCode(t, err, envelope.CodeInvalidRequest)
}

func TestShortcodeFromURLAndShortcodePreferred(t *testing.T) {
	c := newClient(Sample())
	all, _ := c.Posts(context.Background(), PostsRequest{Username: "sample.bakery", Limit: 2})
	want := all.Media[1]
	for _, sc := range []string{want.Shortcode, "https://www.instagram.com/p/" + want.Shortcode + "/", "instagram.com/reel/" + want.Shortcode} {
		if !strings.Contains(sc, "://") && strings.Contains(sc, "/") {
			sc = "https://" + sc
		}
		// The media_id names another post: the shortcode wins.
		m, err := c.Media(context.Background(), MediaRequest{Shortcode: sc, MediaID: all.Media[0].ID})
		if err != nil || m.ID != want.ID {
			t.Errorf("Media(%q) = %s, %v; want %s", sc, m.ID, err, want.ID)
		}
	}
}

func TestExtractTagsAndTimes(t *testing.T) {
	got := extractTags("Hi @anna.b and @Leo_ #Café #café #2025 email a@b.c #end.", '#')
	if strings.Join(got, ",") != "café,2025,end" {
		t.Errorf("hashtags = %v", got)
	}
	got = extractTags("Hi @anna.b and @Leo_ x@y.z", '@')
	if strings.Join(got, ",") != "anna.b,leo_" {
		t.Errorf("mentions = %v", got)
	}
	for in, want := range map[any]string{
		float64(1760000000):         "2025-10-09T08:53:20Z",
		"1760000000":                "2025-10-09T08:53:20Z",
		"2025-10-14T16:20:05+0000":  "2025-10-14T16:20:05Z",
		"2025-10-20T10:00:00.000Z":  "2025-10-20T10:00:00Z",
		"2025-10-20T12:00:00+02:00": "2025-10-20T10:00:00Z",
		"yesterday":                 "",
		nil:                         "",
	} {
		if got := parseTime(in); got != want {
			t.Errorf("parseTime(%v) = %q, want %q", in, got, want)
		}
	}
}
