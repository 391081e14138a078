package microblog_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
)

// exampleExport is a small JSON Lines export for the File provider.
const exampleExport = `{"id":"1","text":"Loving the new #golang release!","created_at":"2026-03-01T09:00:00Z","author":{"id":"7","username":"ana","display_name":"Ana","followers_count":1200},"metrics":{"like_count":12,"retweet_count":3}}
{"id":"2","text":"The #golang upgrade broke our CI, awful day","created_at":"2026-03-01T10:30:00Z","author":{"id":"8","username":"bo","display_name":"Bo"},"metrics":{"like_count":2,"reply_count":4}}
{"id":"3","text":"@ana which release notes did you read?","created_at":"2026-03-01T11:00:00Z","author":{"id":"8","username":"bo"},"conversation_id":"1","in_reply_to_id":"1","in_reply_to_user_id":"7","metrics":{"like_count":1}}`

// exampleClient returns a Client over the twitterapi.io replay server,
// with a fixed clock; stop closes the server.
func exampleClient() (mb *microblog.Client, stop func()) {
	srv, err := microblogtest.NewTwitterAPIIO("test-key")
	if err != nil {
		panic(err)
	}
	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "test-key", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	mb, err = microblog.New(microblog.Config{Provider: p, Now: func() time.Time { return time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC) }})
	if err != nil {
		panic(err)
	}
	return mb, srv.Close
}

// An export of tweets in JSON Lines, analysed offline with the File
// provider.
func Example() {
	p, err := microblog.NewFile(microblog.FileConfig{Name: "export", Reader: strings.NewReader(exampleExport)})
	if err != nil {
		panic(err)
	}
	mb, err := microblog.New(microblog.Config{Provider: p})
	if err != nil {
		panic(err)
	}
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

// A Client without a provider answers SERVICE_UNAVAILABLE, saying how to
// configure one.
func ExampleNew() {
	mb, err := microblog.New(microblog.Config{})
	if err != nil {
		panic(err)
	}
	_, err = mb.Profile(context.Background(), microblog.ProfileRequest{Username: "golang"})
	fmt.Println(strings.SplitN(err.Error(), ":", 2)[0])
	// Output:
	// SERVICE_UNAVAILABLE
}

func ExampleNewTwitterAPIIO() {
	srv, err := microblogtest.NewTwitterAPIIO("test-key")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "test-key", BaseURL: srv.URL, Timeout: 5 * time.Second})
	if err != nil {
		panic(err)
	}
	prof, err := p.Profile(context.Background(), microblogtest.Username)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Name(), prof.Username, prof.DisplayName)

	// The key is redacted when the config is printed, and required.
	fmt.Printf("%+v\n", microblog.TwitterAPIIOConfig{APIKey: "test-key"})
	_, err = microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{})
	fmt.Println(errors.Is(err, microblog.ErrInvalidConfig))
	// Output:
	// twitterapi.io ana_dev Ana Torres
	// {APIKey:[redacted] BaseURL: HTTPClient:<nil> MaxResponseBytes:0 Timeout:0s Metrics:<nil>}
	// true
}

func ExampleNewXAPI() {
	srv, err := microblogtest.NewXAPI("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	p, err := microblog.NewXAPI(microblog.XAPIConfig{Token: "test-token", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	mb, err := microblog.New(microblog.Config{Provider: p})
	if err != nil {
		panic(err)
	}
	t, err := mb.Tweet(context.Background(), microblog.TweetRequest{TweetID: microblogtest.RootID})
	if err != nil {
		panic(err)
	}
	fmt.Println(t.DataSource, "@"+t.Author.Username, t.Metrics.LikeCount)
	// Output:
	// x-api-v2 @ana_dev 420
}

// A local export is a drop-in replacement for an HTTP provider: both are
// a Provider built from a config.
func ExampleNewFile() {
	p, err := microblog.NewFile(microblog.FileConfig{Name: "file:export.jsonl", Reader: strings.NewReader(exampleExport)})
	if err != nil {
		panic(err)
	}
	mb, err := microblog.New(microblog.Config{Provider: p})
	if err != nil {
		panic(err)
	}
	l, err := mb.UserTweets(context.Background(), microblog.UserTweetsRequest{Username: "@bo", IncludeReplies: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(l.DataSource, l.ResultCount)
	for _, t := range l.Tweets {
		fmt.Println(t.ID, t.IsReply(), t.Text)
	}
	// Output:
	// file:export.jsonl 2
	// 3 true @ana which release notes did you read?
	// 2 false The #golang upgrade broke our CI, awful day
}

func ExampleClient_Profile() {
	mb, stop := exampleClient()
	defer stop()
	p, err := mb.Profile(context.Background(), microblog.ProfileRequest{Username: "@" + microblogtest.Username})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Username, p.DisplayName, p.Verified, p.FollowersCount, p.URL)
	fmt.Println(p.DataSource, p.AsOf)
	// Output:
	// ana_dev Ana Torres true 5400 https://x.com/ana_dev
	// twitterapi.io 2026-03-10T12:00:00Z
}

func ExampleClient_UserTweets() {
	mb, stop := exampleClient()
	defer stop()
	l, err := mb.UserTweets(context.Background(), microblog.UserTweetsRequest{Username: microblogtest.Username, Limit: 2})
	if err != nil {
		panic(err)
	}
	for _, t := range l.Tweets {
		fmt.Println(t.ID, t.Metrics.Engagement())
	}
	fmt.Println("more:", l.PageInfo.HasNextPage)
	// Output:
	// 1899000000000000003 192
	// 1899000000000000001 46
	// more: true
}

func ExampleClient_Search() {
	mb, stop := exampleClient()
	defer stop()
	l, err := mb.Search(context.Background(), microblog.SearchRequest{Query: "acme cloud", Limit: 3})
	if err != nil {
		panic(err)
	}
	for _, t := range l.Tweets {
		fmt.Println("@"+t.Author.Username, t.Text)
	}
	// Output:
	// @bo_ops @acmecloud our API has been down for two hours and support has no response. Unacceptable.
	// @ana_dev Moved staging to Acme Cloud, the deploy experience is excellent. Highly recommend #devex
}

func ExampleClient_SearchInsights() {
	mb, stop := exampleClient()
	defer stop()
	res, err := mb.SearchInsights(context.Background(), microblog.SearchRequest{Query: "acme cloud"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.ResultCount, "tweets, engagement", res.TotalEngagement)
	fmt.Println("sentiment:", res.Sentiment.Label, res.Sentiment.MeanCompound)
	fmt.Println("top author:", res.TopAuthors[0].Username)
	// Output:
	// 2 tweets, engagement 575
	// sentiment: positive 0.6063
	// top author: ana_dev
}

func ExampleClient_BrandMentions() {
	mb, stop := exampleClient()
	defer stop()
	bm, err := mb.BrandMentions(context.Background(), microblog.BrandMentionsRequest{Brand: "acme cloud", ExcludeKeywords: []string{"hiring"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(bm.Query)
	fmt.Println(bm.MentionCount, "mentions:", bm.Sentiment.Positive, "positive,", bm.Sentiment.Negative, "negative")
	if len(bm.TopComplaints) > 0 {
		fmt.Println("top complaint by @"+bm.TopComplaints[0].Username, bm.TopComplaints[0].Cues)
	}
	// Output:
	// ("acme cloud" OR @acmecloud) -hiring
	// 2 mentions: 2 positive, 0 negative
	// top complaint by @bo_ops [no response unacceptable]
}

func ExampleClient_ProfileInsights() {
	mb, stop := exampleClient()
	defer stop()
	pi, err := mb.ProfileInsights(context.Background(), microblog.ProfileInsightsRequest{Username: microblogtest.Username, TweetLimit: 10})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(pi.RecentTweets), "tweets, average engagement", pi.AverageEngagement)
	fmt.Printf("engagement score %.4f%%\n", *pi.EngagementScore)
	fmt.Println("posting:", pi.PostingStyle.TweetsPerDay, "a day, active hours", pi.PostingStyle.ActiveHoursUTC)
	// Output:
	// 4 tweets, average engagement 144
	// engagement score 2.6667%
	// posting: 0.68 a day, active hours [8 9 11]
}

func ExampleClient_Tweet() {
	mb, stop := exampleClient()
	defer stop()
	t, err := mb.Tweet(context.Background(), microblog.TweetRequest{TweetID: microblogtest.RootID})
	if err != nil {
		panic(err)
	}
	fmt.Println(t.URL)
	fmt.Println(t.CreatedAt, t.Text)
	_, err = mb.Tweet(context.Background(), microblog.TweetRequest{TweetID: microblogtest.MissingID})
	fmt.Println(err)
	// Output:
	// https://x.com/ana_dev/status/1896000000000000001
	// Mon Mar 02 09:00:00 +0000 2026 How we cut our p99 latency in half with three boring changes. A thread 🧵
	// NOT_FOUND: tweet 1000000000000000001 not found
}

func ExampleClient_Replies() {
	mb, stop := exampleClient()
	defer stop()
	l, err := mb.Replies(context.Background(), microblog.RepliesRequest{TweetID: microblogtest.RootID, Sort: microblog.SortLikes, Limit: 3})
	if err != nil {
		panic(err)
	}
	for _, t := range l.Tweets {
		fmt.Println(t.Metrics.LikeCount, "@"+t.Author.Username)
	}
	// Output:
	// 60 @bo_ops
	// 25 @bo_ops
	// 4 @bo_ops
}

func ExampleClient_ConversationInsights() {
	mb, stop := exampleClient()
	defer stop()
	ci, err := mb.ConversationInsights(context.Background(), microblog.ConversationInsightsRequest{TweetID: microblogtest.RootID})
	if err != nil {
		panic(err)
	}
	fmt.Println(ci.SampledReplyCount, "replies; controversy", ci.ControversyScore)
	for _, q := range ci.TopQuestions {
		fmt.Println("question:", q.Text)
	}
	// Output:
	// 3 replies; controversy 0.4361
	// question: @ana_dev Did you use pgbouncer or the driver's built-in pool?
}

func ExampleClient_Thread() {
	mb, stop := exampleClient()
	defer stop()
	th, err := mb.Thread(context.Background(), microblog.ThreadRequest{TweetID: microblogtest.MiddleID, Format: microblog.FormatText, Limit: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(th.ThreadLength, "tweets in the thread")
	fmt.Println(th.Text)
	// Output:
	// 4 tweets in the thread
	// 1/4 How we cut our p99 latency in half with three boring changes. A thread 🧵
	//
	// 2/4 1. Pool sized to the cores.
}

// The analyses are pure functions: they run on tweets from anywhere.
func ExampleAnalyzeTweets() {
	tweets := []microblog.Tweet{
		{ID: "1", Text: "Great talk on #golang generics by @ana", Author: microblog.Author{Username: "bo"}, Metrics: microblog.Metrics{LikeCount: 10, RetweetCount: 2}},
		{ID: "2", Text: "The #golang meetup venue was terrible", Author: microblog.Author{Username: "cy"}, Metrics: microblog.Metrics{LikeCount: 1}},
	}
	a := microblog.AnalyzeTweets(tweets)
	fmt.Println("engagement", a.TotalEngagement, "average", a.AverageEngagement)
	fmt.Println("sentiment", a.Sentiment.Label, a.Sentiment.MeanCompound, a.Sentiment.Positive, a.Sentiment.Negative)
	fmt.Println("top", a.TopHashtags, a.TopMentions)
	// Output:
	// engagement 13 average 6.5
	// sentiment positive 0.0741 1 1
	// top [{#golang 2}] [{@ana 1}]
}

func ExampleAnalyzeBrand() {
	tweets := []microblog.Tweet{
		{ID: "1", Text: "Acme support still waiting on my refund", Author: microblog.Author{Username: "bo", Followers: 300}, Metrics: microblog.Metrics{LikeCount: 8, ReplyCount: 2}},
		{ID: "2", Text: "Love the new Acme dashboard, thank you!", Author: microblog.Author{Username: "cy", Followers: 90}, Metrics: microblog.Metrics{LikeCount: 3}},
		{ID: "3", Text: "Acme is hiring engineers", Author: microblog.Author{Username: "acme", Followers: 5000}},
	}
	mentions := microblog.FilterMentions(tweets, "acme", nil, []string{"hiring"})
	a := microblog.AnalyzeBrand(mentions)
	fmt.Println(microblog.BrandQuery("acme", nil, []string{"hiring"}))
	fmt.Println(a.MentionCount, "mentions")
	fmt.Println("complaint:", a.TopComplaints[0].ID, a.TopComplaints[0].Cues)
	fmt.Println("praise:", a.TopPraise[0].ID, a.TopPraise[0].Cues)
	// Output:
	// (acme OR @acme) -hiring
	// 2 mentions
	// complaint: 1 [refund still waiting]
	// praise: 2 [love thank you]
}

func ExampleAnalyzeProfile() {
	at := func(h int) time.Time { return time.Date(2026, 3, 2, h, 0, 0, 0, time.UTC) }
	tweets := []microblog.Tweet{
		{ID: "1", Text: "Shipping the #postgres queue today", Time: at(9), Metrics: microblog.Metrics{LikeCount: 40, ReplyCount: 5}},
		{ID: "2", Text: "Why is the queue slow? https://example.com/post", Time: at(9), Metrics: microblog.Metrics{LikeCount: 10}},
		{ID: "3", Text: "Queue benchmarks are in", Time: at(15), Metrics: microblog.Metrics{LikeCount: 22, RetweetCount: 3}},
	}
	a := microblog.AnalyzeProfile(2000, tweets)
	fmt.Println("average likes", a.AverageLikes, "engagement", a.AverageEngagement)
	fmt.Println("engagement score", *a.EngagementScore)
	fmt.Println("topics", a.CommonTopics[:2], "active hours", a.PostingStyle.ActiveHoursUTC)
	fmt.Println("links", a.PostingStyle.LinkShare, "questions", a.PostingStyle.QuestionShare)
	// Output:
	// average likes 24 engagement 26.6667
	// engagement score 1.3333
	// topics [{queue 3} {benchmarks 1}] active hours [9 15]
	// links 0.3333 questions 0.3333
}

func ExampleAnalyzeConversation() {
	original := microblog.Tweet{ID: "1", Text: "Tabs are better than spaces.", Metrics: microblog.Metrics{LikeCount: 3, ReplyCount: 4}}
	replies := []microblog.Tweet{
		{ID: "2", Text: "Totally agree, love it", Metrics: microblog.Metrics{LikeCount: 5}},
		{ID: "3", Text: "I disagree, this is terrible advice", Metrics: microblog.Metrics{LikeCount: 4}},
		{ID: "4", Text: "What about mixed indentation?", Metrics: microblog.Metrics{LikeCount: 2}},
	}
	a := microblog.AnalyzeConversation(original, replies)
	fmt.Println("sentiment", a.Sentiment.Positive, "positive,", a.Sentiment.Negative, "negative")
	fmt.Println("question:", a.TopQuestions[0].ID, "objection:", a.TopObjections[0].ID)
	fmt.Println("controversy", a.ControversyScore)
	// Output:
	// sentiment 1 positive, 1 negative
	// question: 4 objection: 3
	// controversy 0.8
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

// ThreadChain keeps the author's replies to themselves, from the root.
func ExampleThreadChain() {
	root := microblog.Tweet{ID: "1", Text: "A thread on backups", Author: microblog.Author{ID: "7", Username: "ana"}}
	conversation := []microblog.Tweet{
		{ID: "2", Text: "First, test restores.", Author: microblog.Author{ID: "7", Username: "ana"}, InReplyToID: "1", InReplyToUserID: "7"},
		{ID: "3", Text: "Nice thread!", Author: microblog.Author{ID: "8", Username: "bo"}, InReplyToID: "1", InReplyToUserID: "7"},
	}
	for _, t := range microblog.ThreadChain(root, conversation) {
		fmt.Println(t.ID, t.Text)
	}
	// Output:
	// 1 A thread on backups
	// 2 First, test restores.
}

// A thread rendered as a Markdown document linking each tweet.
func ExampleThreadMarkdown() {
	ana := microblog.Author{ID: "7", Username: "ana"}
	thread := []microblog.Tweet{
		{ID: "1", Text: "A thread on backups", Author: ana, URL: "https://x.com/ana/status/1"},
		{ID: "2", Text: "First, test restores.", Author: ana, URL: "https://x.com/ana/status/2"},
	}
	fmt.Print(microblog.ThreadMarkdown(thread, 0, len(thread)))
	// Output:
	// # Thread by ana ([@ana](https://x.com/ana))
	//
	// > A thread on backups
	//
	// [1/2](https://x.com/ana/status/1)
	//
	// > First, test restores.
	//
	// [2/2](https://x.com/ana/status/2)
}

// BrandQuery is the search that brand mentions sends to the provider.
func ExampleBrandQuery() {
	fmt.Println(microblog.BrandQuery("acme cloud", []string{"refund", "support"}, []string{"job"}))
	// Output:
	// ("acme cloud" OR @acmecloud) (refund OR support) -job
}

// FilterMentions keeps what the search matched loosely but the brand
// really is in: as words, an @handle or a #hashtag.
func ExampleFilterMentions() {
	tweets := []microblog.Tweet{
		{ID: "1", Text: "@acmecloud refund please"},
		{ID: "2", Text: "acme cloud support was quick"},
		{ID: "3", Text: "acmecloudy weather today"},
		{ID: "4", Text: "Acme Cloud is hiring"},
	}
	for _, t := range microblog.FilterMentions(tweets, "acme cloud", nil, []string{"hiring"}) {
		fmt.Println(t.ID, t.Text)
	}
	// Output:
	// 1 @acmecloud refund please
	// 2 acme cloud support was quick
}

// twitterapi.io reports some errors in a 200; an HTTP cache in front of
// it keeps only the answers this rule calls successful.
func ExampleTwitterAPIIOSucceeded() {
	for _, body := range []string{
		`{"status":"success","data":{"id":"1"}}`,
		`{"tweets":[],"has_next_page":false}`,
		`{"status":"error","msg":"Too many requests"}`,
		`not json`,
	} {
		fmt.Println(microblog.TwitterAPIIOSucceeded([]byte(body)))
	}
	// Output:
	// true
	// true
	// false
	// false
}

func ExampleSearchTypes() {
	fmt.Println(microblog.SearchTypes())
	// Output: [latest top]
}

func ExampleReplySorts() {
	fmt.Println(microblog.ReplySorts())
	// Output: [relevance latest likes]
}

func ExampleThreadFormats() {
	fmt.Println(microblog.ThreadFormats())
	// Output: [json text markdown]
}
