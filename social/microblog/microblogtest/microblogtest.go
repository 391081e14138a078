// Package microblogtest runs loopback servers that speak the wire
// protocols of the microblog providers (twitterapi.io and the X API v2),
// replaying recorded-style fixtures, in the spirit of net/http/httptest:
// for the tests of package microblog and of the HTTP API, and for users'
// own tests and programs.
//
//	srv, err := microblogtest.NewTwitterAPIIO("test-key")
//	if err != nil { ... }
//	defer srv.Close()
//	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "test-key", BaseURL: srv.URL})
//
// In a test, StartTwitterAPIIO(t, "test-key") does the same, failing the
// test when the server cannot start and closing it when the test ends;
// StartXAPI is NewXAPI's twin.
//
// The fixtures (fixtures/twitterapi, fixtures/xapi) are our own content,
// shaped after the providers' published response formats: fictional
// accounts @ana_dev and @bo_ops, a thread rooted at tweet [RootID], a user
// timeline over three pages (the last empty while claiming has_next_page),
// a search over two pages, replies, and the providers' not-found forms.
// The twitterapi.io pages come in both shapes it answers: the top-level
// one its documentation shows (last_tweets page 2; thread_context page 1,
// under "replies") and the "data"-wrapped one also seen live.
package microblogtest

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/replay"
)

//go:embed fixtures
var fixtures embed.FS

// Identifiers in the fixtures.
const (
	Username    = "ana_dev"             // the user with a profile and a timeline
	UserID      = "1479201"             // Username's ID
	RootID      = "1896000000000000001" // a tweet with replies and a thread
	MiddleID    = "1896000000000000003" // the third tweet of RootID's thread
	MissingID   = "1000000000000000001" // a tweet that does not exist
	MissingUser = "nobody_here"         // a user that does not exist
)

// Server is a loopback provider server. Its URL is the provider's base
// URL; Close shuts it down. A request without the credential the server
// was started with is answered 401.
type Server struct {
	*httptest.Server
	h *replay.Handler
}

// Requests returns the requests served so far as "path?query".
func (s *Server) Requests() []string { return s.h.Requests() }

// Respond makes requests whose path starts with prefix answer status with
// header and body instead of the fixture; the longest matching prefix
// wins.
func (s *Server) Respond(prefix string, status int, header http.Header, body string) {
	s.h.Respond(prefix, status, header, body)
}

// Delay makes requests whose path starts with prefix wait d (or until the
// client gives up) before answering.
func (s *Server) Delay(prefix string, d time.Duration) { s.h.Delay(prefix, d) }

func newServer(auth func(*http.Request) bool, refusal string, route func(*http.Request) (string, int)) (*Server, error) {
	files, err := fs.Sub(fixtures, "fixtures")
	if err != nil {
		panic(err) // the embedded directory is there
	}
	h := replay.New(files, auth, replay.Refusal{Status: http.StatusUnauthorized, Fixture: refusal},
		func(_ http.ResponseWriter, r *http.Request, _ []byte) (string, int) { return route(r) })
	hs, err := replay.Serve(h)
	if err != nil {
		return nil, fmt.Errorf("microblogtest: %w", err)
	}
	return &Server{Server: hs, h: h}, nil
}

// StartTwitterAPIIO is [NewTwitterAPIIO] for a test or benchmark: it
// fails tb (with Fatal) when the server cannot start, and closes the
// server when tb and its subtests end (tb.Cleanup).
func StartTwitterAPIIO(tb testing.TB, apiKey string) *Server {
	tb.Helper()
	s, err := NewTwitterAPIIO(apiKey)
	return replay.Started(tb, s, err)
}

// StartXAPI is [NewXAPI] for a test or benchmark: it fails tb (with
// Fatal) when the server cannot start, and closes the server when tb and
// its subtests end (tb.Cleanup).
func StartXAPI(tb testing.TB, token string) *Server {
	tb.Helper()
	s, err := NewXAPI(token)
	return replay.Started(tb, s, err)
}

// NewTwitterAPIIO starts a loopback twitterapi.io that accepts the API key
// apiKey in the X-API-Key header. It returns an error when no loopback
// port is free. The caller must Close the server.
func NewTwitterAPIIO(apiKey string) (*Server, error) {
	return newServer(func(r *http.Request) bool { return r.Header.Get("X-API-Key") == apiKey }, "twitterapi/error_unauthorized.json", func(r *http.Request) (string, int) {
		q := r.URL.Query()
		switch r.URL.Path {
		case "/twitter/user/info":
			if q.Get("userName") == Username {
				return "twitterapi/user_info.json", 200
			}
			return "twitterapi/user_info_missing.json", 200
		case "/twitter/user/last_tweets":
			if q.Get("userName") != Username {
				return "twitterapi/user_info_missing.json", 200
			}
			switch q.Get("cursor") {
			case "":
				return "twitterapi/last_tweets_p1.json", 200
			case "DAABCgABGaXn3Rq__8sKAAIZpeRdV1ZgAQgAAwAAAAEAAA":
				return "twitterapi/last_tweets_p2.json", 200
			default:
				return "twitterapi/last_tweets_p3.json", 200
			}
		case "/twitter/tweet/advanced_search":
			if q.Get("cursor") == "SEARCH_PAGE_2" {
				return "twitterapi/advanced_search_p2.json", 200
			}
			return "twitterapi/advanced_search_p1.json", 200
		case "/twitter/tweets":
			switch q.Get("tweet_ids") {
			case RootID:
				return "twitterapi/tweets.json", 200
			case MiddleID:
				return "twitterapi/tweets_middle.json", 200
			}
			return "twitterapi/tweets_empty.json", 200
		case "/twitter/tweet/replies/v2":
			if q.Get("tweetId") == RootID {
				return "twitterapi/replies_v2.json", 200
			}
			return "twitterapi/tweets_empty.json", 200
		case "/twitter/tweet/thread_context":
			if q.Get("cursor") == "THREAD_2" {
				return "twitterapi/thread_context_p2.json", 200
			}
			return "twitterapi/thread_context.json", 200
		}
		return "", 0
	})
}

// NewXAPI starts a loopback X API v2 (paths without the /2 prefix: use the
// server's URL as the base URL) that accepts the bearer token. It returns
// an error when no loopback port is free. The caller must Close the
// server.
func NewXAPI(token string) (*Server, error) {
	return newServer(func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+token }, "xapi/error_unauthorized.json", func(r *http.Request) (string, int) {
		q := r.URL.Query()
		switch p := r.URL.Path; {
		case p == "/users/by/username/"+Username:
			return "xapi/user.json", 200
		case strings.HasPrefix(p, "/users/by/username/"):
			return "xapi/user_missing.json", 200
		case p == "/users/"+UserID+"/tweets":
			if q.Get("pagination_token") != "" {
				return "xapi/user_tweets_p2.json", 200
			}
			return "xapi/user_tweets_p1.json", 200
		case p == "/tweets/search/recent":
			switch {
			case strings.Contains(q.Get("query"), "conversation_id:"+RootID):
				return "xapi/conversation.json", 200
			case strings.Contains(q.Get("query"), "conversation_id:"):
				return "xapi/search_empty.json", 200
			case q.Get("next_token") != "":
				return "xapi/search_empty.json", 200
			}
			return "xapi/search_recent.json", 200
		case p == "/tweets":
			switch q.Get("ids") {
			case RootID:
				return "xapi/tweets.json", 200
			case MiddleID:
				return "xapi/tweets_middle.json", 200
			}
			return "xapi/tweets_missing.json", 200
		}
		return "", 0
	})
}
