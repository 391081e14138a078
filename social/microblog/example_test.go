package microblog_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/quiverkit/quiver/social/microblog"
)

// An export of tweets in JSON Lines, analysed offline with the file
// provider.
func Example() {
	export := `{"id":"1","text":"Loving the new #golang release!","created_at":"2026-03-01T09:00:00Z","author":{"id":"7","username":"ana","display_name":"Ana"},"metrics":{"like_count":12,"retweet_count":3}}
{"id":"2","text":"The #golang upgrade broke our CI, awful day","created_at":"2026-03-01T10:30:00Z","author":{"id":"8","username":"bo","display_name":"Bo"},"metrics":{"like_count":2,"reply_count":4}}`
	p, err := microblog.ReadFile("export", strings.NewReader(export))
	if err != nil {
		panic(err)
	}
	mb := microblog.New(p)
	res, err := mb.SearchInsights(context.Background(), microblog.SearchRequest{Query: "#golang"})
	if err != nil {
		panic(err)
	}
	for _, t := range res.Tweets {
		fmt.Println(t.CreatedAt, "@"+t.Author.Username, t.URL)
	}
	fmt.Println("engagement:", res.TotalEngagement, "average:", res.AverageEngagement)
	fmt.Println("top hashtag:", res.TopHashtags[0].Value, res.TopHashtags[0].Count)
	for _, s := range res.Sentiment.PerTweet {
		fmt.Println("tweet", s.TweetID, s.Label)
	}
	// Output:
	// Sun Mar 01 10:30:00 +0000 2026 @bo https://x.com/bo/status/2
	// Sun Mar 01 09:00:00 +0000 2026 @ana https://x.com/ana/status/1
	// engagement: 21 average: 10.5
	// top hashtag: #golang 2
	// tweet 2 negative
	// tweet 1 positive
}

// A thread rendered as numbered text.
func ExampleThreadText() {
	thread := []microblog.Tweet{{Text: "Three lessons from on-call."}, {Text: "1. Alerts need owners."}}
	fmt.Println(microblog.ThreadText(thread, 0, 2))
	// Output:
	// 1/2 Three lessons from on-call.
	//
	// 2/2 1. Alerts need owners.
}
