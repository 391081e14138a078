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

	"github.com/prometheus/client_golang/prometheus"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/internal/upstream"
	"github.com/quiverkit/quiver/secret"
)

// Defaults of [ApifyConfig] (and DefaultMaxResponseBytes).
const (
	DefaultApifyBaseURL = "https://api.apify.com"
	DefaultApifyActor   = "apify~instagram-scraper"
	DefaultApifyTimeout = 120 * time.Second
	// DefaultApifyRunItems is how many items one actor run scrapes for a
	// paged query: five pages of DefaultLimit.
	DefaultApifyRunItems = 60
	// maxApifyRunItems bounds RunItems, and so how deep the pages of one
	// query go.
	maxApifyRunItems = 1000
	// apifyMaxComments is the most comments of a post the actor scrapes:
	// its input schema documents resultsLimit as "max 50 comments per
	// post", so a comments run asks for no more.
	apifyMaxComments = 50
	// apifyMaxSearchResults is the most results of a search the actor
	// returns (searchLimit, at most 250).
	apifyMaxSearchResults = 250
)

// ApifyConfig configures an [Apify] provider.
type ApifyConfig struct {
	// Token is the Apify API token. Required. It travels in the
	// Authorization header, never appears in errors, and its printed forms
	// show "[redacted]" (see package secret). It also keys the encryption
	// of the provider's cursors.
	Token secret.String
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
	// Timeout bounds the wait for one actor run (the run's own timeout,
	// and the time spent starting it and asking for its end, at most 60 s
	// per request), at most 300 s; default DefaultApifyTimeout (120 s).
	// Each request may take 10 s more, so that Apify's own timeout answer
	// arrives first.
	Timeout time.Duration
	// RunItems is how many items the one actor run of a paged query
	// (posts, reels, comments, hashtag media, search) scrapes; its pages
	// are then read from the run's dataset. A first page asking more runs
	// for that many. A comments run asks for at most 50, the most
	// comments of a post the actor documents; a search run for at most
	// 250. 1 to 1000; default DefaultApifyRunItems (60).
	RunItems int
	// Metrics, when set, is the Prometheus registry in which the provider
	// counts its calls: quiver_upstream_requests_total{provider="apify",outcome}
	// and quiver_upstream_request_duration_seconds{provider="apify"}. Pass the
	// registry of httpapi.Config.Metrics, so that the handler's /metrics
	// show them. Default (nil): the calls are not counted.
	Metrics prometheus.Registerer
	// Logger receives what the provider cannot say in a result: that an
	// expired dataset of comments or search hits was scraped again.
	// Default slog.Default().
	Logger *slog.Logger
}

// Apify serves data through the Apify Instagram scraper actor: profiles
// ("details") and single media with run-sync-get-dataset-items; posts,
// reels, comments, hashtag media and profile or hashtag search with one
// actor run per query, whose default dataset is then read page by page.
//
// The first page of a query starts a run (POST /v2/acts/{actor}/runs),
// waits for its end (GET /v2/actor-runs/{id} with waitForFinish) and reads
// the page from the run's default dataset (GET
// /v2/datasets/{id}/items with offset and limit). Its next_cursor carries
// the dataset ID and the offset, encrypted and authenticated (AES-GCM
// keyed from the token, bound to the query): a caller cannot learn the
// dataset's ID (Apify lets anyone who knows it read a dataset when the
// account's storages are not restricted), and a cursor the provider did
// not issue for this query is refused with INVALID_REQUEST, so that no
// caller can read another dataset through it. Later pages are one dataset read each. Apify deletes
// unnamed datasets after a while; a page of an expired dataset runs the
// actor again and says so (a note on media pages, the Logger otherwise).
//
// Reels are told apart by productType "clips". Hashtag media come in the
// actor's order: sort=recent is not honoured, and a note says so.
type Apify struct {
	actor    string
	timeout  time.Duration
	runItems int
	log      *slog.Logger
	cursors  cursorKey
	up       *upstream.Client // holds the token, behind a pointer
}

// Format implements fmt.Formatter: every verb prints the provider's type
// and base URL, never its credential.
func (p Apify) Format(f fmt.State, _ rune) { upstream.FormatProvider(f, "photosocial.Apify", p.up) }

// NewApify returns an Apify provider. The error wraps [ErrInvalidConfig]
// when Token is empty or a setting cannot work.
func NewApify(cfg ApifyConfig) (*Apify, error) {
	if strings.TrimSpace(cfg.Token.Reveal()) == "" {
		return nil, invalidConfig("the Apify provider needs Token")
	}
	if cfg.Actor == "" {
		cfg.Actor = DefaultApifyActor
	}
	if cfg.Timeout < 0 || cfg.Timeout > 300*time.Second {
		return nil, invalidConfig("Timeout must be at most 300s: the Apify provider waits no longer for an actor run")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultApifyTimeout
	}
	if cfg.RunItems < 0 || cfg.RunItems > maxApifyRunItems {
		return nil, invalidConfig("RunItems must be between 1 and %d (the Apify provider)", maxApifyRunItems)
	}
	if cfg.RunItems == 0 {
		cfg.RunItems = DefaultApifyRunItems
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	// A request waits for the actor (run-sync, or waitForFinish); allow a
	// margin over that wait so that Apify's own answer arrives before ours.
	hc, err := upstream.Metered(cfg.Metrics, "apify", cfg.HTTPClient)
	if err != nil {
		return nil, invalidConfig("the Apify provider's Metrics: %v", err)
	}
	up, err := newUpstream("Apify", DefaultApifyBaseURL, cfg.Token.Reveal(), cfg.BaseURL, hc, cfg.MaxResponseBytes, cfg.Timeout, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &Apify{
		actor: strings.Replace(cfg.Actor, "/", "~", 1), timeout: cfg.Timeout, runItems: cfg.RunItems,
		log: cfg.Logger, cursors: newCursorKey(cfg.Token.Reveal()), up: up,
	}, nil
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
	return screen(items, what)
}

// screen picks the items that are not the actor's error items: it reports
// a missing target as an error item ("not_found", NOT_FOUND) and a private
// or empty one as "no_items" ([errNoItems] when nothing else came).
func screen(items []json.RawMessage, what string) ([]json.RawMessage, error) {
	var real []json.RawMessage
	noItems := false
	for _, it := range items {
		switch e := errorItem(it); e {
		case "":
			real = append(real, it)
		case "not_found":
			return nil, notFound("%s was not found", what)
		case "no_items":
			noItems = true
		default:
			return nil, envelope.Errorf(envelope.CodeUpstreamError, "the Apify actor failed on %s (%s)", what, textcut.OneLine(e, 160, "..."))
		}
	}
	if real == nil && noItems {
		return nil, errNoItems
	}
	return real, nil
}

// errorItem is the error code of an actor's error item, "" for others.
func errorItem(it json.RawMessage) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(it, &e) != nil {
		return ""
	}
	return e.Error
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
		return envelope.Errorf(envelope.CodeUpstreamError, "the Apify actor %q was not found: check the configured actor's name", a.actor)
	case status == http.StatusRequestTimeout || ae.Error.Type == "run-timeout-exceeded":
		return envelope.Errorf(envelope.CodeUpstreamTimeout, "the Apify actor run did not finish within %s", a.timeout)
	case status == http.StatusPaymentRequired:
		return envelope.Errorf(envelope.CodeUpstreamError, "the Apify account has no usage left (HTTP 402)")
	case status == http.StatusForbidden:
		return envelope.Errorf(envelope.CodeUpstreamError, "the Apify API refused the configured token this request (HTTP 403%s): it may not run the actor or read its dataset", typeSuffix(ae.Error.Type))
	case status == http.StatusBadRequest && ae.Error.Type == "run-failed":
		return envelope.Errorf(envelope.CodeUpstreamError, "the Apify actor run failed")
	}
	return nil
}

// typeSuffix quotes an Apify error type after a status.
func typeSuffix(t string) string {
	if t == "" {
		return ""
	}
	return ", " + textcut.OneLine(t, 60, "...")
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

// UserMedia implements Provider with resultsType "posts" or "reels", one
// actor run per query. With reels, only the items the actor marks as
// reels are kept.
func (a *Apify) UserMedia(ctx context.Context, q UserMediaQuery) (MediaPage, error) {
	rt := "posts"
	if q.Reels {
		rt = "reels"
	}
	return a.media(ctx, "media\x00"+rt+"\x00"+q.Username, apifyInput{DirectURLs: []string{profileURL(q.Username)}, ResultsType: rt},
		q.Cursor, q.Limit, "the account @"+q.Username, q.Reels)
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
		return "", &envelope.ValidationError{Issues: []envelope.FieldIssue{{Field: "media_id", Issue: err.Error()}}, Cause: err}
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

// Comments implements Provider with resultsType "comments", one actor run
// per media, asking for at most 50 comments (with their replies): the
// actor documents no more per post, so the comments of a post end there.
// Replies follow their comment; a page may end inside a comment's
// replies, and the next goes on from there.
func (a *Apify) Comments(ctx context.Context, q CommentsQuery) (CommentPage, error) {
	sc, err := refShortcode(q.Media)
	if err != nil {
		return CommentPage{}, err
	}
	in := apifyInput{DirectURLs: []string{permalink(sc, TypeImage)}, ResultsType: "comments"}
	p, err := a.page(ctx, "comments\x00"+sc, in, q.Cursor, q.Limit, "media "+sc)
	if errors.Is(err, errNoItems) {
		return CommentPage{}, nil
	}
	if err != nil {
		return CommentPage{}, err
	}
	groups, bad := decodeGroups(p.items, func(c apifyComment) []Comment {
		if c.ID == "" {
			return nil
		}
		out := []Comment{c.normalize("")}
		for _, r := range c.Replies {
			out = append(out, r.normalize(c.ID))
		}
		return out
	})
	if err := p.check(bad); err != nil {
		return CommentPage{}, err
	}
	cs, next := cut(p, a, groups, q.Limit)
	a.logNotes(ctx, p.notes, bad, "comments of media "+sc)
	return CommentPage{Comments: cs, Next: next}, nil
}

// HashtagMedia implements Provider with the hashtag's explore URL, one
// actor run per hashtag.
func (a *Apify) HashtagMedia(ctx context.Context, q HashtagQuery) (MediaPage, error) {
	in := apifyInput{DirectURLs: []string{"https://www.instagram.com/explore/tags/" + url.PathEscape(q.Hashtag) + "/"}, ResultsType: "posts"}
	page, err := a.media(ctx, "hashtag\x00"+q.Hashtag, in, q.Cursor, q.Limit, "the hashtag #"+q.Hashtag, false)
	if err == nil && q.Sort == "recent" {
		page.Notes = append(page.Notes, "the Apify actor returns hashtag media in its own order; sort=recent is not applied")
	}
	return page, err
}

// media serves a page of posts, reels or hashtag media.
func (a *Apify) media(ctx context.Context, scope string, in apifyInput, cursor string, limit int, what string, reels bool) (MediaPage, error) {
	p, err := a.page(ctx, scope, in, cursor, limit, what)
	if errors.Is(err, errNoItems) {
		return MediaPage{Notes: []string{"no public media: the account is private or has not posted"}}, nil
	}
	if err != nil {
		return MediaPage{}, err
	}
	unsure := 0
	groups, bad := decodeGroups(p.items, func(post apifyPost) []Media {
		if post.ID == "" && post.ShortCode == "" {
			return nil
		}
		m := post.normalize()
		if reels && m.Type != TypeReel {
			if m.Type == TypeVideo && post.ProductType == "" {
				unsure++
			}
			return nil
		}
		return []Media{m}
	})
	if err := p.check(bad); err != nil {
		return MediaPage{}, err
	}
	ms, next := cut(p, a, groups, limit)
	page := MediaPage{Media: ms, Next: next, Notes: p.notes}
	if unsure > 0 {
		page.Notes = append(page.Notes, fmt.Sprintf("the Apify actor did not say whether %d video(s) are reels; they are left out", unsure))
	}
	if bad > 0 {
		page.Notes = append(page.Notes, badItemsNote(bad))
	}
	return page, nil
}

// Search implements Provider with the actor's search (searchType user or
// hashtag), one actor run per query.
func (a *Apify) Search(ctx context.Context, q SearchQuery) (SearchPage, error) {
	st := "user"
	if q.Type == "hashtag" {
		st = "hashtag"
	}
	in := apifyInput{Search: q.Query, SearchType: st, ResultsType: "details", ResultsLimit: 1}
	p, err := a.page(ctx, "search\x00"+st+"\x00"+q.Query, in, q.Cursor, q.Limit, "search "+q.Query)
	if errors.Is(err, errNoItems) {
		return SearchPage{}, nil
	}
	if err != nil {
		return SearchPage{}, err
	}
	var groups [][]SearchResult
	var bad int
	if st == "hashtag" {
		groups, bad = decodeGroups(p.items, func(h apifyHashtag) []SearchResult {
			if h.Name == "" {
				return nil
			}
			return []SearchResult{{Type: "hashtag", Hashtag: &HashtagHit{ID: h.ID, Name: strings.ToLower(h.Name), MediaCount: h.PostsCount}}}
		})
	} else {
		groups, bad = decodeGroups(p.items, func(u apifyProfile) []SearchResult {
			if u.Username == "" {
				return nil
			}
			return []SearchResult{{Type: "profile", Profile: &ProfileHit{
				ID: u.ID, Username: u.Username, FullName: u.FullName, IsVerified: u.Verified,
				FollowersCount: u.FollowersCount, ProfilePicURL: u.ProfilePicURL,
			}}}
		})
	}
	if err := p.check(bad); err != nil {
		return SearchPage{}, err
	}
	rs, next := cut(p, a, groups, q.Limit)
	a.logNotes(ctx, p.notes, bad, "search "+q.Query)
	return SearchPage{Results: rs, Next: next}, nil
}

// apifyHashtag is a hashtag hit of the actor's search.
type apifyHashtag struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	PostsCount int64  `json:"postsCount"`
}
