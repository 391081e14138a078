package microblog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/quiverkit/quiver/internal/upstream"
)

// Provider is a source of microblog data. The adapters in this package
// ([TwitterAPIIO], [XAPI], [File]) implement it; so can any other source.
//
// Implementations return tweets and profiles normalized except for
// DataSource and AsOf, which [Client] sets. Failures are *envelope.Error
// values: NOT_FOUND for an unknown user or tweet, RATE_LIMIT_EXCEEDED with
// RetryAfter, UPSTREAM_ERROR, UPSTREAM_TIMEOUT (the HTTP providers of this
// package do the mapping).
type Provider interface {
	// Name identifies the provider in data_source, e.g. "twitterapi.io".
	Name() string
	// Profile returns the profile of username (without "@").
	Profile(ctx context.Context, username string) (Profile, error)
	// UserTweets returns a page of the user's latest tweets, newest first.
	UserTweets(ctx context.Context, q UserTweetsQuery) (Page, error)
	// Search returns a page of tweets matching q.Query.
	Search(ctx context.Context, q SearchQuery) (Page, error)
	// Tweet returns one tweet.
	Tweet(ctx context.Context, id string) (Tweet, error)
	// Replies returns a page of the replies to a tweet, sorted as asked.
	Replies(ctx context.Context, q RepliesQuery) (Page, error)
	// Conversation returns a page of the tweets of the conversation that
	// q.TweetID belongs to (its thread context), in any order.
	Conversation(ctx context.Context, q PageQuery) (Page, error)
}

// Page is one page of tweets from a provider.
type Page struct {
	// Tweets of the page, normalized.
	Tweets []Tweet
	// NextCursor fetches the next page; empty when there is none.
	NextCursor string
	// HasNext is the provider's claim that more pages exist. Client trusts
	// it only together with a non-empty NextCursor and a non-empty page.
	HasNext bool
}

// PageQuery selects a page of a list keyed by a tweet.
type PageQuery struct {
	// TweetID is the tweet.
	TweetID string
	// Limit is how many tweets the caller wants (1..100); providers may
	// return more, which Client trims.
	Limit int
	// Cursor is a previous page's NextCursor; empty for the first page.
	Cursor string
}

// UserTweetsQuery selects a page of a user's tweets.
type UserTweetsQuery struct {
	// Username is the handle, without "@".
	Username string
	// IncludeReplies includes the user's replies.
	IncludeReplies bool
	// Limit and Cursor are as in PageQuery.
	Limit  int
	Cursor string
}

// SearchQuery selects a page of search results.
type SearchQuery struct {
	// Query is a keyword, hashtag or advanced search query.
	Query string
	// Type is SearchLatest or SearchTop.
	Type SearchType
	// Limit and Cursor are as in PageQuery.
	Limit  int
	Cursor string
}

// RepliesQuery selects a page of replies.
type RepliesQuery struct {
	// TweetID is the tweet replied to.
	TweetID string
	// Sort is SortRelevance, SortLatest or SortLikes.
	Sort ReplySort
	// Limit and Cursor are as in PageQuery.
	Limit  int
	Cursor string
}

// A SearchType is the kind of a search: latest tweets or top tweets.
type SearchType string

// Search types.
const (
	SearchLatest SearchType = "latest"
	SearchTop    SearchType = "top"
)

// SearchTypes returns the search types, the default first.
func SearchTypes() []SearchType { return []SearchType{SearchLatest, SearchTop} }

// A ReplySort is the order replies come in.
type ReplySort string

// Reply orders.
const (
	SortRelevance ReplySort = "relevance"
	SortLatest    ReplySort = "latest"
	SortLikes     ReplySort = "likes"
)

// ReplySorts returns the reply orders, the default first.
func ReplySorts() []ReplySort { return []ReplySort{SortRelevance, SortLatest, SortLikes} }

// Defaults of the HTTP providers' settings.
const (
	// DefaultTimeout bounds each request of an HTTP provider, body
	// included, when its config leaves Timeout at 0.
	DefaultTimeout = 15 * time.Second
	// DefaultMaxResponseBytes bounds each response body of an HTTP
	// provider when its config leaves MaxResponseBytes at 0.
	DefaultMaxResponseBytes = 4 << 20
)

// ErrInvalidConfig is wrapped by the errors of the provider constructors
// when a configuration cannot work, such as a missing credential. Test
// with errors.Is.
var ErrInvalidConfig = errors.New("microblog: invalid configuration")

// invalidConfig returns an error wrapping ErrInvalidConfig.
func invalidConfig(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
}

// httpSettings are the settings every HTTP provider's config shares.
type httpSettings struct {
	client  *http.Client
	baseURL string
	max     int64
	timeout time.Duration
	// metrics counts the calls, labelled provider=label, when set.
	metrics prometheus.Registerer
	label   string
}

// newUpstream returns the upstream client of a provider. The credential
// travels only in header, held behind a pointer so that printing the
// provider with fmt or log/slog does not reach it.
func (h httpSettings) newUpstream(name, defBase string, header http.Header) (*upstream.Client, error) {
	if h.max < 0 || h.timeout < 0 {
		return nil, invalidConfig("%s: MaxResponseBytes and Timeout must not be negative", name)
	}
	base := cmp.Or(strings.TrimRight(h.baseURL, "/"), defBase)
	if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, invalidConfig("%s: BaseURL must be an absolute http or https URL", name)
	}
	hc, err := upstream.Metered(h.metrics, h.label, h.client)
	if err != nil {
		return nil, invalidConfig("%s: Metrics: %v", name, err)
	}
	return &upstream.Client{Name: name, BaseURL: base, Header: header, HTTP: hc, Timeout: h.timeout, MaxBytes: h.max}, nil
}
