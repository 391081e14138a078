// Package microblogtest runs loopback servers that speak the wire
// protocols of the microblog providers (twitterapi.io and the X API v2),
// replaying recorded-style fixtures, in the spirit of net/http/httptest:
// for the tests of package microblog and of the HTTP API, and for users'
// own tests and programs.
//
//	srv := microblogtest.NewTwitterAPIIO("test-key")
//	defer srv.Close()
//	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "test-key", BaseURL: srv.URL})
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
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
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

	mu        sync.Mutex
	requests  []string
	overrides map[string]override
}

type override struct {
	status int
	header http.Header
	body   string
	delay  time.Duration
}

// Requests returns the requests served so far as "path?query".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// Respond makes requests whose path starts with prefix answer status with
// header and body instead of the fixture.
func (s *Server) Respond(prefix string, status int, header http.Header, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.overrides[prefix] = override{status: status, header: header, body: body}
}

// Delay makes requests whose path starts with prefix wait d (or until the
// client gives up) before answering.
func (s *Server) Delay(prefix string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.overrides[prefix] = override{delay: d}
}

func newServer(auth func(*http.Request) bool, route func(*http.Request) (string, int)) *Server {
	s := &Server{overrides: map[string]override{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.URL.Path+"?"+r.URL.RawQuery)
		var ov *override
		for p, o := range s.overrides {
			if strings.HasPrefix(r.URL.Path, p) {
				o := o
				ov = &o
			}
		}
		s.mu.Unlock()
		if ov != nil && ov.delay > 0 {
			select {
			case <-time.After(ov.delay):
			case <-r.Context().Done():
				return
			}
		} else if ov != nil {
			for k, v := range ov.header {
				w.Header()[k] = v
			}
			w.WriteHeader(ov.status)
			_, _ = w.Write([]byte(ov.body))
			return
		}
		if !auth(r) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":401,"message":"Unauthorized"}`))
			return
		}
		name, status := route(r)
		if name == "" {
			http.NotFound(w, r)
			return
		}
		body, err := fixtures.ReadFile("fixtures/" + name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	return s
}

// NewTwitterAPIIO starts a loopback twitterapi.io that accepts the API key
// apiKey in the X-API-Key header. The caller must Close it.
func NewTwitterAPIIO(apiKey string) *Server {
	return newServer(func(r *http.Request) bool { return r.Header.Get("X-API-Key") == apiKey }, func(r *http.Request) (string, int) {
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
// server's URL as the base URL) that accepts the bearer token. The caller
// must Close it.
func NewXAPI(token string) *Server {
	return newServer(func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+token }, func(r *http.Request) (string, int) {
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
