package microblog_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/internal/upstream"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
)

const key = "tk_live_0123456789abcdef"

var fixed = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

// providers returns a Client over each HTTP provider, backed by its
// loopback server.
func providers(t *testing.T) map[string]struct {
	c   *microblog.Client
	srv *microblogtest.Server
} {
	tsrv := replay(t, "twitterapi.io", key)
	xsrv := replay(t, "x-api-v2", key)
	tp := must(microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: key, BaseURL: tsrv.URL, Timeout: 300 * time.Millisecond}))
	xp := must(microblog.NewXAPI(microblog.XAPIConfig{Token: key, BaseURL: xsrv.URL, Timeout: 300 * time.Millisecond}))
	return map[string]struct {
		c   *microblog.Client
		srv *microblogtest.Server
	}{
		"twitterapi.io": {newClient(t, tp), tsrv},
		"x-api-v2":      {newClient(t, xp), xsrv},
	}
}

func TestProfile(t *testing.T) {
	for name, p := range providers(t) {
		t.Run(name, func(t *testing.T) {
			prof, err := p.c.Profile(context.Background(), microblog.ProfileRequest{Username: "@ana_dev"})
			if err != nil {
				t.Fatal(err)
			}
			want := microblog.Profile{
				ID: "1479201", Username: "ana_dev", DisplayName: "Ana Torres", Description: "Backend engineer. Go, Postgres, queues.",
				Location: "Lisbon", Verified: true, FollowersCount: 5400, FollowingCount: prof.FollowingCount, TweetCount: 4210,
				CreatedAt: "Sun Mar 09 18:22:05 +0000 2014", ProfileImageURL: prof.ProfileImageURL, URL: "https://x.com/ana_dev",
				DataSource: name, AsOf: "2026-03-10T12:00:00Z",
			}
			if prof != want {
				t.Errorf("got  %+v\nwant %+v", prof, want)
			}
		})
	}
}

func TestUserTweetsPagination(t *testing.T) {
	for name, p := range providers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			var ids []string
			cursor := ""
			pages := 0
			for {
				l, err := p.c.UserTweets(ctx, microblog.UserTweetsRequest{Username: "ana_dev", Cursor: cursor, IncludeReplies: true})
				if err != nil {
					t.Fatal(err)
				}
				pages++
				if l.ResultCount != len(l.Tweets) || l.DataSource != name {
					t.Errorf("result_count %d for %d tweets, data_source %q", l.ResultCount, len(l.Tweets), l.DataSource)
				}
				for _, tw := range l.Tweets {
					ids = append(ids, tw.ID)
				}
				if !l.PageInfo.HasNextPage {
					if l.PageInfo.NextCursor != "" {
						t.Errorf("next_cursor %q on the last page", l.PageInfo.NextCursor)
					}
					break
				}
				if pages > 5 {
					t.Fatal("pagination does not end")
				}
				cursor = l.PageInfo.NextCursor
			}
			wantPages := map[string]int{"twitterapi.io": 3, "x-api-v2": 2}[name]
			if pages != wantPages {
				t.Errorf("%d pages, want %d (ids %v)", pages, wantPages, ids)
			}
			if len(ids) < 3 || ids[0] != "1899000000000000003" {
				t.Errorf("ids = %v", ids)
			}
		})
	}
}

func TestUserTweetsExcludesReplies(t *testing.T) {
	for name, p := range providers(t) {
		t.Run(name, func(t *testing.T) {
			l, err := p.c.UserTweets(context.Background(), microblog.UserTweetsRequest{Username: "ana_dev"})
			if err != nil {
				t.Fatal(err)
			}
			for _, tw := range l.Tweets {
				if strings.HasPrefix(tw.Text, "@") {
					t.Errorf("reply %s returned without include_replies", tw.ID)
				}
			}
			reqs := strings.Join(p.srv.Requests(), "\n")
			if name == "twitterapi.io" && !strings.Contains(reqs, "includeReplies=false") {
				t.Errorf("includeReplies not sent: %s", reqs)
			}
			if name == "x-api-v2" && !strings.Contains(reqs, "exclude=replies") {
				t.Errorf("exclude=replies not sent: %s", reqs)
			}
		})
	}
}

func TestNormalizedTweet(t *testing.T) {
	for name, p := range providers(t) {
		t.Run(name, func(t *testing.T) {
			l, err := p.c.UserTweets(context.Background(), microblog.UserTweetsRequest{Username: "ana_dev", Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Tweets) != 1 {
				t.Fatalf("%d tweets with limit 1", len(l.Tweets))
			}
			got := l.Tweets[0]
			want := microblog.Tweet{
				ID: "1899000000000000003", URL: "https://x.com/ana_dev/status/1899000000000000003",
				Text:       "The deadlock was two goroutines taking locks in opposite order. Classic. #golang",
				CreatedAt:  "Mon Mar 09 11:45:00 +0000 2026",
				Author:     microblog.Author{ID: "1479201", Username: "ana_dev", DisplayName: "Ana Torres", Verified: true, Followers: 5400},
				Metrics:    microblog.Metrics{RetweetCount: 30, ReplyCount: 12, LikeCount: 150, QuoteCount: 0, ViewCount: 17000},
				DataSource: name, AsOf: "2026-03-10T12:00:00Z",
			}
			got.Time, got.ConversationID, got.InReplyToID, got.InReplyToUserID, got.HasMedia = time.Time{}, "", "", "", false
			if got != want {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if !l.PageInfo.HasNextPage || l.PageInfo.NextCursor == "" {
				t.Errorf("page_info %+v, want the provider's cursor", l.PageInfo)
			}
		})
	}
}

func TestSearchAndCursorPassthrough(t *testing.T) {
	for name, p := range providers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			l, err := p.c.Search(ctx, microblog.SearchRequest{Query: "acme cloud", Type: "top"})
			if err != nil {
				t.Fatal(err)
			}
			if l.ResultCount != 2 || !l.PageInfo.HasNextPage {
				t.Fatalf("first page: %d tweets, %+v", l.ResultCount, l.PageInfo)
			}
			l2, err := p.c.Search(ctx, microblog.SearchRequest{Query: "acme cloud", Cursor: l.PageInfo.NextCursor})
			if err != nil {
				t.Fatal(err)
			}
			// twitterapi.io: has_next_page true with an empty cursor; X: no next_token.
			if l2.PageInfo.HasNextPage || l2.PageInfo.NextCursor != "" {
				t.Errorf("second page: %+v, want the end", l2.PageInfo)
			}
			reqs := strings.Join(p.srv.Requests(), "\n")
			for _, want := range map[string][]string{
				"twitterapi.io": {"queryType=Top", "cursor=SEARCH_PAGE_2"},
				"x-api-v2":      {"sort_order=relevancy", "next_token=b26v89c19zqg8o3fosbv0y1ufvp7zbl0dnqyxa5n3yk1p", "tweet.fields=", "public_metrics", "expansions=author_id"},
			}[name] {
				if !strings.Contains(reqs, want) {
					t.Errorf("requests lack %q:\n%s", want, reqs)
				}
			}
		})
	}
}

func TestTweetRepliesThread(t *testing.T) {
	for name, p := range providers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			tw, err := p.c.Tweet(ctx, microblog.TweetRequest{TweetID: microblogtest.RootID})
			if err != nil {
				t.Fatal(err)
			}
			if tw.CreatedAt != "Mon Mar 02 09:00:00 +0000 2026" || tw.Metrics.LikeCount != 420 || tw.Author.Username != "ana_dev" {
				t.Errorf("tweet = %+v", tw)
			}
			if name == "x-api-v2" && !strings.HasSuffix(tw.Text, "(long form)") {
				t.Errorf("note_tweet text not used: %q", tw.Text)
			}
			r, err := p.c.Replies(ctx, microblog.RepliesRequest{TweetID: microblogtest.RootID, Sort: "likes"})
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(r.Tweets); i++ {
				if r.Tweets[i].Metrics.LikeCount > r.Tweets[i-1].Metrics.LikeCount {
					t.Errorf("replies not sorted by likes: %d before %d", r.Tweets[i-1].Metrics.LikeCount, r.Tweets[i].Metrics.LikeCount)
				}
			}
			if len(r.Tweets) == 0 {
				t.Error("no replies")
			}
			th, err := p.c.Thread(ctx, microblog.ThreadRequest{TweetID: microblogtest.RootID, Format: "text"})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, x := range th.Tweets {
				ids = append(ids, x.ID[len(x.ID)-3:])
			}
			if got := strings.Join(ids, ","); got != "001,002,003,004" {
				t.Errorf("thread = %s, want 001,002,003,004 (the reply by @bo_ops left out)", got)
			}
			if !strings.HasPrefix(th.Text, "1/4 How we cut") || !strings.Contains(th.Text, "\n\n4/4 3. Timeouts") {
				t.Errorf("text = %q", th.Text)
			}
		})
	}
}

func TestErrorMapping(t *testing.T) {
	for name, p := range providers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			check := func(label string, err error, code envelope.Code) *envelope.Error {
				t.Helper()
				var e *envelope.Error
				if !errors.As(err, &e) || e.Code != code {
					t.Errorf("%s: err = %v, want %s", label, err, code)
					return &envelope.Error{}
				}
				if strings.Contains(err.Error(), key) {
					t.Errorf("%s: error leaks the key: %v", label, err)
				}
				// The code, the provider and the cause are said once.
				if r := testutil.RepeatedClause(err.Error()); r != "" || strings.Count(err.Error(), string(code)) != 1 {
					t.Errorf("%s: %q says %q or its code twice", label, err, r)
				}
				return e
			}
			// Not found, in the provider's own form (200 with an error body).
			_, err := p.c.Profile(ctx, microblog.ProfileRequest{Username: microblogtest.MissingUser})
			if e := check("missing user", err, envelope.CodeNotFound); !strings.Contains(e.Message, "@nobody_here") {
				t.Errorf("message %q does not name the user", e.Message)
			}
			_, err = p.c.Tweet(ctx, microblog.TweetRequest{TweetID: microblogtest.MissingID})
			check("missing tweet", err, envelope.CodeNotFound)

			prefix := map[string]string{"twitterapi.io": "/twitter/", "x-api-v2": "/users/"}[name]
			call := func() error {
				_, err := p.c.Profile(ctx, microblog.ProfileRequest{Username: "ana_dev"})
				return err
			}
			p.srv.Respond(prefix, http.StatusNotFound, nil, `{"error":"not found"}`)
			check("404", call(), envelope.CodeNotFound)
			p.srv.Respond(prefix, http.StatusTooManyRequests, http.Header{"Retry-After": {"42"}}, `{"title":"Too Many Requests"}`)
			if e := check("429", call(), envelope.CodeRateLimitExceeded); e.RetryAfter != 42*time.Second {
				t.Errorf("RetryAfter = %v, want 42s", e.RetryAfter)
			}
			p.srv.Respond(prefix, http.StatusInternalServerError, nil, `{"error":500,"message":"Internal Server Error"}`)
			check("500", call(), envelope.CodeUpstreamError)
			p.srv.Respond(prefix, http.StatusOK, nil, `<html>maintenance</html>`)
			check("bad body", call(), envelope.CodeUpstreamError)
			p.srv.Respond(prefix, http.StatusUnauthorized, nil, `{"error":401}`)
			check("401", call(), envelope.CodeUpstreamError)
			p.srv.Delay(prefix, 2*time.Second)
			check("timeout", call(), envelope.CodeUpstreamTimeout)
		})
	}
}

func TestWrongKeyIsUpstreamError(t *testing.T) {
	srv := replay(t, "twitterapi.io", key)
	p := must(microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "wrong-key-123", BaseURL: srv.URL}))
	_, err := newClient(t, p).Profile(context.Background(), microblog.ProfileRequest{Username: "ana_dev"})
	if e := envelope.From(err); e.Code != envelope.CodeUpstreamError || strings.Contains(err.Error(), "wrong-key-123") {
		t.Errorf("err = %v", err)
	}
}

func TestNotConfigured(t *testing.T) {
	var c microblog.Client
	_, err := c.Search(context.Background(), microblog.SearchRequest{Query: "go"})
	e := envelope.From(err)
	if e.Code != envelope.CodeServiceUnavailable || !strings.Contains(e.Message, "configure a data provider") {
		t.Errorf("err = %v", err)
	}
}

func TestValidation(t *testing.T) {
	c := must(microblog.New(microblog.Config{})) // validation comes before the provider check
	ctx := context.Background()
	tests := []struct {
		name  string
		call  func() error
		field string
	}{
		{"username missing", func() error { _, err := c.UserTweets(ctx, microblog.UserTweetsRequest{}); return err }, "username"},
		{"username bad", func() error {
			_, err := c.Profile(ctx, microblog.ProfileRequest{Username: "a b"})
			return err
		}, "username"},
		{"limit 21", func() error {
			_, err := c.UserTweets(ctx, microblog.UserTweetsRequest{Username: "x", Limit: 21})
			return err
		}, "limit"},
		{"limit 0", func() error {
			_, err := c.Search(ctx, microblog.SearchRequest{Query: "x", Limit: -1})
			return err
		}, "limit"},
		{"type", func() error {
			_, err := c.Search(ctx, microblog.SearchRequest{Query: "x", Type: "popular"})
			return err
		}, "type"},
		{"query", func() error { _, err := c.Search(ctx, microblog.SearchRequest{Query: "  "}); return err }, "query"},
		{"sort", func() error {
			_, err := c.Replies(ctx, microblog.RepliesRequest{TweetID: "1", Sort: "oldest"})
			return err
		}, "sort"},
		{"tweet_id", func() error { _, err := c.Tweet(ctx, microblog.TweetRequest{TweetID: "abc"}); return err }, "tweet_id"},
		{"format", func() error {
			_, err := c.Thread(ctx, microblog.ThreadRequest{TweetID: "1", Format: "html"})
			return err
		}, "format"},
		{"tweet_limit", func() error {
			_, err := c.ProfileInsights(ctx, microblog.ProfileInsightsRequest{Username: "x", TweetLimit: 101})
			return err
		}, "tweet_limit"},
		{"reply_limit", func() error {
			_, err := c.ConversationInsights(ctx, microblog.ConversationInsightsRequest{TweetID: "1", ReplyLimit: -1})
			return err
		}, "reply_limit"},
		{"brand", func() error { _, err := c.BrandMentions(ctx, microblog.BrandMentionsRequest{}); return err }, "brand"},
		{"empty keyword", func() error {
			_, err := c.BrandMentions(ctx, microblog.BrandMentionsRequest{Brand: "acme", Keywords: []string{"refund", " "}})
			return err
		}, "keywords"},
		// The query string's form given to the Go API (issue 22): the
		// doc once said "comma-separated" of this []string.
		{"comma in a keyword", func() error {
			_, err := c.BrandMentions(ctx, microblog.BrandMentionsRequest{Brand: "acme", Keywords: []string{"refund,support"}})
			return err
		}, "keywords"},
		{"comma in an exclusion", func() error {
			_, err := c.BrandMentions(ctx, microblog.BrandMentionsRequest{Brand: "acme", ExcludeKeywords: []string{"job,hiring"}})
			return err
		}, "exclude_keywords"},
		{"empty exclusion", func() error {
			_, err := c.BrandMentions(ctx, microblog.BrandMentionsRequest{Brand: "acme", ExcludeKeywords: []string{`""`}})
			return err
		}, "exclude_keywords"},
		// Each term is within its bound, but the search query they make
		// is over the providers' 512 characters.
		{"query too long", func() error {
			_, err := c.BrandMentions(ctx, microblog.BrandMentionsRequest{Brand: "acme", Keywords: slices.Repeat([]string{strings.Repeat("k", 40)}, 20)})
			return err
		}, "keywords"},
	}
	for _, tt := range tests {
		err := tt.call()
		var v *envelope.ValidationError
		if !errors.As(err, &v) || v.Issues[0].Field != tt.field {
			t.Errorf("%s: err = %v, want a validation error on %s", tt.name, err, tt.field)
		}
	}
}

func TestRepeatedCursorEndsPagination(t *testing.T) {
	p := providers(t)["twitterapi.io"]
	body := `{"tweets":[{"id":"5","text":"loop","createdAt":"Mon Mar 09 11:45:00 +0000 2026","author":{"id":"1","userName":"a"}}],"has_next_page":true,"next_cursor":"SAME"}`
	p.srv.Respond("/twitter/tweet/advanced_search", http.StatusOK, nil, body)
	l, err := p.c.Search(context.Background(), microblog.SearchRequest{Query: "loop", Cursor: "SAME"})
	if err != nil {
		t.Fatal(err)
	}
	if l.PageInfo.HasNextPage || l.ResultCount != 1 {
		t.Errorf("page_info %+v with %d tweets, want the end", l.PageInfo, l.ResultCount)
	}
}

func TestProfileInsightsAcrossPages(t *testing.T) {
	p := providers(t)["twitterapi.io"]
	pi, err := p.c.ProfileInsights(context.Background(), microblog.ProfileInsightsRequest{Username: "ana_dev", TweetLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	// Three fixture pages (the third empty), the one reply dropped.
	if len(pi.RecentTweets) != 4 || pi.Profile.FollowersCount != 5400 {
		t.Errorf("%d recent tweets, profile %+v", len(pi.RecentTweets), pi.Profile)
	}
	if n := len(p.srv.Requests()); n != 4 {
		t.Errorf("%d provider requests, want 4 (user info + 3 pages)", n)
	}
}

func TestThreadFromMiddleTweet(t *testing.T) {
	for name, p := range providers(t) {
		t.Run(name, func(t *testing.T) {
			th, err := p.c.Thread(context.Background(), microblog.ThreadRequest{TweetID: microblogtest.MiddleID})
			if err != nil {
				t.Fatal(err)
			}
			if th.ThreadLength != 4 || th.Tweets[0].ID != microblogtest.RootID {
				t.Errorf("thread of %d from %s, want 4 from the root", th.ThreadLength, th.Tweets[0].ID)
			}
		})
	}
}

// TestTwitterAPIIOResponseShapes: twitterapi.io documents its list pages
// at the top level ("tweets", or "replies" for thread_context and
// replies) and also answers them under "data"; every shape is read, on
// every list endpoint.
func TestTwitterAPIIOResponseShapes(t *testing.T) {
	tweet := func(id string) string {
		return `{"id":"` + id + `","text":"t` + id + `","createdAt":"2026-03-01T10:00:00Z","author":{"id":"7","userName":"ana_dev"},"conversationId":"` + microblogtest.RootID + `"}`
	}
	shapes := map[string]string{
		"top-level tweets":  `{"tweets":[` + tweet("11") + `,` + tweet("12") + `],"has_next_page":true,"next_cursor":"N","status":"success","message":""}`,
		"top-level replies": `{"replies":[` + tweet("11") + `,` + tweet("12") + `],"has_next_page":true,"next_cursor":"N","status":"success","message":""}`,
		"data tweets":       `{"status":"success","msg":"success","data":{"pin_tweet":null,"tweets":[` + tweet("11") + `,` + tweet("12") + `]},"has_next_page":true,"next_cursor":"N"}`,
		"data replies":      `{"status":"success","data":{"replies":[` + tweet("11") + `,` + tweet("12") + `],"has_next_page":true,"next_cursor":"N"}}`,
	}
	srv := replay(t, "twitterapi.io", key)
	p := must(microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: key, BaseURL: srv.URL}))
	ctx := context.Background()
	calls := map[string]func() (microblog.Page, error){
		"/twitter/tweet/thread_context": func() (microblog.Page, error) {
			return p.Conversation(ctx, microblog.PageQuery{TweetID: microblogtest.RootID, Limit: 20})
		},
		"/twitter/user/last_tweets": func() (microblog.Page, error) {
			return p.UserTweets(ctx, microblog.UserTweetsQuery{Username: "ana_dev", Limit: 20})
		},
		"/twitter/tweet/replies/v2": func() (microblog.Page, error) {
			return p.Replies(ctx, microblog.RepliesQuery{TweetID: microblogtest.RootID, Limit: 20})
		},
		"/twitter/tweet/advanced_search": func() (microblog.Page, error) {
			return p.Search(ctx, microblog.SearchQuery{Query: "x", Limit: 20})
		},
	}
	for path, call := range calls {
		for name, body := range shapes {
			srv.Respond(path, http.StatusOK, http.Header{"Content-Type": {"application/json"}}, body)
			page, err := call()
			if err != nil || len(page.Tweets) != 2 || page.Tweets[1].ID != "12" || !page.HasNext || page.NextCursor != "N" {
				t.Errorf("%s, %s: %+v, %v", path, name, page, err)
			}
		}
	}
}

// TestTwitterAPIIORateLimitInA200: twitterapi.io reports a rate limit in a
// 200 with "status":"error"; it is RATE_LIMIT_EXCEEDED with the wait the
// headers give, or the default without one.
func TestTwitterAPIIORateLimitInA200(t *testing.T) {
	p := providers(t)["twitterapi.io"]
	body := `{"status":"error","msg":"Too many requests: rate limit exceeded, please slow down"}`
	for _, tt := range []struct {
		header http.Header
		want   time.Duration
	}{
		{nil, upstream.DefaultRetryAfter},
		{http.Header{"Retry-After": {"7"}}, 7 * time.Second},
	} {
		p.srv.Respond("/twitter/tweet/advanced_search", http.StatusOK, tt.header, body)
		_, err := p.c.Search(context.Background(), microblog.SearchRequest{Query: "go"})
		if e := envelope.From(err); e == nil || e.Code != envelope.CodeRateLimitExceeded || e.RetryAfter != tt.want {
			t.Errorf("header %v: err = %v (%+v), want RATE_LIMIT_EXCEEDED with RetryAfter %v", tt.header, err, e, tt.want)
		}
	}
	p.srv.Respond("/twitter/user/info", http.StatusOK, nil, `{"status":"error","msg":"QPS limit reached"}`)
	_, err := p.c.Profile(context.Background(), microblog.ProfileRequest{Username: "ana_dev"})
	if e := envelope.From(err); e == nil || e.Code != envelope.CodeRateLimitExceeded {
		t.Errorf("profile: err = %v, want RATE_LIMIT_EXCEEDED", err)
	}
}

// TestRefusedCursorIsInvalidRequest: a cursor the provider refuses with a
// 400 naming it is the caller's error, 400 naming cursor; a 400 without a
// cursor stays UPSTREAM_ERROR.
func TestRefusedCursorIsInvalidRequest(t *testing.T) {
	bodies := map[string]string{
		"twitterapi.io": `{"status":"error","msg":"invalid cursor"}`,
		"x-api-v2":      `{"errors":[{"parameters":{"next_token":["NOPE"]},"message":"The ` + "`next_token`" + ` query parameter value [NOPE] is not valid"}],"title":"Invalid Request","detail":"One or more parameters to your request was invalid.","type":"https://api.twitter.com/2/problems/invalid-request"}`,
	}
	for name, p := range providers(t) {
		t.Run(name, func(t *testing.T) {
			path := map[string]string{"twitterapi.io": "/twitter/tweet/advanced_search", "x-api-v2": "/tweets/search/recent"}[name]
			p.srv.Respond(path, http.StatusBadRequest, nil, bodies[name])
			_, err := p.c.Search(context.Background(), microblog.SearchRequest{Query: "go", Cursor: "NOPE"})
			var v *envelope.ValidationError
			if !errors.As(err, &v) || v.Issues[0].Field != "cursor" {
				t.Errorf("err = %v, want a validation error on cursor", err)
			}
			_, err = p.c.Search(context.Background(), microblog.SearchRequest{Query: "go"})
			if e := envelope.From(err); e == nil || e.Code != envelope.CodeUpstreamError {
				t.Errorf("without a cursor: err = %v, want UPSTREAM_ERROR", err)
			}
		})
	}
}
