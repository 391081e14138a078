package photosocial_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/social/photosocial/photosocialtest"
)

// sampleClient returns a Client over the bundled sample dataset.
func sampleClient() *photosocial.Client {
	c, err := photosocial.New(photosocial.Config{Provider: photosocial.Sample()})
	if err != nil {
		panic(err)
	}
	return c
}

// scriptedModel returns model settings over an llmtest server that
// answers each call with the next reply; stop closes the server.
func scriptedModel(replies ...llmtest.Reply) (cfg llm.Config, stop func()) {
	srv, err := llmtest.New(llmtest.OpenAI, replies...)
	if err != nil {
		panic(err)
	}
	model, err := srv.Model("gpt-4o-mini")
	if err != nil {
		panic(err)
	}
	return llm.Config{Model: model, Name: "gpt-4o-mini"}, srv.Close
}

func ExampleNew() {
	c, err := photosocial.New(photosocial.Config{Provider: photosocial.Sample(), LLM: llm.Config{Timeout: 30 * time.Second}})
	if err != nil {
		panic(err)
	}
	p, err := c.Profile(context.Background(), photosocial.ProfileRequest{Username: "@sample.bakery"})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Username, p.FollowersCount, p.Source)

	// Without a model the insights operations say how to configure one.
	_, _, err = c.ProfileInsights(context.Background(), photosocial.ProfileInsightsRequest{Username: "sample.bakery"})
	fmt.Println(err != nil)
	// Output:
	// sample.bakery 48210 file
	// true
}

func ExampleNewGraph() {
	srv, err := photosocialtest.NewGraph("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "test-token", UserID: photosocialtest.GraphUserID, BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	p, err := g.Profile(context.Background(), photosocialtest.Username)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Name(), p.Username, p.FullName, p.FollowersCount)

	// The token is redacted when the config is printed.
	fmt.Printf("%+v\n", photosocial.GraphConfig{Token: "test-token", UserID: "17841405309211844"})
	// Output:
	// instagram_graph northwind.coffee Northwind Coffee Roasters 267793
	// {Token:[redacted] UserID:17841405309211844 BaseURL: APIVersion: HTTPClient:<nil> MaxResponseBytes:0 Timeout:0s Metrics:<nil>}
}

func ExampleNewApify() {
	srv, err := photosocialtest.NewApify("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	a, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "test-token", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	c, err := photosocial.New(photosocial.Config{Provider: a})
	if err != nil {
		panic(err)
	}
	m, err := c.Media(context.Background(), photosocial.MediaRequest{Shortcode: photosocialtest.Shortcode})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Source, m.Shortcode, m.Owner.Username, m.LikeCount)

	// The token is redacted when the config is printed, and required.
	fmt.Printf("%+v\n", photosocial.ApifyConfig{Token: "test-token"})
	_, err = photosocial.NewApify(photosocial.ApifyConfig{})
	fmt.Println(errors.Is(err, photosocial.ErrInvalidConfig))
	// Output:
	// apify DAreBwfYYAA northwind.coffee 100
	// {Token:[redacted] Actor: BaseURL: HTTPClient:<nil> MaxResponseBytes:0 Timeout:0s RunItems:0 Metrics:<nil> Logger:<nil>}
	// true
}

// A local export is a drop-in replacement for an HTTP provider.
func ExampleNewFile() {
	f, err := photosocial.NewFile(photosocial.FileConfig{Paths: []string{"sampledata/sample.jsonl"}})
	if err != nil {
		panic(err)
	}
	c, err := photosocial.New(photosocial.Config{Provider: f})
	if err != nil {
		panic(err)
	}
	s, err := c.Search(context.Background(), photosocial.SearchRequest{Query: "sample", Limit: 3})
	if err != nil {
		panic(err)
	}
	for _, r := range s.Results {
		fmt.Println(r.Profile.Username)
	}
	// Output:
	// sample.bakery
	// sample.trailrunner
	// sample.bakery.fans
}

func ExampleSample() {
	p, err := photosocial.Sample().Profile(context.Background(), "sample.trailrunner")
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Username, p.FullName)
	// Output:
	// sample.trailrunner Sample Trail Runner (sample data)
}

func ExampleClient_Profile() {
	p, err := sampleClient().Profile(context.Background(), photosocial.ProfileRequest{Username: "@Sample.Bakery"})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Username, p.FullName, p.MediaCount, p.IsVerified)
	// Output:
	// sample.bakery Sample Bakery (sample data) 14 true
}

func ExampleClient_Posts() {
	page, err := sampleClient().Posts(context.Background(), photosocial.PostsRequest{Username: "@sample.bakery", Limit: 3})
	if err != nil {
		panic(err)
	}
	for _, m := range page.Media {
		fmt.Println(m.Type, m.LikeCount+m.CommentCount, m.Hashtags)
	}
	fmt.Println("next:", page.PageInfo.NextCursor)
	// Output:
	// image 931 []
	// reel 6475 [bakingtips sourdough reels]
	// image 585 []
	// next: file:3
}

func ExampleClient_Reels() {
	page, err := sampleClient().Reels(context.Background(), photosocial.ReelsRequest{Username: "sample.bakery", Limit: 2})
	if err != nil {
		panic(err)
	}
	for _, m := range page.Media {
		fmt.Println(m.Type, m.ViewCount, m.Shortcode)
	}
	// Output:
	// reel 98000 C-9XsG7MYbv
	// reel 131000 C-9WkPzRMOA
}

func ExampleClient_Media() {
	c := sampleClient()
	m, err := c.Media(context.Background(), photosocial.MediaRequest{Shortcode: "https://www.instagram.com/p/C-9VcYrWAAR/"})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.ID, m.Type, m.Owner.Username, m.CommentCount)
	// Output:
	// 3440000000000000017 image sample.bakery 96
}

func ExampleClient_Comments() {
	l, err := sampleClient().Comments(context.Background(), photosocial.CommentsRequest{Shortcode: "C-9V5IU6efX", Limit: 3})
	if err != nil {
		panic(err)
	}
	for _, cm := range l.Comments {
		fmt.Println("@"+cm.Owner.Username, cm.Text)
	}
	fmt.Println("more:", l.PageInfo.HasNextPage)
	// Output:
	// @anna.sample Cardamom buns all the way!! Best in town 😍
	// @mike_sample Do you have gluten free options?
	// @sara.sample Are the eclairs available on Sunday?
	// more: true
}

func ExampleClient_HashtagSearch() {
	l, err := sampleClient().HashtagSearch(context.Background(), photosocial.HashtagRequest{Hashtag: "#sourdough", Sort: "recent", Limit: 2})
	if err != nil {
		panic(err)
	}
	for _, m := range l.Media {
		fmt.Println(m.Owner.Username, m.Hashtags)
	}
	// Output:
	// sample.bakery [bakingtips sourdough reels]
	// sample.bakery [sourdough seasonal autumn bakery local fresh handmade]
}

func ExampleClient_Search() {
	s, err := sampleClient().Search(context.Background(), photosocial.SearchRequest{Query: "#bak", Type: "hashtag"})
	if err != nil {
		panic(err)
	}
	for _, r := range s.Results {
		fmt.Println(r.Hashtag.Name, r.Hashtag.MediaCount)
	}
	// Output:
	// bakery 4
	// bakinglife 1
	// bakingtips 1
}

// The model answers in JSON; the facts are computed in Go before it is
// asked, and evidence IDs it makes up are dropped.
func ExampleClient_ProfileInsights() {
	model, stop := scriptedModel(llmtest.Reply{Content: `{"content_themes":[{"name":"Bread","description":"sourdough and how it is made","evidence_ids":["not-a-post"]}],
	 "posting_summary":"Every two or three days, mornings.",
	 "engagement_drivers":[{"title":"Reels","detail":"reels draw the most engagement","evidence_ids":[]}],
	 "strengths":[],"opportunities":[],"evidence":[],"confidence":0.6,"limitations":[]}`, PromptTokens: 1200, CompletionTokens: 150})
	defer stop()
	c, err := photosocial.New(photosocial.Config{Provider: photosocial.Sample(), LLM: model})
	if err != nil {
		panic(err)
	}
	res, ai, err := c.ProfileInsights(context.Background(), photosocial.ProfileInsightsRequest{Username: "sample.bakery", AnalysisGoal: "sell more bread"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Facts.MediaAnalyzed, "posts, engagement rate", res.Facts.EngagementRate)
	fmt.Println(res.ContentThemes[0].Name, res.ContentThemes[0].EvidenceIDs)
	fmt.Println(res.PostingPatterns.Summary, res.Confidence)
	fmt.Printf("%s: %d+%d tokens, $%.6f\n", ai.Model, ai.PromptTokens, ai.CompletionTokens, ai.CostUSD)
	// Output:
	// 12 posts, engagement rate 0.06351
	// Bread []
	// Every two or three days, mornings. 0.6
	// gpt-4o-mini: 1200+150 tokens, $0.000270
}

func ExampleClient_CommentInsights() {
	model, stop := scriptedModel(llmtest.Reply{Content: `{"sentiment_summary":"Warm, with some price pushback.",
	 "recurring_topics":[],"objections":[],"moderation_flags":[],"evidence":[],"confidence":0.7,"limitations":[]}`})
	defer stop()
	c, err := photosocial.New(photosocial.Config{Provider: photosocial.Sample(), LLM: model})
	if err != nil {
		panic(err)
	}
	res, _, err := c.CommentInsights(context.Background(), photosocial.CommentInsightsRequest{Shortcode: "C-9V5IU6efX"})
	if err != nil {
		panic(err)
	}
	s := res.AggregateSentiment
	fmt.Println(res.Facts.CommentsAnalyzed, "comments:", s.Label, s.MeanCompound, s.Positive, s.Neutral, s.Negative)
	fmt.Println(s.Summary)
	fmt.Println(len(res.Questions), "questions;", len(res.ModerationFlags), "flags")
	// Output:
	// 16 comments: positive 0.305 9 5 2
	// Warm, with some price pushback.
	// 4 questions; 4 flags
}

func ExampleShortcodeToMediaID() {
	id, _ := photosocial.ShortcodeToMediaID("B1LbfVPlwIA")
	fmt.Println(id)
	// Output: 2110901750722920960
}

func ExampleMediaIDToShortcode() {
	code, _ := photosocial.MediaIDToShortcode("2110901750722920960_25025320")
	fmt.Println(code)
	// Output: B1LbfVPlwIA
}

func ExampleComputeProfileFacts() {
	at := func(d int) string { return time.Date(2026, 3, d, 9, 0, 0, 0, time.UTC).Format(time.RFC3339) }
	media := []photosocial.Media{
		{ID: "1", Type: photosocial.TypeReel, LikeCount: 900, CommentCount: 40, TakenAt: at(1), Caption: "New loaf #sourdough", Hashtags: []string{"sourdough"}},
		{ID: "2", Type: photosocial.TypeImage, LikeCount: 200, CommentCount: 10, TakenAt: at(3), Caption: "Croissants"},
		{ID: "3", Type: photosocial.TypeImage, LikeCount: 150, CommentCount: 5, TakenAt: at(5), Caption: "Rye #sourdough", Hashtags: []string{"sourdough"}},
	}
	f := photosocial.ComputeProfileFacts(photosocial.Profile{FollowersCount: 10000}, media)
	fmt.Println(f.AvgEngagement, f.EngagementRate, f.Posting.PostsPerWeek)
	fmt.Println(f.ByType[0].Type, f.ByType[0].AvgEngagement, f.TopHashtags[0].Tag, f.Posting.Weekdays[0])
	// Output:
	// 435 0.0435 3.5
	// image 182.5 sourdough {Sunday 1}
}

func ExampleComputeCommentFacts() {
	f := photosocial.ComputeCommentFacts([]photosocial.Comment{
		{ID: "1", Text: "Best croissant in town!"},
		{ID: "2", Text: "Do you ship to Oakland?"},
		{ID: "3", Text: "Free followers at bit.ly/x"},
	})
	fmt.Println(f.Sentiment.Positive, len(f.Questions), f.ModerationFlags[0].CommentID, f.ModerationFlags[0].Rule)
	// Output: 2 1 3 spam_link
}

func ExampleModerationRules() {
	for _, r := range photosocial.ModerationRules() {
		fmt.Println(r.Name, len(r.Cues) > 0)
	}
	// Output:
	// spam_link true
	// spam true
	// slur true
	// harassment true
}

// The pages of a query come from one actor run: the first page starts
// the run and reads its dataset, each later page is one dataset read.
func ExampleApify_UserMedia() {
	srv, err := photosocialtest.NewApify("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	a, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "test-token", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	cursor := ""
	for {
		page, err := a.UserMedia(context.Background(), photosocial.UserMediaQuery{Username: photosocialtest.Username, Limit: 3, Cursor: cursor})
		if err != nil {
			panic(err)
		}
		fmt.Println(len(page.Media), "media, more:", page.Next != "")
		if cursor = page.Next; cursor == "" {
			break
		}
	}
	runs, reads := 0, 0
	for _, r := range srv.Requests() {
		switch {
		case strings.HasSuffix(strings.Split(r, "?")[0], "/runs"):
			runs++
		case strings.HasPrefix(r, "/v2/datasets/"):
			reads++
		}
	}
	fmt.Println(runs, "actor run,", reads, "dataset reads")

	// A cursor is bound to its query: another account's posts refuse it.
	_, err = a.UserMedia(context.Background(), photosocial.UserMediaQuery{Username: "someone.else", Limit: 3, Cursor: "apify:nwDataset00000001:3:0:AAAAAAAAAAAAAAAAAAAAAA"})
	fmt.Println(envelope.From(err).Code)
	// Output:
	// 3 media, more: true
	// 3 media, more: true
	// 1 media, more: false
	// 1 actor run, 3 dataset reads
	// INVALID_REQUEST
}

// A page of comments may end inside a comment's replies; the next page
// goes on from there, in the same dataset.
func ExampleApify_Comments() {
	srv, err := photosocialtest.NewApify("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	a, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "test-token", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	q := photosocial.CommentsQuery{Media: photosocial.MediaRef{Shortcode: photosocialtest.Shortcode}, Limit: 1}
	for {
		page, err := a.Comments(context.Background(), q)
		if err != nil {
			panic(err)
		}
		for _, c := range page.Comments {
			fmt.Printf("%s parent=%q\n", c.ID, c.ParentID)
		}
		if q.Cursor = page.Next; q.Cursor == "" {
			break
		}
	}
	// Output:
	// 18050000000000001 parent=""
	// 18050000000000002 parent="18050000000000001"
	// 18050000000000003 parent=""
	// 18050000000000004 parent=""
}

// Search hits are paged from one run of the actor's search.
func ExampleApify_Search() {
	srv, err := photosocialtest.NewApify("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	a, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "test-token", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	first, err := a.Search(context.Background(), photosocial.SearchQuery{Query: "northwind", Type: "profile", Limit: 1})
	if err != nil {
		panic(err)
	}
	second, err := a.Search(context.Background(), photosocial.SearchQuery{Query: "northwind", Type: "profile", Limit: 1, Cursor: first.Next})
	if err != nil {
		panic(err)
	}
	fmt.Println(first.Results[0].Profile.Username, second.Results[0].Profile.Username, second.Next == "")
	// Output:
	// northwind.coffee northwind.tea true
}

func ExampleMediaTypes() {
	fmt.Println(photosocial.MediaTypes())
	// Output: [image video carousel reel]
}

func ExampleRuleNames() {
	fmt.Println(photosocial.RuleNames())
	// Output: [spam_link spam slur harassment]
}

func ExampleFlagSources() {
	fmt.Println(photosocial.FlagSources())
	// Output: [rules model]
}

func ExampleEvidenceKinds() {
	fmt.Println(photosocial.EvidenceKinds())
	// Output: [media comment]
}
