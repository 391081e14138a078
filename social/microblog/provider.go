package microblog

import (
	"context"
	"net/http"
	"time"

	"github.com/quiverkit/quiver/internal/upstream"
)

// Provider is a source of microblog data. The adapters in this package
// ([TwitterAPIIO], [XAPI], [File]) implement it; so can any other source.
//
// Implementations return tweets and profiles normalized except for
// DataSource and AsOf, which [Client] sets. Failures are *envelope.Error
// values: NOT_FOUND for an unknown user or tweet, RATE_LIMIT_EXCEEDED with
// RetryAfter, UPSTREAM_ERROR, UPSTREAM_TIMEOUT (package internal/upstream
// does the mapping for HTTP providers).
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
	Type string
	// Limit and Cursor are as in PageQuery.
	Limit  int
	Cursor string
}

// RepliesQuery selects a page of replies.
type RepliesQuery struct {
	// TweetID is the tweet replied to.
	TweetID string
	// Sort is SortRelevance, SortLatest or SortLikes.
	Sort string
	// Limit and Cursor are as in PageQuery.
	Limit  int
	Cursor string
}

// Search types and reply orders.
const (
	SearchLatest  = "latest"
	SearchTop     = "top"
	SortRelevance = "relevance"
	SortLatest    = "latest"
	SortLikes     = "likes"
)

// HTTPOptions configure the requests of the HTTP providers. The zero value
// uses the defaults.
type HTTPOptions struct {
	// HTTP sends the requests; default: a shared client.
	HTTP *http.Client
	// Timeout bounds each request; default upstream.DefaultTimeout (15s).
	Timeout time.Duration
	// MaxBytes bounds each response; default upstream.DefaultMaxBytes
	// (4 MiB).
	MaxBytes int64
}

func (o HTTPOptions) client(name, baseURL string, header http.Header) upstream.Client {
	return upstream.Client{Name: name, BaseURL: baseURL, Header: header, HTTP: o.HTTP, Timeout: o.Timeout, MaxBytes: o.MaxBytes}
}
