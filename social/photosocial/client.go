package photosocial

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/cfgerr"
	"github.com/quiverkit/quiver/llm"
)

// Bounds and defaults of the request fields.
const (
	// MaxLimit bounds every limit parameter.
	MaxLimit = 100
	// DefaultLimit is the limit when none is given: one page of a profile
	// grid.
	DefaultLimit = 12
	// maxCursorLen bounds a cursor passed through to the provider.
	maxCursorLen = 2048
	// maxQueryLen bounds a search query and a hashtag, in characters.
	maxQueryLen = 100
)

// Config configures a [Client]. The zero value gives a Client without a
// provider or a model: the data operations answer SERVICE_UNAVAILABLE
// saying how to configure a provider, the insights operations
// SERVICE_UNAVAILABLE saying how to configure a model.
type Config struct {
	// Provider is the upstream source of data: a [Graph], [Apify] or
	// [File] provider, or any other implementation. Default none.
	Provider Provider
	// LLM are the model settings of the insights operations (model, its
	// name and prices, per-call timeout, attempts, JSON mode); default
	// none, and the insights operations answer SERVICE_UNAVAILABLE.
	LLM llm.Config
	// Now is the clock of fetched_at; default time.Now.
	Now func() time.Time
}

// Client serves the photo-sharing operations over a Provider. Build it
// with [New]; the zero value is a Client without a provider or a model,
// which answers every operation with SERVICE_UNAVAILABLE. A Client is
// safe for concurrent use when its Provider and model are.
type Client struct {
	src   Provider
	llm   llm.Config
	clock func() time.Time
}

// New returns a Client over cfg. The error reports model settings that
// cannot work (see [llm.Config.Validate]); it wraps both
// [ErrInvalidConfig] and llm.ErrInvalidConfig.
func New(cfg Config) (*Client, error) {
	if err := cfg.LLM.Validate(); err != nil {
		return nil, cfgerr.Wrap(ErrInvalidConfig, "LLM", err)
	}
	return &Client{src: cfg.Provider, llm: cfg.LLM, clock: cfg.Now}, nil
}

func (c *Client) now() time.Time {
	if c.clock != nil {
		return c.clock()
	}
	return time.Now()
}

func (c *Client) provider() (Provider, error) {
	if c == nil || c.src == nil {
		return nil, errNoProvider
	}
	return c.src, nil
}

// ProfileRequest asks for a profile.
type ProfileRequest struct {
	// Username is the account's handle, with or without a leading @.
	// Required; 1 to 30 letters, digits, periods and underscores.
	Username string `json:"username" openapi:"required"`
}

// PostsRequest asks for a user's recent media.
type PostsRequest struct {
	// Username is the account's handle, with or without a leading @.
	// Required.
	Username string `json:"username" openapi:"required"`
	// Limit is the number of media to return: 1 to 100, default 12.
	Limit int `json:"limit"`
	// Cursor is next_cursor of the previous page; empty for the first.
	Cursor string `json:"cursor"`
}

// ReelsRequest asks for a user's recent reels.
type ReelsRequest struct {
	// Username is the account's handle, with or without a leading @.
	// Required.
	Username string `json:"username" openapi:"required"`
	// Limit is the number of reels to return: 1 to 100, default 12.
	Limit int `json:"limit"`
	// Cursor is next_cursor of the previous page; empty for the first.
	Cursor string `json:"cursor"`
}

// MediaRequest asks for one media object by shortcode or media ID.
type MediaRequest struct {
	// Shortcode is the code of the post's URL ("B1LbfVPlwIA"), or the
	// URL itself. Preferred when both fields are given.
	Shortcode string `json:"shortcode"`
	// MediaID is the provider's media ID: digits, optionally followed by
	// _<user id>. Required when shortcode is absent.
	MediaID string `json:"media_id"`
}

// CommentsRequest asks for the comments of a post or reel.
type CommentsRequest struct {
	// Shortcode names the media; preferred when both are given.
	Shortcode string `json:"shortcode"`
	// MediaID names the media when shortcode is absent.
	MediaID string `json:"media_id"`
	// Limit is the number of comments to return: 1 to 100, default 12.
	Limit int `json:"limit"`
	// Cursor is next_cursor of the previous page; empty for the first.
	Cursor string `json:"cursor"`
}

// HashtagRequest asks for the public media of a hashtag.
type HashtagRequest struct {
	// Hashtag is the tag, with or without #. Required; letters, digits
	// and underscores, at most 100 characters.
	Hashtag string `json:"hashtag" openapi:"required"`
	// Sort is top (the provider's ranking, the default) or recent.
	Sort string `json:"sort"`
	// Limit is the number of media to return: 1 to 100, default 12.
	Limit int `json:"limit"`
	// Cursor is next_cursor of the previous page; empty for the first.
	Cursor string `json:"cursor"`
}

// SearchRequest searches profiles or hashtags.
type SearchRequest struct {
	// Query is a username or hashtag text; a leading @ or # is dropped.
	// Required; at most 100 characters.
	Query string `json:"query" openapi:"required"`
	// Type is profile (the default), hashtag or place. No provider
	// supports place search: it is refused with INVALID_REQUEST.
	Type string `json:"type"`
	// Limit is the number of results: 1 to 100, default 12.
	Limit int `json:"limit"`
	// Cursor is next_cursor of the previous page; empty for the first.
	Cursor string `json:"cursor"`
}

// Profile returns the profile of a user.
func (c *Client) Profile(ctx context.Context, req ProfileRequest) (Profile, error) {
	var v envelope.ValidationError
	user := checkUsername(&v, "username", req.Username)
	if err := v.Err(); err != nil {
		return Profile{}, err
	}
	p, err := c.provider()
	if err != nil {
		return Profile{}, err
	}
	prof, err := p.Profile(ctx, user)
	if err != nil {
		return Profile{}, err
	}
	prof.Source, prof.FetchedAt = p.Name(), c.stamp()
	if prof.Username == "" {
		prof.Username = user
	}
	return prof, nil
}

// Posts returns a user's recent media, newest first.
func (c *Client) Posts(ctx context.Context, req PostsRequest) (MediaList, error) {
	return c.userMedia(ctx, req.Username, req.Limit, req.Cursor, false)
}

// Reels returns a user's recent media of type reel. Where the provider
// cannot tell reels from other videos, notes say so.
func (c *Client) Reels(ctx context.Context, req ReelsRequest) (MediaList, error) {
	return c.userMedia(ctx, req.Username, req.Limit, req.Cursor, true)
}

func (c *Client) userMedia(ctx context.Context, username string, limit int, cursor string, reels bool) (MediaList, error) {
	var v envelope.ValidationError
	q := UserMediaQuery{
		Username: checkUsername(&v, "username", username),
		Limit:    checkLimit(&v, limit),
		Cursor:   checkCursor(&v, cursor),
		Reels:    reels,
	}
	if err := v.Err(); err != nil {
		return MediaList{}, err
	}
	p, err := c.provider()
	if err != nil {
		return MediaList{}, err
	}
	page, err := p.UserMedia(ctx, q)
	if err != nil {
		return MediaList{}, err
	}
	return c.mediaList(p, page, q.Limit), nil
}

// Media returns one media object by shortcode or media ID.
func (c *Client) Media(ctx context.Context, req MediaRequest) (Media, error) {
	var v envelope.ValidationError
	ref := checkMediaRef(&v, req.Shortcode, req.MediaID)
	if err := v.Err(); err != nil {
		return Media{}, err
	}
	p, err := c.provider()
	if err != nil {
		return Media{}, err
	}
	m, err := p.Media(ctx, ref)
	if err != nil {
		return Media{}, err
	}
	return c.finishMedia(p, m), nil
}

// Comments returns comments of a post or reel.
func (c *Client) Comments(ctx context.Context, req CommentsRequest) (CommentList, error) {
	var v envelope.ValidationError
	q := CommentsQuery{
		Media:  checkMediaRef(&v, req.Shortcode, req.MediaID),
		Limit:  checkLimit(&v, req.Limit),
		Cursor: checkCursor(&v, req.Cursor),
	}
	if err := v.Err(); err != nil {
		return CommentList{}, err
	}
	p, err := c.provider()
	if err != nil {
		return CommentList{}, err
	}
	page, err := p.Comments(ctx, q)
	if err != nil {
		return CommentList{}, err
	}
	cs := clip(page.Comments, q.Limit)
	return CommentList{
		Comments: cs, ResultCount: len(cs), PageInfo: pageInfo(page.Next),
		Source: p.Name(), FetchedAt: c.stamp(),
	}, nil
}

// HashtagSearch returns public media tagged with a hashtag.
func (c *Client) HashtagSearch(ctx context.Context, req HashtagRequest) (MediaList, error) {
	var v envelope.ValidationError
	q := HashtagQuery{
		Hashtag: checkHashtag(&v, "hashtag", req.Hashtag),
		Limit:   checkLimit(&v, req.Limit),
		Cursor:  checkCursor(&v, req.Cursor),
	}
	switch s := strings.ToLower(strings.TrimSpace(req.Sort)); s {
	case "", "top":
		q.Sort = "top"
	case "recent":
		q.Sort = "recent"
	default:
		v.Add("sort", "must be top or recent")
	}
	if err := v.Err(); err != nil {
		return MediaList{}, err
	}
	p, err := c.provider()
	if err != nil {
		return MediaList{}, err
	}
	page, err := p.HashtagMedia(ctx, q)
	if err != nil {
		return MediaList{}, err
	}
	return c.mediaList(p, page, q.Limit), nil
}

// Search finds profiles or hashtags. Type place is refused: no upstream
// provider supports place search.
func (c *Client) Search(ctx context.Context, req SearchRequest) (SearchResults, error) {
	var v envelope.ValidationError
	q := SearchQuery{Limit: checkLimit(&v, req.Limit), Cursor: checkCursor(&v, req.Cursor)}
	switch t := strings.ToLower(strings.TrimSpace(req.Type)); t {
	case "", "profile":
		q.Type = "profile"
	case "hashtag":
		q.Type = "hashtag"
	case "place":
		v.Add("type", "the upstream provider does not support place search; use profile or hashtag")
	default:
		v.Add("type", "must be one of profile, hashtag or place")
	}
	query := strings.TrimSpace(req.Query)
	switch {
	case query == "":
		v.Add("query", "is required")
	case utf8.RuneCountInString(query) > maxQueryLen:
		v.Addf("query", "must be at most %d characters", maxQueryLen)
	case !utf8.ValidString(query):
		v.Add("query", "must be valid UTF-8")
	default:
		query = strings.TrimLeft(query, "@#")
		if q.Type == "hashtag" {
			query = strings.ToLower(query)
		}
		if query == "" {
			v.Add("query", "must contain more than @ or #")
		}
	}
	q.Query = query
	if err := v.Err(); err != nil {
		return SearchResults{}, err
	}
	p, err := c.provider()
	if err != nil {
		return SearchResults{}, err
	}
	page, err := p.Search(ctx, q)
	if err != nil {
		return SearchResults{}, err
	}
	rs := clip(page.Results, q.Limit)
	return SearchResults{
		Query: q.Query, Type: q.Type, Results: rs, ResultCount: len(rs), PageInfo: pageInfo(page.Next),
		Source: p.Name(), FetchedAt: c.stamp(),
	}, nil
}

// stamp is the fetched_at of a response: RFC 3339 with the UTC offset.
func (c *Client) stamp() string {
	return c.now().UTC().Format(time.RFC3339)
}

func (c *Client) mediaList(p Provider, page MediaPage, limit int) MediaList {
	ms := clip(page.Media, limit)
	out := make([]Media, len(ms))
	for i, m := range ms {
		out[i] = c.finishMedia(p, m)
	}
	notes := page.Notes
	if notes == nil {
		notes = []string{}
	}
	return MediaList{
		Media: out, ResultCount: len(out), Notes: notes, PageInfo: pageInfo(page.Next),
		Source: p.Name(), FetchedAt: c.stamp(),
	}
}

// clip returns at most limit items, and an empty list rather than nil.
func clip[T any](xs []T, limit int) []T {
	if len(xs) > limit {
		xs = xs[:limit]
	}
	if xs == nil {
		xs = []T{}
	}
	return xs
}

// pageInfo is the page_info of a page whose next cursor is next.
func pageInfo(next string) PageInfo {
	return PageInfo{HasNextPage: next != "", NextCursor: next}
}

// finishMedia fills what every provider leaves to the Client: the source,
// the time, hashtags and mentions from the caption, the permalink, and
// empty lists instead of nulls.
func (c *Client) finishMedia(p Provider, m Media) Media {
	m.Source, m.FetchedAt = p.Name(), c.stamp()
	if m.Hashtags == nil {
		m.Hashtags = extractTags(m.Caption, '#')
	}
	if m.Mentions == nil {
		m.Mentions = extractTags(m.Caption, '@')
	}
	if m.URL == "" && m.Shortcode != "" {
		m.URL = permalink(m.Shortcode, m.Type)
	}
	if m.Children == nil {
		m.Children = []Child{}
	}
	return m
}

// permalink is the instagram.com URL of a shortcode.
func permalink(shortcode string, t MediaType) string {
	if t == TypeReel {
		return "https://www.instagram.com/reel/" + shortcode + "/"
	}
	return "https://www.instagram.com/p/" + shortcode + "/"
}

var (
	usernameRE = regexp.MustCompile(`^[a-z0-9._]{1,30}$`)
	mediaIDRE  = regexp.MustCompile(`^[0-9]{1,25}(_[0-9]{1,25})?$`)
)

// checkUsername validates a username and returns it lower-cased without @.
func checkUsername(v *envelope.ValidationError, field, s string) string {
	u := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "@"))
	switch {
	case u == "":
		v.Add(field, "is required")
	case !usernameRE.MatchString(u):
		v.Add(field, "must be 1 to 30 letters, digits, periods or underscores, with or without a leading @")
	}
	return u
}

// checkLimit applies the default and the bound of a limit.
func checkLimit(v *envelope.ValidationError, n int) int {
	switch {
	case n == 0:
		return DefaultLimit
	case n < 0 || n > MaxLimit:
		v.Addf("limit", "must be between 1 and %d", MaxLimit)
	}
	return n
}

func checkCursor(v *envelope.ValidationError, s string) string {
	if len(s) > maxCursorLen {
		v.Addf("cursor", "must be at most %d bytes", maxCursorLen)
	}
	return s
}

// checkHashtag validates a hashtag and returns it lower-cased without #.
func checkHashtag(v *envelope.ValidationError, field, s string) string {
	h := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "#"))
	switch {
	case h == "":
		v.Add(field, "is required")
	case utf8.RuneCountInString(h) > maxQueryLen:
		v.Addf(field, "must be at most %d characters", maxQueryLen)
	case strings.IndexFunc(h, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) >= 0:
		v.Add(field, "must be letters, digits and underscores, with or without a leading #")
	}
	return h
}

// checkMediaRef validates the shortcode and media_id pair. A shortcode
// may be given as a post, reel or tv URL.
func checkMediaRef(v *envelope.ValidationError, shortcode, mediaID string) MediaRef {
	ref := MediaRef{Shortcode: strings.TrimSpace(shortcode), MediaID: strings.TrimSpace(mediaID)}
	if ref.Shortcode == "" && ref.MediaID == "" {
		v.Add("shortcode", "is required when media_id is not given")
		return ref
	}
	if ref.Shortcode != "" {
		sc, ok := parseShortcode(ref.Shortcode)
		if !ok {
			v.Add("shortcode", "must be the code of a post URL (A-Z a-z 0-9 - _, at most 64 characters) or such a URL")
			v.Cause = ErrInvalidShortcode
		}
		ref.Shortcode = sc
	}
	if ref.MediaID != "" && !mediaIDRE.MatchString(ref.MediaID) {
		v.Add("media_id", "must be decimal digits, optionally followed by _<user id>")
		v.Cause = ErrInvalidMediaID
	}
	return ref
}

// parseShortcode accepts a bare shortcode or an instagram.com URL of a
// post, reel or tv video.
func parseShortcode(s string) (string, bool) {
	if strings.Contains(s, "/") {
		u, err := url.Parse(s)
		if err != nil {
			return "", false
		}
		host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
		parts := strings.Split(strings.Trim(u.Path, "/"), "/")
		if host != "instagram.com" || len(parts) < 2 {
			return "", false
		}
		switch parts[len(parts)-2] {
		case "p", "reel", "reels", "tv":
			s = parts[len(parts)-1]
		default:
			return "", false
		}
	}
	if s == "" || len(s) > 64 {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if shortcodeDigit[s[i]] < 0 {
			return "", false
		}
	}
	return s, true
}

// extractTags returns the distinct #hashtags or @mentions of text,
// lower-cased, in order of first appearance. Never nil.
func extractTags(text string, mark rune) []string {
	out := []string{}
	seen := map[string]bool{}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		if rs[i] != mark || (i > 0 && isTagRune(rs[i-1], mark)) {
			continue
		}
		j := i + 1
		for j < len(rs) && isTagRune(rs[j], mark) {
			j++
		}
		tag := strings.ToLower(strings.TrimRight(string(rs[i+1:j]), "."))
		if tag != "" && !seen[tag] {
			seen[tag] = true
			out = append(out, tag)
		}
		i = j - 1
	}
	return out
}

func isTagRune(r, mark rune) bool {
	if mark == '@' && r == '.' {
		return true
	}
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// parseTime converts the time forms providers use into RFC 3339 in UTC:
// unix seconds (as a number or a string), RFC 3339 with or without
// fractions, and the Graph API's "2006-01-02T15:04:05+0000". Unparseable
// or empty input gives "".
func parseTime(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case float64:
		if t <= 0 {
			return ""
		}
		return time.Unix(int64(t), 0).UTC().Format(time.RFC3339)
	case int64:
		return parseTime(float64(t))
	case int:
		return parseTime(float64(t))
	case string:
		s := strings.TrimSpace(t)
		if s == "" {
			return ""
		}
		if allDigits(s) {
			var n int64
			fmt.Sscan(s, &n)
			return parseTime(float64(n))
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05-0700", "2006-01-02T15:04:05.000-0700", "2006-01-02 15:04:05"} {
			if tm, err := time.Parse(layout, s); err == nil {
				return tm.UTC().Format(time.RFC3339)
			}
		}
	}
	return ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
