package photosocial

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/upstream"
)

const (
	testToken  = "EAAGsecret-token-123"
	testUserID = "17841405309211844"
)

var fixedNow = time.Date(2025, 10, 21, 12, 0, 0, 0, time.UTC)

func fixture(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("photosocialtest", "fixtures", path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newClient(p Provider) *Client {
	return mustClient(Config{Provider: p, Now: func() time.Time { return fixedNow }})
}

// wantCode asserts that err is an *envelope.Error (or validation error)
// of the code.
func wantCode(t *testing.T, err error, code envelope.Code) *envelope.Error {
	t.Helper()
	e := envelope.From(err)
	if e == nil || e.Code != code {
		t.Fatalf("error = %v, want code %s", err, code)
	}
	if strings.Contains(e.Error(), testToken) || strings.Contains(e.Message, testToken) {
		t.Fatalf("error leaks the token: %v", e)
	}
	return e
}

// graphServer replays Graph API fixtures. route picks the fixture and
// status of a request.
func graphServer(t *testing.T, route func(r *http.Request) (int, string)) *Graph {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			t.Errorf("Authorization = %q", r.Header.Get("Authorization"))
		}
		if strings.Contains(r.URL.RawQuery, testToken) {
			t.Errorf("token in the URL: %s", r.URL)
		}
		status, name := route(r)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(fixture(t, "graph/"+name))
	}))
	t.Cleanup(srv.Close)
	g, err := NewGraph(GraphConfig{Token: testToken, UserID: testUserID, BaseURL: srv.URL, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGraphProfile(t *testing.T) {
	g := graphServer(t, func(r *http.Request) (int, string) {
		if r.URL.Path != "/"+DefaultGraphAPIVersion+"/"+testUserID || !strings.Contains(r.URL.Query().Get("fields"), "business_discovery.username(northwind.coffee)") {
			t.Errorf("unexpected request %s", r.URL)
		}
		return 200, "profile.json"
	})
	p, err := newClient(g).Profile(context.Background(), ProfileRequest{Username: "@NorthWind.Coffee"})
	if err != nil {
		t.Fatal(err)
	}
	want := Profile{ID: "17841400000000123", Username: "northwind.coffee", FullName: "Northwind Coffee Roasters",
		FollowersCount: 267793, FollowingCount: 412, MediaCount: 1205, Source: "instagram_graph", FetchedAt: "2025-10-21T12:00:00Z"}
	if p != want {
		t.Errorf("got %+v\nwant %+v", p, want)
	}
}

func TestGraphPostsPagination(t *testing.T) {
	g := graphServer(t, func(r *http.Request) (int, string) {
		// thumbnail_url is a Public field, readable by business
		// discovery since v18.0 (issue 22): it is asked for again.
		if f := r.URL.Query().Get("fields"); !strings.Contains(f, "thumbnail_url") {
			t.Errorf("business discovery did not ask for thumbnail_url: %s", f)
		}
		if strings.Contains(r.URL.Query().Get("fields"), "media.after(QVFIUkNhbmV4dF9wYWdlX2N1cnNvcg)") {
			return 200, "media_page2.json"
		}
		return 200, "media_page1.json"
	})
	c := newClient(g)
	p1, err := c.Posts(context.Background(), PostsRequest{Username: "northwind.coffee", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if p1.ResultCount != 3 || !p1.PageInfo.HasNextPage || p1.PageInfo.NextCursor != "QVFIUkNhbmV4dF9wYWdlX2N1cnNvcg" {
		t.Fatalf("page 1: count %d, page_info %+v", p1.ResultCount, p1.PageInfo)
	}
	img, reel, noURL := p1.Media[0], p1.Media[1], p1.Media[2]
	if img.Type != TypeImage || img.Shortcode != "C-9V5IU6efX" || img.TakenAt != "2025-10-14T16:20:05Z" ||
		strings.Join(img.Hashtags, ",") != "coffee,ethiopia" || strings.Join(img.Mentions, ",") != "greenbean.co" || img.Owner.Username != "northwind.coffee" {
		t.Errorf("image: %+v", img)
	}
	if reel.Type != TypeReel || reel.VideoURL == "" || reel.ThumbnailURL == "" || reel.DisplayURL != reel.ThumbnailURL {
		t.Errorf("reel: %+v", reel)
	}
	// A video whose media_url the Graph API withholds (copyrighted audio):
	// its thumbnail is still shown.
	if noURL.Type != TypeVideo || noURL.VideoURL != "" || noURL.ThumbnailURL == "" || noURL.DisplayURL != noURL.ThumbnailURL || noURL.LikeCount != 0 {
		t.Errorf("video without media_url: %+v", noURL)
	}
	p2, err := c.Posts(context.Background(), PostsRequest{Username: "northwind.coffee", Limit: 3, Cursor: p1.PageInfo.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if p2.ResultCount != 1 || p2.PageInfo.HasNextPage || p2.PageInfo.NextCursor != "" {
		t.Fatalf("page 2: %+v", p2.PageInfo)
	}
	car := p2.Media[0]
	if car.Type != TypeCarousel || len(car.Children) != 2 || car.Children[1].Type != TypeVideo || car.Children[1].VideoURL == "" {
		t.Errorf("carousel: %+v", car)
	}
}

func TestGraphReelsAcrossPages(t *testing.T) {
	calls := 0
	g := graphServer(t, func(r *http.Request) (int, string) {
		calls++
		if strings.Contains(r.URL.Query().Get("fields"), "media.after(") {
			return 200, "media_page2.json"
		}
		return 200, "media_page1.json"
	})
	l, err := newClient(g).Reels(context.Background(), ReelsRequest{Username: "northwind.coffee", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if l.ResultCount != 1 || l.Media[0].Type != TypeReel || calls != 2 || l.PageInfo.HasNextPage {
		t.Errorf("reels: %d results, %d calls, %+v", l.ResultCount, calls, l.PageInfo)
	}
}

func TestGraphErrors(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		fixture string
		code    envelope.Code
	}{
		{"unknown or private account", 400, "error_user_not_found.json", envelope.CodeNotFound},
		{"rate limit", 403, "error_rate_limit.json", envelope.CodeRateLimitExceeded},
		{"expired token", 400, "error_token.json", envelope.CodeUpstreamError},
		{"permission", 400, "error_permission.json", envelope.CodeServiceUnavailable},
		{"server failure", 500, "error_rate_limit.json", envelope.CodeRateLimitExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := graphServer(t, func(*http.Request) (int, string) { return tt.status, tt.fixture })
			_, err := newClient(g).Profile(context.Background(), ProfileRequest{Username: "somebody.private"})
			wantCode(t, err, tt.code)
		})
	}
	t.Run("bare 502", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(502) }))
		defer srv.Close()
		g, _ := NewGraph(GraphConfig{Token: testToken, UserID: testUserID, BaseURL: srv.URL})
		_, err := newClient(g).Profile(context.Background(), ProfileRequest{Username: "x"})
		wantCode(t, err, envelope.CodeUpstreamError)
	})
	t.Run("timeout", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
		}))
		defer srv.Close()
		g, _ := NewGraph(GraphConfig{Token: testToken, UserID: testUserID, BaseURL: srv.URL})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := newClient(g).Profile(ctx, ProfileRequest{Username: "x"})
		wantCode(t, err, envelope.CodeUpstreamTimeout)
	})
	t.Run("oversized response", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"id":"` + strings.Repeat("x", 4096) + `"}`))
		}))
		defer srv.Close()
		g, _ := NewGraph(GraphConfig{Token: testToken, UserID: testUserID, BaseURL: srv.URL, MaxResponseBytes: 1024})
		_, err := newClient(g).Profile(context.Background(), ProfileRequest{Username: "x"})
		wantCode(t, err, envelope.CodeUpstreamError)
	})
}

func TestGraphUnsupported(t *testing.T) {
	g := graphServer(t, func(r *http.Request) (int, string) {
		t.Errorf("no request expected, got %s", r.URL)
		return 500, "error_token.json"
	})
	c := newClient(g)
	_, err := c.Media(context.Background(), MediaRequest{Shortcode: "C-9V5IU6efX"})
	if e := wantCode(t, err, envelope.CodeServiceUnavailable); !errors.Is(err, ErrUnsupported) || !strings.Contains(e.Message, "media_id") {
		t.Errorf("media by shortcode: %v", err)
	}
	_, err = c.Comments(context.Background(), CommentsRequest{Shortcode: "C-9V5IU6efX"})
	if e := wantCode(t, err, envelope.CodeServiceUnavailable); !errors.Is(err, ErrUnsupported) || !strings.Contains(e.Message, "other accounts' media") {
		t.Errorf("comments by shortcode: %v", err)
	}
}

func TestGraphCommentsOfOwnMedia(t *testing.T) {
	g := graphServer(t, func(r *http.Request) (int, string) {
		if r.URL.Path != "/"+DefaultGraphAPIVersion+"/18027939643004123/comments" {
			t.Errorf("path %s", r.URL.Path)
		}
		return 200, "comments.json"
	})
	l, err := newClient(g).Comments(context.Background(), CommentsRequest{MediaID: "18027939643004123"})
	if err != nil {
		t.Fatal(err)
	}
	if l.ResultCount != 3 || l.Comments[1].ParentID != "17858893269000001" || l.Comments[0].ReplyCount != 1 ||
		l.Comments[0].Owner.ID != "17841400000999001" || l.Comments[0].CreatedAt != "2025-10-14T17:02:11Z" || l.PageInfo.HasNextPage {
		t.Errorf("comments: %+v", l)
	}
}

func TestGraphHashtagAndSearch(t *testing.T) {
	g := graphServer(t, func(r *http.Request) (int, string) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/ig_hashtag_search"):
			if r.URL.Query().Get("q") != "coffee" || r.URL.Query().Get("user_id") != testUserID {
				t.Errorf("hashtag search query %s", r.URL.RawQuery)
			}
			return 200, "hashtag_search.json"
		case strings.HasSuffix(r.URL.Path, "/17843853986012965/recent_media"):
			return 200, "hashtag_top_media.json"
		case strings.HasSuffix(r.URL.Path, "/17843853986012965/top_media"):
			return 200, "hashtag_top_media.json"
		}
		return 200, "profile.json"
	})
	c := newClient(g)
	l, err := c.HashtagSearch(context.Background(), HashtagRequest{Hashtag: "#Coffee"})
	if err != nil {
		t.Fatal(err)
	}
	if l.ResultCount != 2 || l.PageInfo.NextCursor != "QVFIUmhhc2h0YWdfbmV4dA" || l.Media[1].Type != TypeVideo || len(l.Notes) != 2 {
		t.Errorf("hashtag: %+v", l)
	}
	s, err := c.Search(context.Background(), SearchRequest{Query: "#coffee", Type: "hashtag"})
	if err != nil || s.ResultCount != 1 || s.Results[0].Hashtag.ID != "17843853986012965" || s.Results[0].Profile != nil {
		t.Errorf("hashtag search: %+v, %v", s, err)
	}
	s, err = c.Search(context.Background(), SearchRequest{Query: "@northwind.coffee"})
	if err != nil || s.ResultCount != 1 || s.Results[0].Profile.FollowersCount != 267793 || s.Type != "profile" {
		t.Errorf("profile search: %+v, %v", s, err)
	}
}

// apifyServer replays the Apify API: route picks the status and fixture
// of an actor input, answered by run-sync-get-dataset-items, or by a run
// whose default dataset holds the fixture's items, read with offset and
// limit.
func apifyServer(t *testing.T, route func(in apifyInput) (int, string)) *Apify {
	t.Helper()
	var mu sync.Mutex
	datasets := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testToken || strings.Contains(r.URL.RawQuery, testToken) {
			t.Errorf("auth: header %q, query %q", r.Header.Get("Authorization"), r.URL.RawQuery)
		}
		reply := func(status int, name string) {
			if status == 429 {
				w.Header().Set("Retry-After", "17")
			}
			w.WriteHeader(status)
			w.Write(fixture(t, "apify/"+name))
		}
		const acts = "/v2/acts/apify~instagram-scraper/"
		switch {
		case r.Method == http.MethodPost && (r.URL.Path == acts+"run-sync-get-dataset-items" || r.URL.Path == acts+"runs"):
			var in apifyInput
			b, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(b, &in); err != nil {
				t.Errorf("input: %v", err)
			}
			status, name := route(in)
			if status != 200 || strings.HasSuffix(r.URL.Path, "run-sync-get-dataset-items") {
				reply(status, name)
				return
			}
			mu.Lock()
			id := fmt.Sprintf("ds%d", len(datasets))
			datasets[id] = name
			mu.Unlock()
			w.WriteHeader(http.StatusCreated)
			fmt.Fprintf(w, `{"data":{"id":"run%s","status":"SUCCEEDED","defaultDatasetId":%q}}`, id, id)
		case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/datasets/"):
			mu.Lock()
			name, ok := datasets[strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v2/datasets/"), "/items")]
			mu.Unlock()
			if !ok {
				reply(404, "error_dataset_gone.json")
				return
			}
			var all []json.RawMessage
			json.Unmarshal(fixture(t, "apify/"+name), &all)
			off, _ := strconv.Atoi(r.URL.Query().Get("offset"))
			n, _ := strconv.Atoi(r.URL.Query().Get("limit"))
			off = min(off, len(all))
			w.Header().Set("X-Apify-Pagination-Total", strconv.Itoa(len(all)))
			json.NewEncoder(w).Encode(all[off:min(off+n, len(all))])
		default:
			t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
		}
	}))
	t.Cleanup(srv.Close)
	a, err := NewApify(ApifyConfig{Token: testToken, BaseURL: srv.URL, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestApifyProfile(t *testing.T) {
	a := apifyServer(t, func(in apifyInput) (int, string) {
		if in.ResultsType != "details" {
			t.Errorf("resultsType %q", in.ResultsType)
		}
		if strings.Contains(in.DirectURLs[0], "quiet.person") {
			return 200, "details_private.json"
		}
		if strings.Contains(in.DirectURLs[0], "no.such.user") {
			return 200, "not_found.json"
		}
		return 200, "details.json"
	})
	c := newClient(a)
	p, err := c.Profile(context.Background(), ProfileRequest{Username: "northwind.coffee"})
	if err != nil || !p.IsVerified || p.MediaCount != 1205 || p.Source != "apify" || p.ID != "4123456789" {
		t.Errorf("profile: %+v, %v", p, err)
	}
	// A private profile still has a profile; its media are not public.
	p, err = c.Profile(context.Background(), ProfileRequest{Username: "quiet.person"})
	if err != nil || p.FollowersCount != 211 || p.MediaCount != 37 {
		t.Errorf("private profile: %+v, %v", p, err)
	}
	_, err = c.Profile(context.Background(), ProfileRequest{Username: "no.such.user.zz"})
	wantCode(t, err, envelope.CodeNotFound)
}

func TestApifyPostsPagination(t *testing.T) {
	var limits []int
	a := apifyServer(t, func(in apifyInput) (int, string) {
		limits = append(limits, in.ResultsLimit)
		if strings.Contains(in.DirectURLs[0], "quiet.person") {
			return 200, "no_items.json"
		}
		return 200, "posts.json"
	})
	c := newClient(a)
	p1, err := c.Posts(context.Background(), PostsRequest{Username: "northwind.coffee", Limit: 4})
	if err != nil {
		t.Fatal(err)
	}
	if p1.ResultCount != 4 || !strings.HasPrefix(p1.PageInfo.NextCursor, cursorPrefix) {
		t.Fatalf("page 1: %+v", p1.PageInfo)
	}
	m0, reel, car, noURL, hidden := p1.Media[0], p1.Media[1], p1.Media[2], p1.Media[3], Media{}
	if m0.Location == nil || m0.Location.Name != "Northwind Roastery, Portland" || m0.TakenAt != "2025-10-20T10:00:00Z" {
		t.Errorf("first post: %+v", m0)
	}
	if reel.Type != TypeReel || reel.ViewCount != 9001 || !strings.Contains(reel.URL, "/reel/") {
		t.Errorf("reel: %+v", reel)
	}
	if car.Type != TypeCarousel || len(car.Children) != 2 {
		t.Errorf("carousel: %+v", car)
	}
	if noURL.Type != TypeVideo || noURL.VideoURL != "" || noURL.ThumbnailURL == "" {
		t.Errorf("video without videoUrl: %+v", noURL)
	}
	p2, err := c.Posts(context.Background(), PostsRequest{Username: "northwind.coffee", Limit: 4, Cursor: p1.PageInfo.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if p2.ResultCount != 3 || p2.PageInfo.HasNextPage {
		t.Fatalf("page 2: %d, %+v", p2.ResultCount, p2.PageInfo)
	}
	hidden = p2.Media[0]
	if hidden.LikeCount != 0 {
		t.Errorf("hidden likes (-1) should be 0, got %d", hidden.LikeCount)
	}
	// One run for both pages, for DefaultApifyRunItems items.
	if len(limits) != 1 || limits[0] != DefaultApifyRunItems {
		t.Errorf("resultsLimit per run = %v, want [%d]", limits, DefaultApifyRunItems)
	}
	// A private account's posts: an empty list with a note, not an error.
	priv, err := c.Posts(context.Background(), PostsRequest{Username: "quiet.person"})
	if err != nil || priv.ResultCount != 0 || len(priv.Notes) != 1 || priv.Media == nil {
		t.Errorf("private posts: %+v, %v", priv, err)
	}
	_, err = c.Posts(context.Background(), PostsRequest{Username: "northwind.coffee", Cursor: "QVFI"})
	wantCode(t, err, envelope.CodeInvalidRequest)
}

func TestApifyReelsMediaComments(t *testing.T) {
	a := apifyServer(t, func(in apifyInput) (int, string) {
		switch in.ResultsType {
		case "reels":
			return 200, "reels.json"
		case "comments":
			// The actor documents at most 50 comments a post.
			if in.ResultsLimit != apifyMaxComments {
				t.Errorf("comments resultsLimit = %d, want %d", in.ResultsLimit, apifyMaxComments)
			}
			return 200, "comments.json"
		}
		if !strings.Contains(in.DirectURLs[0], "/p/DAreBwfYYAA/") {
			t.Errorf("media URL %v", in.DirectURLs)
		}
		return 200, "posts.json"
	})
	c := newClient(a)
	r, err := c.Reels(context.Background(), ReelsRequest{Username: "northwind.coffee"})
	if err != nil || r.ResultCount != 2 || r.Media[0].Type != TypeReel {
		t.Errorf("reels: %+v, %v", r, err)
	}
	// By media ID: converted to the shortcode the actor needs.
	m, err := c.Media(context.Background(), MediaRequest{MediaID: "3471000000000000000_4123456789"})
	if err != nil || m.Shortcode != "DAreBwfYYAA" || m.ID != "3471000000000000000" {
		t.Errorf("media by id: %+v, %v", m, err)
	}
	cl, err := c.Comments(context.Background(), CommentsRequest{Shortcode: "DAreBwfYYAA", MediaID: "1"})
	if err != nil || cl.ResultCount != 4 || cl.Comments[1].ParentID != "18050000000000001" || !cl.Comments[1].Owner.IsVerified {
		t.Errorf("comments: %+v, %v", cl, err)
	}
}

func TestApifySearch(t *testing.T) {
	a := apifyServer(t, func(in apifyInput) (int, string) {
		if in.SearchType == "hashtag" {
			return 200, "search_hashtag.json"
		}
		return 200, "search_user.json"
	})
	c := newClient(a)
	s, err := c.Search(context.Background(), SearchRequest{Query: "northwind", Limit: 1})
	if err != nil || s.ResultCount != 1 || s.Results[0].Profile.Username != "northwind.coffee" || !strings.HasPrefix(s.PageInfo.NextCursor, cursorPrefix) {
		t.Errorf("user search: %+v, %v", s, err)
	}
	s, err = c.Search(context.Background(), SearchRequest{Query: "coffee", Type: "hashtag"})
	if err != nil || s.ResultCount != 2 || s.Results[0].Hashtag.MediaCount != 183920431 {
		t.Errorf("hashtag search: %+v, %v", s, err)
	}
}

func TestApifyErrors(t *testing.T) {
	tests := []struct {
		status  int
		fixture string
		code    envelope.Code
	}{
		{429, "error_rate_limit.json", envelope.CodeRateLimitExceeded},
		{401, "error_token.json", envelope.CodeUpstreamError},
		{404, "error_actor.json", envelope.CodeUpstreamError},
		{408, "error_timeout.json", envelope.CodeUpstreamTimeout},
		{500, "error_token.json", envelope.CodeUpstreamError},
	}
	for _, tt := range tests {
		a := apifyServer(t, func(apifyInput) (int, string) { return tt.status, tt.fixture })
		_, err := newClient(a).Posts(context.Background(), PostsRequest{Username: "northwind.coffee"})
		e := wantCode(t, err, tt.code)
		if tt.status == 429 && e.RetryAfter != 17*time.Second {
			t.Errorf("Retry-After = %v, want 17s", e.RetryAfter)
		}
	}
}

func TestFileProviderSample(t *testing.T) {
	c := newClient(Sample())
	ctx := context.Background()
	p, err := c.Profile(ctx, ProfileRequest{Username: "@sample.bakery"})
	if err != nil || p.FollowersCount != 48210 || p.Source != "file" {
		t.Fatalf("profile: %+v, %v", p, err)
	}
	l, err := c.Posts(ctx, PostsRequest{Username: "sample.bakery", Limit: 5})
	if err != nil || l.ResultCount != 5 || l.PageInfo.NextCursor != "file:5" {
		t.Fatalf("posts: %+v, %v", l.PageInfo, err)
	}
	for i := 1; i < len(l.Media); i++ {
		if l.Media[i-1].TakenAt < l.Media[i].TakenAt {
			t.Errorf("not newest first: %s < %s", l.Media[i-1].TakenAt, l.Media[i].TakenAt)
		}
	}
	all, _ := c.Posts(ctx, PostsRequest{Username: "sample.bakery", Limit: 100})
	var videoNoURL bool
	for _, m := range all.Media {
		if m.Type == TypeVideo && m.VideoURL == "" {
			videoNoURL = true
		}
		if m.TakenAt == "" {
			t.Errorf("media %s: taken_at not converted", m.ID)
		}
	}
	if all.ResultCount != 12 || !videoNoURL {
		t.Errorf("all posts: %d, video without url %v", all.ResultCount, videoNoURL)
	}
	r, _ := c.Reels(ctx, ReelsRequest{Username: "sample.bakery"})
	if r.ResultCount != 3 {
		t.Errorf("reels: %d", r.ResultCount)
	}
	priv, err := c.Posts(ctx, PostsRequest{Username: "sample.private"})
	if err != nil || priv.ResultCount != 0 || len(priv.Notes) != 1 {
		t.Errorf("private: %+v, %v", priv, err)
	}
	m := all.Media[len(all.Media)-3]
	byID, err := c.Media(ctx, MediaRequest{MediaID: m.ID})
	if err != nil || byID.Shortcode != m.Shortcode {
		t.Errorf("media by id: %+v, %v", byID, err)
	}
	cs, err := c.Comments(ctx, CommentsRequest{Shortcode: m.Shortcode, Limit: 100})
	if err != nil || cs.ResultCount != 16 {
		t.Errorf("comments of %s: %d, %v", m.Shortcode, cs.ResultCount, err)
	}
	h, err := c.HashtagSearch(ctx, HashtagRequest{Hashtag: "sourdough"})
	if err != nil || h.ResultCount != 3 || h.Media[0].LikeCount < h.Media[1].LikeCount {
		t.Errorf("hashtag: %+v, %v", h, err)
	}
	s, err := c.Search(ctx, SearchRequest{Query: "sample.bakery"})
	if err != nil || s.ResultCount != 2 || s.Results[0].Profile.Username != "sample.bakery" {
		t.Errorf("search: %+v, %v", s, err)
	}
	_, err = c.Profile(ctx, ProfileRequest{Username: "nobody"})
	wantCode(t, err, envelope.CodeNotFound)
}

func TestFileProviderRejectsBadRecords(t *testing.T) {
	for _, in := range []string{
		`{"kind":"media","caption":"no id"}`,
		`{"kind":"comment","id":"1"}`,
		`{"kind":"story"}`,
		`not json`,
	} {
		if _, err := NewFile(FileConfig{Reader: strings.NewReader("\n" + in)}); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%s: error %v, want one naming line 2", in, err)
		}
	}
}

// An invalid record of one of several files is named by its file and its
// line in that file.
func TestFileProviderNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	good, _ := sampleFS.ReadFile("sampledata/sample.jsonl")
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	if err := os.WriteFile(a, good, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("\n{\"kind\":\"story\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := NewFile(FileConfig{Paths: []string{a, b}})
	if err == nil || !strings.Contains(err.Error(), "b.jsonl line 2:") {
		t.Errorf("error %v, want one naming b.jsonl line 2", err)
	}
}

func TestGraphCursorCannotInjectFields(t *testing.T) {
	g := graphServer(t, func(r *http.Request) (int, string) {
		t.Errorf("no request expected, got %s", r.URL)
		return 200, "media_page1.json"
	})
	_, err := newClient(g).Posts(context.Background(), PostsRequest{Username: "northwind.coffee", Cursor: "X){access_token}"})
	if e := wantCode(t, err, envelope.CodeInvalidRequest); e.Details[0].Field != "cursor" {
		t.Errorf("details %+v", e.Details)
	}
}

func TestApifyReelsUnmarked(t *testing.T) {
	a := apifyServer(t, func(apifyInput) (int, string) { return 200, "reels_unmarked.json" })
	l, err := newClient(a).Reels(context.Background(), ReelsRequest{Username: "northwind.coffee"})
	if err != nil || l.ResultCount != 1 || len(l.Notes) != 1 || !strings.Contains(l.Notes[0], "did not say whether 1 video") {
		t.Errorf("reels: %+v, %v", l, err)
	}
}

func TestGraphProviderChecksUsernameItself(t *testing.T) {
	g := graphServer(t, func(r *http.Request) (int, string) {
		t.Errorf("no request expected, got %s", r.URL)
		return 200, "profile.json"
	})
	_, err := g.Profile(context.Background(), "x){followers_count}")
	wantCode(t, err, envelope.CodeInvalidRequest)
}

// An actor's error item is quoted in the error only in part: the actor
// does not choose the size of the message.
func TestApifyErrorItemBounded(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode([]map[string]string{{"error": long, "errorDescription": "boom"}})
	}))
	defer srv.Close()
	a, err := NewApify(ApifyConfig{Token: testToken, BaseURL: srv.URL, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = newClient(a).Profile(context.Background(), ProfileRequest{Username: "northwind.coffee"})
	e := wantCode(t, err, envelope.CodeUpstreamError)
	if len(e.Message) > 300 || !strings.Contains(e.Message, "actor failed on") {
		t.Errorf("message is %d bytes long: %.80s...", len(e.Message), e.Message)
	}
}

// A page holding more reels than a response takes is continued, not
// skipped: the next cursor points back into it.
func TestGraphReelsCursorIntoPage(t *testing.T) {
	media := func(id, product string) string {
		return fmt.Sprintf(`{"id":%q,"media_type":"VIDEO","media_product_type":%q,"timestamp":"2025-10-12T09:00:00+0000","username":"northwind.coffee"}`, id, product)
	}
	pageA := `{"business_discovery":{"id":"1","media":{"data":[` + strings.Join([]string{media("r1", "REELS"), media("f1", "FEED"), media("r2", "REELS"), media("r3", "REELS")}, ",") +
		`],"paging":{"cursors":{"after":"PAGEB"},"next":"https://graph.facebook.com/next"}}}}`
	pageB := `{"business_discovery":{"id":"1","media":{"data":[` + media("r4", "REELS") + `],"paging":{"cursors":{"after":"END"}}}}}`
	c := graphClientOn(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Query().Get("fields"), "media.after(PAGEB)") {
			io.WriteString(w, pageB)
			return
		}
		io.WriteString(w, pageA)
	})
	got := collectPages(t, func(cursor string) (ids []string, next string, err error) {
		l, err := c.Reels(context.Background(), ReelsRequest{Username: "northwind.coffee", Limit: 2, Cursor: cursor})
		for _, m := range l.Media {
			ids = append(ids, m.ID)
		}
		return ids, l.PageInfo.NextCursor, err
	})
	if strings.Join(got, ",") != "r1,r2,r3,r4" {
		t.Errorf("reels over the pages: %v, want r1,r2,r3,r4", got)
	}
	_, err := c.Reels(context.Background(), ReelsRequest{Username: "northwind.coffee", Cursor: "PAGEB.x"})
	wantCode(t, err, envelope.CodeInvalidRequest)
}

// A comments page whose replies make it longer than the limit is
// continued, not skipped: the next cursor points back into it.
func TestGraphCommentsCursorIntoPage(t *testing.T) {
	comment := func(id string, replies ...string) string {
		var rs []string
		for _, r := range replies {
			rs = append(rs, fmt.Sprintf(`{"id":%q,"text":"reply"}`, r))
		}
		return fmt.Sprintf(`{"id":%q,"text":"top","replies":{"data":[%s]}}`, id, strings.Join(rs, ","))
	}
	pageA := `{"data":[` + strings.Join([]string{comment("c0", "r0a", "r0b"), comment("c1", "r1a", "r1b"), comment("c2", "r2a", "r2b")}, ",") +
		`],"paging":{"cursors":{"after":"AFTER3"},"next":"https://graph.facebook.com/next"}}`
	pageB := `{"data":[` + comment("c3") + `],"paging":{"cursors":{"after":"END"}}}`
	c := graphClientOn(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("after") {
		case "":
			io.WriteString(w, pageA)
		case "AFTER3":
			io.WriteString(w, pageB)
		default:
			t.Errorf("after = %q", r.URL.Query().Get("after"))
			io.WriteString(w, `{"data":[]}`)
		}
	})
	got := collectPages(t, func(cursor string) (ids []string, next string, err error) {
		l, err := c.Comments(context.Background(), CommentsRequest{MediaID: "18027939643004123", Limit: 3, Cursor: cursor})
		for _, m := range l.Comments {
			ids = append(ids, m.ID)
		}
		return ids, l.PageInfo.NextCursor, err
	})
	if want := "c0,r0a,r0b,c1,r1a,r1b,c2,r2a,r2b,c3"; strings.Join(got, ",") != want {
		t.Errorf("comments over the pages: %v, want %s", got, want)
	}
}

// A Graph cursor refused with code 100 is the caller's error, 400 naming
// cursor.
func TestGraphRefusedCursor(t *testing.T) {
	c := graphClientOn(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"Invalid parameter","type":"OAuthException","code":100,"fbtrace_id":"A1"}}`)
	})
	_, err := c.Comments(context.Background(), CommentsRequest{MediaID: "18027939643004123", Cursor: "QVFIUmJhZA"})
	var v *envelope.ValidationError
	if !errors.As(err, &v) || v.Issues[0].Field != "cursor" {
		t.Errorf("comments: err = %v, want a validation error on cursor", err)
	}
	_, err = c.Comments(context.Background(), CommentsRequest{MediaID: "18027939643004123"})
	wantCode(t, err, envelope.CodeUpstreamError)
}

// A hashtag ID that is not digits never goes into a request path.
func TestGraphHashtagIDChecked(t *testing.T) {
	var paths []string
	c := graphClientOn(t, func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		io.WriteString(w, `{"data":[{"id":"../me/accounts"}]}`)
	})
	_, err := c.HashtagSearch(context.Background(), HashtagRequest{Hashtag: "coffee"})
	wantCode(t, err, envelope.CodeUpstreamError)
	if len(paths) != 1 || !strings.HasSuffix(paths[0], "/ig_hashtag_search") {
		t.Errorf("requests %q, want only ig_hashtag_search", paths)
	}
}

// graphClientOn returns a Client of a Graph provider served by h.
func graphClientOn(t *testing.T, h http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	g, err := NewGraph(GraphConfig{Token: testToken, UserID: testUserID, BaseURL: srv.URL, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return newClient(g)
}

// collectPages follows next cursors from the first page, at most 10
// pages, and returns the IDs of every page in order.
func collectPages(t *testing.T, page func(cursor string) (ids []string, next string, err error)) []string {
	t.Helper()
	var got []string
	cursor := ""
	for range 10 {
		ids, next, err := page(cursor)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ids...)
		if cursor = next; cursor == "" {
			break
		}
	}
	return got
}

// mustClient returns New(cfg); New fails only on a configuration that
// cannot work, which a test's setup never has.
func mustClient(cfg Config) *Client {
	c, err := New(cfg)
	if err != nil {
		panic(err)
	}
	return c
}

// TestGraphFieldRefusal: when business discovery refuses an optional
// media field (code 100, "supported fields"), the media are asked again
// without it (thumbnail_url first, then username and children), each step
// noted; later calls start at the step reached.
func TestGraphFieldRefusal(t *testing.T) {
	var asked []string
	g := graphServer(t, func(r *http.Request) (int, string) {
		f := r.URL.Query().Get("fields")
		asked = append(asked, f)
		if strings.Contains(f, "children") || strings.Contains(f, "username,") {
			return 400, "error_unsupported_field.json"
		}
		return 200, "media_page1.json"
	})
	c := newClient(g)
	l, err := c.Posts(context.Background(), PostsRequest{Username: "northwind.coffee", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 3 || strings.Contains(asked[1], "thumbnail_url") || l.ResultCount != 2 || l.Media[0].Owner.Username != "northwind.coffee" {
		t.Fatalf("asked %q; got %+v", asked, l)
	}
	if len(l.Notes) != 2 || !strings.Contains(l.Notes[0], "refused thumbnail_url") || !strings.Contains(l.Notes[1], "refused optional media fields") {
		t.Errorf("notes = %q", l.Notes)
	}
	// The next call asks once, with what the API serves, and says so.
	asked = nil
	l, err = c.Posts(context.Background(), PostsRequest{Username: "northwind.coffee", Limit: 2})
	if err != nil || len(asked) != 1 || asked[0] != "business_discovery.username(northwind.coffee){id,media.limit(2){"+graphDiscoveryRequiredFields+"}}" || len(l.Notes) != 2 {
		t.Errorf("second call: asked %q, notes %q, %v", asked, l.Notes, err)
	}
	// After GraphFieldRetryInterval, the full set is asked again, and an
	// API that serves it again gets no fewer fields.
	start := time.Now()
	g.now = func() time.Time { return start.Add(GraphFieldRetryInterval - time.Second) }
	asked = nil
	c.Posts(context.Background(), PostsRequest{Username: "northwind.coffee", Limit: 2})
	if len(asked) != 1 || strings.Contains(asked[0], "children") {
		t.Errorf("before the interval: asked %q", asked)
	}
	g.now = func() time.Time { return start.Add(GraphFieldRetryInterval + time.Second) }
	asked = nil
	c.Posts(context.Background(), PostsRequest{Username: "northwind.coffee", Limit: 2})
	if len(asked) != 3 || !strings.Contains(asked[0], "thumbnail_url,username,children") {
		t.Errorf("after the interval: asked %q, want the full set first", asked)
	}
	// A refusal of the required fields is an upstream error, asked once more at most.
	asked = nil
	g = graphServer(t, func(r *http.Request) (int, string) {
		asked = append(asked, r.URL.Query().Get("fields"))
		return 400, "error_unsupported_field.json"
	})
	_, err = newClient(g).Posts(context.Background(), PostsRequest{Username: "northwind.coffee"})
	if e := wantCode(t, err, envelope.CodeUpstreamError); !errors.Is(e, errFieldRefused) || len(asked) != len(graphDiscoveryFields) {
		t.Errorf("err %v after %d requests", err, len(asked))
	}
}

// TestGraphThrottling: the Graph API's throttling codes are 429 with the
// wait of X-Business-Use-Case-Usage or X-App-Usage, or the default wait
// when it gives none.
func TestGraphThrottling(t *testing.T) {
	tests := []struct {
		name   string
		code   int
		header http.Header
		want   time.Duration
	}{
		{"app limit, no hint", 4, nil, upstream.DefaultRetryAfter},
		{"user limit, app usage", 17, http.Header{"X-App-Usage": {`{"call_count":100,"total_cputime":3,"total_time":5,"estimated_time_to_regain_access":2}`}}, 2 * time.Minute},
		{"custom level, app usage", 32, http.Header{"X-App-Usage": {`{"call_count":100,"estimated_time_to_regain_access":1}`}}, time.Minute},
		{"spam limit, business usage", 613, http.Header{"X-Business-Use-Case-Usage": {`{"178414":[{"type":"instagram","estimated_time_to_regain_access":15}]}`}}, 15 * time.Minute},
		{"business use case", 80002, http.Header{"X-Business-Use-Case-Usage": {`{"178414":[{"type":"instagram","estimated_time_to_regain_access":0},{"type":"pages","estimated_time_to_regain_access":4}]}`}}, 4 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.header {
					w.Header()[k] = v
				}
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprintf(w, `{"error":{"message":"limited","type":"OAuthException","code":%d}}`, tt.code)
			}))
			defer srv.Close()
			g, err := NewGraph(GraphConfig{Token: testToken, UserID: testUserID, BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			_, err = newClient(g).Profile(context.Background(), ProfileRequest{Username: "northwind.coffee"})
			if e := wantCode(t, err, envelope.CodeRateLimitExceeded); e.RetryAfter != tt.want {
				t.Errorf("RetryAfter = %v, want %v", e.RetryAfter, tt.want)
			}
		})
	}
}

// TestApifyDatasetGoneSaysItOnce: a dataset Apify no longer has says so
// once, then what Apify answered; the re-run still recognizes it.
func TestApifyDatasetGoneSaysItOnce(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":{"type":"record-not-found","message":"Dataset was not found"}}`))
	}))
	defer srv.Close()
	a, err := NewApify(ApifyConfig{Token: testToken, BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = a.read(context.Background(), apifyCursor{dataset: "d1"}, 10)
	want := "UPSTREAM_ERROR: the Apify dataset of this query has expired: it answered 404 record-not-found"
	if err == nil || err.Error() != want || !errors.Is(err, errDatasetGone) {
		t.Errorf("err = %v\n\twant %s, wrapping errDatasetGone", err, want)
	}
}

// A media ID that is not one is INVALID_REQUEST naming media_id, and still
// ErrInvalidMediaID for errors.Is, through the client and the provider.
func TestApifyInvalidMediaID(t *testing.T) {
	a := apifyServer(t, func(apifyInput) (int, string) {
		t.Error("the actor was called for an invalid media ID")
		return 200, "posts.json"
	})
	for name, get := range map[string]func() error{
		"provider": func() error {
			_, err := a.Media(context.Background(), MediaRef{MediaID: "12x"})
			return err
		},
		"client": func() error {
			_, err := newClient(a).Media(context.Background(), MediaRequest{MediaID: "12x"})
			return err
		},
	} {
		err := get()
		if !errors.Is(err, ErrInvalidMediaID) {
			t.Errorf("%s: error %v is not ErrInvalidMediaID", name, err)
		}
		if e := wantCode(t, err, envelope.CodeInvalidRequest); len(e.Details) != 1 || e.Details[0].Field != "media_id" {
			t.Errorf("%s: details %+v, want one naming media_id", name, e.Details)
		}
	}
}
