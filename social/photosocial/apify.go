package photosocial

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/upstream"
)

// Defaults of [ApifyConfig] (and DefaultMaxResponseBytes).
const (
	DefaultApifyBaseURL = "https://api.apify.com"
	DefaultApifyActor   = "apify~instagram-scraper"
	DefaultApifyTimeout = 120 * time.Second
	// maxApifyOffset bounds how deep the offset cursor of the Apify
	// provider may page: each page re-runs the actor for offset+limit items.
	maxApifyOffset = 1000
)

// ApifyConfig configures an [Apify] provider.
// Printing it with fmt, log/slog or encoding/json shows "[redacted]" in
// place of Token.
type ApifyConfig struct {
	// Token is the Apify API token. Required. It travels in the
	// Authorization header and never appears in errors, fmt or log/slog
	// output.
	Token string
	// Actor is the actor to run, "user~name" or its ID; default
	// DefaultApifyActor.
	Actor string
	// BaseURL is the API root; default DefaultApifyBaseURL. Tests point
	// it at a photosocialtest server.
	BaseURL string
	// HTTPClient sends the requests; default a shared client. Redirects
	// are followed only within the provider's host.
	HTTPClient *http.Client
	// MaxResponseBytes bounds each response body; default
	// DefaultMaxResponseBytes (8 MiB).
	MaxResponseBytes int64
	// Timeout bounds one actor run (the run-sync timeout parameter, at
	// most 300 s); default DefaultApifyTimeout (120 s). Each request may
	// take 10 s more, so that Apify's own timeout answer arrives first.
	Timeout time.Duration
}

// Format implements fmt.Formatter: the token is redacted.
func (c ApifyConfig) Format(f fmt.State, verb rune) {
	type plain ApifyConfig
	c.Token = upstream.Redact(c.Token)
	fmt.Fprintf(f, fmt.FormatString(f, verb), plain(c))
}

// LogValue implements slog.LogValuer: the token is redacted.
func (c ApifyConfig) LogValue() slog.Value {
	return upstream.LogValue(c.BaseURL, c.Token != "", c.MaxResponseBytes, c.Timeout)
}

// Apify serves data through the Apify Instagram scraper actor,
// run with run-sync-get-dataset-items: profiles ("details"), posts, reels,
// comments, hashtag media and profile or hashtag search.
//
// The actor has no cursors. The provider pages with its own offset cursor
// ("apify:<offset>"): a page runs the actor for offset+limit+1 items and
// returns the window, so deep pages cost more; offsets stop at 1000.
// Reels are told apart by productType "clips". Hashtag media come in the
// actor's order: sort=recent is not honoured, and a note says so.
type Apify struct {
	actor   string
	timeout time.Duration
	up      *upstream.Client // holds the token, behind a pointer
}

// Format implements fmt.Formatter: every verb prints the provider's type
// and base URL, never its credential.
func (p Apify) Format(f fmt.State, _ rune) { upstream.FormatProvider(f, "photosocial.Apify", p.up) }

// MarshalJSON implements json.Marshaler: the Token is redacted.
func (c ApifyConfig) MarshalJSON() ([]byte, error) {
	type plain ApifyConfig
	c.Token = upstream.Redact(c.Token)
	return json.Marshal(plain(c))
}

// NewApify returns an Apify provider. The error wraps [ErrInvalidConfig]
// when Token is empty or a setting cannot work.
func NewApify(cfg ApifyConfig) (*Apify, error) {
	if strings.TrimSpace(cfg.Token) == "" {
		return nil, invalidConfig("the Apify provider needs Token")
	}
	if cfg.Actor == "" {
		cfg.Actor = DefaultApifyActor
	}
	if cfg.Timeout < 0 || cfg.Timeout > 300*time.Second {
		return nil, invalidConfig("the Apify provider's Timeout must be at most 300s")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultApifyTimeout
	}
	// The run-sync call waits for the actor; allow a margin over its own
	// timeout so that Apify's 408 arrives before ours.
	up, err := newUpstream("Apify", DefaultApifyBaseURL, cfg.Token, cfg.BaseURL, cfg.HTTPClient, cfg.MaxResponseBytes, cfg.Timeout, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &Apify{actor: strings.Replace(cfg.Actor, "/", "~", 1), timeout: cfg.Timeout, up: up}, nil
}

// Name implements Provider.
func (a *Apify) Name() string { return "apify" }

// apifyInput is the actor input.
type apifyInput struct {
	DirectURLs   []string `json:"directUrls,omitempty"`
	ResultsType  string   `json:"resultsType"`
	ResultsLimit int      `json:"resultsLimit,omitempty"`
	Search       string   `json:"search,omitempty"`
	SearchType   string   `json:"searchType,omitempty"`
	SearchLimit  int      `json:"searchLimit,omitempty"`
	AddParent    bool     `json:"addParentData"`
}

// run runs the actor and decodes its dataset items.
func (a *Apify) run(ctx context.Context, in apifyInput, what string) ([]json.RawMessage, error) {
	var items []json.RawMessage
	err := a.up.Send(ctx, upstream.Request{
		Method:   http.MethodPost,
		Path:     "/v2/acts/" + url.PathEscape(a.actor) + "/run-sync-get-dataset-items",
		Query:    url.Values{"format": {"json"}, "clean": {"true"}, "timeout": {strconv.Itoa(int(a.timeout / time.Second))}},
		Body:     in,
		Classify: a.classify,
	}, &items)
	if err != nil {
		return nil, err
	}
	// The actor reports a missing or private target as an error item.
	var real []json.RawMessage
	var errItem struct {
		Error       string `json:"error"`
		Description string `json:"errorDescription"`
	}
	noItems := false
	for _, it := range items {
		errItem.Error, errItem.Description = "", ""
		if json.Unmarshal(it, &errItem) == nil && errItem.Error != "" {
			switch errItem.Error {
			case "not_found":
				return nil, notFound("%s was not found", what)
			case "no_items":
				noItems = true
			default:
				return nil, envelope.Errorf(envelope.CodeUpstreamError, "the Apify actor failed on %s (%s)", what, upstream.Excerpt(errItem.Error, 160))
			}
			continue
		}
		real = append(real, it)
	}
	if real == nil && noItems {
		return nil, errNoItems
	}
	return real, nil
}

// errNoItems marks an actor answer of "empty or private data".
var errNoItems = errors.New("apify: empty or private data")

// classify maps Apify's error object; its 404 means a missing actor, not
// a missing Instagram object.
func (a *Apify) classify(status int, body []byte) error {
	var ae struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	json.Unmarshal(body, &ae)
	switch {
	case status == http.StatusNotFound:
		return envelope.Errorf(envelope.CodeUpstreamError, "the Apify actor %q was not found: check QUIVER_PHOTOSOCIAL_APIFY_ACTOR", a.actor)
	case status == http.StatusRequestTimeout || ae.Error.Type == "run-timeout-exceeded":
		return envelope.Errorf(envelope.CodeUpstreamTimeout, "the Apify actor run did not finish within %s", a.timeout)
	case status == http.StatusPaymentRequired:
		return envelope.Errorf(envelope.CodeUpstreamError, "the Apify account has no usage left (HTTP 402)")
	case status == http.StatusBadRequest && ae.Error.Type == "run-failed":
		return envelope.Errorf(envelope.CodeUpstreamError, "the Apify actor run failed")
	}
	return nil
}

// apifyPost is a post or reel item of the actor.
type apifyPost struct {
	ID             string   `json:"id"`
	Type           string   `json:"type"`
	ShortCode      string   `json:"shortCode"`
	Caption        string   `json:"caption"`
	Hashtags       []string `json:"hashtags"`
	Mentions       []string `json:"mentions"`
	URL            string   `json:"url"`
	CommentsCount  int64    `json:"commentsCount"`
	DisplayURL     string   `json:"displayUrl"`
	VideoURL       string   `json:"videoUrl"`
	LikesCount     int64    `json:"likesCount"`
	VideoViewCount int64    `json:"videoViewCount"`
	VideoPlayCount int64    `json:"videoPlayCount"`
	Timestamp      any      `json:"timestamp"`
	OwnerUsername  string   `json:"ownerUsername"`
	OwnerID        string   `json:"ownerId"`
	ProductType    string   `json:"productType"`
	LocationName   string   `json:"locationName"`
	LocationID     string   `json:"locationId"`
	ChildPosts     []struct {
		ID         string `json:"id"`
		Type       string `json:"type"`
		DisplayURL string `json:"displayUrl"`
		VideoURL   string `json:"videoUrl"`
	} `json:"childPosts"`
}

func (p apifyPost) normalize() Media {
	m := Media{
		ID: p.ID, Shortcode: p.ShortCode, Caption: p.Caption, URL: p.URL,
		LikeCount: max(p.LikesCount, 0), CommentCount: max(p.CommentsCount, 0),
		ViewCount: max(p.VideoPlayCount, p.VideoViewCount, 0), TakenAt: parseTime(p.Timestamp),
		Owner: Owner{ID: p.OwnerID, Username: p.OwnerUsername}, DisplayURL: p.DisplayURL,
	}
	switch {
	case p.ProductType == "clips" || strings.Contains(p.URL, "/reel/"):
		m.Type = TypeReel
	case p.Type == "Sidecar":
		m.Type = TypeCarousel
	case p.Type == "Video":
		m.Type = TypeVideo
	default:
		m.Type = TypeImage
	}
	if m.Type == TypeReel || m.Type == TypeVideo {
		m.VideoURL, m.ThumbnailURL = p.VideoURL, p.DisplayURL
	}
	for _, h := range p.Hashtags {
		m.Hashtags = append(m.Hashtags, strings.ToLower(h))
	}
	m.Mentions = p.Mentions
	for _, c := range p.ChildPosts {
		ch := Child{ID: c.ID, Type: TypeImage, DisplayURL: c.DisplayURL}
		if c.Type == "Video" {
			ch.Type, ch.VideoURL = TypeVideo, c.VideoURL
		}
		m.Children = append(m.Children, ch)
	}
	if p.LocationName != "" {
		m.Location = &Location{ID: p.LocationID, Name: p.LocationName}
	}
	return m
}

// apifyProfile is a "details" item of the actor.
type apifyProfile struct {
	ID             string `json:"id"`
	Username       string `json:"username"`
	FullName       string `json:"fullName"`
	Verified       bool   `json:"verified"`
	Private        bool   `json:"private"`
	FollowersCount int64  `json:"followersCount"`
	FollowsCount   int64  `json:"followsCount"`
	PostsCount     int64  `json:"postsCount"`
	ProfilePicURL  string `json:"profilePicUrl"`
}

func decodeItems[T any](items []json.RawMessage) ([]T, error) {
	out := make([]T, 0, len(items))
	for _, it := range items {
		var v T
		if err := json.Unmarshal(it, &v); err != nil {
			return nil, envelope.Errorf(envelope.CodeUpstreamError, "the Apify actor sent an item of an unexpected shape")
		}
		out = append(out, v)
	}
	return out, nil
}

func profileURL(username string) string { return "https://www.instagram.com/" + username + "/" }

// Profile implements Provider with resultsType "details".
func (a *Apify) Profile(ctx context.Context, username string) (Profile, error) {
	items, err := a.run(ctx, apifyInput{DirectURLs: []string{profileURL(username)}, ResultsType: "details", ResultsLimit: 1}, "the account @"+username)
	if errors.Is(err, errNoItems) || (err == nil && len(items) == 0) {
		return Profile{}, notFound("the account @%s was not found", username)
	}
	if err != nil {
		return Profile{}, err
	}
	ps, err := decodeItems[apifyProfile](items[:1])
	if err != nil {
		return Profile{}, err
	}
	p := ps[0]
	return Profile{
		ID: p.ID, Username: p.Username, FullName: p.FullName, IsVerified: p.Verified,
		FollowersCount: p.FollowersCount, FollowingCount: p.FollowsCount, MediaCount: p.PostsCount,
	}, nil
}

// offsetCursor parses the provider's "apify:<offset>" cursor.
func offsetCursor(prefix, cursor string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(cursor, prefix+":"))
	if !strings.HasPrefix(cursor, prefix+":") || err != nil || n < 0 || n > maxApifyOffset {
		return 0, envelope.Invalidf("cursor", "must be a next_cursor from a previous page of this provider (%s:<offset up to %d>)", prefix, maxApifyOffset)
	}
	return n, nil
}

// window cuts items[offset:offset+limit] and the cursor of what follows.
func window[T any](prefix string, items []T, offset, limit int) ([]T, string) {
	if offset >= len(items) {
		return nil, ""
	}
	end := min(offset+limit, len(items))
	next := ""
	if len(items) > end && end <= maxApifyOffset {
		next = fmt.Sprintf("%s:%d", prefix, end)
	}
	return items[offset:end], next
}

// posts runs the actor for posts of the direct URL and returns a window.
// With reels, only the items the actor marks as reels are kept, before
// the window is cut.
func (a *Apify) posts(ctx context.Context, target, resultsType, cursor string, limit int, what string, reels bool) (MediaPage, error) {
	off, err := offsetCursor("apify", cursor)
	if err != nil {
		return MediaPage{}, err
	}
	items, err := a.run(ctx, apifyInput{DirectURLs: []string{target}, ResultsType: resultsType, ResultsLimit: off + limit + 1}, what)
	if errors.Is(err, errNoItems) {
		return MediaPage{Notes: []string{"no public media: the account is private or has not posted"}}, nil
	}
	if err != nil {
		return MediaPage{}, err
	}
	ps, err := decodeItems[apifyPost](items)
	if err != nil {
		return MediaPage{}, err
	}
	var ms []Media
	unsure := 0
	for _, p := range ps {
		m := p.normalize()
		if reels && m.Type != TypeReel {
			if m.Type == TypeVideo && p.ProductType == "" {
				unsure++
			}
			continue
		}
		ms = append(ms, m)
	}
	win, next := window("apify", ms, off, limit)
	page := MediaPage{Media: win, Next: next}
	if unsure > 0 {
		page.Notes = append(page.Notes, fmt.Sprintf("the Apify actor did not say whether %d video(s) are reels; they are left out", unsure))
	}
	return page, nil
}

// UserMedia implements Provider with resultsType "posts" or "reels".
func (a *Apify) UserMedia(ctx context.Context, q UserMediaQuery) (MediaPage, error) {
	rt := "posts"
	if q.Reels {
		rt = "reels"
	}
	return a.posts(ctx, profileURL(q.Username), rt, q.Cursor, q.Limit, "the account @"+q.Username, q.Reels)
}

// Media implements Provider; a media ID is converted to its shortcode.
func (a *Apify) Media(ctx context.Context, ref MediaRef) (Media, error) {
	sc, err := refShortcode(ref)
	if err != nil {
		return Media{}, err
	}
	items, err := a.run(ctx, apifyInput{DirectURLs: []string{permalink(sc, TypeImage)}, ResultsType: "posts", ResultsLimit: 1}, "media "+sc)
	if errors.Is(err, errNoItems) || (err == nil && len(items) == 0) {
		return Media{}, notFound("media %s was not found", sc)
	}
	if err != nil {
		return Media{}, err
	}
	ps, err := decodeItems[apifyPost](items[:1])
	if err != nil {
		return Media{}, err
	}
	return ps[0].normalize(), nil
}

// refShortcode returns the shortcode of a reference, converting a media ID.
func refShortcode(ref MediaRef) (string, error) {
	if ref.Shortcode != "" {
		return ref.Shortcode, nil
	}
	sc, err := MediaIDToShortcode(ref.MediaID)
	if err != nil {
		return "", envelope.Invalid("media_id", err.Error())
	}
	return sc, nil
}

type apifyComment struct {
	ID            string `json:"id"`
	Text          string `json:"text"`
	Timestamp     any    `json:"timestamp"`
	OwnerUsername string `json:"ownerUsername"`
	LikesCount    int64  `json:"likesCount"`
	RepliesCount  int64  `json:"repliesCount"`
	Owner         struct {
		ID         string `json:"id"`
		Username   string `json:"username"`
		IsVerified bool   `json:"is_verified"`
	} `json:"owner"`
	Replies []apifyComment `json:"replies"`
}

func (c apifyComment) normalize(parent string) Comment {
	user := c.Owner.Username
	if user == "" {
		user = c.OwnerUsername
	}
	return Comment{
		ID: c.ID, Text: c.Text, CreatedAt: parseTime(c.Timestamp), LikeCount: max(c.LikesCount, 0),
		ReplyCount: max(c.RepliesCount, int64(len(c.Replies))), ParentID: parent,
		Owner: Owner{ID: c.Owner.ID, Username: user, IsVerified: c.Owner.IsVerified},
	}
}

// Comments implements Provider with resultsType "comments".
func (a *Apify) Comments(ctx context.Context, q CommentsQuery) (CommentPage, error) {
	sc, err := refShortcode(q.Media)
	if err != nil {
		return CommentPage{}, err
	}
	off, err := offsetCursor("apify", q.Cursor)
	if err != nil {
		return CommentPage{}, err
	}
	items, err := a.run(ctx, apifyInput{DirectURLs: []string{permalink(sc, TypeImage)}, ResultsType: "comments", ResultsLimit: off + q.Limit + 1}, "media "+sc)
	if errors.Is(err, errNoItems) {
		return CommentPage{}, nil
	}
	if err != nil {
		return CommentPage{}, err
	}
	cs, err := decodeItems[apifyComment](items)
	if err != nil {
		return CommentPage{}, err
	}
	var flat []Comment
	for _, c := range cs {
		flat = append(flat, c.normalize(""))
		for _, r := range c.Replies {
			flat = append(flat, r.normalize(c.ID))
		}
	}
	win, next := window("apify", flat, off, q.Limit)
	return CommentPage{Comments: win, Next: next}, nil
}

// HashtagMedia implements Provider with the hashtag's explore URL.
func (a *Apify) HashtagMedia(ctx context.Context, q HashtagQuery) (MediaPage, error) {
	page, err := a.posts(ctx, "https://www.instagram.com/explore/tags/"+url.PathEscape(q.Hashtag)+"/", "posts", q.Cursor, q.Limit, "the hashtag #"+q.Hashtag, false)
	if err == nil && q.Sort == "recent" {
		page.Notes = append(page.Notes, "the Apify actor returns hashtag media in its own order; sort=recent is not applied")
	}
	return page, err
}

// Search implements Provider with the actor's search (searchType user or
// hashtag).
func (a *Apify) Search(ctx context.Context, q SearchQuery) (SearchPage, error) {
	off, err := offsetCursor("apify", q.Cursor)
	if err != nil {
		return SearchPage{}, err
	}
	st := "user"
	if q.Type == "hashtag" {
		st = "hashtag"
	}
	items, err := a.run(ctx, apifyInput{Search: q.Query, SearchType: st, SearchLimit: min(off+q.Limit+1, 250), ResultsType: "details", ResultsLimit: 1}, "search "+q.Query)
	if errors.Is(err, errNoItems) {
		return SearchPage{}, nil
	}
	if err != nil {
		return SearchPage{}, err
	}
	var rs []SearchResult
	if st == "hashtag" {
		hs, err := decodeItems[struct {
			ID         string `json:"id"`
			Name       string `json:"name"`
			PostsCount int64  `json:"postsCount"`
		}](items)
		if err != nil {
			return SearchPage{}, err
		}
		for _, h := range hs {
			rs = append(rs, SearchResult{Type: "hashtag", Hashtag: &HashtagHit{ID: h.ID, Name: strings.ToLower(h.Name), MediaCount: h.PostsCount}})
		}
	} else {
		ps, err := decodeItems[apifyProfile](items)
		if err != nil {
			return SearchPage{}, err
		}
		for _, p := range ps {
			rs = append(rs, SearchResult{Type: "profile", Profile: &ProfileHit{
				ID: p.ID, Username: p.Username, FullName: p.FullName, IsVerified: p.Verified,
				FollowersCount: p.FollowersCount, ProfilePicURL: p.ProfilePicURL,
			}})
		}
	}
	win, next := window("apify", rs, off, q.Limit)
	return SearchPage{Results: win, Next: next}, nil
}
