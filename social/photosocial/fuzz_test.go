package photosocial

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
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

// FuzzApifyCursor: decoding never panics, accepts only the canonical
// form encode writes, and accepts nothing under another scope or key.
func FuzzApifyCursor(f *testing.F) {
	k := newCursorKey("token")
	f.Add(k.encode("media\x00posts\x00a", apifyCursor{dataset: "nwDataset00000001", offset: 12, skip: 0}))
	f.Add(k.encode("comments\x00B", apifyCursor{dataset: "ds0", offset: 3, skip: 2}))
	f.Add("apify:ds0:01:0:AAAAAAAAAAAAAAAAAAAAAA")
	f.Add("apify:4")
	f.Add("apify:a:b:c:d:e")
	f.Fuzz(func(t *testing.T, s string) {
		for _, scope := range []string{"media\x00posts\x00a", "comments\x00B"} {
			c, err := k.decode(scope, s)
			if err != nil {
				continue
			}
			if got := k.encode(scope, c); got != s {
				t.Fatalf("decode(%q) = %+v, which encodes as %q", s, c, got)
			}
			if _, err := newCursorKey("other").decode(scope, s); err == nil {
				t.Fatalf("%q verifies under another key", s)
			}
			if !apifyIDRE.MatchString(c.dataset) || c.offset > maxCursorOffset || c.skip > maxCursorOffset {
				t.Fatalf("decode(%q) = %+v, out of bounds", s, c)
			}
		}
	})
}

// FuzzApifyPage: any dataset page (a JSON array of anything) gives at
// most limit outputs of each kind, and a next cursor that decodes to a
// later position, without panicking.
func FuzzApifyPage(f *testing.F) {
	// Small seeds: the fuzzer minimizes what it finds, which is slow on
	// large inputs.
	for _, name := range []string{"comments.json", "search_user.json", "search_hashtag.json", "no_items.json"} {
		b, _ := os.ReadFile("photosocialtest/fixtures/apify/" + name)
		f.Add(b, 2, 1, 10)
	}
	f.Add([]byte(`[{"error":"boom"},{"id":5},{},null,[],"x",{"id":"1","replies":[{"id":"2"},{"id":"3"}]}]`), 1, 1, -1)
	f.Add([]byte(`[{"id":"1","shortCode":"B","type":"Video","productType":"clips","timestamp":"2025-10-20T10:00:00.000Z","childPosts":[{"id":"2","type":"Video"}]},{"id":"3","type":"Sidecar","timestamp":1700000000}]`), 1, 0, 2)
	a := &Apify{cursors: newCursorKey("token"), log: slog.New(slog.DiscardHandler)}
	f.Fuzz(func(t *testing.T, data []byte, limit, skip, total int) {
		var items []json.RawMessage
		if json.Unmarshal(data, &items) != nil {
			return
		}
		limit = 1 + int(uint(limit)%MaxLimit)
		if len(items) > limit {
			items = items[:limit]
		}
		p := apifyPage{scope: "s", at: apifyCursor{dataset: "ds0", offset: 5, skip: int(uint(skip) % 4)}, items: items, total: max(total, -1), asked: limit}
		if _, err := screen(items, "x"); err != nil {
			return
		}
		check := func(n int, next string) {
			if n > limit {
				t.Fatalf("%d outputs for limit %d", n, limit)
			}
			if next == "" {
				return
			}
			c, err := a.cursors.decode("s", next)
			if err != nil || c.dataset != "ds0" || c.offset < p.at.offset || (c.offset == p.at.offset && c.skip <= p.at.skip) {
				t.Fatalf("next %q = %+v, %v after %+v", next, c, err, p.at)
			}
		}
		mg, _ := decodeGroups(items, func(post apifyPost) []Media { return []Media{post.normalize()} })
		ms, next := cut(p, a, mg, limit)
		check(len(ms), next)
		cg, _ := decodeGroups(items, func(c apifyComment) []Comment {
			out := []Comment{c.normalize("")}
			for _, r := range c.Replies {
				out = append(out, r.normalize(c.ID))
			}
			return out
		})
		cs, next := cut(p, a, cg, limit)
		check(len(cs), next)
		sg, _ := decodeGroups(items, func(h apifyHashtag) []SearchResult { return []SearchResult{{Type: "hashtag"}} })
		rs, next := cut(p, a, sg, limit)
		check(len(rs), next)
	})
}
