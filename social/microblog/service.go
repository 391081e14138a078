package microblog

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/upstream"
)

// Defaults and bounds of the request parameters.
const (
	DefaultLimit      = 20  // limit: tweets per page, 1..MaxLimit
	MaxLimit          = 20  // the documented maximum of limit
	DefaultTweetLimit = 20  // tweet_limit of profile insights
	MaxTweetLimit     = 100 // tweet_limit maximum
	DefaultReplyLimit = 40  // reply_limit of conversation insights
	MaxReplyLimit     = 100 // reply_limit maximum
	maxQueryLen       = 512 // the X API's search query bound
	maxCursorLen      = 2048
	maxBrandLen       = 100
	maxKeywords       = 20
	maxFetchPages     = 10  // pages fetched for one tweet_limit or reply_limit
	maxThreadTweets   = 200 // conversation tweets examined for one thread
)

// ConfigureHint says how to configure a provider; it ends the message of
// the SERVICE_UNAVAILABLE error when none is.
const ConfigureHint = "configure a data provider: twitterapi.io or the X API with its key, or a file of JSON Lines"

// Config configures a [Client]. The zero value gives a Client without a
// provider, which answers every data operation with SERVICE_UNAVAILABLE
// saying how to configure one.
type Config struct {
	// Provider is the data source: a [TwitterAPIIO], [XAPI] or [File]
	// provider, or any other implementation. Default none.
	Provider Provider
	// Now is the clock for as_of and the posting statistics; default
	// time.Now.
	Now func() time.Time
}

// Client runs the microblog operations against a Provider. Build it with
// [New]; the zero value is a Client without a provider, which answers
// every data operation with SERVICE_UNAVAILABLE. A Client is safe for
// concurrent use when its Provider is.
type Client struct {
	src   Provider
	clock func() time.Time
}

// New returns a Client over cfg.Provider. Every Config works, so the
// error is always nil today; it is there for settings that cannot work.
func New(cfg Config) (*Client, error) {
	return &Client{src: cfg.Provider, clock: cfg.Now}, nil
}

func (c *Client) now() time.Time {
	if c != nil && c.clock != nil {
		return c.clock().UTC()
	}
	return time.Now().UTC()
}

func (c *Client) provider() (Provider, error) {
	if c == nil || c.src == nil {
		return nil, upstream.NotConfigured("microblog", ConfigureHint)
	}
	return c.src, nil
}

// ProfileRequest asks for a profile.
type ProfileRequest struct {
	// Username is the handle, with or without a leading "@".
	Username string `json:"username" openapi:"required"`
}

// UserTweetsRequest asks for a user's latest tweets.
type UserTweetsRequest struct {
	// Username is the handle, with or without a leading "@".
	Username string `json:"username" openapi:"required"`
	// Limit is the number of tweets, 1..20; 0 means the default, 20.
	Limit int `json:"limit,omitempty"`
	// Cursor is page_info.next_cursor of the previous page.
	Cursor string `json:"cursor,omitempty"`
	// IncludeReplies includes the user's replies; default false.
	IncludeReplies bool `json:"include_replies,omitempty"`
}

// SearchRequest asks for tweets matching a query.
type SearchRequest struct {
	// Query is a keyword, hashtag or advanced search query (at most 512
	// characters).
	Query string `json:"query" openapi:"required"`
	// Type is "latest" (default) or "top".
	Type SearchType `json:"type,omitempty"`
	// Limit is the number of tweets, 1..20; 0 means the default, 20.
	Limit int `json:"limit,omitempty"`
	// Cursor is page_info.next_cursor of the previous page.
	Cursor string `json:"cursor,omitempty"`
}

// TweetRequest asks for one tweet.
type TweetRequest struct {
	// TweetID is the tweet's numeric ID.
	TweetID string `json:"tweet_id" openapi:"required"`
}

// RepliesRequest asks for the replies to a tweet.
type RepliesRequest struct {
	// TweetID is the tweet's numeric ID.
	TweetID string `json:"tweet_id" openapi:"required"`
	// Sort is "relevance" (default), "latest" or "likes".
	Sort ReplySort `json:"sort,omitempty"`
	// Limit is the number of replies, 1..20; 0 means the default, 20.
	Limit int `json:"limit,omitempty"`
	// Cursor is page_info.next_cursor of the previous page.
	Cursor string `json:"cursor,omitempty"`
}

// Profile returns the profile of a user.
func (c *Client) Profile(ctx context.Context, req ProfileRequest) (Profile, error) {
	var v validator
	username := v.username("username", req.Username)
	if err := v.Err(); err != nil {
		return Profile{}, err
	}
	p, err := c.provider()
	if err != nil {
		return Profile{}, err
	}
	prof, err := p.Profile(ctx, username)
	if err != nil {
		return Profile{}, err
	}
	prof.Username = strings.TrimPrefix(prof.Username, "@")
	prof.URL = profileURL(prof.Username)
	prof.DataSource = p.Name()
	prof.AsOf = c.now().Format(time.RFC3339)
	return prof, nil
}

// UserTweets returns a page of a user's latest tweets.
func (c *Client) UserTweets(ctx context.Context, req UserTweetsRequest) (TweetList, error) {
	var v validator
	q := UserTweetsQuery{
		Username:       v.username("username", req.Username),
		IncludeReplies: req.IncludeReplies,
		Limit:          v.limit("limit", req.Limit, DefaultLimit, MaxLimit),
		Cursor:         v.cursor(req.Cursor),
	}
	return c.fetchList(v.Err(), q.Limit, q.Cursor, func(p Provider) (Page, error) {
		page, err := p.UserTweets(ctx, q)
		if !q.IncludeReplies {
			page.Tweets = dropReplies(page.Tweets)
		}
		return page, err
	})
}

// Search returns a page of tweets matching the query.
func (c *Client) Search(ctx context.Context, req SearchRequest) (TweetList, error) {
	q, err := validateSearch(req)
	return c.fetchList(err, q.Limit, q.Cursor, func(p Provider) (Page, error) { return p.Search(ctx, q) })
}

func validateSearch(req SearchRequest) (SearchQuery, error) {
	var v validator
	q := SearchQuery{
		Query:  v.text("query", req.Query, maxQueryLen),
		Type:   oneOf(&v, "type", req.Type, SearchLatest, SearchLatest, SearchTop),
		Limit:  v.limit("limit", req.Limit, DefaultLimit, MaxLimit),
		Cursor: v.cursor(req.Cursor),
	}
	return q, v.Err()
}

// Tweet returns one tweet.
func (c *Client) Tweet(ctx context.Context, req TweetRequest) (Tweet, error) {
	var v validator
	id := v.tweetID(req.TweetID)
	if err := v.Err(); err != nil {
		return Tweet{}, err
	}
	p, err := c.provider()
	if err != nil {
		return Tweet{}, err
	}
	t, err := p.Tweet(ctx, id)
	if err != nil {
		return Tweet{}, err
	}
	finish(&t, p.Name(), c.now())
	return t, nil
}

// Replies returns a page of the replies to a tweet.
func (c *Client) Replies(ctx context.Context, req RepliesRequest) (TweetList, error) {
	var v validator
	q := RepliesQuery{
		TweetID: v.tweetID(req.TweetID),
		Sort:    oneOf(&v, "sort", req.Sort, SortRelevance, SortRelevance, SortLatest, SortLikes),
		Limit:   v.limit("limit", req.Limit, DefaultLimit, MaxLimit),
		Cursor:  v.cursor(req.Cursor),
	}
	return c.fetchList(v.Err(), q.Limit, q.Cursor, func(p Provider) (Page, error) {
		page, err := p.Replies(ctx, q)
		page.Tweets = withoutID(page.Tweets, q.TweetID)
		sortReplies(page.Tweets, q.Sort)
		return page, err
	})
}

// fetchList runs one provider list call for a request whose validation
// gave verr, and shapes the page into the list payload.
func (c *Client) fetchList(verr error, limit int, cursor string, fetch func(Provider) (Page, error)) (TweetList, error) {
	if verr != nil {
		return TweetList{}, verr
	}
	p, err := c.provider()
	if err != nil {
		return TweetList{}, err
	}
	page, err := fetch(p)
	if err != nil {
		return TweetList{}, err
	}
	return c.list(p, page, limit, cursor), nil
}

// list turns a provider page into the list payload: at most limit tweets,
// each finished, and the cursor passed through. A provider's
// has_next_page is trusted only with a cursor and a non-empty page, so that
// "true with nothing left" ends the pagination, and never when it repeats
// the cursor of the request.
func (c *Client) list(p Provider, page Page, limit int, cursor string) TweetList {
	now := c.now()
	tweets := page.Tweets
	if len(tweets) > limit {
		tweets = tweets[:limit]
	}
	out := make([]Tweet, len(tweets))
	for i, t := range tweets {
		finish(&t, p.Name(), now)
		out[i] = t
	}
	info := PageInfo{}
	if page.HasNext && page.NextCursor != "" && page.NextCursor != cursor && len(page.Tweets) > 0 {
		info = PageInfo{HasNextPage: true, NextCursor: page.NextCursor}
	}
	return TweetList{Tweets: out, PageInfo: info, ResultCount: len(out), DataSource: p.Name(), AsOf: now.Format(time.RFC3339)}
}

// collect fetches pages until it has limit tweets that keep accepts (nil
// keeps all), the provider has no more, a page brings nothing new, the
// cursor repeats, or maxFetchPages pages were read.
func collect(limit int, keep func(Tweet) bool, fetch func(cursor string) (Page, error)) ([]Tweet, error) {
	var all []Tweet
	seen := map[string]bool{}
	cursor := ""
	for range maxFetchPages {
		page, err := fetch(cursor)
		if err != nil {
			return nil, err
		}
		added := 0
		for _, t := range page.Tweets {
			if !seen[t.ID] {
				seen[t.ID] = true
				added++
				if keep == nil || keep(t) {
					all = append(all, t)
				}
			}
		}
		if len(all) >= limit || added == 0 || !page.HasNext || page.NextCursor == "" || page.NextCursor == cursor {
			break
		}
		cursor = page.NextCursor
	}
	if len(all) > limit {
		all = all[:limit]
	}
	return all, nil
}

func dropReplies(ts []Tweet) []Tweet {
	out := ts[:0:0]
	for _, t := range ts {
		if !t.IsReply() {
			out = append(out, t)
		}
	}
	return out
}

func withoutID(ts []Tweet, id string) []Tweet {
	out := ts[:0:0]
	for _, t := range ts {
		if t.ID != id {
			out = append(out, t)
		}
	}
	return out
}

// validator collects the validation issues of a request.
type validator struct{ envelope.ValidationError }

func (v *validator) add(field, rule string) { v.Add(field, rule) }

func itoa(n int) string { return strconv.Itoa(n) }

var (
	usernameRE = regexp.MustCompile(`^[A-Za-z0-9_]{1,15}$`)
	tweetIDRE  = regexp.MustCompile(`^[0-9]{1,20}$`)
)

func (v *validator) username(field, s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "@")
	switch {
	case s == "":
		v.add(field, "is required")
	case !usernameRE.MatchString(s):
		v.add(field, "must be 1 to 15 letters, digits or underscores, with or without a leading @")
	}
	return s
}

func (v *validator) tweetID(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		v.add("tweet_id", "is required")
	case !tweetIDRE.MatchString(s):
		v.add("tweet_id", "must be a numeric tweet ID")
	}
	return s
}

func (v *validator) text(field, s string, max int) string {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		v.add(field, "is required")
	case len([]rune(s)) > max:
		v.add(field, "must be at most "+itoa(max)+" characters")
	}
	return s
}

func (v *validator) cursor(s string) string {
	if len(s) > maxCursorLen {
		v.add("cursor", "must be at most "+itoa(maxCursorLen)+" characters")
	}
	return s
}

func (v *validator) limit(field string, n, def, max int) int {
	if n == 0 {
		return def
	}
	if n < 1 || n > max {
		v.add(field, "must be between 1 and "+itoa(max))
		return def
	}
	return n
}

// oneOf returns s lower-cased when it is one of allowed, def when it
// is empty, and def with a problem for field otherwise.
func oneOf[S ~string](v *validator, field string, s, def S, allowed ...S) S {
	s = S(strings.ToLower(strings.TrimSpace(string(s))))
	if s == "" {
		return def
	}
	if slices.Contains(allowed, s) {
		return s
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	v.add(field, "must be one of "+strings.Join(names, ", "))
	return def
}
