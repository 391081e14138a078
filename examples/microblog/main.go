// Command microblog runs Quiver's microblog insights offline on a JSON
// Lines export: by default the sample data shipped next to it (fictional
// accounts and tweets).
//
//	go run ./examples/microblog
//	go run ./examples/microblog -file my-export.jsonl -user someone -brand "some brand"
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/quiverkit/quiver/social"
	"github.com/quiverkit/quiver/social/microblog"
)

func main() {
	_, self, _, _ := runtime.Caller(0)
	file := flag.String("file", filepath.Join(filepath.Dir(self), "data", "sample.jsonl"), "JSON Lines export to analyse")
	user := flag.String("user", "ana_dev", "username for profile insights")
	brand := flag.String("brand", "acme cloud", "brand for brand mentions")
	thread := flag.String("thread", "1001", "tweet ID of a thread to render")
	conv := flag.String("conversation", "2008", "tweet ID for conversation insights")
	flag.Parse()

	p, err := microblog.NewFile(microblog.FileConfig{Paths: []string{*file}})
	if err != nil {
		log.Fatal(err)
	}
	// A fixed clock keeps the output reproducible.
	mb, err := microblog.New(microblog.Config{Provider: p, Now: func() time.Time { return time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC) }})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	out := os.Stdout

	pi, err := mb.ProfileInsights(ctx, microblog.ProfileInsightsRequest{Username: "@" + *user, IncludeReplies: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(out, "== Profile insights for @%s (%s, %d followers)\n", pi.Profile.Username, pi.DataSource, pi.Profile.FollowersCount)
	fmt.Fprintf(out, "tweets analysed: %d, average engagement %.1f", len(pi.RecentTweets), pi.AverageEngagement)
	if pi.EngagementScore != nil {
		fmt.Fprintf(out, ", engagement score %.2f%%", *pi.EngagementScore)
	}
	fmt.Fprintf(out, "\nposting: %.2f tweets/day, active hours (UTC) %v, thread share %.2f, link share %.2f\n",
		pi.PostingStyle.TweetsPerDay, pi.PostingStyle.ActiveHoursUTC, pi.PostingStyle.ThreadShare, pi.PostingStyle.LinkShare)
	fmt.Fprintf(out, "topics: %s\n", counts(pi.CommonTopics, 6))
	for _, t := range pi.BestPerformingTweets[:min(3, len(pi.BestPerformingTweets))] {
		fmt.Fprintf(out, "  best: %4d  %s\n", t.Engagement, short(t.Text))
	}

	bm, err := mb.BrandMentions(ctx, microblog.BrandMentionsRequest{Brand: *brand, ExcludeKeywords: []string{"hiring"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(out, "\n== Brand mentions of %q (query %s)\n", bm.Brand, bm.Query)
	fmt.Fprintf(out, "mentions: %d, sentiment %s (%+.3f): %d positive, %d neutral, %d negative\n",
		bm.MentionCount, bm.Sentiment.Label, bm.Sentiment.MeanCompound, bm.Sentiment.Positive, bm.Sentiment.Neutral, bm.Sentiment.Negative)
	for _, t := range bm.TopComplaints {
		fmt.Fprintf(out, "  complaint @%-11s %s\n", t.Username, short(t.Text))
	}
	for _, t := range bm.TopPraise {
		fmt.Fprintf(out, "  praise    @%-11s %s\n", t.Username, short(t.Text))
	}

	ci, err := mb.ConversationInsights(ctx, microblog.ConversationInsightsRequest{TweetID: *conv})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(out, "\n== Conversation insights for %s\n", ci.OriginalTweet.URL)
	fmt.Fprintf(out, "replies sampled: %d, sentiment %s, controversy %.3f\n", ci.SampledReplyCount, ci.Sentiment.Label, ci.ControversyScore)
	for _, t := range ci.TopQuestions {
		fmt.Fprintf(out, "  question  %s\n", short(t.Text))
	}
	for _, t := range ci.TopObjections {
		fmt.Fprintf(out, "  objection %s\n", short(t.Text))
	}

	th, err := mb.Thread(ctx, microblog.ThreadRequest{TweetID: *thread, Format: microblog.FormatText})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(out, "\n== Thread %s (%d tweets)\n%s\n", *thread, th.ThreadLength, th.Text)
}

func counts(cs []social.Count, n int) string {
	var parts []string
	for _, c := range cs[:min(n, len(cs))] {
		parts = append(parts, fmt.Sprintf("%s (%d)", c.Value, c.Count))
	}
	return strings.Join(parts, ", ")
}

func short(s string) string {
	if r := []rune(s); len(r) > 70 {
		return string(r[:69]) + "…"
	}
	return s
}
