package microblog

import (
	"net/url"
	"strings"
	"time"
)

// CreatedAtLayout is the layout of [Tweet.CreatedAt], the classic form
// "Wed Oct 10 20:19:24 +0000 2018", always in UTC.
const CreatedAtLayout = "Mon Jan 02 15:04:05 -0700 2006"

// Author is the author of a tweet.
type Author struct {
	// ID is the provider's user ID.
	ID string `json:"id"`
	// Username is the handle, without "@".
	Username string `json:"username"`
	// DisplayName is the name shown on the profile.
	DisplayName string `json:"display_name"`
	// Verified reports a verification badge of any kind.
	Verified bool `json:"verified"`

	// Followers is the author's follower count when the provider sent it,
	// or -1 when unknown. It is context for the analysis (reach), not part
	// of the wire format.
	Followers int64 `json:"-"`
}

// Metrics are the public counters of a tweet; absent counters are 0.
type Metrics struct {
	// RetweetCount is the number of retweets (reposts).
	RetweetCount int64 `json:"retweet_count"`
	// ReplyCount is the number of replies.
	ReplyCount int64 `json:"reply_count"`
	// LikeCount is the number of likes.
	LikeCount int64 `json:"like_count"`
	// QuoteCount is the number of quote tweets.
	QuoteCount int64 `json:"quote_count"`
	// ViewCount is the number of views (impressions) where the provider
	// reports it, else 0.
	ViewCount int64 `json:"view_count"`
}

// Engagement is likes + replies + retweets + quotes. Views are reach, not
// engagement, and are left out.
func (m Metrics) Engagement() int64 {
	return m.LikeCount + m.ReplyCount + m.RetweetCount + m.QuoteCount
}

// Tweet is a normalized tweet, the same whatever the provider.
type Tweet struct {
	// ID is the tweet's ID.
	ID string `json:"id"`
	// URL is https://x.com/<username>/status/<id>.
	URL string `json:"url"`
	// Text is the full text of the tweet.
	Text string `json:"text"`
	// CreatedAt is the creation time in the form of CreatedAtLayout,
	// e.g. "Wed Oct 10 20:19:24 +0000 2018".
	CreatedAt string `json:"created_at"`
	// Author is the tweet's author.
	Author Author `json:"author"`
	// Metrics are the public counters.
	Metrics Metrics `json:"metrics"`
	// DataSource names the provider the tweet came from.
	DataSource string `json:"data_source"`
	// AsOf is when the tweet was fetched (RFC 3339, UTC).
	AsOf string `json:"as_of"`

	// The fields below are context kept for threads and analysis. They
	// are not part of the wire format.

	// Time is CreatedAt parsed; zero when the provider sent no date.
	Time time.Time `json:"-"`
	// ConversationID is the ID of the conversation's root tweet.
	ConversationID string `json:"-"`
	// InReplyToID is the ID of the tweet this one replies to.
	InReplyToID string `json:"-"`
	// InReplyToUserID is the author ID of the tweet this one replies to.
	InReplyToUserID string `json:"-"`
	// HasMedia reports attached photos or videos.
	HasMedia bool `json:"-"`
}

// IsReply reports whether the tweet replies to another.
func (t Tweet) IsReply() bool { return t.InReplyToID != "" || t.InReplyToUserID != "" }

// IsSelfReply reports whether the tweet replies to its own author: a
// thread continuation.
func (t Tweet) IsSelfReply() bool {
	return t.InReplyToUserID != "" && t.InReplyToUserID == t.Author.ID
}

// Profile is a normalized user profile.
type Profile struct {
	// ID is the provider's user ID.
	ID string `json:"id"`
	// Username is the handle, without "@".
	Username string `json:"username"`
	// DisplayName is the name shown on the profile.
	DisplayName string `json:"display_name"`
	// Description is the biography.
	Description string `json:"description"`
	// Location is the free-text location.
	Location string `json:"location"`
	// Verified reports a verification badge of any kind.
	Verified bool `json:"verified"`
	// FollowersCount is the number of followers.
	FollowersCount int64 `json:"followers_count"`
	// FollowingCount is the number of accounts followed.
	FollowingCount int64 `json:"following_count"`
	// TweetCount is the number of tweets posted.
	TweetCount int64 `json:"tweet_count"`
	// CreatedAt is when the account was created, in CreatedAtLayout; empty
	// when unknown.
	CreatedAt string `json:"created_at"`
	// ProfileImageURL is the avatar's URL; empty when unknown.
	ProfileImageURL string `json:"profile_image_url"`
	// URL is https://x.com/<username>.
	URL string `json:"url"`
	// DataSource names the provider.
	DataSource string `json:"data_source"`
	// AsOf is when the profile was fetched (RFC 3339, UTC).
	AsOf string `json:"as_of"`
}

// PageInfo carries the provider's cursor through.
type PageInfo struct {
	// HasNextPage reports that another page can be requested with
	// NextCursor.
	HasNextPage bool `json:"has_next_page"`
	// NextCursor is the value to pass as cursor for the next page; empty on
	// the last page.
	NextCursor string `json:"next_cursor"`
}

// TweetList is the list payload: a page of tweets.
type TweetList struct {
	// Tweets are the tweets of the page.
	Tweets []Tweet `json:"tweets"`
	// PageInfo says whether and how to fetch the next page.
	PageInfo PageInfo `json:"page_info"`
	// ResultCount is len(Tweets).
	ResultCount int `json:"result_count"`
	// DataSource names the provider.
	DataSource string `json:"data_source"`
	// AsOf is when the page was fetched (RFC 3339, UTC).
	AsOf string `json:"as_of"`
}

// formatCreatedAt renders t in CreatedAtLayout, in UTC; "" for the zero time.
func formatCreatedAt(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(CreatedAtLayout)
}

// parseTime reads the date forms providers send: the classic
// "Wed Oct 10 20:19:24 +0000 2018", RFC 3339 / ISO 8601 with or without
// fractional seconds, and "2006-01-02 15:04:05" (taken as UTC). It returns
// the zero time for anything else.
func parseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{CreatedAtLayout, time.RFC3339Nano, "2006-01-02T15:04:05.000Z0700", "2006-01-02T15:04:05Z0700", "2006-01-02 15:04:05", time.RubyDate} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// tweetURL is the canonical URL of a tweet.
func tweetURL(username, id string) string {
	if username == "" {
		username = "i/web"
	}
	return "https://x.com/" + url.PathEscape(username) + "/status/" + url.PathEscape(id)
}

// profileURL is the canonical URL of a profile.
func profileURL(username string) string {
	return "https://x.com/" + url.PathEscape(username)
}

// finish fills the fields every provider's tweets share: URL, CreatedAt
// from Time, data source and fetch time.
func finish(t *Tweet, source string, asOf time.Time) {
	t.Author.Username = strings.TrimPrefix(t.Author.Username, "@")
	t.URL = tweetURL(t.Author.Username, t.ID)
	if !t.Time.IsZero() {
		t.CreatedAt = formatCreatedAt(t.Time)
	}
	t.DataSource = source
	t.AsOf = asOf.UTC().Format(time.RFC3339)
	if t.ConversationID == "" && !t.IsReply() {
		t.ConversationID = t.ID
	}
}
