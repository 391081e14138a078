package photosocial

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/quiverkit/quiver/internal/sentiment"
	"github.com/quiverkit/quiver/internal/stopwords"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/social"
)

// ProfileFacts are the numbers of profile insights, computed in Go before
// the model is asked, so that it never has to invent one. Engagement is
// likes + comments of a post.
type ProfileFacts struct {
	// MediaAnalyzed is the number of media the facts cover.
	MediaAnalyzed int `json:"media_analyzed"`
	// FollowersCount is the profile's followers at fetch time.
	FollowersCount int64 `json:"followers_count"`
	// Posting describes the cadence.
	Posting PostingFacts `json:"posting"`
	// AvgLikes, AvgComments and AvgEngagement are per post.
	AvgLikes      float64 `json:"avg_likes"`
	AvgComments   float64 `json:"avg_comments"`
	AvgEngagement float64 `json:"avg_engagement"`
	// EngagementRate is AvgEngagement / FollowersCount; 0 when followers
	// are unknown.
	EngagementRate float64 `json:"engagement_rate"`
	// ByType is the engagement per media type.
	ByType []TypeStat `json:"by_type"`
	// AvgHashtags is the mean number of hashtags per post.
	AvgHashtags float64 `json:"avg_hashtags"`
	// TopHashtags are the most used hashtags, at most 10.
	TopHashtags []TagStat `json:"top_hashtags"`
	// Captions are caption-length statistics.
	Captions CaptionFacts `json:"captions"`
	// BestPosts and WorstPosts are the top and bottom 3 by engagement.
	BestPosts  []PostRef `json:"best_posts"`
	WorstPosts []PostRef `json:"worst_posts"`
}

// PostingFacts describe when a profile posts.
type PostingFacts struct {
	// First and Last are the oldest and newest taken_at analysed.
	First string `json:"first"`
	Last  string `json:"last"`
	// SpanDays is the time between them in days.
	SpanDays float64 `json:"span_days"`
	// PostsPerWeek is (media - 1) / span in weeks; 0 with fewer than 2
	// dated media.
	PostsPerWeek float64 `json:"posts_per_week"`
	// MedianHoursBetween is the median gap between consecutive posts.
	MedianHoursBetween float64 `json:"median_hours_between"`
	// Weekdays counts posts per UTC weekday ("Monday"...), busiest first.
	Weekdays []social.Count `json:"weekdays"`
	// HoursUTC counts posts per UTC hour ("09"), busiest first, at most 5.
	HoursUTC []social.Count `json:"hours_utc"`
}

// TypeStat is the engagement of one media type.
type TypeStat struct {
	Type          MediaType `json:"type"`
	Count         int       `json:"count"`
	AvgEngagement float64   `json:"avg_engagement"`
}

// TagStat is a hashtag's use and the mean engagement of its posts.
type TagStat struct {
	Tag           string  `json:"tag"`
	Count         int     `json:"count"`
	AvgEngagement float64 `json:"avg_engagement"`
}

// CaptionFacts are caption-length statistics, in characters. Short
// captions have fewer than 100 characters.
type CaptionFacts struct {
	AvgLength          float64 `json:"avg_length"`
	MedianLength       float64 `json:"median_length"`
	ShortCount         int     `json:"short_count"`
	ShortAvgEngagement float64 `json:"short_avg_engagement"`
	LongCount          int     `json:"long_count"`
	LongAvgEngagement  float64 `json:"long_avg_engagement"`
}

// PostRef names a post with its engagement.
type PostRef struct {
	ID         string    `json:"id"`
	Shortcode  string    `json:"shortcode"`
	Type       MediaType `json:"type"`
	Engagement int64     `json:"engagement"`
	Caption    string    `json:"caption"`
}

func engagement(m Media) int64 { return m.LikeCount + m.CommentCount }

func round(x float64) float64 { return math.Round(x*1000) / 1000 }

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func counts(m map[string]int, max int) []social.Count {
	out := make([]social.Count, 0, len(m))
	for k, v := range m {
		out = append(out, social.Count{Value: k, Count: v})
	}
	slices.SortFunc(out, func(a, b social.Count) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Value, b.Value))
	})
	if max > 0 && len(out) > max {
		out = out[:max]
	}
	return out
}

// ComputeProfileFacts computes the facts of profile insights. It is pure
// and deterministic.
func ComputeProfileFacts(p Profile, media []Media) ProfileFacts {
	f := ProfileFacts{MediaAnalyzed: len(media), FollowersCount: p.FollowersCount,
		ByType: []TypeStat{}, TopHashtags: []TagStat{}, BestPosts: []PostRef{}, WorstPosts: []PostRef{}}
	f.Posting.Weekdays, f.Posting.HoursUTC = []social.Count{}, []social.Count{}
	if len(media) == 0 {
		return f
	}
	var likes, comments, engs, tagsPer, lens, shortE, longE []float64
	var times []time.Time
	wd, hr := map[string]int{}, map[string]int{}
	byType := map[MediaType][]float64{}
	tagEng := map[string][]float64{}
	for _, m := range media {
		e := float64(engagement(m))
		likes, comments, engs = append(likes, float64(m.LikeCount)), append(comments, float64(m.CommentCount)), append(engs, e)
		byType[m.Type] = append(byType[m.Type], e)
		tagsPer = append(tagsPer, float64(len(m.Hashtags)))
		for _, h := range m.Hashtags {
			tagEng[h] = append(tagEng[h], e)
		}
		n := float64(len([]rune(m.Caption)))
		lens = append(lens, n)
		if n < 100 {
			shortE = append(shortE, e)
		} else {
			longE = append(longE, e)
		}
		if t, err := time.Parse(time.RFC3339, m.TakenAt); err == nil {
			t = t.UTC()
			times = append(times, t)
			wd[t.Weekday().String()]++
			hr[t.Format("15")]++
		}
	}
	f.AvgLikes, f.AvgComments, f.AvgEngagement = round(mean(likes)), round(mean(comments)), round(mean(engs))
	if p.FollowersCount > 0 {
		f.EngagementRate = math.Round(mean(engs)/float64(p.FollowersCount)*1e5) / 1e5
	}
	for t, es := range byType {
		f.ByType = append(f.ByType, TypeStat{t, len(es), round(mean(es))})
	}
	slices.SortFunc(f.ByType, func(a, b TypeStat) int { return cmp.Compare(a.Type, b.Type) })
	f.AvgHashtags = round(mean(tagsPer))
	for t, es := range tagEng {
		f.TopHashtags = append(f.TopHashtags, TagStat{t, len(es), round(mean(es))})
	}
	slices.SortFunc(f.TopHashtags, func(a, b TagStat) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Tag, b.Tag)) })
	if len(f.TopHashtags) > 10 {
		f.TopHashtags = f.TopHashtags[:10]
	}
	f.Captions = CaptionFacts{AvgLength: round(mean(lens)), MedianLength: median(lens),
		ShortCount: len(shortE), ShortAvgEngagement: round(mean(shortE)), LongCount: len(longE), LongAvgEngagement: round(mean(longE))}
	if len(times) > 0 {
		slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
		first, last := times[0], times[len(times)-1]
		f.Posting.First, f.Posting.Last = first.Format(time.RFC3339), last.Format(time.RFC3339)
		span := last.Sub(first)
		f.Posting.SpanDays = round(span.Hours() / 24)
		if len(times) > 1 && span > 0 {
			f.Posting.PostsPerWeek = round(float64(len(times)-1) / (span.Hours() / (24 * 7)))
			var gaps []float64
			for i := 1; i < len(times); i++ {
				gaps = append(gaps, times[i].Sub(times[i-1]).Hours())
			}
			f.Posting.MedianHoursBetween = round(median(gaps))
		}
		f.Posting.Weekdays, f.Posting.HoursUTC = counts(wd, 0), counts(hr, 5)
	}
	sorted := slices.Clone(media)
	slices.SortStableFunc(sorted, func(a, b Media) int {
		return cmp.Or(cmp.Compare(engagement(b), engagement(a)), cmp.Compare(a.ID, b.ID))
	})
	ref := func(m Media) PostRef {
		return PostRef{ID: m.ID, Shortcode: m.Shortcode, Type: m.Type, Engagement: engagement(m), Caption: textcut.MarkRunes(strings.TrimSpace(m.Caption), 120, "…")}
	}
	n := min(3, len(sorted))
	for _, m := range sorted[:n] {
		f.BestPosts = append(f.BestPosts, ref(m))
	}
	for i := len(sorted) - 1; i >= len(sorted)-n; i-- {
		f.WorstPosts = append(f.WorstPosts, ref(sorted[i]))
	}
	return f
}

// CommentFacts are the facts of comment insights, computed in Go.
type CommentFacts struct {
	// CommentsAnalyzed is the number of comments covered.
	CommentsAnalyzed int `json:"comments_analyzed"`
	// Sentiment is the aggregate of the per-comment scores.
	Sentiment social.Sentiment `json:"sentiment"`
	// PerComment is the sentiment of each comment, in input order.
	PerComment []CommentSentiment `json:"per_comment"`
	// Questions are the comments that ask something, by syntax: a
	// sentence ending in "?", or starting with an interrogative or
	// auxiliary word (who, what, how, do, can, is, ...).
	Questions []CommentQuote `json:"questions"`
	// RepeatedPhrases are word sequences (2 or 3 words, not all stop
	// words) found in at least two comments, most frequent first, at most 10.
	RepeatedPhrases []Phrase `json:"repeated_phrases"`
	// ModerationFlags are the flags of the rule list; see [ModerationRules].
	ModerationFlags []ModerationFlag `json:"moderation_flags"`
}

// CommentSentiment is the sentiment of one comment.
type CommentSentiment struct {
	CommentID string       `json:"comment_id"`
	Compound  float64      `json:"compound"`
	Label     social.Label `json:"label"`
}

// CommentQuote quotes a comment.
type CommentQuote struct {
	CommentID string `json:"comment_id"`
	Text      string `json:"text"`
}

// Phrase is a repeated phrase and the comments that use it.
type Phrase struct {
	Phrase     string   `json:"phrase"`
	Count      int      `json:"count"`
	CommentIDs []string `json:"comment_ids"`
}

// ModerationFlag marks a comment that breaks a moderation rule.
type ModerationFlag struct {
	// CommentID is the flagged comment.
	CommentID string `json:"comment_id"`
	// Rule is spam_link, spam, slur or harassment.
	Rule RuleName `json:"rule"`
	// Excerpt is the start of the comment's text.
	Excerpt string `json:"excerpt"`
	// Reason says what matched, or the model's reason.
	Reason string `json:"reason"`
	// Source is "rules" for the documented rule list, "model" for a flag
	// the model added.
	Source FlagSource `json:"source"`
}

// A RuleName names a [ModerationRule].
type RuleName string

// The moderation rules, in the order flags are reported.
const (
	RuleSpamLink   RuleName = "spam_link"
	RuleSpam       RuleName = "spam"
	RuleSlur       RuleName = "slur"
	RuleHarassment RuleName = "harassment"
)

// RuleNames returns the names of the moderation rules, in the order
// flags are reported.
func RuleNames() []RuleName { return []RuleName{RuleSpamLink, RuleSpam, RuleSlur, RuleHarassment} }

// A FlagSource says who raised a [ModerationFlag].
type FlagSource string

// The sources of a [ModerationFlag].
const (
	FlagFromRules FlagSource = "rules" // the documented rule list
	FlagFromModel FlagSource = "model" // the model, under the same rules
)

// FlagSources returns the sources of a ModerationFlag.
func FlagSources() []FlagSource { return []FlagSource{FlagFromRules, FlagFromModel} }

// ModerationRule is one rule of comment moderation: a comment is flagged
// under the rule when its lower-cased text contains one of the cues. Cues
// that start or end with a letter or digit match on word boundaries only
// ("ugly" flags "so ugly!" but not "uglyduckling").
type ModerationRule struct {
	// Name is spam_link, spam, slur or harassment.
	Name RuleName
	// Cues are lower-case literals.
	Cues []string
}

// ModerationRules is the documented rule list of comment moderation, in
// the order flags are reported:
//   - spam_link: a URL or a link shortener or messenger domain;
//   - spam: promotion cues ("free followers", "check my profile", "dm me");
//   - slur: a short list of identity slurs and their common spellings;
//   - harassment: abuse aimed at a person ("kill yourself", "kys",
//     "everyone hates you", "ugly", "clown", "loser", "idiot").
//
// The model may add flags under these rules for comments the cues miss; it
// cannot remove a rule flag.
var moderationRules = []ModerationRule{
	{RuleSpamLink, []string{"http://", "https://", "www.", "bit.ly/", "tinyurl.com", "t.me/", "wa.me/", "linktr.ee", "goo.gl/", "cutt.ly/"}},
	{RuleSpam, []string{"free followers", "followers free", "check my profile", "check my page", "check my bio", "dm me", "dm for", "link in my bio", "promo code", "earn $", "earn money", "crypto giveaway"}},
	{RuleSlur, []string{"retard", "retarded", "faggot", "faggots", "fag", "tranny", "trannies", "nigger", "niggers", "nigga", "niggas", "n1gger", "kike", "kikes", "spic", "spics", "chink", "chinks"}},
	{RuleHarassment, []string{"kill yourself", "kys", "go die", "everyone hates you", "everyone hates your", "nobody likes you", "you're ugly", "you’re ugly", "you are ugly", "ugly", "clown", "loser", "idiot", "stupid", "shut up", "i will find you"}},
}

// ModerationRules returns the documented rule list (see above); the copy
// is the caller's to change.
func ModerationRules() []ModerationRule {
	rules := make([]ModerationRule, len(moderationRules))
	for i, r := range moderationRules {
		rules[i] = r
		rules[i].Cues = slices.Clone(r.Cues)
	}
	return rules
}

// match returns the first cue of r found in lower, or "".
func (r ModerationRule) match(lower string) string {
	for _, cue := range r.Cues {
		for from := 0; from <= len(lower)-len(cue); {
			i := strings.Index(lower[from:], cue)
			if i < 0 {
				break
			}
			i += from
			if boundary(lower, i, cue) {
				return cue
			}
			from = i + 1
		}
	}
	return ""
}

// boundary reports whether cue at lower[i:] stands on word boundaries
// where it starts or ends with a word character.
func boundary(lower string, i int, cue string) bool {
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
	first, _ := utf8.DecodeRuneInString(cue)
	last, _ := utf8.DecodeLastRuneInString(cue)
	if isWord(first) && i > 0 {
		if r, _ := utf8.DecodeLastRuneInString(lower[:i]); isWord(r) {
			return false
		}
	}
	if end := i + len(cue); isWord(last) && end < len(lower) {
		if r, _ := utf8.DecodeRuneInString(lower[end:]); isWord(r) {
			return false
		}
	}
	return true
}

var questionStart = regexp.MustCompile(`^(?i)(who|whom|whose|what|when|where|why|how|which|is|are|am|was|were|do|does|did|can|could|will|would|should|shall|may|might|have|has)\b`)

var sentenceEnd = regexp.MustCompile(`[.!\n]+`)

// isQuestion reports whether a comment asks something, by syntax.
func isQuestion(text string) bool {
	if strings.Contains(text, "?") {
		return true
	}
	for _, s := range sentenceEnd.Split(text, -1) {
		s = strings.TrimSpace(s)
		// Skip leading @mentions ("@anna do you ...").
		for strings.HasPrefix(s, "@") {
			_, rest, _ := strings.Cut(s, " ")
			s = strings.TrimSpace(rest)
		}
		if questionStart.MatchString(s) {
			return true
		}
	}
	return false
}

func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

// ComputeCommentFacts computes the facts of comment insights. It is pure
// and deterministic.
func ComputeCommentFacts(cs []Comment) CommentFacts {
	f := CommentFacts{CommentsAnalyzed: len(cs), PerComment: []CommentSentiment{}, Questions: []CommentQuote{},
		RepeatedPhrases: []Phrase{}, ModerationFlags: []ModerationFlag{}}
	var sum float64
	phrases := map[string][]string{}
	for _, c := range cs {
		s := sentiment.Score(c.Text)
		l := social.LabelOf(s.Compound)
		f.PerComment = append(f.PerComment, CommentSentiment{c.ID, round(s.Compound), l})
		sum += s.Compound
		f.Sentiment.Add(l)
		if isQuestion(c.Text) {
			f.Questions = append(f.Questions, CommentQuote{c.ID, textcut.MarkRunes(strings.TrimSpace(c.Text), 280, "…")})
		}
		lower := strings.ToLower(c.Text)
		for _, rule := range moderationRules {
			if m := rule.match(lower); m != "" {
				f.ModerationFlags = append(f.ModerationFlags, ModerationFlag{CommentID: c.ID, Rule: rule.Name,
					Excerpt: textcut.MarkRunes(strings.TrimSpace(c.Text), 120, "…"), Reason: "matched " + m, Source: FlagFromRules})
			}
		}
		ws := words(c.Text)
		seen := map[string]bool{}
		for n := 2; n <= 3; n++ {
			for i := 0; i+n <= len(ws); i++ {
				gram := ws[i : i+n]
				content := false
				for _, w := range gram {
					if !stopwords.Is(w) {
						content = true
					}
				}
				p := strings.Join(gram, " ")
				if content && !seen[p] {
					seen[p] = true
					phrases[p] = append(phrases[p], c.ID)
				}
			}
		}
	}
	if len(cs) > 0 {
		f.Sentiment.MeanCompound = round(sum / float64(len(cs)))
	}
	f.Sentiment.Label = social.LabelOf(f.Sentiment.MeanCompound)
	for p, ids := range phrases {
		if len(ids) >= 2 {
			f.RepeatedPhrases = append(f.RepeatedPhrases, Phrase{p, len(ids), ids})
		}
	}
	sort.Slice(f.RepeatedPhrases, func(i, j int) bool {
		a, b := f.RepeatedPhrases[i], f.RepeatedPhrases[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if len(a.Phrase) != len(b.Phrase) {
			return len(a.Phrase) > len(b.Phrase)
		}
		return a.Phrase < b.Phrase
	})
	f.RepeatedPhrases, _ = topPhrases(f.RepeatedPhrases, 10)
	return f
}

// topPhrases keeps the first n of the sorted phrases, dropping a 2-word
// phrase whose words a kept 3-word phrase of the same count begins or ends
// with. It stops at n kept phrases, and checks each phrase once against a
// set, so its work is linear in the phrases. It also returns the number of
// checks it made, which the tests bound.
func topPhrases(sorted []Phrase, n int) ([]Phrase, int) {
	type countedPair struct {
		count  int
		phrase string
	}
	kept := []Phrase{}
	inKept := map[countedPair]bool{}
	checks := 0
	for _, p := range sorted {
		if len(kept) == n {
			break
		}
		checks++
		if inKept[countedPair{p.Count, p.Phrase}] {
			continue
		}
		kept = append(kept, p)
		if ws := strings.Fields(p.Phrase); len(ws) == 3 {
			inKept[countedPair{p.Count, ws[0] + " " + ws[1]}] = true
			inKept[countedPair{p.Count, ws[1] + " " + ws[2]}] = true
		}
	}
	return kept, checks
}
