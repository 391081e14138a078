package photosocial

import (
	"context"
	"errors"
	"fmt"

	"github.com/quiverkit/quiver/envelope"
)

// Provider is an upstream source of photo-sharing data. The adapters of
// this package ([Graph], [Apify], [File]) implement
// it; any other source can.
//
// Providers return normalized objects without Source and FetchedAt (the
// [Client] stamps them) and errors as *envelope.Error: NOT_FOUND for an
// unknown user or media, RATE_LIMIT_EXCEEDED with RetryAfter for an
// upstream 429, UPSTREAM_ERROR for failures, UPSTREAM_TIMEOUT for
// timeouts, and SERVICE_UNAVAILABLE wrapping [ErrUnsupported] for an
// operation the provider cannot serve. They may return more items than
// asked; the Client trims.
type Provider interface {
	// Name identifies the provider in the source field.
	Name() string
	// Profile returns the profile of username (lower-case, without @).
	Profile(ctx context.Context, username string) (Profile, error)
	// UserMedia returns the recent media of a user, or only the reels.
	UserMedia(ctx context.Context, q UserMediaQuery) (MediaPage, error)
	// Media returns one media object.
	Media(ctx context.Context, ref MediaRef) (Media, error)
	// Comments returns comments of a media object.
	Comments(ctx context.Context, q CommentsQuery) (CommentPage, error)
	// HashtagMedia returns public media tagged with a hashtag.
	HashtagMedia(ctx context.Context, q HashtagQuery) (MediaPage, error)
	// Search finds profiles or hashtags.
	Search(ctx context.Context, q SearchQuery) (SearchPage, error)
}

// UserMediaQuery asks for a user's media.
type UserMediaQuery struct {
	Username string // lower-case, without @
	Limit    int    // 1 to MaxLimit
	Cursor   string // from a previous page; empty for the first
	Reels    bool   // only media of type reel
}

// MediaRef names a media object. At least one field is set; providers use
// Shortcode when they can and MediaID otherwise.
type MediaRef struct {
	Shortcode string
	MediaID   string
}

// CommentsQuery asks for the comments of a media object.
type CommentsQuery struct {
	Media  MediaRef
	Limit  int
	Cursor string
}

// HashtagQuery asks for the media of a hashtag.
type HashtagQuery struct {
	Hashtag string // lower-case, without #
	Sort    string // "top" or "recent"
	Limit   int
	Cursor  string
}

// SearchQuery asks for profiles or hashtags.
type SearchQuery struct {
	Query  string // without a leading @ or #
	Type   string // "profile" or "hashtag"
	Limit  int
	Cursor string
}

// MediaPage is one page of media from a provider.
type MediaPage struct {
	Media []Media
	// Next is the cursor of the next page; empty on the last.
	Next string
	// Notes explain an empty or partial page.
	Notes []string
}

// CommentPage is one page of comments from a provider.
type CommentPage struct {
	Comments []Comment
	Next     string
}

// SearchPage is one page of search hits from a provider.
type SearchPage struct {
	Results []SearchResult
	Next    string
}

// ErrUnsupported is wrapped by the SERVICE_UNAVAILABLE errors of
// operations that a provider cannot serve, such as comments of other
// accounts' media through the Graph API. Test with errors.Is.
var ErrUnsupported = errors.New("operation not supported by the provider")

// unsupported returns the error of an operation a provider cannot serve.
func unsupported(provider, format string, args ...any) error {
	return envelope.Wrap(envelope.CodeServiceUnavailable, ErrUnsupported,
		fmt.Sprintf("the %s provider ", provider)+fmt.Sprintf(format, args...))
}

// notFound returns the NOT_FOUND error of an unknown object.
func notFound(format string, args ...any) error {
	return envelope.Errorf(envelope.CodeNotFound, format, args...)
}

// errNoProvider is the error of a Client without a Provider.
var errNoProvider = envelope.Errorf(envelope.CodeServiceUnavailable,
	"no photo-sharing provider is configured: configure a data provider: the Instagram Graph API with a token and user ID, Apify with a token, or a file of JSON Lines")
