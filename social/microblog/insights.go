package microblog

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// SearchInsights is a page of search results (the list payload) with the
// search-insight fields computed over it, side by side in one JSON object.
type SearchInsights struct {
	TweetList
	TweetsAnalysis
}

// SearchInsights searches and analyses the page found.
func (c *Client) SearchInsights(ctx context.Context, req SearchRequest) (SearchInsights, error) {
	l, err := c.Search(ctx, req)
	if err != nil {
		return SearchInsights{}, err
	}
	return SearchInsights{TweetList: l, TweetsAnalysis: AnalyzeTweets(l.Tweets)}, nil
}

// BrandMentionsRequest asks for the mentions of a brand.
type BrandMentionsRequest struct {
	// Brand is the brand name or handle (at most 100 characters).
	Brand string `json:"brand" openapi:"required"`
	// Keywords are the terms a mention must contain at least one of, one
	// term an element (a term may hold spaces, never a comma): at most
	// 20, each 1 to 100 characters. On the HTTP API they are the query
	// parameter keywords, comma-separated (keywords=refund,support).
	Keywords []string `json:"keywords,omitempty"`
	// ExcludeKeywords are the terms a mention must contain none of, as
	// Keywords (query parameter exclude_keywords, comma-separated).
	ExcludeKeywords []string `json:"exclude_keywords,omitempty"`
	// Type is "latest" (default) or "top".
	Type SearchType `json:"type,omitempty"`
	// Limit is the number of mentions to analyse, 1..20; 0 means the default, 20.
	Limit int `json:"limit,omitempty"`
	// Cursor is page_info.next_cursor of the previous page.
	Cursor string `json:"cursor,omitempty"`
}

// BrandMentions is a page of brand mentions (the list payload of the
// mentions kept after filtering) with the brand-mention fields.
type BrandMentions struct {
	// Brand is the brand searched for.
	Brand string `json:"brand"`
	// Query is the search query sent to the provider.
	Query string `json:"query"`
	TweetList
	BrandAnalysis
}

// BrandQuery builds the search query of a brand: the brand or its handle
// ("(acme OR @acme)", "(\"acme cloud\" OR @acmecloud)"), at least one
// keyword when given ("(a OR b)"), none of the excluded ones ("-c").
// Terms with spaces are quoted.
func BrandQuery(brand string, keywords, exclude []string) string {
	quote := func(s string) string {
		s = strings.ReplaceAll(strings.TrimSpace(s), `"`, "")
		if strings.ContainsAny(s, " \t") {
			return `"` + s + `"`
		}
		return s
	}
	parts := []string{quote(brand)}
	if h := brandHandle(brand); h != "" {
		parts[0] = "(" + parts[0] + " OR @" + h + ")"
	}
	if len(keywords) > 0 {
		ks := make([]string, len(keywords))
		for i, k := range keywords {
			ks[i] = quote(k)
		}
		if len(ks) == 1 {
			parts = append(parts, ks[0])
		} else {
			parts = append(parts, "("+strings.Join(ks, " OR ")+")")
		}
	}
	for _, e := range exclude {
		parts = append(parts, "-"+quote(e))
	}
	return strings.Join(parts, " ")
}

// brandHandle is the handle a brand would have: its letters and digits,
// when that makes a valid username; "" otherwise.
func brandHandle(brand string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimLeft(brand, "@#")) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			b.WriteRune(r)
		}
	}
	if h := b.String(); usernameRE.MatchString(h) {
		return h
	}
	return ""
}

// BrandMentions searches the brand's mentions, keeps those that pass the
// keyword filters (the provider's search may be looser), and analyses them.
func (c *Client) BrandMentions(ctx context.Context, req BrandMentionsRequest) (BrandMentions, error) {
	var v validator
	brand := v.text("brand", req.Brand, maxBrandLen)
	for _, f := range []struct {
		name  string
		terms []string
	}{{"keywords", req.Keywords}, {"exclude_keywords", req.ExcludeKeywords}} {
		if len(f.terms) > maxKeywords {
			v.add(f.name, "must list at most "+itoa(maxKeywords)+" terms")
		}
		for _, t := range f.terms {
			if strings.Trim(t, " \"\t") == "" || len([]rune(t)) > maxBrandLen {
				v.add(f.name, "terms must be 1 to "+itoa(maxBrandLen)+" characters")
				break
			}
			if strings.Contains(t, ",") {
				// A term never holds a comma on the wire: "a,b" in one
				// element is a caller who read the query string's form.
				v.add(f.name, "terms must not hold a comma: give each term as its own element")
				break
			}
		}
	}
	typ := oneOf(&v, "type", req.Type, SearchLatest, SearchLatest, SearchTop)
	limit := v.limit("limit", req.Limit, DefaultLimit, MaxLimit)
	cursor := v.cursor(req.Cursor)
	if err := v.Err(); err != nil {
		return BrandMentions{}, err
	}
	query := BrandQuery(brand, req.Keywords, req.ExcludeKeywords)
	if n := utf8.RuneCountInString(query); n > maxQueryLen {
		v.add("keywords", "with brand and exclude_keywords make a search query of "+itoa(n)+" characters; at most "+itoa(maxQueryLen))
		return BrandMentions{}, v.Err()
	}
	p, err := c.provider()
	if err != nil {
		return BrandMentions{}, err
	}
	page, err := p.Search(ctx, SearchQuery{Query: query, Type: typ, Limit: limit, Cursor: cursor})
	if err != nil {
		return BrandMentions{}, err
	}
	raw := len(page.Tweets)
	page.Tweets = FilterMentions(page.Tweets, brand, req.Keywords, req.ExcludeKeywords)
	l := c.list(p, page, limit, cursor)
	if raw > 0 && page.HasNext && page.NextCursor != "" && page.NextCursor != cursor {
		l.PageInfo = PageInfo{HasNextPage: true, NextCursor: page.NextCursor}
	}
	return BrandMentions{Brand: brand, Query: query, TweetList: l, BrandAnalysis: AnalyzeBrand(l.Tweets)}, nil
}

// ProfileInsightsRequest asks for a profile's insights.
type ProfileInsightsRequest struct {
	// Username is the handle, with or without a leading "@".
	Username string `json:"username" openapi:"required"`
	// TweetLimit is the number of recent tweets analysed, 1..100;
	// 0 means the default, 20.
	TweetLimit int `json:"tweet_limit,omitempty"`
	// IncludeReplies includes the user's replies; default false.
	IncludeReplies bool `json:"include_replies,omitempty"`
}

// ProfileInsights is a profile, its recent tweets and the profile-insight
// fields.
type ProfileInsights struct {
	// Profile is the user's profile.
	Profile Profile `json:"profile"`
	// RecentTweets are the tweets analysed, newest first.
	RecentTweets []Tweet `json:"recent_tweets"`
	ProfileAnalysis
	// DataSource names the provider.
	DataSource string `json:"data_source"`
	// AsOf is when the data was fetched (RFC 3339, UTC).
	AsOf string `json:"as_of"`
}

// ProfileInsights fetches a profile and up to tweet_limit recent tweets
// (over several provider pages when needed) and analyses them.
func (c *Client) ProfileInsights(ctx context.Context, req ProfileInsightsRequest) (ProfileInsights, error) {
	var v validator
	username := v.username("username", req.Username)
	limit := v.limit("tweet_limit", req.TweetLimit, DefaultTweetLimit, MaxTweetLimit)
	if err := v.Err(); err != nil {
		return ProfileInsights{}, err
	}
	prof, err := c.Profile(ctx, ProfileRequest{Username: username})
	if err != nil {
		return ProfileInsights{}, err
	}
	p := c.src
	keep := func(t Tweet) bool { return req.IncludeReplies || !t.IsReply() }
	tweets, err := collect(limit, keep, func(cursor string) (Page, error) {
		return p.UserTweets(ctx, UserTweetsQuery{Username: username, IncludeReplies: req.IncludeReplies, Limit: min(limit, MaxLimit), Cursor: cursor})
	})
	if err != nil {
		return ProfileInsights{}, err
	}
	now := c.now()
	for i := range tweets {
		finish(&tweets[i], p.Name(), now)
	}
	return ProfileInsights{
		Profile: prof, RecentTweets: nonNil(tweets), ProfileAnalysis: AnalyzeProfile(prof.FollowersCount, tweets),
		DataSource: p.Name(), AsOf: now.Format(time.RFC3339),
	}, nil
}

// ConversationInsightsRequest asks for a conversation's insights.
type ConversationInsightsRequest struct {
	// TweetID is the original tweet's numeric ID.
	TweetID string `json:"tweet_id" openapi:"required"`
	// Sort is the order replies are sampled in: "relevance" (default),
	// "latest" or "likes".
	Sort ReplySort `json:"sort,omitempty"`
	// ReplyLimit is the number of replies sampled, 1..100; 0 means the
	// default, 40.
	ReplyLimit int `json:"reply_limit,omitempty"`
}

// ConversationInsights is a tweet, a sample of its replies and the
// conversation-insight fields.
type ConversationInsights struct {
	// OriginalTweet is the tweet replied to.
	OriginalTweet Tweet `json:"original_tweet"`
	// Replies are the sampled replies, in the order asked for.
	Replies []Tweet `json:"replies"`
	// SampledReplyCount is len(Replies).
	SampledReplyCount int `json:"sampled_reply_count"`
	ConversationAnalysis
	// DataSource names the provider.
	DataSource string `json:"data_source"`
	// AsOf is when the data was fetched (RFC 3339, UTC).
	AsOf string `json:"as_of"`
}

// ConversationInsights fetches a tweet and up to reply_limit replies and
// analyses the conversation.
func (c *Client) ConversationInsights(ctx context.Context, req ConversationInsightsRequest) (ConversationInsights, error) {
	var v validator
	id := v.tweetID(req.TweetID)
	sort := oneOf(&v, "sort", req.Sort, SortRelevance, SortRelevance, SortLatest, SortLikes)
	limit := v.limit("reply_limit", req.ReplyLimit, DefaultReplyLimit, MaxReplyLimit)
	if err := v.Err(); err != nil {
		return ConversationInsights{}, err
	}
	orig, err := c.Tweet(ctx, TweetRequest{TweetID: id})
	if err != nil {
		return ConversationInsights{}, err
	}
	p := c.src
	replies, err := collect(limit, func(t Tweet) bool { return t.ID != id }, func(cursor string) (Page, error) {
		return p.Replies(ctx, RepliesQuery{TweetID: id, Sort: sort, Limit: min(limit, MaxLimit), Cursor: cursor})
	})
	if err != nil {
		return ConversationInsights{}, err
	}
	sortReplies(replies, sort)
	now := c.now()
	for i := range replies {
		finish(&replies[i], p.Name(), now)
	}
	return ConversationInsights{
		OriginalTweet: orig, Replies: nonNil(replies), SampledReplyCount: len(replies),
		ConversationAnalysis: AnalyzeConversation(orig, replies),
		DataSource:           p.Name(), AsOf: now.Format(time.RFC3339),
	}, nil
}

// sortReplies orders replies for "latest" (newest first) and "likes" (most
// liked first); "relevance" keeps the provider's order. The sort is
// stable, so equal keys keep the provider's order.
func sortReplies(ts []Tweet, sort ReplySort) {
	switch sort {
	case SortLatest:
		slices.SortStableFunc(ts, func(a, b Tweet) int { return b.Time.Compare(a.Time) })
	case SortLikes:
		slices.SortStableFunc(ts, func(a, b Tweet) int { return cmp.Compare(b.Metrics.LikeCount, a.Metrics.LikeCount) })
	}
}

func nonNil(ts []Tweet) []Tweet {
	if ts == nil {
		return []Tweet{}
	}
	return ts
}
