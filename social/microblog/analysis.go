package microblog

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/quiverkit/quiver/internal/sentiment"
	"github.com/quiverkit/quiver/internal/stopwords"
	"github.com/quiverkit/quiver/social"
)

// Sizes of the ranked lists of the analyses.
const (
	topCounts = 10 // top_hashtags, top_mentions, top_authors, common_terms, common_topics, top_accounts
	topTweets = 5  // top_tweets, best_performing_tweets, complaints, praise, notable, questions, objections
)

// TweetSentiment is the sentiment of one tweet.
type TweetSentiment struct {
	// TweetID is the tweet.
	TweetID string `json:"tweet_id"`
	// Compound is VADER's compound score in [-1, 1].
	Compound float64 `json:"compound"`
	// Label is positive (compound >= 0.05), negative (<= -0.05) or neutral.
	Label social.Label `json:"label"`
}

// SentimentSummary is the sentiment of a set of tweets: the aggregate
// (label, mean compound, counts per label) and each tweet's.
type SentimentSummary struct {
	social.Sentiment
	// PerTweet is the sentiment of each tweet, in input order.
	PerTweet []TweetSentiment `json:"per_tweet"`
}

// ScoredTweet is a tweet in a ranking, with the figures it was ranked by.
type ScoredTweet struct {
	// ID, URL and Text are the tweet's.
	ID   string `json:"id"`
	URL  string `json:"url"`
	Text string `json:"text"`
	// Username is the author's handle.
	Username string `json:"username"`
	// CreatedAt is the tweet's created_at.
	CreatedAt string `json:"created_at"`
	// Engagement is likes + replies + retweets + quotes.
	Engagement int64 `json:"engagement"`
	// Compound and Sentiment are the tweet's sentiment.
	Compound  float64      `json:"compound"`
	Sentiment social.Label `json:"sentiment"`
	// Score is the ranking score where the ranking has one (notability:
	// reach × engagement); 0 otherwise.
	Score float64 `json:"score,omitempty"`
	// Cues are the cue phrases found (complaints, praise, objections).
	Cues []string `json:"cues,omitempty"`
}

// AccountStat summarizes an account's tweets within a set.
type AccountStat struct {
	// Username is the handle.
	Username string `json:"username"`
	// DisplayName is the profile name.
	DisplayName string `json:"display_name"`
	// Verified reports a verification badge.
	Verified bool `json:"verified"`
	// Followers is the follower count when the provider sent it, else null.
	Followers *int64 `json:"followers"`
	// Tweets is the number of the account's tweets in the set.
	Tweets int `json:"tweets"`
	// Engagement is the total engagement of those tweets.
	Engagement int64 `json:"engagement"`
}

// TweetsAnalysis holds the search-insight fields computed from tweets.
type TweetsAnalysis struct {
	// TotalEngagement is the sum of the tweets' engagement.
	TotalEngagement int64 `json:"total_engagement"`
	// AverageEngagement is TotalEngagement / number of tweets.
	AverageEngagement float64 `json:"average_engagement"`
	// Sentiment is the per-tweet and aggregate sentiment.
	Sentiment SentimentSummary `json:"sentiment"`
	// TopHashtags are the most used hashtags.
	TopHashtags []social.Count `json:"top_hashtags"`
	// TopMentions are the most mentioned accounts.
	TopMentions []social.Count `json:"top_mentions"`
	// TopAuthors are the authors with most tweets, then most engagement.
	TopAuthors []AccountStat `json:"top_authors"`
	// CommonTerms are the most frequent words, without stop words, URLs,
	// mentions, hashtags and numbers.
	CommonTerms []social.Count `json:"common_terms"`
	// TopTweets are the tweets with most engagement.
	TopTweets []ScoredTweet `json:"top_tweets"`
}

// AnalyzeTweets computes the search-insight fields. It is pure and
// deterministic: ties are broken by value or ID.
func AnalyzeTweets(tweets []Tweet) TweetsAnalysis {
	scores := scoreAll(tweets)
	var total int64
	for _, t := range tweets {
		total += t.Metrics.Engagement()
	}
	return TweetsAnalysis{
		TotalEngagement:   total,
		AverageEngagement: mean(float64(total), len(tweets)),
		Sentiment:         summarize(tweets, scores),
		TopHashtags:       topValues(tweets, hashtags, topCounts),
		TopMentions:       topValues(tweets, mentions, topCounts),
		TopAuthors:        topAuthors(tweets, topCounts),
		CommonTerms:       topValues(tweets, terms, topCounts),
		TopTweets:         topByEngagement(tweets, scores, topTweets),
	}
}

// scoreAll scores every tweet's cleaned text.
func scoreAll(tweets []Tweet) []sentiment.Scores {
	out := make([]sentiment.Scores, len(tweets))
	for i, t := range tweets {
		out[i] = sentiment.Score(sentimentText(t.Text))
	}
	return out
}

// sentimentText prepares a tweet for scoring: URLs and mentions are
// removed (a handle such as @happy is not an opinion) and hashtags are
// read as words (#fail is).
func sentimentText(text string) string { return strip(text, true) }

func summarize(tweets []Tweet, scores []sentiment.Scores) SentimentSummary {
	s := SentimentSummary{PerTweet: make([]TweetSentiment, len(tweets))}
	sum := 0.0
	for i, t := range tweets {
		c := scores[i].Compound
		sum += c
		l := social.LabelOf(c)
		s.Add(l)
		s.PerTweet[i] = TweetSentiment{TweetID: t.ID, Compound: c, Label: l}
	}
	s.MeanCompound = round(mean(sum, len(tweets)), 4)
	s.Label = social.LabelOf(s.MeanCompound)
	return s
}

// terms returns the words of the text that carry a topic: lower case, at
// least three letters, without URLs, mentions, hashtags, numbers and
// English stop words.
func terms(text string) []string {
	text = strip(text, false)
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	}) {
		w = strings.Trim(w, "'’")
		if len([]rune(w)) < 3 || stopwords.Is(w) || strings.IndexFunc(w, unicode.IsLetter) < 0 {
			continue
		}
		out = append(out, w)
	}
	return out
}

// topValues counts the values extract finds in each tweet and returns the
// n most frequent, ties in alphabetical order.
func topValues(tweets []Tweet, extract func(string) []string, n int) []social.Count {
	counts := map[string]int{}
	for _, t := range tweets {
		for _, v := range extract(t.Text) {
			counts[v]++
		}
	}
	return topN(counts, n)
}

func topN(counts map[string]int, n int) []social.Count {
	out := make([]social.Count, 0, len(counts))
	for v, c := range counts {
		out = append(out, social.Count{Value: v, Count: c})
	}
	slices.SortFunc(out, func(a, b social.Count) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return cmp.Compare(a.Value, b.Value)
	})
	return out[:min(n, len(out))]
}

// topAuthors ranks authors by number of tweets, then engagement, then
// username.
func topAuthors(tweets []Tweet, n int) []AccountStat {
	by := map[string]*AccountStat{}
	var order []string
	for _, t := range tweets {
		key := strings.ToLower(t.Author.Username)
		a, ok := by[key]
		if !ok {
			a = &AccountStat{Username: t.Author.Username, DisplayName: t.Author.DisplayName, Verified: t.Author.Verified}
			by[key] = a
			order = append(order, key)
		}
		if t.Author.Followers >= 0 && (a.Followers == nil || t.Author.Followers > *a.Followers) {
			f := t.Author.Followers
			a.Followers = &f
		}
		a.Tweets++
		a.Engagement += t.Metrics.Engagement()
	}
	out := make([]AccountStat, 0, len(order))
	for _, k := range order {
		out = append(out, *by[k])
	}
	slices.SortFunc(out, func(a, b AccountStat) int {
		if c := cmp.Compare(b.Tweets, a.Tweets); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Engagement, a.Engagement); c != 0 {
			return c
		}
		return cmp.Compare(strings.ToLower(a.Username), strings.ToLower(b.Username))
	})
	return out[:min(n, len(out))]
}

func scored(t Tweet, s sentiment.Scores) ScoredTweet {
	return ScoredTweet{
		ID: t.ID, URL: t.URL, Text: t.Text, Username: t.Author.Username, CreatedAt: t.CreatedAt,
		Engagement: t.Metrics.Engagement(), Compound: s.Compound, Sentiment: social.LabelOf(s.Compound),
	}
}

// rank sorts candidates by key descending (then engagement, then ID) and
// returns the first n.
func rank(c []ScoredTweet, n int, key func(ScoredTweet) float64) []ScoredTweet {
	slices.SortStableFunc(c, func(a, b ScoredTweet) int {
		if d := cmp.Compare(key(b), key(a)); d != 0 {
			return d
		}
		if d := cmp.Compare(b.Engagement, a.Engagement); d != 0 {
			return d
		}
		return cmp.Compare(idKey(a.ID), idKey(b.ID))
	})
	if c == nil {
		return []ScoredTweet{}
	}
	return c[:min(n, len(c))]
}

func topByEngagement(tweets []Tweet, scores []sentiment.Scores, n int) []ScoredTweet {
	c := make([]ScoredTweet, len(tweets))
	for i, t := range tweets {
		c[i] = scored(t, scores[i])
	}
	return rank(c, n, func(s ScoredTweet) float64 { return float64(s.Engagement) })
}

// reach is the audience of a tweet: the author's followers when known,
// else the tweet's views, and at least 1.
func reach(t Tweet) float64 {
	if t.Author.Followers > 0 {
		return float64(t.Author.Followers)
	}
	return float64(max(t.Metrics.ViewCount, 1))
}

// notability is reach × engagement.
func notability(t Tweet) float64 { return reach(t) * float64(t.Metrics.Engagement()) }

// cuesIn returns the cue phrases that occur in text as whole words.
func cuesIn(text string, cues []string) []string {
	norm := " " + strings.Join(strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(text, "’", "'")), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}), " ") + " "
	var found []string
	for _, c := range cues {
		if strings.Contains(norm, " "+c+" ") {
			found = append(found, c)
		}
	}
	return found
}

// Cue phrases, matched as whole words in lower case.
var (
	complaintCues = []string{"not working", "doesn't work", "does not work", "stopped working", "broken", "refund",
		"still waiting", "no response", "never again", "worst", "scam", "charged twice", "cancel", "cancelled",
		"unacceptable", "disappointed", "useless", "crash", "crashes", "crashed", "down again", "outage", "bug",
		"buggy", "lost", "late", "delayed", "terrible", "awful", "thanks for nothing", "fix this", "rip off", "ripoff"}
	praiseCues = []string{"love", "loving", "thank you", "thanks", "recommend", "amazing", "awesome", "best",
		"great job", "well done", "kudos", "impressed", "fantastic", "excellent", "perfect", "shoutout", "game changer"}
	objectionCues = []string{"disagree", "not true", "wrong", "misleading", "nonsense", "doesn't", "won't work",
		"actually", "source", "citation needed", "no way", "not really", "that's not", "false", "fake", "bad take",
		"hard disagree"}
)

// round rounds to places decimals.
func round(x float64, places int) float64 {
	p := math.Pow10(places)
	return math.Round(x*p) / p
}

func mean(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return round(sum/float64(n), 4)
}

// BrandAnalysis holds the brand-mention fields computed from mentions.
type BrandAnalysis struct {
	// MentionCount is the number of mentions analysed.
	MentionCount int `json:"mention_count"`
	// Sentiment is the per-mention and aggregate sentiment.
	Sentiment SentimentSummary `json:"sentiment"`
	// TopComplaints are complaints, by engagement then negativity.
	TopComplaints []ScoredTweet `json:"top_complaints"`
	// TopPraise is praise, by engagement then positivity.
	TopPraise []ScoredTweet `json:"top_praise"`
	// TopAccounts are the accounts mentioning the brand most.
	TopAccounts []AccountStat `json:"top_accounts"`
	// TopHashtags are the hashtags used with the brand.
	TopHashtags []social.Count `json:"top_hashtags"`
	// NotableMentions are the mentions with the highest reach × engagement.
	NotableMentions []ScoredTweet `json:"notable_mentions"`
}

// FilterMentions keeps the tweets that mention brand (case-insensitive, as
// words, or as the @handle or #hashtag of its letters and digits), contain at least one of keywords when any
// are given, and none of exclude.
func FilterMentions(tweets []Tweet, brand string, keywords, exclude []string) []Tweet {
	has := func(text, term string) bool {
		term = strings.ToLower(strings.TrimSpace(strings.TrimLeft(term, "@#")))
		return term != "" && (len(cuesIn(text, []string{term})) > 0 || strings.Contains(strings.ToLower(text), term) && strings.Contains(term, " "))
	}
	out := []Tweet{}
	for _, t := range tweets {
		text := t.Text
		if !has(text, brand) && (brandHandle(brand) == "" || !has(text, brandHandle(brand))) {
			continue
		}
		if len(keywords) > 0 && !slices.ContainsFunc(keywords, func(k string) bool { return has(text, k) }) {
			continue
		}
		if slices.ContainsFunc(exclude, func(k string) bool { return has(text, k) }) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// AnalyzeBrand computes the brand-mention fields. A mention is a
// complaint when its sentiment is negative, or when it carries a complaint
// cue ("refund", "not working", "still waiting") and its compound is below
// 0.5; it is praise when it is not a complaint and carries a praise cue
// ("love", "thank you", "recommend") with a compound of at least -0.05, or
// is positive and asks no question (a question is not praise).
func AnalyzeBrand(mentions []Tweet) BrandAnalysis {
	scores := scoreAll(mentions)
	var complaints, praise, notable []ScoredTweet
	for i, t := range mentions {
		s := scores[i]
		st := scored(t, s)
		cc := cuesIn(t.Text, complaintCues)
		pc := cuesIn(t.Text, praiseCues)
		switch {
		case s.Label() == sentiment.Negative || (len(cc) > 0 && s.Compound < 0.5):
			st.Cues = cc
			complaints = append(complaints, st)
		case len(pc) > 0 && s.Compound >= -sentiment.Threshold,
			s.Label() == sentiment.Positive && !strings.ContainsRune(t.Text, '?'):
			st.Cues = pc
			praise = append(praise, st)
		}
		if n := notability(t); n > 0 {
			nt := scored(t, s)
			nt.Score = n
			notable = append(notable, nt)
		}
	}
	return BrandAnalysis{
		MentionCount:    len(mentions),
		Sentiment:       summarize(mentions, scores),
		TopComplaints:   rank(complaints, topTweets, func(s ScoredTweet) float64 { return float64(s.Engagement) - s.Compound/10 }),
		TopPraise:       rank(praise, topTweets, func(s ScoredTweet) float64 { return float64(s.Engagement) + s.Compound/10 }),
		TopAccounts:     topAuthors(mentions, topCounts),
		TopHashtags:     topValues(mentions, hashtags, topCounts),
		NotableMentions: rank(notable, topTweets, func(s ScoredTweet) float64 { return s.Score }),
	}
}

// PostingStyle describes how an account posts, from a sample of its tweets.
type PostingStyle struct {
	// SampleSize is the number of tweets examined.
	SampleSize int `json:"sample_size"`
	// TweetsPerDay is SampleSize over the days between the oldest and the
	// newest tweet (at least one day).
	TweetsPerDay float64 `json:"tweets_per_day"`
	// ActiveHoursUTC are the (up to three) hours of the day, UTC, with most
	// tweets, busiest first.
	ActiveHoursUTC []int `json:"active_hours_utc"`
	// HourlyDistribution counts the tweets per hour of the day, UTC.
	HourlyDistribution []int `json:"hourly_distribution"`
	// AverageLength is the mean length of the tweets in characters.
	AverageLength float64 `json:"average_length"`
	// ReplyShare is the share of replies to other accounts.
	ReplyShare float64 `json:"reply_share"`
	// LinkShare is the share of tweets with a URL.
	LinkShare float64 `json:"link_share"`
	// MediaShare is the share of tweets with photos or videos.
	MediaShare float64 `json:"media_share"`
	// QuestionShare is the share of tweets containing "?".
	QuestionShare float64 `json:"question_share"`
	// ThreadShare is the share of self-replies (thread continuations).
	ThreadShare float64 `json:"thread_share"`
}

// ProfileAnalysis holds the profile-insight fields computed from a
// profile and its recent tweets.
type ProfileAnalysis struct {
	// AverageLikes, AverageReplies and AverageRetweets are per tweet.
	AverageLikes    float64 `json:"average_likes"`
	AverageReplies  float64 `json:"average_replies"`
	AverageRetweets float64 `json:"average_retweets"`
	// AverageEngagement is the mean engagement per tweet.
	AverageEngagement float64 `json:"average_engagement"`
	// EngagementScore is AverageEngagement / followers × 100: the
	// engagement rate in percent. Null when followers are unknown or 0.
	EngagementScore *float64 `json:"engagement_score"`
	// BestPerformingTweets are the tweets with most engagement.
	BestPerformingTweets []ScoredTweet `json:"best_performing_tweets"`
	// CommonTopics are the most frequent terms, hashtags counted as their
	// word.
	CommonTopics []social.Count `json:"common_topics"`
	// TopHashtags are the most used hashtags.
	TopHashtags []social.Count `json:"top_hashtags"`
	// PostingStyle describes how the account posts.
	PostingStyle PostingStyle `json:"posting_style"`
	// Sentiment is the sentiment of the tweets.
	Sentiment SentimentSummary `json:"sentiment"`
}

// AnalyzeProfile computes the profile-insight fields from the followers
// count (negative when unknown) and recent tweets.
func AnalyzeProfile(followers int64, tweets []Tweet) ProfileAnalysis {
	scores := scoreAll(tweets)
	n := len(tweets)
	var likes, replies, rts, eng int64
	for _, t := range tweets {
		likes += t.Metrics.LikeCount
		replies += t.Metrics.ReplyCount
		rts += t.Metrics.RetweetCount
		eng += t.Metrics.Engagement()
	}
	a := ProfileAnalysis{
		AverageLikes:         mean(float64(likes), n),
		AverageReplies:       mean(float64(replies), n),
		AverageRetweets:      mean(float64(rts), n),
		AverageEngagement:    mean(float64(eng), n),
		BestPerformingTweets: topByEngagement(tweets, scores, topTweets),
		CommonTopics: topValues(tweets, func(s string) []string {
			ws := terms(s)
			for _, h := range hashtags(s) {
				ws = append(ws, strings.TrimPrefix(h, "#"))
			}
			return ws
		}, topCounts),
		TopHashtags:  topValues(tweets, hashtags, topCounts),
		PostingStyle: postingStyle(tweets),
		Sentiment:    summarize(tweets, scores),
	}
	if followers > 0 && n > 0 {
		s := round(a.AverageEngagement/float64(followers)*100, 4)
		a.EngagementScore = &s
	}
	return a
}

func postingStyle(tweets []Tweet) PostingStyle {
	ps := PostingStyle{SampleSize: len(tweets), HourlyDistribution: make([]int, 24), ActiveHoursUTC: []int{}}
	if len(tweets) == 0 {
		return ps
	}
	var oldest, newest time.Time
	dated, chars := 0, 0
	var replies, links, media, questions, threads int
	for _, t := range tweets {
		chars += len([]rune(t.Text))
		switch {
		case t.IsSelfReply():
			threads++
		case t.IsReply():
			replies++
		}
		if hasLink(t.Text) {
			links++
		}
		if t.HasMedia {
			media++
		}
		if strings.ContainsRune(t.Text, '?') {
			questions++
		}
		if t.Time.IsZero() {
			continue
		}
		dated++
		ps.HourlyDistribution[t.Time.UTC().Hour()]++
		if oldest.IsZero() || t.Time.Before(oldest) {
			oldest = t.Time
		}
		if t.Time.After(newest) {
			newest = t.Time
		}
	}
	n := len(tweets)
	share := func(k int) float64 { return round(float64(k)/float64(n), 4) }
	ps.AverageLength = round(float64(chars)/float64(n), 2)
	ps.ReplyShare, ps.LinkShare, ps.MediaShare = share(replies), share(links), share(media)
	ps.QuestionShare, ps.ThreadShare = share(questions), share(threads)
	if dated > 0 {
		days := max(newest.Sub(oldest).Hours()/24, 1)
		ps.TweetsPerDay = round(float64(dated)/days, 2)
		hours := make([]int, 24)
		for h := range hours {
			hours[h] = h
		}
		slices.SortStableFunc(hours, func(a, b int) int {
			return cmp.Compare(ps.HourlyDistribution[b], ps.HourlyDistribution[a])
		})
		for _, h := range hours[:3] {
			if ps.HourlyDistribution[h] > 0 {
				ps.ActiveHoursUTC = append(ps.ActiveHoursUTC, h)
			}
		}
	}
	return ps
}

// ConversationAnalysis holds the conversation-insight fields computed from
// a tweet and a sample of its replies.
type ConversationAnalysis struct {
	// Sentiment is the per-reply and aggregate sentiment of the replies.
	Sentiment SentimentSummary `json:"sentiment"`
	// TopQuestions are replies asking something ("?"), by likes then
	// engagement.
	TopQuestions []ScoredTweet `json:"top_questions"`
	// TopObjections are replies that disagree: negative, or carrying an
	// objection cue ("not true", "disagree", "actually") with a compound
	// below 0.3; by engagement.
	TopObjections []ScoredTweet `json:"top_objections"`
	// NotableReplies are the replies with the highest reach × engagement.
	NotableReplies []ScoredTweet `json:"notable_replies"`
	// ControversyScore in [0, 1]; see the package documentation.
	ControversyScore float64 `json:"controversy_score"`
}

// AnalyzeConversation computes the conversation-insight fields.
func AnalyzeConversation(original Tweet, replies []Tweet) ConversationAnalysis {
	scores := scoreAll(replies)
	var questions, objections, notable []ScoredTweet
	for i, t := range replies {
		s := scores[i]
		if strings.ContainsRune(t.Text, '?') {
			q := scored(t, s)
			q.Score = float64(t.Metrics.LikeCount)
			questions = append(questions, q)
		}
		if oc := cuesIn(t.Text, objectionCues); s.Label() == sentiment.Negative || (len(oc) > 0 && s.Compound < 0.3) {
			o := scored(t, s)
			o.Cues = oc
			objections = append(objections, o)
		}
		if n := notability(t); n > 0 {
			nt := scored(t, s)
			nt.Score = n
			notable = append(notable, nt)
		}
	}
	sum := summarize(replies, scores)
	return ConversationAnalysis{
		Sentiment:        sum,
		TopQuestions:     rank(questions, topTweets, func(s ScoredTweet) float64 { return s.Score }),
		TopObjections:    rank(objections, topTweets, func(s ScoredTweet) float64 { return float64(s.Engagement) - s.Compound/10 }),
		NotableReplies:   rank(notable, topTweets, func(s ScoredTweet) float64 { return s.Score }),
		ControversyScore: controversy(original, sum, len(replies)),
	}
}

// controversy is 0.6 × balance × polarity + 0.4 × ratio, where polarity
// is the share of replies that are positive or negative, balance is
// 1 − |pos − neg| / (pos + neg) (1 when evenly split, 0 when one-sided or
// when no reply is polar), and ratio is min(1, replies / (likes + 1)) of
// the original tweet, replies being its reply_count or, when 0, the
// number of sampled replies.
func controversy(original Tweet, s SentimentSummary, sampled int) float64 {
	if sampled == 0 {
		return 0
	}
	polar := s.Positive + s.Negative
	balance := 0.0
	if polar > 0 {
		balance = 1 - math.Abs(float64(s.Positive-s.Negative))/float64(polar)
	}
	polarity := float64(polar) / float64(sampled)
	replies := original.Metrics.ReplyCount
	if replies == 0 {
		replies = int64(sampled)
	}
	ratio := min(1, float64(replies)/float64(original.Metrics.LikeCount+1))
	return round(0.6*balance*polarity+0.4*ratio, 4)
}
