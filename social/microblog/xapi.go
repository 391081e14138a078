package microblog

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/upstream"
	"github.com/quiverkit/quiver/secret"
)

// XAPIBaseURL is the API root of the X API v2.
const XAPIBaseURL = "https://api.x.com/2"

// XAPI is the Provider over the X API v2 with an app-only bearer token. It
// uses users/by/username/:username, users/:id/tweets, tweets (lookup by
// IDs) and tweets/search/recent; replies and threads are searches for
// conversation_id:<id>, so they cover the last seven days only, as the
// recent search does. Requests ask for public_metrics and expand the
// authors and media.
//
// The X API sizes pages itself (5..100 for timelines, 10..100 for search):
// XAPI asks for the limit, raised to the minimum, and Client trims. The
// "likes" order of replies is applied to each page by Client.
type XAPI struct {
	up *upstream.Client
}

// XAPIConfig configures an [XAPI] provider.
type XAPIConfig struct {
	// Token is the app-only bearer token, sent in the Authorization
	// header. Required. It never appears in errors, and its printed forms
	// show "[redacted]" (see package secret).
	Token secret.String
	// BaseURL is the API root; default XAPIBaseURL. Tests point it at a
	// microblogtest server.
	BaseURL string
	// HTTPClient sends the requests; default a shared client. Redirects
	// are followed only within the provider's host.
	HTTPClient *http.Client
	// MaxResponseBytes bounds each response body; default
	// DefaultMaxResponseBytes (4 MiB).
	MaxResponseBytes int64
	// Timeout bounds each request, body included; default
	// DefaultTimeout (15 s).
	Timeout time.Duration
	// Metrics, when set, is the Prometheus registry in which the provider
	// counts its calls: quiver_upstream_requests_total{provider="xapi",outcome}
	// and quiver_upstream_request_duration_seconds{provider="xapi"}. Pass the
	// registry of httpapi.Config.Metrics, so that the handler's /metrics
	// show them. Default (nil): the calls are not counted.
	Metrics prometheus.Registerer
}

// Format implements fmt.Formatter: every verb prints the provider's type
// and base URL, never its credential.
func (p XAPI) Format(f fmt.State, _ rune) { upstream.FormatProvider(f, "microblog.XAPI", p.up) }

// NewXAPI returns the X API v2 provider. The error wraps
// [ErrInvalidConfig] when Token is empty or a setting cannot work.
func NewXAPI(cfg XAPIConfig) (*XAPI, error) {
	if strings.TrimSpace(cfg.Token.Reveal()) == "" {
		return nil, invalidConfig("x-api-v2: Token is required")
	}
	h := httpSettings{cfg.HTTPClient, cfg.BaseURL, cfg.MaxResponseBytes, cfg.Timeout, cfg.Metrics, "xapi"}
	up, err := h.newUpstream("x-api-v2", XAPIBaseURL, http.Header{"Authorization": {"Bearer " + cfg.Token.Reveal()}})
	if err != nil {
		return nil, err
	}
	return &XAPI{up: up}, nil
}

// Name implements Provider.
func (p *XAPI) Name() string { return "x-api-v2" }

const (
	xTweetFields = "created_at,public_metrics,conversation_id,in_reply_to_user_id,referenced_tweets,attachments,author_id,note_tweet"
	xUserFields  = "created_at,description,location,profile_image_url,public_metrics,verified,verified_type"
	xExpansions  = "author_id,attachments.media_keys"
)

type xUser struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Username        string `json:"username"`
	Description     string `json:"description"`
	Location        string `json:"location"`
	Verified        bool   `json:"verified"`
	VerifiedType    string `json:"verified_type"`
	CreatedAt       string `json:"created_at"`
	ProfileImageURL string `json:"profile_image_url"`
	PublicMetrics   *struct {
		FollowersCount int64 `json:"followers_count"`
		FollowingCount int64 `json:"following_count"`
		TweetCount     int64 `json:"tweet_count"`
	} `json:"public_metrics"`
}

type xTweet struct {
	ID               string `json:"id"`
	Text             string `json:"text"`
	AuthorID         string `json:"author_id"`
	CreatedAt        string `json:"created_at"`
	ConversationID   string `json:"conversation_id"`
	InReplyToUserID  string `json:"in_reply_to_user_id"`
	ReferencedTweets []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	} `json:"referenced_tweets"`
	Attachments struct {
		MediaKeys []string `json:"media_keys"`
	} `json:"attachments"`
	NoteTweet *struct {
		Text string `json:"text"`
	} `json:"note_tweet"`
	PublicMetrics struct {
		RetweetCount    int64 `json:"retweet_count"`
		ReplyCount      int64 `json:"reply_count"`
		LikeCount       int64 `json:"like_count"`
		QuoteCount      int64 `json:"quote_count"`
		ImpressionCount int64 `json:"impression_count"`
	} `json:"public_metrics"`
}

type xProblem struct {
	Title        string `json:"title"`
	Detail       string `json:"detail"`
	Type         string `json:"type"`
	ResourceType string `json:"resource_type"`
}

// xList is the response of every tweet list and lookup.
type xList struct {
	Data     []xTweet `json:"data"`
	Includes struct {
		Users []xUser `json:"users"`
	} `json:"includes"`
	Meta struct {
		ResultCount int    `json:"result_count"`
		NextToken   string `json:"next_token"`
	} `json:"meta"`
	Errors []xProblem `json:"errors"`
}

func (p *XAPI) get(ctx context.Context, path string, q url.Values, v any) error {
	r := upstream.Request{Path: path, Query: q}
	for _, c := range []string{"pagination_token", "next_token"} {
		if q.Has(c) {
			r.CursorParam = c
		}
	}
	return p.up.Send(ctx, r, v)
}

// problemErr maps the "errors" of a 200 answer that carries no data.
func problemErr(ps []xProblem) error {
	if len(ps) == 0 {
		return nil
	}
	if strings.HasSuffix(ps[0].Type, "resource-not-found") || strings.Contains(ps[0].Title, "Not Found") {
		return envelope.Errorf(envelope.CodeNotFound, "x-api-v2: %s", excerptMsg(ps[0].Detail))
	}
	return envelope.Errorf(envelope.CodeUpstreamError, "x-api-v2 reported an error: %s", excerptMsg(ps[0].Title+": "+ps[0].Detail))
}

func (l xList) page() Page {
	users := make(map[string]xUser, len(l.Includes.Users))
	for _, u := range l.Includes.Users {
		users[u.ID] = u
	}
	out := Page{Tweets: make([]Tweet, 0, len(l.Data)), NextCursor: l.Meta.NextToken, HasNext: l.Meta.NextToken != ""}
	for _, t := range l.Data {
		u := users[t.AuthorID]
		followers := int64(-1)
		if u.PublicMetrics != nil {
			followers = u.PublicMetrics.FollowersCount
		}
		text := t.Text
		if t.NoteTweet != nil && t.NoteTweet.Text != "" {
			text = t.NoteTweet.Text
		}
		tw := Tweet{
			ID: t.ID, Text: text,
			Author: Author{ID: t.AuthorID, Username: u.Username, DisplayName: u.Name, Verified: u.Verified || (u.VerifiedType != "" && u.VerifiedType != "none"), Followers: followers},
			Metrics: Metrics{
				RetweetCount: t.PublicMetrics.RetweetCount, ReplyCount: t.PublicMetrics.ReplyCount, LikeCount: t.PublicMetrics.LikeCount,
				QuoteCount: t.PublicMetrics.QuoteCount, ViewCount: t.PublicMetrics.ImpressionCount,
			},
			Time: parseTime(t.CreatedAt), ConversationID: t.ConversationID, InReplyToUserID: t.InReplyToUserID,
			HasMedia: len(t.Attachments.MediaKeys) > 0,
		}
		for _, r := range t.ReferencedTweets {
			if r.Type == "replied_to" {
				tw.InReplyToID = r.ID
			}
		}
		out.Tweets = append(out.Tweets, tw)
	}
	return out
}

func tweetQuery(extra url.Values) url.Values {
	q := url.Values{"tweet.fields": {xTweetFields}, "user.fields": {xUserFields}, "expansions": {xExpansions}}
	for k, v := range extra {
		q[k] = v
	}
	return q
}

func (p *XAPI) user(ctx context.Context, username string) (xUser, error) {
	var r struct {
		Data   *xUser     `json:"data"`
		Errors []xProblem `json:"errors"`
	}
	if err := p.get(ctx, "/users/by/username/"+url.PathEscape(username), url.Values{"user.fields": {xUserFields}}, &r); err != nil {
		return xUser{}, userErr(err, username)
	}
	if r.Data == nil {
		if err := problemErr(r.Errors); err != nil {
			return xUser{}, userErr(err, username)
		}
		return xUser{}, envelope.Errorf(envelope.CodeNotFound, "user @%s not found", username)
	}
	return *r.Data, nil
}

// Profile implements Provider.
func (p *XAPI) Profile(ctx context.Context, username string) (Profile, error) {
	u, err := p.user(ctx, username)
	if err != nil {
		return Profile{}, err
	}
	prof := Profile{
		ID: u.ID, Username: u.Username, DisplayName: u.Name, Description: u.Description, Location: u.Location,
		Verified:  u.Verified || (u.VerifiedType != "" && u.VerifiedType != "none"),
		CreatedAt: formatCreatedAt(parseTime(u.CreatedAt)), ProfileImageURL: u.ProfileImageURL,
	}
	if m := u.PublicMetrics; m != nil {
		prof.FollowersCount, prof.FollowingCount, prof.TweetCount = m.FollowersCount, m.FollowingCount, m.TweetCount
	}
	return prof, nil
}

func (p *XAPI) list(ctx context.Context, path string, q url.Values) (Page, error) {
	var l xList
	if err := p.get(ctx, path, q, &l); err != nil {
		return Page{}, err
	}
	if len(l.Data) == 0 {
		if err := problemErr(l.Errors); err != nil {
			return Page{}, err
		}
	}
	return l.page(), nil
}

// UserTweets implements Provider.
func (p *XAPI) UserTweets(ctx context.Context, q UserTweetsQuery) (Page, error) {
	u, err := p.user(ctx, q.Username)
	if err != nil {
		return Page{}, err
	}
	v := tweetQuery(url.Values{"max_results": {strconv.Itoa(min(max(q.Limit, 5), 100))}})
	if !q.IncludeReplies {
		v.Set("exclude", "replies")
	}
	if q.Cursor != "" {
		v.Set("pagination_token", q.Cursor)
	}
	page, err := p.list(ctx, "/users/"+url.PathEscape(u.ID)+"/tweets", v)
	return page, userErr(err, q.Username)
}

func (p *XAPI) search(ctx context.Context, query, order string, limit int, cursor string) (Page, error) {
	v := tweetQuery(url.Values{"query": {query}, "max_results": {strconv.Itoa(min(max(limit, 10), 100))}, "sort_order": {order}})
	if cursor != "" {
		v.Set("next_token", cursor)
	}
	return p.list(ctx, "/tweets/search/recent", v)
}

// Search implements Provider.
func (p *XAPI) Search(ctx context.Context, q SearchQuery) (Page, error) {
	order := "recency"
	if q.Type == SearchTop {
		order = "relevancy"
	}
	return p.search(ctx, q.Query, order, q.Limit, q.Cursor)
}

// Tweet implements Provider.
func (p *XAPI) Tweet(ctx context.Context, id string) (Tweet, error) {
	page, err := p.list(ctx, "/tweets", tweetQuery(url.Values{"ids": {id}}))
	if err != nil {
		return Tweet{}, tweetErr(err, id)
	}
	for _, t := range page.Tweets {
		if t.ID == id {
			return t, nil
		}
	}
	return Tweet{}, envelope.Errorf(envelope.CodeNotFound, "tweet %s not found", id)
}

// Replies implements Provider.
func (p *XAPI) Replies(ctx context.Context, q RepliesQuery) (Page, error) {
	order := "relevancy"
	if q.Sort == SortLatest || q.Sort == SortLikes {
		order = "recency"
	}
	page, err := p.search(ctx, "conversation_id:"+q.TweetID+" is:reply", order, q.Limit, q.Cursor)
	return page, tweetErr(err, q.TweetID)
}

// Conversation implements Provider. q.TweetID is normally the
// conversation's root; when the search finds nothing for it, the tweet is
// looked up and its own conversation_id searched instead.
func (p *XAPI) Conversation(ctx context.Context, q PageQuery) (Page, error) {
	page, err := p.search(ctx, "conversation_id:"+q.TweetID, "recency", 100, q.Cursor)
	if err != nil || len(page.Tweets) > 0 || q.Cursor != "" {
		return page, tweetErr(err, q.TweetID)
	}
	t, err := p.Tweet(ctx, q.TweetID)
	if err != nil || t.ConversationID == "" || t.ConversationID == q.TweetID {
		return page, err
	}
	page, err = p.search(ctx, "conversation_id:"+t.ConversationID, "recency", 100, "")
	return page, tweetErr(err, q.TweetID)
}
