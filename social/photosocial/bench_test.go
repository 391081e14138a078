package photosocial

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// bigShortcodeToMediaID is the math/big conversion that many clients use:
// the peer our uint64 conversion is measured against.
func bigShortcodeToMediaID(code string) string {
	n := new(big.Int)
	b64 := big.NewInt(64)
	for i := 0; i < len(code); i++ {
		n.Mul(n, b64)
		n.Add(n, big.NewInt(int64(shortcodeDigit[code[i]])))
	}
	return n.String()
}

func TestBigPeerAgrees(t *testing.T) {
	for _, p := range shortcodePairs {
		if got := bigShortcodeToMediaID(p.code); got != p.id {
			t.Errorf("peer %s = %s, want %s", p.code, got, p.id)
		}
	}
}

func BenchmarkShortcodeToMediaIDBig(b *testing.B) {
	for b.Loop() {
		bigShortcodeToMediaID("B1LbfVPlwIA")
	}
}

func BenchmarkMediaIDToShortcode(b *testing.B) {
	for b.Loop() {
		MediaIDToShortcode("2110901750722920960")
	}
}

func sampleComments(n int) []Comment {
	texts := []string{
		"Cardamom buns all the way!! Best in town 😍", "Do you have gluten free options?",
		"Prices went up again... 4.50 for a bun is too much", "Get 10k followers FREE at bit.ly/free",
		"The rye loaf was dry last time, disappointed", "best in town, no question",
	}
	cs := make([]Comment, n)
	for i := range cs {
		cs[i] = Comment{ID: fmt.Sprint(i), Text: texts[i%len(texts)]}
	}
	return cs
}

// BenchmarkComputeCommentFacts measures the facts of one comment-insights
// call at its maximum size (100 comments).
func BenchmarkComputeCommentFacts(b *testing.B) {
	cs := sampleComments(100)
	for b.Loop() {
		ComputeCommentFacts(cs)
	}
}

// BenchmarkComputeProfileFacts measures the facts of 50 media, the
// maximum media_limit.
func BenchmarkComputeProfileFacts(b *testing.B) {
	c := mustClient(Config{Provider: Sample()})
	l, _ := c.Posts(context.Background(), PostsRequest{Username: "sample.bakery", Limit: 100})
	var ms []Media
	for len(ms) < 50 {
		ms = append(ms, l.Media...)
	}
	ms = ms[:50]
	p := Profile{FollowersCount: 48210}
	for b.Loop() {
		ComputeProfileFacts(p, ms)
	}
}

// repeatedComments is the worst case of the repeated-phrase pass: n
// comments in pairs that share a text of words distinct words, so every
// 2- and 3-word phrase of the text repeats once.
func repeatedComments(n, words int) []Comment {
	cs := make([]Comment, n)
	for i := range cs {
		ws := make([]string, words)
		for j := range ws {
			ws[j] = fmt.Sprintf("p%dw%d", i/2, j)
		}
		cs[i] = Comment{ID: fmt.Sprint(i), Text: strings.Join(ws, " ")}
	}
	return cs
}

// BenchmarkComputeCommentFactsRepeated measures 100 comments in 50 pairs
// of 100-word texts: about 10,000 repeated phrases.
func BenchmarkComputeCommentFactsRepeated(b *testing.B) {
	cs := repeatedComments(100, 100)
	for b.Loop() {
		ComputeCommentFacts(cs)
	}
}
