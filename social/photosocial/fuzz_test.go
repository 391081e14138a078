package photosocial

import (
	"context"
	"strings"
	"testing"
)

func FuzzNewFile(f *testing.F) {
	b, _ := sampleFS.ReadFile("sampledata/sample.jsonl")
	f.Add(string(b))
	f.Add(`{"kind":"media","id":"1","owner":{"username":"a"},"taken_at":1700000000}`)
	f.Add(`{"kind":"comment","id":"1","shortcode":"B"}`)
	f.Fuzz(func(t *testing.T, data string) {
		p, err := NewFile(FileConfig{Reader: strings.NewReader(data)})
		if err != nil {
			return
		}
		c := mustClient(Config{Provider: p})
		ctx := context.Background()
		for user := range p.profiles {
			c.Posts(ctx, PostsRequest{Username: user})
		}
		c.Search(ctx, SearchRequest{Query: "a"})
		c.Search(ctx, SearchRequest{Query: "a", Type: "hashtag"})
	})
}

func FuzzParseShortcode(f *testing.F) {
	for _, s := range []string{"B1LbfVPlwIA", "https://www.instagram.com/reel/B1LbfVPlwIA/", "instagram.com/p/x", "http://[::1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sc, ok := parseShortcode(s)
		if ok && (sc == "" || strings.ContainsAny(sc, "/?#")) {
			t.Fatalf("parseShortcode(%q) = %q", s, sc)
		}
	})
}

func FuzzComputeCommentFacts(f *testing.F) {
	f.Add("Best in town! Do you ship?", "best in town 😍 http://x.io")
	f.Fuzz(func(t *testing.T, a, b string) {
		facts := ComputeCommentFacts([]Comment{{ID: "1", Text: a}, {ID: "2", Text: b}})
		if facts.CommentsAnalyzed != 2 || len(facts.PerComment) != 2 {
			t.Fatalf("facts %+v", facts)
		}
		if m := facts.Sentiment.MeanCompound; m < -1 || m > 1 {
			t.Fatalf("mean compound %v", m)
		}
		for _, s := range []string{a, b} {
			extractTags(s, '#')
			extractTags(s, '@')
		}
	})
}
