package photosocial

// Profile is the normalized profile, with exactly the contract's
// fields.
type Profile struct {
	// ID is the provider's user ID.
	ID string `json:"id"`
	// Username is the handle, without a leading @.
	Username string `json:"username"`
	// FullName is the display name; empty when the account has none.
	FullName string `json:"full_name"`
	// IsVerified is true for accounts with the verified badge. Providers
	// that do not expose it (the Graph API) report false.
	IsVerified bool `json:"is_verified"`
	// FollowersCount is the number of followers; 0 when unknown.
	FollowersCount int64 `json:"followers_count"`
	// FollowingCount is the number of accounts followed; 0 when unknown.
	FollowingCount int64 `json:"following_count"`
	// MediaCount is the number of published media; 0 when unknown.
	MediaCount int64 `json:"media_count"`
	// Source names the upstream provider: "instagram_graph", "apify" or
	// "file".
	Source string `json:"source"`
	// FetchedAt is when the data was fetched, RFC 3339 with an offset.
	FetchedAt string `json:"fetched_at"`
}

// MediaType is the kind of a media object.
type MediaType string

// The media types.
const (
	TypeImage    MediaType = "image"
	TypeVideo    MediaType = "video"
	TypeCarousel MediaType = "carousel"
	TypeReel     MediaType = "reel"
)

// MediaTypes returns the media types.
func MediaTypes() []MediaType { return []MediaType{TypeImage, TypeVideo, TypeCarousel, TypeReel} }

// Media is a normalized post or reel.
//
// Counts are 0 when the provider does not report them (the Graph API hides
// like_count when the owner hid likes, and never reports views of other
// accounts' media). URLs are empty when the provider omits them: the Graph
// API leaves media_url out of videos with copyrighted music, so such a
// video has an empty video_url and only its thumbnail.
type Media struct {
	// ID is the media ID: the numeric Instagram media ID for scrapers and
	// exports, the Graph API's IG Media ID for the Graph provider.
	ID string `json:"id"`
	// Shortcode is the code in the post's URL; empty when unknown.
	Shortcode string `json:"shortcode"`
	// Type is image, video, carousel or reel.
	Type MediaType `json:"type"`
	// URL is the post's permalink on instagram.com.
	URL string `json:"url"`
	// Caption is the caption text; empty when there is none.
	Caption string `json:"caption"`
	// Hashtags are the caption's hashtags, lower-cased, without #, in
	// order of first appearance.
	Hashtags []string `json:"hashtags"`
	// Mentions are the caption's @-mentions, without @.
	Mentions []string `json:"mentions"`
	// LikeCount is the number of likes.
	LikeCount int64 `json:"like_count"`
	// CommentCount is the number of comments.
	CommentCount int64 `json:"comment_count"`
	// ViewCount is the number of video views or plays; 0 for images.
	ViewCount int64 `json:"view_count"`
	// TakenAt is the publication time, RFC 3339 in UTC; empty when unknown.
	TakenAt string `json:"taken_at"`
	// Owner is the account that published the media.
	Owner Owner `json:"owner"`
	// DisplayURL is the image to show: the photo, or a video's cover.
	DisplayURL string `json:"display_url"`
	// ThumbnailURL is a video's thumbnail; empty for images.
	ThumbnailURL string `json:"thumbnail_url"`
	// VideoURL is the video file; empty for images and for videos whose
	// file the provider withholds.
	VideoURL string `json:"video_url"`
	// Children are the items of a carousel, in order; empty otherwise.
	Children []Child `json:"children"`
	// Location is the tagged place; null when none.
	Location *Location `json:"location"`
	// Source names the upstream provider.
	Source string `json:"source"`
	// FetchedAt is when the data was fetched, RFC 3339 with an offset.
	FetchedAt string `json:"fetched_at"`
}

// Owner identifies the account behind a media object or a comment.
type Owner struct {
	// ID is the provider's user ID; empty when unknown.
	ID string `json:"id"`
	// Username is the handle, without @; empty when unknown (the Graph
	// API does not name the owners of hashtag media).
	Username string `json:"username"`
	// IsVerified is true for accounts with the verified badge.
	IsVerified bool `json:"is_verified"`
}

// Child is one item of a carousel.
type Child struct {
	// ID is the item's media ID.
	ID string `json:"id"`
	// Type is image or video.
	Type MediaType `json:"type"`
	// DisplayURL is the image, or the video's cover.
	DisplayURL string `json:"display_url"`
	// VideoURL is the video file; empty for images.
	VideoURL string `json:"video_url"`
}

// Location is a tagged place.
type Location struct {
	// ID is the provider's place ID; empty when unknown.
	ID string `json:"id"`
	// Name is the place's name.
	Name string `json:"name"`
}

// Comment is a normalized comment or reply.
type Comment struct {
	// ID is the comment ID.
	ID string `json:"id"`
	// Text is the comment text.
	Text string `json:"text"`
	// CreatedAt is when it was posted, RFC 3339 in UTC; empty when unknown.
	CreatedAt string `json:"created_at"`
	// Owner is the commenter.
	Owner Owner `json:"owner"`
	// LikeCount is the number of likes of the comment.
	LikeCount int64 `json:"like_count"`
	// ReplyCount is the number of replies to the comment.
	ReplyCount int64 `json:"reply_count"`
	// ParentID is the ID of the comment this one replies to; empty for
	// top-level comments.
	ParentID string `json:"parent_id"`
}

// SearchResult is one hit of a search. Type says which of Profile and
// Hashtag is set; the other is null.
type SearchResult struct {
	// Type is "profile" or "hashtag".
	Type string `json:"type"`
	// Profile is set for profile hits.
	Profile *ProfileHit `json:"profile"`
	// Hashtag is set for hashtag hits.
	Hashtag *HashtagHit `json:"hashtag"`
}

// ProfileHit is a profile found by search.
type ProfileHit struct {
	// ID is the provider's user ID.
	ID string `json:"id"`
	// Username is the handle, without @.
	Username string `json:"username"`
	// FullName is the display name.
	FullName string `json:"full_name"`
	// IsVerified is true for accounts with the verified badge.
	IsVerified bool `json:"is_verified"`
	// FollowersCount is the number of followers; 0 when unknown.
	FollowersCount int64 `json:"followers_count"`
	// ProfilePicURL is the profile picture; empty when unknown.
	ProfilePicURL string `json:"profile_pic_url"`
}

// HashtagHit is a hashtag found by search.
type HashtagHit struct {
	// ID is the provider's hashtag ID; empty when unknown.
	ID string `json:"id"`
	// Name is the hashtag, lower-cased, without #.
	Name string `json:"name"`
	// MediaCount is the number of public media with the hashtag; 0 when
	// the provider does not report it (the Graph API).
	MediaCount int64 `json:"media_count"`
}

// PageInfo says whether more results follow and how to get them.
type PageInfo struct {
	// HasNextPage is true when another page can be requested.
	HasNextPage bool `json:"has_next_page"`
	// NextCursor is the cursor parameter of the next page; empty when none.
	NextCursor string `json:"next_cursor"`
}

// MediaList is the payload of the posts, reels and hashtag routes.
type MediaList struct {
	// Media are the media objects, newest first unless the provider ranks
	// them (hashtag top media).
	Media []Media `json:"media"`
	// PageInfo passes the provider's cursor through.
	PageInfo PageInfo `json:"page_info"`
	// ResultCount is len(media).
	ResultCount int `json:"result_count"`
	// Notes explain an empty or partial answer, e.g. that the profile is
	// private, or that the provider cannot tell reels apart.
	Notes []string `json:"notes"`
	// Source names the upstream provider.
	Source string `json:"source"`
	// FetchedAt is when the data was fetched, RFC 3339 with an offset.
	FetchedAt string `json:"fetched_at"`
}

// CommentList is the payload of the comments route.
type CommentList struct {
	// Comments are the comments, in the provider's order; replies follow
	// their parent and carry parent_id.
	Comments []Comment `json:"comments"`
	// PageInfo passes the provider's cursor through.
	PageInfo PageInfo `json:"page_info"`
	// ResultCount is len(comments).
	ResultCount int `json:"result_count"`
	// Source names the upstream provider.
	Source string `json:"source"`
	// FetchedAt is when the data was fetched, RFC 3339 with an offset.
	FetchedAt string `json:"fetched_at"`
}

// SearchResults is the payload of the search route.
type SearchResults struct {
	// Query is the normalized query that was searched.
	Query string `json:"query"`
	// Type is profile or hashtag.
	Type string `json:"type"`
	// Results are the hits, best first.
	Results []SearchResult `json:"results"`
	// PageInfo passes the provider's cursor through.
	PageInfo PageInfo `json:"page_info"`
	// ResultCount is len(results).
	ResultCount int `json:"result_count"`
	// Source names the upstream provider.
	Source string `json:"source"`
	// FetchedAt is when the data was fetched, RFC 3339 with an offset.
	FetchedAt string `json:"fetched_at"`
}
