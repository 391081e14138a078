package photosocial

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/upstream"
	"github.com/quiverkit/quiver/secret"
)

// Defaults of [GraphConfig].
const (
	// DefaultGraphBaseURL is the root of the Graph API, without a
	// version.
	DefaultGraphBaseURL = "https://graph.facebook.com"
	// DefaultGraphAPIVersion is the Graph API version the provider asks
	// for, the one its fixtures (photosocialtest) follow. Meta keeps a
	// version usable for two years after the next one comes out; from
	// v18.0 on, the IG Media reference marks thumbnail_url Public, and so
	// readable through business discovery.
	DefaultGraphAPIVersion = "v25.0"
)

// GraphFieldRetryInterval is how long a Graph provider, after business
// discovery refused optional media fields (code 100, "supported
// fields"), keeps asking for fewer: then it asks for the full set again.
// A refusal seen once is not taken as final, since it may have come from
// one account or a version the app was moved off since.
const GraphFieldRetryInterval = time.Hour

// GraphConfig configures a [Graph] provider.
type GraphConfig struct {
	// Token is the app user's access token (instagram_basic and
	// pages_read_engagement; Instagram Public Content Access for
	// hashtags). Required. It travels in the Authorization header, never
	// in URLs, never appears in errors, and its printed forms show
	// "[redacted]" (see package secret).
	Token secret.String
	// UserID is the app user's Instagram professional account ID, on
	// which business discovery and hashtag search are performed. Required.
	UserID string
	// BaseURL is the API root, without a version; default
	// DefaultGraphBaseURL. Tests point it at a photosocialtest server. A
	// BaseURL that ends with a version ("https://graph.facebook.com/v21.0")
	// is refused: the version is APIVersion.
	BaseURL string
	// APIVersion is the Graph API version every request names, "v" and
	// major.minor ("v25.0"); default DefaultGraphAPIVersion. Requests go
	// to BaseURL/APIVersion/... . Versions before v18.0 refuse
	// thumbnail_url in business discovery: the media are then asked again
	// without it, and the page's notes say so; later calls ask without it
	// for GraphFieldRetryInterval, then try it again.
	APIVersion string
	// HTTPClient sends the requests; default a shared client. Redirects
	// are followed only within the provider's host.
	HTTPClient *http.Client
	// MaxResponseBytes bounds each response body; default
	// DefaultMaxResponseBytes (8 MiB).
	MaxResponseBytes int64
	// Timeout bounds each request, body included; default
	// DefaultTimeout (15 s).
	Timeout time.Duration
	// Metrics, when set, is the Prometheus registry in which the provider
	// counts its calls: quiver_upstream_requests_total{provider="instagram_graph",outcome}
	// and quiver_upstream_request_duration_seconds{provider="instagram_graph"}. Pass the
	// registry of httpapi.Config.Metrics, so that the handler's /metrics
	// show them. Default (nil): the calls are not counted.
	Metrics prometheus.Registerer
}

// Graph serves data through the Instagram Graph API (Instagram API
// with Facebook Login): business discovery for the profiles and media of
// business and creator accounts, and hashtag search (ig_hashtag_search,
// then top_media or recent_media).
//
// What it cannot serve, it refuses with SERVICE_UNAVAILABLE wrapping
// [ErrUnsupported]:
//   - personal accounts and private profiles: business discovery sees only
//     professional accounts, so they are NOT_FOUND;
//   - media by shortcode: the Graph API addresses media by its own IG Media
//     ID, which a shortcode does not encode;
//   - media and comments by ID of media the app user does not own;
//   - search of profiles beyond the exact username (business discovery).
//
// Reels are told apart by media_product_type REELS. Hashtag media carry no
// owner username, and like_count is absent when the owner hid likes.
type Graph struct {
	userID string
	up     *upstream.Client // holds the token, behind a pointer
	// refused is how many steps of graphDiscoveryFields the API has
	// refused: later calls start past them until retryAt (Unix
	// nanoseconds), GraphFieldRetryInterval after the last refusal.
	// Pointers, so that Format's copy of a Graph copies no atomic.
	refused *atomic.Int32
	retryAt *atomic.Int64
	now     func() time.Time
}

// Format implements fmt.Formatter: every verb prints the provider's type
// and base URL, never its credential.
func (p Graph) Format(f fmt.State, _ rune) { upstream.FormatProvider(f, "photosocial.Graph", p.up) }

// graphVersionRE matches a Graph API version: "v" and major.minor.
var graphVersionRE = regexp.MustCompile(`^v[0-9]{1,3}\.[0-9]{1,2}$`)

// NewGraph returns a Graph API provider. The error wraps
// [ErrInvalidConfig] when Token or UserID is empty or a setting cannot
// work: an APIVersion that is not "v" and major.minor, or a BaseURL that
// ends with a version.
func NewGraph(cfg GraphConfig) (*Graph, error) {
	if strings.TrimSpace(cfg.Token.Reveal()) == "" || strings.TrimSpace(cfg.UserID) == "" {
		return nil, invalidConfig("the Graph provider needs Token and UserID (the app user's IG user ID)")
	}
	version := cmp.Or(cfg.APIVersion, DefaultGraphAPIVersion)
	if !graphVersionRE.MatchString(version) {
		return nil, invalidConfig("APIVersion %q is not a Graph API version such as %s", version, DefaultGraphAPIVersion)
	}
	base := strings.TrimRight(cmp.Or(cfg.BaseURL, DefaultGraphBaseURL), "/")
	if last := base[strings.LastIndexByte(base, '/')+1:]; graphVersionRE.MatchString(last) {
		return nil, invalidConfig("BaseURL ends with the Graph API version %s: give the root without it, and the version as APIVersion", last)
	}
	hc, err := upstream.Metered(cfg.Metrics, "instagram_graph", cfg.HTTPClient)
	if err != nil {
		return nil, invalidConfig("the Graph provider's Metrics: %v", err)
	}
	up, err := newUpstream("Instagram Graph API", DefaultGraphBaseURL, cfg.Token.Reveal(), base, hc, cfg.MaxResponseBytes, cfg.Timeout, 0)
	if err != nil {
		return nil, err
	}
	up.BaseURL += "/" + version
	return &Graph{userID: cfg.UserID, up: up, refused: new(atomic.Int32), retryAt: new(atomic.Int64), now: time.Now}, nil
}

// Name implements Provider.
func (g *Graph) Name() string { return "instagram_graph" }

// graphCursorRE matches a next_cursor of UserMedia and Comments: a Graph
// cursor, and after a dot how many of the selected media or flattened
// comments of that page were already returned (a page of reels, or of
// comments with their replies, may hold more than a response takes).
var graphCursorRE = regexp.MustCompile(`^([A-Za-z0-9_=-]*)(?:\.([0-9]{1,5}))?$`)

// graphMediaFields are the fields asked of an IG Media object the app
// user owns.
const graphMediaFields = "id,caption,comments_count,like_count,media_type,media_product_type,media_url,permalink,thumbnail_url,timestamp,username,children{id,media_type,media_url,thumbnail_url}"

// graphDiscoveryRequiredFields are the media fields business discovery
// has always served.
const graphDiscoveryRequiredFields = "id,caption,comments_count,like_count,media_type,media_product_type,media_url,permalink,timestamp"

// graphDiscoveryFields are the media fields asked of business discovery,
// most first. Business discovery reads media through field expansion,
// which serves the fields the IG Media reference marks Public. From v18.0
// on it marks thumbnail_url Public; earlier versions refused it with
// "(#100) Please read documentation for supported fields.", as an
// open-source client tested against v14.0 records (bk-rs/instagram-apis-rs,
// instagram-graph-api/src/objects/ig_media.rs). So thumbnail_url is asked
// for, and on that refusal (code 100, which does not name the field) the
// media are asked again without it; should the API refuse username and
// children too, with the required fields only. Each step's note says what
// is missing. Later calls start at the step reached, for
// GraphFieldRetryInterval. The sources are in
// photosocialtest/fixtures/graph/SOURCES.md.
var graphDiscoveryFields = []struct{ fields, note string }{
	{graphDiscoveryRequiredFields + ",thumbnail_url,username,children{id,media_type,media_url,thumbnail_url}", ""},
	{graphDiscoveryRequiredFields + ",username,children{id,media_type,media_url}", thumbnailRefusalNote},
	{graphDiscoveryRequiredFields, fieldRefusalNote},
}

// errFieldRefused marks a Graph API refusal of a requested field (code
// 100, "supported fields").
var errFieldRefused = errors.New("the Graph API refused a requested field")

// Notes of a page whose media were asked again without optional fields.
const (
	thumbnailRefusalNote = "the Graph API refused thumbnail_url in business discovery (versions before v18.0 do): videos and reels have no thumbnail"
	fieldRefusalNote     = "the Graph API refused optional media fields (username, children): carousel items are missing"
)

// graphError is the error object of a Graph API failure.
type graphError struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    int    `json:"code"`
		Subcode int    `json:"error_subcode"`
	} `json:"error"`
}

// get sends GET base/path?params and decodes the answer into out.
func (g *Graph) get(ctx context.Context, path string, params url.Values, out any, what string) error {
	return g.up.Send(ctx, upstream.Request{
		Path: "/" + path, Query: params,
		Classify: func(status int, body []byte) error { return g.classify(status, body, what, params.Has("after")) },
	}, out)
}

// classify maps a Graph API error object to an envelope error; nil lets
// upstream map by HTTP status. after tells that the request carried a
// cursor: an invalid parameter (code 100) is then that cursor.
func (g *Graph) classify(status int, body []byte, what string, after bool) error {
	var ge graphError
	if json.Unmarshal(body, &ge) != nil || ge.Error.Code == 0 {
		return nil
	}
	e := ge.Error
	switch {
	case e.Code == 4 || e.Code == 17 || e.Code == 32 || e.Code == 613 || e.Code == 80002:
		return envelope.Errorf(envelope.CodeRateLimitExceeded, "the Instagram Graph API rate limit was reached (code %d); retry later", e.Code)
	case e.Code == 190:
		return envelope.Errorf(envelope.CodeUpstreamError, "the Instagram Graph API rejected the configured access token (code 190): renew it")
	case e.Code == 100 && strings.Contains(strings.ToLower(e.Message), "supported fields"):
		return envelope.Wrap(envelope.CodeUpstreamError, errFieldRefused,
			fmt.Sprintf("the Instagram Graph API refused a requested field of %s (code 100)", what))
	case e.Code == 110 || e.Subcode == 2207013:
		return notFound("%s was not found: the Instagram Graph API sees only business and creator accounts", what)
	case e.Code == 100 && e.Subcode == 33:
		return notFound("%s was not found, or is not readable with the configured account", what)
	case e.Code == 100 && after:
		return upstream.CursorRefused("the Instagram Graph API")
	case e.Code == 10 || (e.Code >= 200 && e.Code < 300):
		return unsupported("Instagram Graph API", "cannot read %s: it serves media and comments only of the configured account (code %d)", what, e.Code)
	case e.Code == 2 || status >= 500:
		return envelope.Errorf(envelope.CodeUpstreamError, "the Instagram Graph API is temporarily failing (code %d)", e.Code)
	}
	return envelope.Errorf(envelope.CodeUpstreamError, "the Instagram Graph API refused the request (code %d, subcode %d)", e.Code, e.Subcode)
}

// graphMedia is an IG Media object as the Graph API returns it.
type graphMedia struct {
	ID               string `json:"id"`
	Caption          string `json:"caption"`
	CommentsCount    int64  `json:"comments_count"`
	LikeCount        int64  `json:"like_count"`
	MediaType        string `json:"media_type"`
	MediaProductType string `json:"media_product_type"`
	MediaURL         string `json:"media_url"`
	Permalink        string `json:"permalink"`
	ThumbnailURL     string `json:"thumbnail_url"`
	Timestamp        string `json:"timestamp"`
	Username         string `json:"username"`
	Children         struct {
		Data []struct {
			ID           string `json:"id"`
			MediaType    string `json:"media_type"`
			MediaURL     string `json:"media_url"`
			ThumbnailURL string `json:"thumbnail_url"`
		} `json:"data"`
	} `json:"children"`
}

type graphPaging struct {
	Cursors struct {
		After string `json:"after"`
	} `json:"cursors"`
	Next string `json:"next"`
}

type graphMediaEdge struct {
	Data   []graphMedia `json:"data"`
	Paging graphPaging  `json:"paging"`
}

// next is the cursor of the following page: Graph always sends
// cursors.after, but only a page with more has a next link.
func (p graphPaging) next() string {
	if p.Next == "" {
		return ""
	}
	return p.Cursors.After
}

func (m graphMedia) normalize(ownerID string) Media {
	out := Media{
		ID: m.ID, Caption: m.Caption, LikeCount: m.LikeCount, CommentCount: m.CommentsCount,
		URL: m.Permalink, Shortcode: shortcodeFromURL(m.Permalink), TakenAt: parseTime(m.Timestamp),
		Owner: Owner{ID: ownerID, Username: m.Username},
	}
	switch m.MediaType {
	case "VIDEO":
		out.Type = TypeVideo
		out.VideoURL, out.ThumbnailURL, out.DisplayURL = m.MediaURL, m.ThumbnailURL, m.ThumbnailURL
	case "CAROUSEL_ALBUM":
		out.Type = TypeCarousel
		out.DisplayURL = m.MediaURL
	default:
		out.Type = TypeImage
		out.DisplayURL = m.MediaURL
	}
	if m.MediaProductType == "REELS" {
		out.Type = TypeReel
	}
	for _, c := range m.Children.Data {
		ch := Child{ID: c.ID, Type: TypeImage, DisplayURL: c.MediaURL}
		if c.MediaType == "VIDEO" {
			ch.Type, ch.DisplayURL, ch.VideoURL = TypeVideo, c.ThumbnailURL, c.MediaURL
		}
		out.Children = append(out.Children, ch)
	}
	if out.DisplayURL == "" && len(out.Children) > 0 {
		out.DisplayURL = out.Children[0].DisplayURL
	}
	return out
}

// shortcodeFromURL extracts the shortcode of a permalink; "" when none.
func shortcodeFromURL(u string) string {
	if u == "" {
		return ""
	}
	sc, ok := parseShortcode(u)
	if !ok {
		return ""
	}
	return sc
}

type graphDiscovery struct {
	BusinessDiscovery struct {
		ID                string         `json:"id"`
		Username          string         `json:"username"`
		Name              string         `json:"name"`
		FollowersCount    int64          `json:"followers_count"`
		FollowsCount      int64          `json:"follows_count"`
		MediaCount        int64          `json:"media_count"`
		ProfilePictureURL string         `json:"profile_picture_url"`
		Media             graphMediaEdge `json:"media"`
	} `json:"business_discovery"`
}

func (g *Graph) discover(ctx context.Context, username, fields string) (graphDiscovery, error) {
	var d graphDiscovery
	// The username goes into a field expansion: only valid names pass,
	// also when the provider is called without a Client.
	if !usernameRE.MatchString(username) {
		return d, envelope.Invalid("username", "must be 1 to 30 lower-case letters, digits, periods or underscores")
	}
	params := url.Values{"fields": {fmt.Sprintf("business_discovery.username(%s){%s}", username, fields)}}
	err := g.get(ctx, g.userID, params, &d, "the account @"+username)
	return d, err
}

// Profile implements Provider through business discovery.
func (g *Graph) Profile(ctx context.Context, username string) (Profile, error) {
	d, err := g.discover(ctx, username, "id,username,name,followers_count,follows_count,media_count,profile_picture_url")
	if err != nil {
		return Profile{}, err
	}
	b := d.BusinessDiscovery
	return Profile{
		ID: b.ID, Username: b.Username, FullName: b.Name,
		FollowersCount: b.FollowersCount, FollowingCount: b.FollowsCount, MediaCount: b.MediaCount,
	}, nil
}

// graphReelPages bounds the pages read to collect reels.
const graphReelPages = 5

// UserMedia implements Provider through business discovery's media edge.
// Reels are selected by media_product_type, reading up to five pages.
// When a page holds more reels than the response takes, next_cursor
// points back into that page, so that none is skipped.
func (g *Graph) UserMedia(ctx context.Context, q UserMediaQuery) (MediaPage, error) {
	// The cursor goes into a field expansion, media.after(<cursor>): only
	// the base64url characters of Graph cursors may pass.
	m := graphCursorRE.FindStringSubmatch(q.Cursor)
	if m == nil {
		return MediaPage{}, envelope.Invalid("cursor", "must be a next_cursor of this provider (letters, digits, - and _)")
	}
	cursor := m[1]
	skip, _ := strconv.Atoi(m[2]) // "" is 0
	var page MediaPage
	step := g.startStep()
	for _, s := range graphDiscoveryFields[1 : step+1] {
		page.Notes = append(page.Notes, s.note)
	}
	for range graphReelPages {
		edge := fmt.Sprintf("media.limit(%d)", q.Limit)
		if cursor != "" {
			edge = fmt.Sprintf("media.after(%s).limit(%d)", cursor, q.Limit)
		}
		d, err := g.discover(ctx, q.Username, "id,"+edge+"{"+graphDiscoveryFields[step].fields+"}")
		for errors.Is(err, errFieldRefused) && step+1 < len(graphDiscoveryFields) {
			step++
			// Later calls start here, for GraphFieldRetryInterval.
			raiseTo(g.refused, int32(step))
			g.retryAt.Store(g.now().Add(GraphFieldRetryInterval).UnixNano())
			page.Notes = append(page.Notes, graphDiscoveryFields[step].note)
			d, err = g.discover(ctx, q.Username, "id,"+edge+"{"+graphDiscoveryFields[step].fields+"}")
		}
		if err != nil {
			return MediaPage{}, err
		}
		b := d.BusinessDiscovery
		var selected []Media
		for _, gm := range b.Media.Data {
			// Every medium of business discovery is the account's own.
			gm.Username = cmp.Or(gm.Username, q.Username)
			if n := gm.normalize(b.ID); !q.Reels || n.Type == TypeReel {
				selected = append(selected, n)
			}
		}
		done := min(skip, len(selected))
		skip = 0
		if need := q.Limit - len(page.Media); len(selected)-done > need {
			page.Media = append(page.Media, selected[done:done+need]...)
			page.Next = cursor + "." + strconv.Itoa(done+need)
			return page, nil
		}
		page.Media = append(page.Media, selected[done:]...)
		cursor = b.Media.Paging.next()
		page.Next = cursor
		if !q.Reels || len(page.Media) >= q.Limit || cursor == "" {
			break
		}
	}
	return page, nil
}

// startStep is the step of graphDiscoveryFields a call starts at: past
// the steps refused, until GraphFieldRetryInterval after the last
// refusal; then the first again.
func (g *Graph) startStep() int {
	step := g.refused.Load()
	if step > 0 && g.now().UnixNano() >= g.retryAt.Load() {
		g.refused.CompareAndSwap(step, 0)
		return 0
	}
	return int(step)
}

// raiseTo raises n to v when it is lower.
func raiseTo(n *atomic.Int32, v int32) {
	for cur := n.Load(); cur < v; cur = n.Load() {
		if n.CompareAndSwap(cur, v) {
			return
		}
	}
}

// Media implements Provider for media the app user owns, by IG Media ID.
func (g *Graph) Media(ctx context.Context, ref MediaRef) (Media, error) {
	if ref.MediaID == "" {
		return Media{}, unsupported("Instagram Graph API", "cannot look media up by shortcode; pass its IG Media ID as media_id")
	}
	var m graphMedia
	if err := g.get(ctx, ref.MediaID, url.Values{"fields": {graphMediaFields}}, &m, "media "+ref.MediaID); err != nil {
		return Media{}, err
	}
	return m.normalize(""), nil
}

type graphComment struct {
	ID        string `json:"id"`
	Text      string `json:"text"`
	Timestamp string `json:"timestamp"`
	Username  string `json:"username"`
	LikeCount int64  `json:"like_count"`
	From      struct {
		ID       string `json:"id"`
		Username string `json:"username"`
	} `json:"from"`
	Replies struct {
		Data []graphComment `json:"data"`
	} `json:"replies"`
}

func (c graphComment) normalize(parent string) Comment {
	user := c.From.Username
	if user == "" {
		user = c.Username
	}
	return Comment{
		ID: c.ID, Text: c.Text, CreatedAt: parseTime(c.Timestamp), LikeCount: c.LikeCount,
		Owner: Owner{ID: c.From.ID, Username: user}, ReplyCount: int64(len(c.Replies.Data)), ParentID: parent,
	}
}

// Comments implements Provider for media the app user owns, by IG Media
// ID. Comments of other accounts' media are not served by the Graph API.
// Replies follow their comment; when a page with its replies holds more
// than the limit, next_cursor points back into that page, so that none is
// skipped.
func (g *Graph) Comments(ctx context.Context, q CommentsQuery) (CommentPage, error) {
	if q.Media.MediaID == "" {
		return CommentPage{}, unsupported("Instagram Graph API", "cannot read comments of other accounts' media or by shortcode; it serves only the configured account's own media, by media_id")
	}
	m := graphCursorRE.FindStringSubmatch(q.Cursor)
	if m == nil {
		return CommentPage{}, envelope.Invalid("cursor", "must be a next_cursor of this provider (letters, digits, - and _)")
	}
	cursor := m[1]
	skip, _ := strconv.Atoi(m[2]) // "" is 0
	if q.Limit < 1 {
		q.Limit = DefaultLimit
	}
	params := url.Values{
		"fields": {"id,text,timestamp,username,like_count,from{id,username},replies{id,text,timestamp,username,like_count,from{id,username}}"},
		"limit":  {fmt.Sprint(q.Limit)},
	}
	if cursor != "" {
		params.Set("after", cursor)
	}
	var resp struct {
		Data   []graphComment `json:"data"`
		Paging graphPaging    `json:"paging"`
	}
	if err := g.get(ctx, q.Media.MediaID+"/comments", params, &resp, "comments of media "+q.Media.MediaID); err != nil {
		return CommentPage{}, err
	}
	// Graph limits the top-level comments; their replies follow each one,
	// so a page may hold more than the response takes. Then next_cursor
	// points back into the page, past what was returned.
	var all []Comment
	for _, c := range resp.Data {
		all = append(all, c.normalize(""))
		for _, r := range c.Replies.Data {
			all = append(all, r.normalize(c.ID))
		}
	}
	done := min(skip, len(all))
	if len(all)-done > q.Limit {
		return CommentPage{Comments: all[done : done+q.Limit], Next: cursor + "." + strconv.Itoa(done+q.Limit)}, nil
	}
	return CommentPage{Comments: all[done:], Next: resp.Paging.next()}, nil
}

// hashtagID resolves a hashtag's node ID with ig_hashtag_search.
func (g *Graph) hashtagID(ctx context.Context, tag string) (string, error) {
	var resp struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	params := url.Values{"user_id": {g.userID}, "q": {tag}}
	if err := g.get(ctx, "ig_hashtag_search", params, &resp, "the hashtag #"+tag); err != nil {
		return "", err
	}
	if len(resp.Data) == 0 || resp.Data[0].ID == "" {
		return "", notFound("the hashtag #%s was not found", tag)
	}
	// The ID goes into the path of the media request: only a Graph node
	// ID may pass.
	if !mediaIDRE.MatchString(resp.Data[0].ID) {
		return "", envelope.Errorf(envelope.CodeUpstreamError, "the Instagram Graph API answered the hashtag #%s with an ID that is not a node ID", tag)
	}
	return resp.Data[0].ID, nil
}

// HashtagMedia implements Provider: ig_hashtag_search, then top_media or
// recent_media (the last 24 hours) of the hashtag node.
func (g *Graph) HashtagMedia(ctx context.Context, q HashtagQuery) (MediaPage, error) {
	id, err := g.hashtagID(ctx, q.Hashtag)
	if err != nil {
		return MediaPage{}, err
	}
	edge := "top_media"
	if q.Sort == "recent" {
		edge = "recent_media"
	}
	params := url.Values{
		"user_id": {g.userID},
		"fields":  {"id,caption,comments_count,like_count,media_type,media_url,permalink,timestamp,children{id,media_type,media_url}"},
		"limit":   {fmt.Sprint(min(q.Limit, 50))},
	}
	if q.Cursor != "" {
		params.Set("after", q.Cursor)
	}
	var resp graphMediaEdge
	if err := g.get(ctx, id+"/"+edge, params, &resp, "media of #"+q.Hashtag); err != nil {
		return MediaPage{}, err
	}
	page := MediaPage{Next: resp.Paging.next(), Notes: []string{
		"the Instagram Graph API does not name the owners of hashtag media",
		"the Instagram Graph API does not say which hashtag videos are reels: they are reported as video",
	}}
	for _, m := range resp.Data {
		page.Media = append(page.Media, m.normalize(""))
	}
	return page, nil
}

// Search implements Provider: an exact-username lookup through business
// discovery for profiles, ig_hashtag_search for hashtags.
func (g *Graph) Search(ctx context.Context, q SearchQuery) (SearchPage, error) {
	if q.Type == "hashtag" {
		id, err := g.hashtagID(ctx, strings.ToLower(q.Query))
		if isNotFound(err) {
			return SearchPage{}, nil
		}
		if err != nil {
			return SearchPage{}, err
		}
		return SearchPage{Results: []SearchResult{{Type: "hashtag", Hashtag: &HashtagHit{ID: id, Name: strings.ToLower(q.Query)}}}}, nil
	}
	user := strings.ToLower(q.Query)
	if !usernameRE.MatchString(user) {
		return SearchPage{}, nil
	}
	d, err := g.discover(ctx, user, "id,username,name,followers_count,profile_picture_url")
	if isNotFound(err) {
		return SearchPage{}, nil
	}
	if err != nil {
		return SearchPage{}, err
	}
	b := d.BusinessDiscovery
	return SearchPage{Results: []SearchResult{{Type: "profile", Profile: &ProfileHit{
		ID: b.ID, Username: b.Username, FullName: b.Name, FollowersCount: b.FollowersCount, ProfilePicURL: b.ProfilePictureURL,
	}}}}, nil
}

// isNotFound reports whether err is a NOT_FOUND error.
func isNotFound(err error) bool {
	return errors.Is(err, &envelope.Error{Code: envelope.CodeNotFound})
}
