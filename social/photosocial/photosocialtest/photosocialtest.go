// Package photosocialtest runs loopback servers that speak the wire
// protocols of the photo-sharing providers (the Instagram Graph API and
// the Apify Instagram scraper), replaying fixtures, in the spirit of
// net/http/httptest: for the tests of package photosocial and of the HTTP
// API, and for users' own tests and programs.
//
//	srv := photosocialtest.NewGraph("test-token")
//	defer srv.Close()
//	g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "test-token", UserID: photosocialtest.GraphUserID, BaseURL: srv.URL})
//
// The fixtures (fixtures/graph, fixtures/apify) are our own content,
// shaped after the providers' published response formats: a fictional
// business account @northwind.coffee ([Username]) with two pages of media,
// comments, a hashtag, and the providers' error forms.
package photosocialtest

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/quiverkit/quiver/internal/replay"
)

//go:embed fixtures
var fixtures embed.FS

// Identifiers in the fixtures.
const (
	// Username is the business account with a profile and media.
	Username = "northwind.coffee"
	// GraphUserID is the app user's IG user ID the Graph server expects
	// as GraphConfig.UserID (any ID is served the same way).
	GraphUserID = "17841405309211844"
	// PrivateUser is a private account (Apify: no items).
	PrivateUser = "quiet.person"
	// MissingUser is an account that does not exist.
	MissingUser = "no.such.user"
	// Shortcode is a carousel post of Username with comments (Apify).
	Shortcode = "DAreBwfYYAA"
	// Hashtag is a hashtag with media.
	Hashtag = "coffee"
	// GraphThrottledUser is an account whose business discovery the Graph
	// server answers with business use case throttling (code 80002) and an
	// X-Business-Use-Case-Usage header asking to wait
	// [GraphRegainAccessMinutes] minutes.
	GraphThrottledUser = "busy.roastery"
	// GraphRegainAccessMinutes is the estimated_time_to_regain_access of
	// the throttled answer.
	GraphRegainAccessMinutes = 7
	// graphSecondPage is the media cursor of the Graph fixtures' page 2.
	graphSecondPage = "QVFIUkNhbmV4dF9wYWdlX2N1cnNvcg"
)

// Server is a loopback provider server. Its URL is the provider's base
// URL; Close shuts it down. A request without the token the server was
// started with is refused as the provider refuses a bad token.
type Server struct {
	*httptest.Server
	h *replay.Handler
}

// Requests returns the requests served so far as "path?query".
func (s *Server) Requests() []string { return s.h.Requests() }

// Respond makes requests whose path starts with prefix answer status with
// header and body instead of the fixture, the longest matching prefix
// winning: a way to replay rate limits and failures.
func (s *Server) Respond(prefix string, status int, header http.Header, body string) {
	s.h.Respond(prefix, status, header, body)
}

// Delay makes requests whose path starts with prefix wait d (or until the
// client gives up) before answering.
func (s *Server) Delay(prefix string, d time.Duration) { s.h.Delay(prefix, d) }

func newServer(token string, refusal replay.Refusal, route replay.Route) *Server {
	files, err := fs.Sub(fixtures, "fixtures")
	if err != nil {
		panic(err) // the embedded directory is there
	}
	auth := func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+token }
	h := replay.New(files, auth, refusal, route)
	return &Server{Server: httptest.NewServer(h), h: h}
}

// NewGraph starts a loopback Instagram Graph API that accepts the access
// token in the Authorization header. Use its URL as GraphConfig.BaseURL;
// paths may carry a version prefix ("/v21.0"). It serves business
// discovery of [Username] (profile and two pages of media; any other
// account is the Graph API's not-found error), comments of any media,
// and the hashtag search and media of any hashtag. As the Graph API does,
// it refuses thumbnail_url inside business discovery media with a code
// 100 error, and answers business discovery of [GraphThrottledUser] with
// throttling. The caller must Close it.
func NewGraph(token string) *Server {
	return newServer(token, replay.Refusal{Status: http.StatusBadRequest, Fixture: "graph/error_token.json"}, func(w http.ResponseWriter, r *http.Request, _ []byte) (string, int) {
		p, fields := r.URL.Path, r.URL.Query().Get("fields")
		switch {
		case strings.HasSuffix(p, "/ig_hashtag_search"):
			return "graph/hashtag_search.json", 200
		case strings.HasSuffix(p, "/top_media"), strings.HasSuffix(p, "/recent_media"):
			return "graph/hashtag_top_media.json", 200
		case strings.HasSuffix(p, "/comments"):
			return "graph/comments.json", 200
		case strings.HasPrefix(fields, "business_discovery.") && strings.Contains(fields, "thumbnail_url"):
			return "graph/error_unsupported_field.json", http.StatusBadRequest
		case strings.HasPrefix(fields, "business_discovery.username("+GraphThrottledUser+")"):
			w.Header().Set("X-Business-Use-Case-Usage", fmt.Sprintf(
				`{"%s":[{"type":"instagram","call_count":100,"total_cputime":9,"total_time":14,"estimated_time_to_regain_access":%d}]}`,
				GraphUserID, GraphRegainAccessMinutes))
			return "graph/error_throttled.json", http.StatusBadRequest
		case strings.HasPrefix(fields, "business_discovery.username("+Username+")"):
			switch {
			case strings.Contains(fields, "media.after("+graphSecondPage+")"):
				return "graph/media_page2.json", 200
			case strings.Contains(fields, "media."):
				return "graph/media_page1.json", 200
			}
			return "graph/profile.json", 200
		case strings.HasPrefix(fields, "business_discovery."):
			return "graph/error_user_not_found.json", http.StatusBadRequest
		}
		return "", 0
	})
}

// NewApify starts a loopback Apify API that accepts the token in the
// Authorization header. Use its URL as ApifyConfig.BaseURL. It answers
// run-sync-get-dataset-items of any actor by the input's resultsType:
// details of [Username] ([PrivateUser] is private, [MissingUser] not
// found), posts, reels, comments, and user or hashtag search. The caller
// must Close it.
func NewApify(token string) *Server {
	return newServer(token, replay.Refusal{Status: http.StatusUnauthorized, Fixture: "apify/error_token.json"}, func(_ http.ResponseWriter, r *http.Request, body []byte) (string, int) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/run-sync-get-dataset-items") {
			return "", 0
		}
		var in struct {
			DirectURLs  []string `json:"directUrls"`
			ResultsType string   `json:"resultsType"`
			SearchType  string   `json:"searchType"`
			Search      string   `json:"search"`
		}
		if json.Unmarshal(body, &in) != nil {
			return "apify/error_actor.json", http.StatusBadRequest
		}
		target := strings.Join(in.DirectURLs, " ")
		switch {
		case in.Search != "" && in.SearchType == "hashtag":
			return "apify/search_hashtag.json", 200
		case in.Search != "":
			return "apify/search_user.json", 200
		case strings.Contains(target, MissingUser):
			return "apify/not_found.json", 200
		case strings.Contains(target, PrivateUser) && in.ResultsType == "details":
			return "apify/details_private.json", 200
		case strings.Contains(target, PrivateUser):
			return "apify/no_items.json", 200
		}
		switch in.ResultsType {
		case "details":
			return "apify/details.json", 200
		case "reels":
			return "apify/reels.json", 200
		case "comments":
			return "apify/comments.json", 200
		}
		return "apify/posts.json", 200
	})
}
