package photosocial

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
)

func bakeryCarousel(t *testing.T, c *Client) Media {
	t.Helper()
	l, err := c.Posts(context.Background(), PostsRequest{Username: "sample.bakery", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range l.Media {
		if m.CommentCount == 141 {
			return m
		}
	}
	t.Fatal("carousel not in the sample")
	return Media{}
}

func TestProfileInsightsWithOpenAIWire(t *testing.T) {
	c := newClient(Sample())
	posts, _ := c.Posts(context.Background(), PostsRequest{Username: "sample.bakery", Limit: 12})
	best := posts.Media[0].ID
	answer := map[string]any{
		"content_themes":     []map[string]any{{"name": "Bread", "description": "sourdough", "evidence_ids": []string{best, "999999"}}},
		"posting_summary":    "Every two days.",
		"engagement_drivers": []map[string]any{{"title": "Reels", "detail": "reels lead", "evidence_ids": []string{best}}},
		"strengths":          []map[string]any{},
		"opportunities":      []map[string]any{{"title": "Captions", "detail": "", "evidence_ids": []string{"made-up-id"}}},
		"evidence":           []map[string]any{{"id": best, "reason": "top post"}, {"id": "17999999999999999", "reason": "invented"}},
		"confidence":         0.8,
		"limitations":        []string{"no reach data"},
	}
	body, _ := json.Marshal(answer)
	bad := `{"content_themes":[{"name":"x","description":"","evidence_ids":[]}],"confidence":1.7}`
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: bad, PromptTokens: 900, CompletionTokens: 40}, llmtest.Reply{Content: string(body), PromptTokens: 1000, CompletionTokens: 120})
	c.llm = llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"}
	res, ai, err := c.ProfileInsights(context.Background(), ProfileInsightsRequest{Username: "@sample.bakery", AnalysisGoal: "more reel reach"})
	if err != nil {
		t.Fatal(err)
	}
	if ai.Model != "gpt-4o-mini" || ai.PromptTokens != 1900 || ai.CompletionTokens != 160 || ai.CostUSD <= 0 {
		t.Errorf("ai meta = %+v", ai)
	}
	if res.Facts.MediaAnalyzed != 12 || res.Facts.AvgEngagement == 0 || res.Facts.Posting.PostsPerWeek == 0 || len(res.Facts.BestPosts) != 3 {
		t.Errorf("facts = %+v", res.Facts)
	}
	if got := res.ContentThemes[0].EvidenceIDs; !slices.Equal(got, []string{best}) {
		t.Errorf("theme evidence = %v, want only %s", got, best)
	}
	if len(res.Opportunities[0].EvidenceIDs) != 0 || len(res.Evidence) != 1 || res.Evidence[0].Excerpt == "" || res.Evidence[0].Kind != "media" {
		t.Errorf("evidence not filtered: %+v %+v", res.Opportunities, res.Evidence)
	}
	lim := strings.Join(res.Limitations, " | ")
	for _, id := range []string{"999999", "made-up-id", "17999999999999999"} {
		if !strings.Contains(lim, id) {
			t.Errorf("limitations %q do not note the dropped id %s", lim, id)
		}
	}
	if res.Confidence != 0.8 || res.PostingPatterns.Summary != "Every two days." {
		t.Errorf("confidence %v, patterns %+v", res.Confidence, res.PostingPatterns)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model asked %d times, want 2 (one retry)", len(reqs))
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	if !strings.Contains(last, "confidence") {
		t.Errorf("retry does not show the violation: %q", last)
	}
	if !strings.Contains(reqs[0].Messages[1].Content, "more reel reach") {
		t.Errorf("analysis_goal not passed to the model")
	}
}

func TestCommentInsightsWithOpenAIWire(t *testing.T) {
	c := newClient(Sample())
	car := bakeryCarousel(t, c)
	cl, _ := c.Comments(context.Background(), CommentsRequest{Shortcode: car.Shortcode, Limit: 100})
	byText := func(s string) string {
		for _, cm := range cl.Comments {
			if strings.Contains(cm.Text, s) {
				return cm.ID
			}
		}
		t.Fatalf("no comment with %q", s)
		return ""
	}
	price, glutenQ, rye, troll := byText("Prices went up"), byText("gluten free options"), byText("rye loaf was dry"), byText("clown")
	answer := `{"sentiment_summary":"Mostly warm, some price pushback.",
	 "recurring_topics":[{"name":"Pricing","description":"too expensive","evidence_ids":["` + price + `","fake-1"]}],
	 "objections":[{"title":"Price","detail":"","evidence_ids":["` + price + `"]},{"title":"Dry rye","detail":"","evidence_ids":["` + rye + `"]}],
	 "moderation_flags":[{"comment_id":"` + troll + `","rule":"harassment","reason":"insult"},{"comment_id":"` + rye + `","rule":"spam","reason":"wrong"},{"comment_id":"nope","rule":"spam","reason":"made up"}],
	 "evidence":[{"id":"` + glutenQ + `","reason":"dietary question"},{"id":"18000000000000000","reason":"invented"}],
	 "confidence":0.7,"limitations":[]}`
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: answer, PromptTokens: 700, CompletionTokens: 90})
	c.llm = llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"}
	res, ai, err := c.CommentInsights(context.Background(), CommentInsightsRequest{Shortcode: car.Shortcode})
	if err != nil {
		t.Fatal(err)
	}
	if ai.PromptTokens != 700 || ai.Model != "gpt-4o-mini" {
		t.Errorf("ai = %+v", ai)
	}
	if res.Facts.CommentsAnalyzed != 16 || res.AggregateSentiment.Positive == 0 || res.AggregateSentiment.Negative == 0 {
		t.Errorf("sentiment = %+v", res.AggregateSentiment)
	}
	qs := map[string]bool{}
	for _, q := range res.Questions {
		qs[q.CommentID] = true
	}
	if !qs[glutenQ] || len(res.Questions) < 4 || qs[price] {
		t.Errorf("questions = %+v", res.Questions)
	}
	var rules []string
	for _, f := range res.ModerationFlags {
		rules = append(rules, string(f.Rule)+"/"+string(f.Source))
		if f.CommentID == "nope" {
			t.Errorf("made-up flag kept")
		}
	}
	want := []string{"spam_link/rules", "spam/rules", "harassment/rules", "spam/rules", "spam/model"}
	if !slices.Equal(rules, want) {
		t.Errorf("flags = %v, want %v", rules, want)
	}
	if len(res.Evidence) != 1 || res.Evidence[0].ID != glutenQ || !strings.Contains(strings.Join(res.Limitations, " "), "fake-1") {
		t.Errorf("evidence %+v, limitations %v", res.Evidence, res.Limitations)
	}
	found := false
	for _, p := range res.Facts.RepeatedPhrases {
		if p.Phrase == "best in town" && p.Count == 3 {
			found = true
		}
	}
	if !found {
		t.Errorf("repeated phrases = %+v", res.Facts.RepeatedPhrases)
	}
}

func TestInsightsRules(t *testing.T) {
	c := newClient(Sample())
	ctx := context.Background()
	_, _, err := c.ProfileInsights(ctx, ProfileInsightsRequest{Username: "sample.bakery"})
	if e := wantCode(t, err, envelope.CodeServiceUnavailable); !strings.Contains(e.Message, "language model") {
		t.Errorf("no-model message: %q", e.Message)
	}
	_, _, err = c.CommentInsights(ctx, CommentInsightsRequest{Shortcode: "x"})
	wantCode(t, err, envelope.CodeServiceUnavailable)
	for _, tt := range []struct {
		err   error
		field string
	}{
		{func() error { _, _, e := c.ProfileInsights(ctx, ProfileInsightsRequest{}); return e }(), "username"},
		{func() error {
			_, _, e := c.ProfileInsights(ctx, ProfileInsightsRequest{Username: "a", MediaLimit: 51})
			return e
		}(), "media_limit"},
		{func() error {
			_, _, e := c.ProfileInsights(ctx, ProfileInsightsRequest{Username: "a", AnalysisGoal: strings.Repeat("x", 501)})
			return e
		}(), "analysis_goal"},
		{func() error { _, _, e := c.CommentInsights(ctx, CommentInsightsRequest{}); return e }(), "shortcode"},
		{func() error {
			_, _, e := c.CommentInsights(ctx, CommentInsightsRequest{Shortcode: "x", CommentLimit: 101})
			return e
		}(), "comment_limit"},
		{func() error {
			_, _, e := c.CommentInsights(ctx, CommentInsightsRequest{Shortcode: "x", AnalysisFocus: strings.Repeat("é", 501)})
			return e
		}(), "analysis_focus"},
	} {
		if e := wantCode(t, tt.err, envelope.CodeInvalidRequest); e.Details[0].Field != tt.field {
			t.Errorf("field %q, want %q", e.Details[0].Field, tt.field)
		}
	}
}

func TestComputeProfileFactsSmall(t *testing.T) {
	media := []Media{
		{ID: "1", Type: TypeImage, LikeCount: 10, CommentCount: 2, TakenAt: "2025-10-01T09:00:00Z", Caption: "short #a", Hashtags: []string{"a"}},
		{ID: "2", Type: TypeReel, LikeCount: 90, CommentCount: 10, TakenAt: "2025-10-08T09:00:00Z", Caption: strings.Repeat("long ", 30), Hashtags: []string{"a", "b"}},
	}
	f := ComputeProfileFacts(Profile{FollowersCount: 1000}, media)
	if f.AvgEngagement != 56 || f.EngagementRate != 0.056 || f.Posting.PostsPerWeek != 1 || f.Posting.MedianHoursBetween != 168 ||
		f.BestPosts[0].ID != "2" || f.WorstPosts[0].ID != "1" || f.TopHashtags[0].Tag != "a" || f.Captions.LongCount != 1 ||
		f.Posting.Weekdays[0].Value != "Wednesday" || f.Posting.HoursUTC[0].Value != "09" {
		t.Errorf("facts = %+v", f)
	}
}

func TestInsightsWithoutItemsSkipTheModel(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI) // any call would fail the test
	c := newClient(Sample())
	c.llm = llm.Config{Model: srv.ModelT(t, "gpt-4o-mini")}
	res, ai, err := c.ProfileInsights(context.Background(), ProfileInsightsRequest{Username: "sample.private"})
	if err != nil || ai != (llm.Usage{}) || res.Confidence != 0 || len(res.Limitations) != 2 || res.ContentThemes == nil {
		t.Errorf("private profile: %+v, %+v, %v", res, ai, err)
	}
	l, _ := c.Posts(context.Background(), PostsRequest{Username: "sample.bakery", Limit: 1})
	cres, ai, err := c.CommentInsights(context.Background(), CommentInsightsRequest{Shortcode: l.Media[0].Shortcode})
	if err != nil || ai != (llm.Usage{}) || cres.Facts.CommentsAnalyzed != 0 || cres.ModerationFlags == nil {
		t.Errorf("no comments: %+v, %v", cres, err)
	}
}

func TestInsightsModelErrors(t *testing.T) {
	c := newClient(Sample())
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Status: 429, RetryAfter: "9"})
	c.llm = llm.Config{Model: srv.ModelT(t, "gpt-4o-mini")}
	_, _, err := c.ProfileInsights(context.Background(), ProfileInsightsRequest{Username: "sample.bakery"})
	wantCode(t, err, envelope.CodeRateLimitExceeded)
	// Two answers that break the contract: the call fails, usage is kept.
	srv = llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"confidence":2}`, PromptTokens: 10}, llmtest.Reply{Content: `not json`, PromptTokens: 10})
	c.llm = llm.Config{Model: srv.ModelT(t, "gpt-4o-mini")}
	_, ai, err := c.ProfileInsights(context.Background(), ProfileInsightsRequest{Username: "sample.bakery"})
	wantCode(t, err, envelope.CodeUpstreamError)
	if ai.PromptTokens != 20 {
		t.Errorf("usage of failed attempts = %+v", ai)
	}
}

func TestModerationRules(t *testing.T) {
	tests := map[string][]string{
		"Follow for FREE FOLLOWERS: https://x.io": {"spam_link", "spam"},
		"Visit www.example.com":                   {"spam_link"},
		"You are such a CLOWN":                    {"harassment"},
		"uglyduckling vibes, love it":             nil,
		"the sauce was stupidly good":             nil,
		"kys":                                     {"harassment"},
		"what a retard":                           {"slur"},
		"great fag-free zone... wait":             {"slur"},
		"DM me for collabs":                       {"spam"},
		"admire the spice":                        nil,
	}
	for text, want := range tests {
		var got []string
		for _, f := range ComputeCommentFacts([]Comment{{ID: "1", Text: text}}).ModerationFlags {
			got = append(got, string(f.Rule))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q flagged %v, want %v", text, got, want)
		}
	}
}

func TestQuestionsBySyntax(t *testing.T) {
	for text, want := range map[string]bool{
		"Do you ship to Oakland":        true,
		"@anna how long do they keep":   true,
		"Great. Are the eclairs vegan":  true,
		"When is the winner announced?": true,
		"Love it":                       false,
		"Island vibes, doing great":     false,
		"this is the best":              false,
	} {
		if got := isQuestion(text); got != want {
			t.Errorf("isQuestion(%q) = %v", text, got)
		}
	}
}

func TestModerationRulesIsACopy(t *testing.T) {
	rules := ModerationRules()
	rules[0].Cues[0] = "changed"
	rules[0].Name = "changed"
	if again := ModerationRules(); again[0].Cues[0] == "changed" || again[0].Name == "changed" {
		t.Error("changing the returned rules changed the package's list")
	}
}

// TestAnswerContractsDocumented keeps the answer contracts documented on
// ProfileInsights and CommentInsights in step with the types the answers
// decode into (issue 22: posting_summary and the rules were only in the
// source).
func TestAnswerContractsDocumented(t *testing.T) {
	testutil.CheckAnswerContract(t, ".", "Client", "ProfileInsights", reflect.TypeFor[profileAnswer]())
	testutil.CheckAnswerContract(t, ".", "Client", "CommentInsights", reflect.TypeFor[commentAnswer]())
}
