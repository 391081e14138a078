package microblog

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/strictjson"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/internal/upstream"
	"github.com/quiverkit/quiver/secret"
)

// TwitterAPIIOBaseURL is the API root of twitterapi.io.
const TwitterAPIIOBaseURL = "https://api.twitterapi.io"

// TwitterAPIIO is the Provider over twitterapi.io. It authenticates with
// the X-API-Key header and uses /twitter/user/info,
// /twitter/user/last_tweets, /twitter/tweet/advanced_search,
// /twitter/tweets (by IDs), /twitter/tweet/replies/v2 and
// /twitter/tweet/thread_context.
//
// Its list responses carry the tweets at the top level ("tweets" or
// "replies") or under "data"; both are read. It may claim has_next_page
// with an empty page; Client ends the pagination there.
type TwitterAPIIO struct {
	up *upstream.Client
}

// TwitterAPIIOConfig configures a [TwitterAPIIO] provider.
type TwitterAPIIOConfig struct {
	// APIKey is the twitterapi.io API key, sent in the X-API-Key header.
	// Required. It never appears in errors, and its printed forms show
	// "[redacted]" (see package secret).
	APIKey secret.String
	// BaseURL is the API root; default TwitterAPIIOBaseURL. Tests point
	// it at a microblogtest server.
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
	// counts its calls: quiver_upstream_requests_total{provider="twitterapi",outcome}
	// and quiver_upstream_request_duration_seconds{provider="twitterapi"}. Pass the
	// registry of httpapi.Config.Metrics, so that the handler's /metrics
	// show them. Default (nil): the calls are not counted.
	Metrics prometheus.Registerer
}

// Format implements fmt.Formatter: every verb prints the provider's type
// and base URL, never its credential.
func (p TwitterAPIIO) Format(f fmt.State, _ rune) {
	upstream.FormatProvider(f, "microblog.TwitterAPIIO", p.up)
}

// NewTwitterAPIIO returns the twitterapi.io provider. The error wraps
// [ErrInvalidConfig] when APIKey is empty or a setting cannot work.
func NewTwitterAPIIO(cfg TwitterAPIIOConfig) (*TwitterAPIIO, error) {
	if strings.TrimSpace(cfg.APIKey.Reveal()) == "" {
		return nil, invalidConfig("twitterapi.io: APIKey is required")
	}
	h := httpSettings{cfg.HTTPClient, cfg.BaseURL, cfg.MaxResponseBytes, cfg.Timeout, cfg.Metrics, "twitterapi"}
	up, err := h.newUpstream("twitterapi.io", TwitterAPIIOBaseURL, http.Header{"X-Api-Key": {cfg.APIKey.Reveal()}})
	if err != nil {
		return nil, err
	}
	return &TwitterAPIIO{up: up}, nil
}

// Name implements Provider.
func (p *TwitterAPIIO) Name() string { return "twitterapi.io" }

// tapiReply is an answer of twitterapi.io with its status field.
type tapiReply interface {
	statusAndMessage() (status, msg string)
}

// get decodes the answer to a GET into v and maps a 200 with "status":
// "error" by tapiStatus; a rate limit said so waits as the headers ask.
func (p *TwitterAPIIO) get(ctx context.Context, path string, q url.Values, v tapiReply) error {
	var h http.Header
	if err := p.up.Send(ctx, upstream.Request{Path: path, Query: q, Header: &h, CursorParam: "cursor"}, v); err != nil {
		return err
	}
	err := tapiStatus(v.statusAndMessage())
	if errors.Is(err, errTAPIRateLimited) {
		return p.up.RateLimited(h, err)
	}
	return err
}

// tapiAuthor is a twitterapi.io user object.
type tapiAuthor struct {
	ID             string `json:"id"`
	UserName       string `json:"userName"`
	Name           string `json:"name"`
	IsBlueVerified bool   `json:"isBlueVerified"`
	IsVerified     bool   `json:"isVerified"`
	VerifiedType   string `json:"verifiedType"`
	Description    string `json:"description"`
	Location       string `json:"location"`
	Followers      *int64 `json:"followers"`
	Following      int64  `json:"following"`
	StatusesCount  int64  `json:"statusesCount"`
	CreatedAt      string `json:"createdAt"`
	ProfilePicture string `json:"profilePicture"`
	Unavailable    bool   `json:"unavailable"`
}

// tapiTweet is a twitterapi.io tweet object.
type tapiTweet struct {
	ID                string          `json:"id"`
	Text              string          `json:"text"`
	CreatedAt         string          `json:"createdAt"`
	RetweetCount      int64           `json:"retweetCount"`
	ReplyCount        int64           `json:"replyCount"`
	LikeCount         int64           `json:"likeCount"`
	QuoteCount        int64           `json:"quoteCount"`
	ViewCount         int64           `json:"viewCount"`
	IsReply           bool            `json:"isReply"`
	InReplyToID       string          `json:"inReplyToId"`
	InReplyToUserID   string          `json:"inReplyToUserId"`
	ConversationID    string          `json:"conversationId"`
	Author            tapiAuthor      `json:"author"`
	ExtendedEntities  json.RawMessage `json:"extendedEntities"`
	Entities          json.RawMessage `json:"entities"`
	InReplyToUsername string          `json:"inReplyToUsername"`
}

func (t tapiTweet) normalize() Tweet {
	followers := int64(-1)
	if t.Author.Followers != nil {
		followers = *t.Author.Followers
	}
	media := strings.Contains(string(t.ExtendedEntities), `"media"`) || strings.Contains(string(t.Entities), `"media"`)
	return Tweet{
		ID: t.ID, Text: t.Text,
		Author: Author{
			ID: t.Author.ID, Username: t.Author.UserName, DisplayName: t.Author.Name,
			Verified: t.Author.IsBlueVerified || t.Author.IsVerified || t.Author.VerifiedType != "", Followers: followers,
		},
		Metrics: Metrics{RetweetCount: t.RetweetCount, ReplyCount: t.ReplyCount, LikeCount: t.LikeCount, QuoteCount: t.QuoteCount, ViewCount: t.ViewCount},
		Time:    parseTime(t.CreatedAt), ConversationID: t.ConversationID,
		InReplyToID: t.InReplyToID, InReplyToUserID: t.InReplyToUserID, HasMedia: media,
	}
}

// tapiList is every list response shape of twitterapi.io: tweets at the
// top level (as "tweets" or "replies") or under "data".
type tapiList struct {
	Tweets      []tapiTweet     `json:"tweets"`
	Replies     []tapiTweet     `json:"replies"`
	Data        json.RawMessage `json:"data"`
	HasNextPage bool            `json:"has_next_page"`
	NextCursor  string          `json:"next_cursor"`
	Status      string          `json:"status"`
	Msg         string          `json:"msg"`
	Message     string          `json:"message"`
}

func (l *tapiList) statusAndMessage() (string, string) { return l.Status, l.Msg + l.Message }

func (l tapiList) page() (Page, error) {
	tweets := append(l.Tweets, l.Replies...)
	hasNext, next := l.HasNextPage, l.NextCursor
	if len(l.Data) > 0 && l.Data[0] == '{' {
		var d struct {
			Tweets      []tapiTweet `json:"tweets"`
			Replies     []tapiTweet `json:"replies"`
			HasNextPage *bool       `json:"has_next_page"`
			NextCursor  string      `json:"next_cursor"`
		}
		if err := json.Unmarshal(l.Data, &d); err != nil {
			return Page{}, envelope.Wrap(envelope.CodeUpstreamError, strictjson.Describe(err), "twitterapi.io: unexpected data object")
		}
		tweets = append(append(tweets, d.Tweets...), d.Replies...)
		if d.HasNextPage != nil {
			hasNext = *d.HasNextPage
		}
		if d.NextCursor != "" {
			next = d.NextCursor
		}
	} else if len(l.Data) > 0 && l.Data[0] == '[' {
		var d []tapiTweet
		if err := json.Unmarshal(l.Data, &d); err != nil {
			return Page{}, envelope.Wrap(envelope.CodeUpstreamError, strictjson.Describe(err), "twitterapi.io: unexpected data array")
		}
		tweets = append(tweets, d...)
	}
	out := Page{Tweets: make([]Tweet, 0, len(tweets)), HasNext: hasNext, NextCursor: next}
	for _, t := range tweets {
		if t.ID != "" {
			out.Tweets = append(out.Tweets, t.normalize())
		}
	}
	return out, nil
}

// tapiSuccess is the rule of twitterapi.io's status field: an answer
// reports success when it has none, or "success" in any case. It reports
// some errors (rate limits, unknown users) in a 200 with "status":"error".
func tapiSuccess(status string) bool {
	return status == "" || strings.EqualFold(status, "success")
}

// TwitterAPIIOSucceeded reports whether body, a 2xx answer of
// twitterapi.io, reports success by the rule the [TwitterAPIIO] provider
// applies: a JSON object without "status" or with "status":"success".
// twitterapi.io reports some errors (rate limits, unknown users) in a 200
// with "status":"error", which an HTTP cache must not keep; a body that is
// not a JSON object does not succeed.
func TwitterAPIIOSucceeded(body []byte) bool {
	var r struct {
		Status string `json:"status"`
	}
	return json.Unmarshal(body, &r) == nil && tapiSuccess(r.Status)
}

// errTAPIRateLimited is the cause of a rate limit twitterapi.io reports
// in a 200.
var errTAPIRateLimited = errors.New("twitterapi.io reported a rate limit")

// tapiStatus maps a 200 answer with status "error" to an error: a message
// about a rate limit ("rate limit", "too many requests", "qps") wraps
// errTAPIRateLimited, one about a missing user or tweet is NOT_FOUND,
// anything else UPSTREAM_ERROR.
func tapiStatus(status, msg string) error {
	if tapiSuccess(status) {
		return nil
	}
	lower := strings.ToLower(msg)
	if strings.Contains(lower, "rate limit") || strings.Contains(lower, "too many requests") || strings.Contains(lower, "qps") {
		return fmt.Errorf("%w: %s", errTAPIRateLimited, excerptMsg(msg))
	}
	if strings.Contains(lower, "not found") || strings.Contains(lower, "not exist") || strings.Contains(lower, "suspended") {
		return envelope.Errorf(envelope.CodeNotFound, "twitterapi.io: %s", excerptMsg(msg))
	}
	return envelope.Errorf(envelope.CodeUpstreamError, "twitterapi.io reported an error: %s", excerptMsg(msg))
}

// excerptMsg quotes a provider's error message.
func excerptMsg(s string) string { return cmp.Or(textcut.OneLine(s, 160, "..."), "no message") }

// tapiUserInfo is twitterapi.io's answer to /twitter/user/info.
type tapiUserInfo struct {
	Data   *tapiAuthor `json:"data"`
	Status string      `json:"status"`
	Msg    string      `json:"msg"`
}

func (r *tapiUserInfo) statusAndMessage() (string, string) { return r.Status, r.Msg }

// Profile implements Provider.
func (p *TwitterAPIIO) Profile(ctx context.Context, username string) (Profile, error) {
	var r tapiUserInfo
	if err := p.get(ctx, "/twitter/user/info", url.Values{"userName": {username}}, &r); err != nil {
		return Profile{}, userErr(err, username)
	}
	if r.Data == nil || r.Data.ID == "" || r.Data.Unavailable {
		return Profile{}, envelope.Errorf(envelope.CodeNotFound, "user @%s not found", username)
	}
	a := r.Data
	followers := int64(0)
	if a.Followers != nil {
		followers = *a.Followers
	}
	return Profile{
		ID: a.ID, Username: a.UserName, DisplayName: a.Name, Description: a.Description, Location: a.Location,
		Verified:       a.IsBlueVerified || a.IsVerified || a.VerifiedType != "",
		FollowersCount: followers, FollowingCount: a.Following, TweetCount: a.StatusesCount,
		CreatedAt: formatCreatedAt(parseTime(a.CreatedAt)), ProfileImageURL: a.ProfilePicture,
	}, nil
}

// UserTweets implements Provider.
func (p *TwitterAPIIO) UserTweets(ctx context.Context, q UserTweetsQuery) (Page, error) {
	v := url.Values{"userName": {q.Username}, "includeReplies": {strconv.FormatBool(q.IncludeReplies)}}
	if q.Cursor != "" {
		v.Set("cursor", q.Cursor)
	}
	var l tapiList
	if err := p.get(ctx, "/twitter/user/last_tweets", v, &l); err != nil {
		return Page{}, userErr(err, q.Username)
	}
	page, err := l.page()
	return page, userErr(err, q.Username)
}

// Search implements Provider.
func (p *TwitterAPIIO) Search(ctx context.Context, q SearchQuery) (Page, error) {
	typ := "Latest"
	if q.Type == SearchTop {
		typ = "Top"
	}
	v := url.Values{"query": {q.Query}, "queryType": {typ}}
	if q.Cursor != "" {
		v.Set("cursor", q.Cursor)
	}
	var l tapiList
	if err := p.get(ctx, "/twitter/tweet/advanced_search", v, &l); err != nil {
		return Page{}, err
	}
	return l.page()
}

// Tweet implements Provider.
func (p *TwitterAPIIO) Tweet(ctx context.Context, id string) (Tweet, error) {
	var l tapiList
	if err := p.get(ctx, "/twitter/tweets", url.Values{"tweet_ids": {id}}, &l); err != nil {
		return Tweet{}, tweetErr(err, id)
	}
	page, err := l.page()
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
func (p *TwitterAPIIO) Replies(ctx context.Context, q RepliesQuery) (Page, error) {
	typ := map[ReplySort]string{SortLatest: "Latest", SortLikes: "Likes"}[q.Sort]
	if typ == "" {
		typ = "Relevance"
	}
	v := url.Values{"tweetId": {q.TweetID}, "queryType": {typ}}
	if q.Cursor != "" {
		v.Set("cursor", q.Cursor)
	}
	var l tapiList
	if err := p.get(ctx, "/twitter/tweet/replies/v2", v, &l); err != nil {
		return Page{}, tweetErr(err, q.TweetID)
	}
	page, err := l.page()
	return page, tweetErr(err, q.TweetID)
}

// Conversation implements Provider.
func (p *TwitterAPIIO) Conversation(ctx context.Context, q PageQuery) (Page, error) {
	v := url.Values{"tweetId": {q.TweetID}}
	if q.Cursor != "" {
		v.Set("cursor", q.Cursor)
	}
	var l tapiList
	if err := p.get(ctx, "/twitter/tweet/thread_context", v, &l); err != nil {
		return Page{}, tweetErr(err, q.TweetID)
	}
	page, err := l.page()
	return page, tweetErr(err, q.TweetID)
}

// userErr names the user in a NOT_FOUND error.
func userErr(err error, username string) error {
	if e := envelope.From(err); err != nil && e.Code == envelope.CodeNotFound {
		return upstream.NotFound(err, "user @%s not found", username)
	}
	return err
}

// tweetErr names the tweet in a NOT_FOUND error.
func tweetErr(err error, id string) error {
	if e := envelope.From(err); err != nil && e.Code == envelope.CodeNotFound {
		return upstream.NotFound(err, "tweet %s not found", id)
	}
	return err
}
