package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
)

const microblogKey = "tk_route_test_key_9f8e7d"

type mbEnvelope struct {
	Success bool           `json:"success"`
	Data    map[string]any `json:"data"`
	Error   *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details []struct {
			Field string `json:"field"`
		} `json:"details"`
	} `json:"error"`
	Meta map[string]any `json:"meta"`
}

// microblogGet sends an authenticated GET to h and decodes the envelope.
func microblogGet(t *testing.T, h http.Handler, target string) (*httptest.ResponseRecorder, mbEnvelope) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "test")
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var env mbEnvelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("%s: body is not the envelope: %v\n%s", target, err, rec.Body)
	}
	if id, _ := env.Meta["request_id"].(string); !strings.HasPrefix(id, "req_") {
		t.Errorf("%s: meta.request_id = %v", target, env.Meta["request_id"])
	}
	return rec, env
}

func twitterAPIHandler(t *testing.T) (http.Handler, *microblogtest.Server) {
	srv := microblogtest.StartTwitterAPIIO(t, microblogKey)
	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: microblogKey, BaseURL: srv.URL, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Microblog: microblogT(t, p)}), srv
}

var createdAtRE = regexp.MustCompile(`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d\d \d\d:\d\d:\d\d \+0000 \d{4}$`)

// checkTweets asserts the contract's Tweet shape on every tweet.
func checkTweets(t *testing.T, route string, tweets []any) {
	t.Helper()
	for _, x := range tweets {
		tw := x.(map[string]any)
		keys := make([]string, 0, len(tw))
		for k := range tw {
			keys = append(keys, k)
		}
		if len(tw) != 8 {
			t.Errorf("%s: tweet has fields %v, want exactly the 8 of the contract", route, keys)
		}
		if !createdAtRE.MatchString(tw["created_at"].(string)) {
			t.Errorf("%s: created_at %q", route, tw["created_at"])
		}
		m := tw["metrics"].(map[string]any)
		for _, k := range []string{"retweet_count", "reply_count", "like_count", "quote_count", "view_count"} {
			if _, ok := m[k].(float64); !ok {
				t.Errorf("%s: metrics.%s = %v, want a number", route, k, m[k])
			}
		}
		a := tw["author"].(map[string]any)
		if len(a) != 4 || a["username"] == "" {
			t.Errorf("%s: author = %v", route, a)
		}
		if !strings.HasPrefix(tw["url"].(string), "https://x.com/"+a["username"].(string)+"/status/") {
			t.Errorf("%s: url = %v", route, tw["url"])
		}
		if _, err := time.Parse(time.RFC3339, tw["as_of"].(string)); err != nil || tw["data_source"] != "twitterapi.io" {
			t.Errorf("%s: as_of %v, data_source %v", route, tw["as_of"], tw["data_source"])
		}
	}
}

func TestMicroblogRoutes(t *testing.T) {
	h, _ := twitterAPIHandler(t)
	root := microblogtest.RootID
	tests := []struct {
		target string
		list   string   // field holding tweets
		fields []string // fields that must be present in data
	}{
		{"/v1/microblog/profile?username=%40ana_dev", "", []string{"id", "username", "followers_count", "data_source", "as_of"}},
		{"/v1/microblog/user-tweets?username=ana_dev&limit=2&include_replies=true", "tweets", []string{"page_info", "result_count", "data_source", "as_of"}},
		{"/v1/microblog/search?query=acme+cloud&type=top&limit=20", "tweets", []string{"page_info", "result_count"}},
		{"/v1/microblog/search/insights?query=acme+cloud", "tweets", []string{"total_engagement", "average_engagement", "sentiment", "top_hashtags", "top_mentions", "top_authors", "common_terms", "top_tweets"}},
		{"/v1/microblog/brand/mentions?brand=acme+cloud&keywords=refund,support,deploy&exclude_keywords=hiring", "tweets", []string{"mention_count", "sentiment", "top_complaints", "top_praise", "top_accounts", "top_hashtags", "notable_mentions"}},
		{"/v1/microblog/profile/insights?username=ana_dev&tweet_limit=50&include_replies=true", "recent_tweets", []string{"profile", "average_likes", "average_replies", "average_retweets", "average_engagement", "engagement_score", "best_performing_tweets", "common_topics", "top_hashtags", "posting_style"}},
		{"/v1/microblog/tweet?tweet_id=" + root, "", []string{"id", "url", "text", "created_at", "author", "metrics", "data_source", "as_of"}},
		{"/v1/microblog/replies?tweet_id=" + root + "&sort=latest&limit=5", "tweets", []string{"page_info", "result_count"}},
		{"/v1/microblog/tweet/conversation-insights?tweet_id=" + root + "&sort=likes&reply_limit=10", "replies", []string{"original_tweet", "sentiment", "top_questions", "top_objections", "notable_replies", "controversy_score"}},
		{"/v1/microblog/thread?tweet_id=" + root + "&format=markdown", "tweets", []string{"page_info", "result_count", "data_source", "as_of", "markdown"}},
	}
	for _, tt := range tests {
		rec, env := microblogGet(t, h, tt.target)
		if rec.Code != http.StatusOK || !env.Success || env.Error != nil {
			t.Errorf("%s: %d %+v", tt.target, rec.Code, env.Error)
			continue
		}
		for _, f := range tt.fields {
			if _, ok := env.Data[f]; !ok {
				t.Errorf("%s: data lacks %q", tt.target, f)
			}
		}
		if tt.list != "" {
			tweets, ok := env.Data[tt.list].([]any)
			if !ok || len(tweets) == 0 {
				t.Errorf("%s: %s = %v", tt.target, tt.list, env.Data[tt.list])
				continue
			}
			checkTweets(t, tt.target, tweets)
		}
	}
}

func TestMicroblogRoutePagination(t *testing.T) {
	h, _ := twitterAPIHandler(t)
	cursor, pages, total := "", 0, 0
	for pages < 5 {
		_, env := microblogGet(t, h, "/v1/microblog/user-tweets?username=ana_dev&include_replies=true&cursor="+cursor)
		pages++
		total += int(env.Data["result_count"].(float64))
		pi := env.Data["page_info"].(map[string]any)
		if pi["has_next_page"] != true {
			break
		}
		cursor = pi["next_cursor"].(string)
	}
	// Page 3 of the fixture claims has_next_page with no tweets: the end.
	if pages != 3 || total != 5 {
		t.Errorf("%d pages, %d tweets; want 3 pages, 5 tweets", pages, total)
	}
}

func TestMicroblogThreadFormats(t *testing.T) {
	h, _ := twitterAPIHandler(t)
	_, env := microblogGet(t, h, "/v1/microblog/thread?tweet_id="+microblogtest.RootID+"&format=text&limit=2")
	if text, _ := env.Data["text"].(string); !strings.HasPrefix(text, "1/4 ") || !strings.Contains(text, "\n\n2/4 ") {
		t.Errorf("text = %q", env.Data["text"])
	}
	pi := env.Data["page_info"].(map[string]any)
	if pi["has_next_page"] != true || pi["next_cursor"] != "t2" {
		t.Errorf("page_info = %v", pi)
	}
	_, env = microblogGet(t, h, "/v1/microblog/thread?tweet_id="+microblogtest.RootID+"&format=text&limit=2&cursor=t2")
	if text, _ := env.Data["text"].(string); !strings.HasPrefix(text, "3/4 ") {
		t.Errorf("page 2 text = %q", env.Data["text"])
	}
	_, env = microblogGet(t, h, "/v1/microblog/thread?tweet_id="+microblogtest.RootID)
	if _, ok := env.Data["text"]; ok {
		t.Error("format=json carries text")
	}
	if n := len(env.Data["tweets"].([]any)); n != 4 {
		t.Errorf("json thread has %d tweets, want 4", n)
	}
}

func TestMicroblogRouteErrors(t *testing.T) {
	h, srv := twitterAPIHandler(t)
	tests := []struct {
		name    string
		setup   func()
		target  string
		status  int
		code    string
		field   string
		retryAt string
	}{
		{"limit above 20", nil, "/v1/microblog/search?query=go&limit=21", 400, "INVALID_REQUEST", "limit", ""},
		{"bad type", nil, "/v1/microblog/search?query=go&type=popular", 400, "INVALID_REQUEST", "type", ""},
		{"bad sort", nil, "/v1/microblog/replies?tweet_id=1&sort=oldest", 400, "INVALID_REQUEST", "sort", ""},
		{"missing username", nil, "/v1/microblog/profile", 400, "INVALID_REQUEST", "username", ""},
		{"unknown parameter", nil, "/v1/microblog/tweet?tweet_id=1&foo=bar", 400, "INVALID_REQUEST", "foo", ""},
		{"bad boolean", nil, "/v1/microblog/user-tweets?username=a&include_replies=maybe", 400, "INVALID_REQUEST", "include_replies", ""},
		{"unknown user", nil, "/v1/microblog/profile?username=nobody_here", 404, "NOT_FOUND", "", ""},
		{"unknown tweet", nil, "/v1/microblog/tweet?tweet_id=" + microblogtest.MissingID, 404, "NOT_FOUND", "", ""},
		{"provider 404", func() { srv.Respond("/twitter/", 404, nil, `{}`) }, "/v1/microblog/profile?username=ana_dev", 404, "NOT_FOUND", "", ""},
		{"provider 429", func() { srv.Respond("/twitter/", 429, http.Header{"Retry-After": {"30"}}, `{}`) }, "/v1/microblog/search?query=go", 429, "RATE_LIMIT_EXCEEDED", "", "30"},
		{"provider 500", func() { srv.Respond("/twitter/", 500, nil, `{"error":500}`) }, "/v1/microblog/tweet?tweet_id=1", 502, "UPSTREAM_ERROR", "", ""},
		{"provider garbage", func() { srv.Respond("/twitter/", 200, nil, `not json`) }, "/v1/microblog/replies?tweet_id=1", 502, "UPSTREAM_ERROR", "", ""},
		{"provider timeout", func() { srv.Delay("/twitter/", 2*time.Second) }, "/v1/microblog/thread?tweet_id=1", 504, "UPSTREAM_TIMEOUT", "", ""},
	}
	for _, tt := range tests {
		if tt.setup != nil {
			tt.setup()
		}
		rec, env := microblogGet(t, h, tt.target)
		if rec.Code != tt.status || env.Success || env.Error == nil || env.Error.Code != tt.code {
			t.Errorf("%s: %d %+v, want %d %s", tt.name, rec.Code, env.Error, tt.status, tt.code)
			continue
		}
		if tt.field != "" && (len(env.Error.Details) == 0 || env.Error.Details[0].Field != tt.field) {
			t.Errorf("%s: details %+v, want field %s", tt.name, env.Error.Details, tt.field)
		}
		if got := rec.Header().Get("Retry-After"); got != tt.retryAt {
			t.Errorf("%s: Retry-After %q, want %q", tt.name, got, tt.retryAt)
		}
		if strings.Contains(rec.Body.String(), microblogKey) {
			t.Errorf("%s: response leaks the provider key", tt.name)
		}
	}
}

func TestMicroblogNotConfigured(t *testing.T) {
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})
	for _, target := range []string{
		"/v1/microblog/profile?username=a", "/v1/microblog/user-tweets?username=a", "/v1/microblog/search?query=a",
		"/v1/microblog/search/insights?query=a", "/v1/microblog/brand/mentions?brand=a", "/v1/microblog/profile/insights?username=a",
		"/v1/microblog/tweet?tweet_id=1", "/v1/microblog/replies?tweet_id=1", "/v1/microblog/tweet/conversation-insights?tweet_id=1",
		"/v1/microblog/thread?tweet_id=1",
	} {
		rec, env := microblogGet(t, h, target)
		if rec.Code != 503 || env.Error == nil || env.Error.Code != "SERVICE_UNAVAILABLE" || !strings.Contains(env.Error.Message, "configure a data provider") {
			t.Errorf("%s: %d %+v", target, rec.Code, env.Error)
		}
	}
}

func TestMicroblogFileProviderRoutes(t *testing.T) {
	p, err := microblog.NewFile(microblog.FileConfig{Paths: []string{"../examples/microblog/data/sample.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Microblog: microblogT(t, p)})
	rec, env := microblogGet(t, h, "/v1/microblog/tweet/conversation-insights?tweet_id=2008")
	if rec.Code != 200 || env.Data["controversy_score"] == nil {
		t.Fatalf("%d %+v", rec.Code, env.Error)
	}
	if env.Data["data_source"] != "file:sample.jsonl" {
		t.Errorf("data_source = %v", env.Data["data_source"])
	}
}
