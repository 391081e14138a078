package microblog_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/social"
	"github.com/quiverkit/quiver/social/microblog"
)

// tw builds a tweet for the analysis tests.
func tw(id, user, text string, likes, replies, rts, quotes int64) microblog.Tweet {
	return microblog.Tweet{
		ID: id, Text: text, URL: "https://x.com/" + user + "/status/" + id,
		Author:  microblog.Author{ID: "u_" + user, Username: user, DisplayName: strings.ToUpper(user[:1]) + user[1:], Followers: -1},
		Metrics: microblog.Metrics{LikeCount: likes, ReplyCount: replies, RetweetCount: rts, QuoteCount: quotes},
	}
}

func TestAnalyzeTweets(t *testing.T) {
	tweets := []microblog.Tweet{
		tw("1", "ana", "Loving the new #golang release, generics feel great https://go.dev/blog @gopher", 10, 2, 3, 1),
		tw("2", "bo", "The #golang 1.26 release broke our build 😡 #ci", 4, 6, 0, 0),
		tw("3", "ana", "Release notes for #GoLang are out, 120 changes listed", 1, 0, 0, 0),
		tw("4", "cy", "@gopher @ana when is the next release?", 0, 1, 0, 0),
	}
	a := microblog.AnalyzeTweets(tweets)
	if a.TotalEngagement != 16+10+1+1 || a.AverageEngagement != 7 {
		t.Errorf("engagement total %d average %v, want 28 and 7", a.TotalEngagement, a.AverageEngagement)
	}
	if diff := cmp.Diff([]social.Count{{Value: "#golang", Count: 3}, {Value: "#ci", Count: 1}}, a.TopHashtags); diff != "" {
		t.Errorf("top_hashtags (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]social.Count{{Value: "@gopher", Count: 2}, {Value: "@ana", Count: 1}}, a.TopMentions); diff != "" {
		t.Errorf("top_mentions (-want +got):\n%s", diff)
	}
	if a.CommonTerms[0] != (social.Count{Value: "release", Count: 4}) {
		t.Errorf("common_terms[0] = %+v, want release ×4", a.CommonTerms[0])
	}
	for _, c := range a.CommonTerms {
		if c.Value == "https" || c.Value == "120" || c.Value == "the" || c.Value == "gopher" || c.Value == "golang" {
			t.Errorf("common_terms has %q (URLs, numbers, stop words, mentions and hashtags are removed)", c.Value)
		}
	}
	if a.TopAuthors[0].Username != "ana" || a.TopAuthors[0].Tweets != 2 || a.TopAuthors[0].Engagement != 17 {
		t.Errorf("top_authors[0] = %+v", a.TopAuthors[0])
	}
	if a.TopTweets[0].ID != "1" || a.TopTweets[1].ID != "2" {
		t.Errorf("top_tweets order %s, %s", a.TopTweets[0].ID, a.TopTweets[1].ID)
	}
	// Hand labels: 1 positive, 2 negative, 3 and 4 neutral.
	want := map[string]social.Label{"1": social.Positive, "2": social.Negative, "3": social.Neutral, "4": social.Neutral}
	for _, s := range a.Sentiment.PerTweet {
		if s.Label != want[s.TweetID] {
			t.Errorf("tweet %s: %s (%v), labelled %s", s.TweetID, s.Label, s.Compound, want[s.TweetID])
		}
	}
	if a.Sentiment.Positive != 1 || a.Sentiment.Negative != 1 || a.Sentiment.Neutral != 2 {
		t.Errorf("sentiment counts %+v", a.Sentiment)
	}
}

func TestAnalyzeTweetsEmpty(t *testing.T) {
	a := microblog.AnalyzeTweets(nil)
	if a.AverageEngagement != 0 || a.Sentiment.Label != social.Neutral || a.TopTweets == nil {
		t.Errorf("empty analysis = %+v", a)
	}
}

// brandSet are hand-labelled mentions of a fictional brand: C complaint,
// P praise, N neither.
var brandSet = []struct {
	label string
	tweet microblog.Tweet
}{
	{"C", tw("10", "u1", "@acme my order arrived broken and nobody answers. Want a refund.", 30, 4, 2, 0)},
	{"C", tw("11", "u2", "Still waiting for Acme support after 3 days", 12, 1, 0, 0)},
	{"C", tw("12", "u3", "acme app keeps crashing after the update, fix this", 8, 2, 1, 0)},
	{"C", tw("13", "u4", "Charged twice by Acme. Thanks for nothing.", 50, 9, 5, 1)},
	{"P", tw("14", "u5", "Thank you @acme, the replacement came next day!", 20, 1, 0, 0)},
	{"P", tw("15", "u6", "I love my new Acme headphones, highly recommend", 90, 5, 12, 2)},
	{"P", tw("16", "u7", "Acme support was quick and friendly today", 6, 0, 0, 0)},
	{"N", tw("17", "u8", "Acme opens a store on Main Street in June", 3, 0, 1, 0)},
	{"N", tw("18", "u9", "Does Acme ship to Canada?", 1, 1, 0, 0)},
}

func TestAnalyzeBrand(t *testing.T) {
	var tweets []microblog.Tweet
	for _, b := range brandSet {
		tweets = append(tweets, b.tweet)
	}
	tweets[5].Author.Followers = 50_000 // u6: large account
	a := microblog.AnalyzeBrand(tweets)
	got := map[string]string{}
	for _, c := range a.TopComplaints {
		got[c.ID] = "C"
	}
	for _, p := range a.TopPraise {
		if got[p.ID] != "" {
			t.Errorf("tweet %s is both complaint and praise", p.ID)
		}
		got[p.ID] = "P"
	}
	correct := 0
	for _, b := range brandSet {
		g := got[b.tweet.ID]
		if g == "" {
			g = "N"
		}
		if g == b.label {
			correct++
		} else {
			t.Logf("tweet %s labelled %s, classified %s: %s", b.tweet.ID, b.label, g, b.tweet.Text)
		}
	}
	// Top lists hold 5 at most; all 4 complaints and 3 praise fit.
	if correct < len(brandSet)-1 {
		t.Errorf("%d of %d hand labels matched", correct, len(brandSet))
	}
	if a.TopComplaints[0].ID != "13" {
		t.Errorf("top complaint %s, want 13 (most engagement)", a.TopComplaints[0].ID)
	}
	if a.NotableMentions[0].ID != "15" || a.NotableMentions[0].Score != 50_000*109 {
		t.Errorf("notable[0] = %+v, want tweet 15 with 50000 × 109", a.NotableMentions[0])
	}
	if a.MentionCount != len(brandSet) {
		t.Errorf("mention_count %d", a.MentionCount)
	}
}

func TestFilterMentionsAndBrandQuery(t *testing.T) {
	tweets := []microblog.Tweet{
		tw("1", "a", "Acme Cloud is down again", 0, 0, 0, 0),
		tw("2", "b", "@acmecloud refund please", 0, 0, 0, 0),
		tw("3", "c", "We are hiring at Acme Cloud", 0, 0, 0, 0),
		tw("4", "d", "acmecloudy weather", 0, 0, 0, 0),
		tw("5", "e", "Cloud prices at acme are fine", 0, 0, 0, 0),
	}
	got := microblog.FilterMentions(tweets, "acme cloud", nil, []string{"hiring"})
	var ids []string
	for _, t := range got {
		ids = append(ids, t.ID)
	}
	if strings.Join(ids, ",") != "1,2" {
		t.Errorf("mentions %v, want 1,2", ids)
	}
	got = microblog.FilterMentions(tweets, "acme cloud", []string{"refund", "outage"}, nil)
	if len(got) != 1 || got[0].ID != "2" {
		t.Errorf("with keywords: %v", got)
	}
	for _, tt := range []struct {
		brand    string
		kw, excl []string
		want     string
	}{
		{"acme", nil, nil, "(acme OR @acme)"},
		{"Acme Cloud", []string{"refund", "late delivery"}, []string{"job"}, `("Acme Cloud" OR @acmecloud) (refund OR "late delivery") -job`},
		{"café ü", []string{"x"}, nil, `("café ü" OR @caf) x`},
	} {
		if got := microblog.BrandQuery(tt.brand, tt.kw, tt.excl); got != tt.want {
			t.Errorf("BrandQuery(%q) = %s, want %s", tt.brand, got, tt.want)
		}
	}
}

func TestAnalyzeProfile(t *testing.T) {
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	mk := func(id, text, when string, likes int64) microblog.Tweet {
		x := tw(id, "ana", text, likes, 1, 1, 0)
		x.Time = at(when)
		return x
	}
	tweets := []microblog.Tweet{
		mk("1", "Shipping the new #golang queue today https://example.com", "2026-03-01T09:10:00Z", 20),
		mk("2", "What is your favourite Postgres index type?", "2026-03-02T09:40:00Z", 8),
		mk("3", "(2/2) and that is why the queue needs backpressure", "2026-03-02T09:45:00Z", 5),
		mk("4", "@bo agreed, the queue was the problem", "2026-03-03T14:00:00Z", 1),
		mk("5", "Postgres vacuum tuning notes", "2026-03-05T09:05:00Z", 6),
	}
	tweets[2].InReplyToID, tweets[2].InReplyToUserID = "2", "u_ana"
	tweets[3].InReplyToID, tweets[3].InReplyToUserID = "99", "u_bo"
	tweets[4].HasMedia = true
	a := microblog.AnalyzeProfile(1000, tweets)
	if a.AverageLikes != 8 || a.AverageReplies != 1 || a.AverageRetweets != 1 || a.AverageEngagement != 10 {
		t.Errorf("averages %v %v %v %v", a.AverageLikes, a.AverageReplies, a.AverageRetweets, a.AverageEngagement)
	}
	if a.EngagementScore == nil || *a.EngagementScore != 1 {
		t.Errorf("engagement_score = %v, want 1 (10 / 1000 × 100)", a.EngagementScore)
	}
	ps := a.PostingStyle
	want := microblog.PostingStyle{
		SampleSize: 5, TweetsPerDay: 1.25, ActiveHoursUTC: []int{9, 14}, HourlyDistribution: ps.HourlyDistribution,
		AverageLength: ps.AverageLength, ReplyShare: 0.2, LinkShare: 0.2, MediaShare: 0.2, QuestionShare: 0.2, ThreadShare: 0.2,
	}
	if diff := cmp.Diff(want, ps); diff != "" {
		t.Errorf("posting_style (-want +got):\n%s", diff)
	}
	if ps.HourlyDistribution[9] != 4 || ps.HourlyDistribution[14] != 1 {
		t.Errorf("hourly distribution %v", ps.HourlyDistribution)
	}
	if a.CommonTopics[0] != (social.Count{Value: "queue", Count: 3}) || a.CommonTopics[1].Value != "postgres" {
		t.Errorf("common_topics = %v", a.CommonTopics)
	}
	if a.BestPerformingTweets[0].ID != "1" {
		t.Errorf("best tweet %s", a.BestPerformingTweets[0].ID)
	}
	if microblog.AnalyzeProfile(-1, tweets).EngagementScore != nil {
		t.Error("engagement_score set with unknown followers")
	}
}

func TestAnalyzeConversation(t *testing.T) {
	orig := tw("100", "acme", "We are raising prices next month.", 100, 0, 5, 2)
	replies := []microblog.Tweet{
		tw("101", "r1", "This is terrible news, I'm cancelling.", 40, 2, 0, 0),        // negative, objection
		tw("102", "r2", "Actually that's not true, the old plan stays?", 12, 0, 0, 0), // question + objection
		tw("103", "r3", "Fair enough, great product, happy to pay", 30, 0, 0, 0),      // positive
		tw("104", "r4", "When does it start?", 5, 0, 0, 0),                            // question
		tw("105", "r5", "Love it, thank you for the transparency", 8, 0, 0, 0),        // positive
		tw("106", "r6", "Worst decision ever. Disappointed.", 25, 1, 0, 0),            // negative, objection
	}
	a := microblog.AnalyzeConversation(orig, replies)
	ids := func(ts []microblog.ScoredTweet) string {
		var s []string
		for _, t := range ts {
			s = append(s, t.ID)
		}
		return strings.Join(s, ",")
	}
	if got := ids(a.TopQuestions); got != "102,104" {
		t.Errorf("top_questions %s, want 102,104 (by likes)", got)
	}
	obj := ids(a.TopObjections)
	for _, id := range []string{"101", "102", "106"} {
		if !strings.Contains(obj, id) {
			t.Errorf("top_objections %s lacks %s", obj, id)
		}
	}
	if slices.ContainsFunc(a.TopObjections, func(s microblog.ScoredTweet) bool { return s.ID == "103" || s.ID == "105" }) {
		t.Errorf("praise among objections: %s", obj)
	}
	// pos 2 (103, 105), neg 3 (101, 102?, 106) or 2; check against the formula.
	pos, neg := a.Sentiment.Positive, a.Sentiment.Negative
	balance := 1 - abs(float64(pos-neg))/float64(pos+neg)
	want := 0.6*balance*float64(pos+neg)/6 + 0.4*(6.0/101)
	if d := a.ControversyScore - want; d > 1e-4 || d < -1e-4 {
		t.Errorf("controversy %v, want %v (pos %d neg %d)", a.ControversyScore, want, pos, neg)
	}
	// One-sided praise is not controversial; an even split with a ratio is.
	calm := microblog.AnalyzeConversation(tw("1", "a", "x", 100, 2, 0, 0), replies[2:3])
	hot := microblog.AnalyzeConversation(tw("1", "a", "x", 2, 50, 0, 0), []microblog.Tweet{replies[0], replies[2]})
	if calm.ControversyScore >= 0.05 || hot.ControversyScore < 0.99 || hot.ControversyScore > 1 {
		t.Errorf("calm %v, hot %v", calm.ControversyScore, hot.ControversyScore)
	}
	if z := microblog.AnalyzeConversation(orig, nil); z.ControversyScore != 0 || z.TopQuestions == nil {
		t.Errorf("no replies: %+v", z)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestThreadChain(t *testing.T) {
	base := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	mk := func(id, user, parent, parentUser string, minute int) microblog.Tweet {
		x := tw(id, user, "t"+id, 0, 0, 0, 0)
		x.InReplyToID, x.InReplyToUserID, x.Time, x.ConversationID = parent, parentUser, base.Add(time.Duration(minute)*time.Minute), "1"
		return x
	}
	root := mk("1", "ana", "", "", 0)
	conv := []microblog.Tweet{
		mk("5", "ana", "4", "u_ana", 9),   // after a gap: 4 is missing
		mk("2", "ana", "1", "u_ana", 1),   // chain
		mk("3", "ana", "2", "u_ana", 2),   // chain
		mk("3b", "ana", "2", "u_ana", 30), // branch: a later second reply to 2
		mk("7", "bo", "3", "u_ana", 3),    // someone else
		mk("8", "ana", "7", "u_bo", 4),    // the author replying to someone else
		mk("6", "ana", "5", "u_ana", 10),  // continues after the gap
	}
	var got []string
	for _, x := range microblog.ThreadChain(root, conv) {
		got = append(got, x.ID)
	}
	if strings.Join(got, ",") != "1,2,3,5,6" {
		t.Errorf("chain %v, want 1,2,3,5,6", got)
	}
	// A cycle in bad data does not loop.
	cyc := []microblog.Tweet{mk("2", "ana", "1", "u_ana", 1), mk("1", "ana", "2", "u_ana", 2)}
	if n := len(microblog.ThreadChain(root, cyc)); n != 2 {
		t.Errorf("cycle chain length %d", n)
	}
}

func TestThreadRendering(t *testing.T) {
	ts := []microblog.Tweet{tw("1", "ana", "First *point*", 0, 0, 0, 0), tw("2", "ana", "Second\nline", 0, 0, 0, 0)}
	ts[0].CreatedAt = "Thu Jan 01 10:00:00 +0000 2026"
	if got := microblog.ThreadText(ts, 2, 5); got != "3/5 First *point*\n\n4/5 Second\nline" {
		t.Errorf("text = %q", got)
	}
	md := microblog.ThreadMarkdown(ts, 0, 2)
	for _, want := range []string{
		"# Thread by Ana ([@ana](https://x.com/ana))",
		"> First \\*point\\*\n\n[1/2](https://x.com/ana/status/1) · Thu Jan 01 10:00:00 +0000 2026",
		"> Second\n> line\n\n[2/2](https://x.com/ana/status/2)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// BenchmarkAnalyze measures each analysis, and all four in a row, over a
// page of 20 tweets; tweets/s is reported as a metric.
func BenchmarkAnalyze(b *testing.B) {
	var tweets []microblog.Tweet
	texts := []string{
		"Loving the new #golang release, generics feel great https://go.dev/blog @gopher",
		"@acmecloud our API has been down for two hours and support has no response. Unacceptable.",
		"Postgres tip: EXPLAIN (ANALYZE, BUFFERS) tells you more than any dashboard #postgres",
		"Is anyone else seeing slow builds with the latest toolchain? Asking before I file a bug.",
		"Thank you @acme, the replacement came next day! 🎉",
	}
	for i := range 20 {
		x := tw(fmt.Sprint(i+1), fmt.Sprintf("user%d", i%7), texts[i%len(texts)], int64(i*3), int64(i%4), int64(i%5), 0)
		x.Time = time.Date(2026, 3, 1+i%9, i%24, 0, 0, 0, time.UTC)
		tweets = append(tweets, x)
	}
	for _, bm := range []struct {
		name string
		fn   func()
	}{
		{"search", func() { microblog.AnalyzeTweets(tweets) }},
		{"brand", func() { microblog.AnalyzeBrand(tweets) }},
		{"profile", func() { microblog.AnalyzeProfile(1000, tweets) }},
		{"conversation", func() { microblog.AnalyzeConversation(tweets[0], tweets) }},
		{"all", func() {
			microblog.AnalyzeTweets(tweets)
			microblog.AnalyzeBrand(tweets)
			microblog.AnalyzeProfile(1000, tweets)
			microblog.AnalyzeConversation(tweets[0], tweets)
		}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bm.fn()
			}
			b.ReportMetric(float64(b.N*len(tweets))/b.Elapsed().Seconds(), "tweets/s")
		})
	}
}
