package photosocial_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/upstream"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/social/photosocial/photosocialtest"
)

const credential = "EAAG-DO-NOT-PRINT-4242"

// replay starts the loopback server of a provider ("graph" or "apify")
// that accepts token, closed when the test ends, and a Client over a
// provider of it configured with cred.
func replay(t testing.TB, provider, token, cred string) (*photosocialtest.Server, *photosocial.Client) {
	t.Helper()
	var srv *photosocialtest.Server
	var p photosocial.Provider
	var err error
	if provider == "graph" {
		srv = photosocialtest.StartGraph(t, token)
		p, err = photosocial.NewGraph(photosocial.GraphConfig{Token: secret.String(cred), UserID: photosocialtest.GraphUserID, BaseURL: srv.URL})
	} else {
		srv = photosocialtest.StartApify(t, token)
		p, err = photosocial.NewApify(photosocial.ApifyConfig{Token: secret.String(cred), BaseURL: srv.URL})
	}
	if err != nil {
		t.Fatal(err)
	}
	c, err := photosocial.New(photosocial.Config{Provider: p, Now: func() time.Time { return time.Date(2025, 10, 21, 12, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// TestReplayServers runs the Client's data operations against both
// replay servers, as a user's own test would.
func TestReplayServers(t *testing.T) {
	ctx := context.Background()
	for _, provider := range []string{"graph", "apify"} {
		t.Run(provider, func(t *testing.T) {
			srv, c := replay(t, provider, credential, credential)
			prof, err := c.Profile(ctx, photosocial.ProfileRequest{Username: "@" + photosocialtest.Username})
			if err != nil || prof.Username != photosocialtest.Username || prof.FollowersCount == 0 {
				t.Fatalf("profile: %+v, %v", prof, err)
			}
			posts, err := c.Posts(ctx, photosocial.PostsRequest{Username: photosocialtest.Username, Limit: 3})
			if err != nil || posts.ResultCount != 3 || !posts.PageInfo.HasNextPage {
				t.Fatalf("posts: %+v, %v", posts, err)
			}
			next, err := c.Posts(ctx, photosocial.PostsRequest{Username: photosocialtest.Username, Limit: 3, Cursor: posts.PageInfo.NextCursor})
			if err != nil || next.ResultCount == 0 || next.Media[0].ID == posts.Media[0].ID {
				t.Fatalf("page 2: %+v, %v", next, err)
			}
			tags, err := c.HashtagSearch(ctx, photosocial.HashtagRequest{Hashtag: photosocialtest.Hashtag})
			if err != nil || tags.ResultCount == 0 {
				t.Fatalf("hashtag: %+v, %v", tags, err)
			}
			_, err = c.Profile(ctx, photosocial.ProfileRequest{Username: photosocialtest.MissingUser})
			if e := envelope.From(err); e == nil || e.Code != envelope.CodeNotFound {
				t.Fatalf("missing user: %v", err)
			}
			srv.Respond("/", http.StatusTooManyRequests, http.Header{"Retry-After": {"30"}}, `{}`)
			_, err = c.Profile(ctx, photosocial.ProfileRequest{Username: photosocialtest.Username})
			if e := envelope.From(err); e == nil || e.Code != envelope.CodeRateLimitExceeded || e.RetryAfter != 30*time.Second {
				t.Fatalf("rate limit: %v", err)
			}
			if n := len(srv.Requests()); n < 6 {
				t.Errorf("%d requests recorded", n)
			}
		})
	}
}

// TestCredentialsAreRedacted prints each provider's config and provider
// every way fmt, log/slog and encoding/json can, and provokes the errors
// a credential could travel in: none may show it.
func TestCredentialsAreRedacted(t *testing.T) {
	gcfg := photosocial.GraphConfig{Token: credential, UserID: "1", BaseURL: "http://127.0.0.1:1"}
	acfg := photosocial.ApifyConfig{Token: credential, BaseURL: "http://127.0.0.1:1"}
	g, err := photosocial.NewGraph(gcfg)
	if err != nil {
		t.Fatal(err)
	}
	a, err := photosocial.NewApify(acfg)
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]any{"GraphConfig": gcfg, "ApifyConfig": acfg, "*Graph": g, "*Apify": a, "Graph": *g, "[]any": []any{gcfg, acfg, g}}
	for name, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			if out := fmt.Sprintf(verb, v); strings.Contains(out, credential) || strings.Contains(out, fmt.Sprintf("%x", credential)) {
				t.Errorf("fmt %s of %s shows the token: %s", verb, name, out)
			}
		}
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("config", "v", v)
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "v", v)
		if strings.Contains(buf.String(), credential) {
			t.Errorf("slog of %s shows the token: %s", name, buf.String())
		}
	}
	for _, provider := range []string{"graph", "apify"} {
		_, c := replay(t, provider, "the-right-token", credential)
		_, err := c.Profile(context.Background(), photosocial.ProfileRequest{Username: photosocialtest.Username})
		if err == nil || strings.Contains(fmt.Sprintf("%+v", err), credential) {
			t.Errorf("%s: refused token gives %v", provider, err)
		}
	}
}

func TestConstructorsRefuseConfigsThatCannotWork(t *testing.T) {
	for name, err := range map[string]error{
		"graph without token":   second(photosocial.NewGraph(photosocial.GraphConfig{UserID: "1"})),
		"graph without user ID": second(photosocial.NewGraph(photosocial.GraphConfig{Token: "t"})),
		"apify without token":   second(photosocial.NewApify(photosocial.ApifyConfig{})),
		"apify timeout > 300s":  second(photosocial.NewApify(photosocial.ApifyConfig{Token: "t", Timeout: time.Hour})),
		"graph relative base":   second(photosocial.NewGraph(photosocial.GraphConfig{Token: "t", UserID: "1", BaseURL: "graph.example"})),
		"file without data":     second(photosocial.NewFile(photosocial.FileConfig{})),
	} {
		if !errors.Is(err, photosocial.ErrInvalidConfig) {
			t.Errorf("%s: err = %v, want ErrInvalidConfig", name, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestNewRefusesModelSettingsThatCannotWork(t *testing.T) {
	_, err := photosocial.New(photosocial.Config{Provider: photosocial.Sample(), LLM: llm.Config{Timeout: -time.Second}})
	// Both sentinels, as httpapi.New wraps both (issue 22: only llm's was).
	if !errors.Is(err, llm.ErrInvalidConfig) || !errors.Is(err, photosocial.ErrInvalidConfig) {
		t.Errorf("negative model timeout: err = %v, want llm.ErrInvalidConfig and photosocial.ErrInvalidConfig", err)
	}
	if _, err := photosocial.New(photosocial.Config{}); err != nil {
		t.Errorf("zero Config: %v", err)
	}
}

// TestGraphReplayThrottled: the replay's throttled account answers code
// 80002 with X-Business-Use-Case-Usage; the wait it names is RetryAfter.
func TestGraphReplayThrottled(t *testing.T) {
	_, c := replay(t, "graph", credential, credential)
	_, err := c.Profile(context.Background(), photosocial.ProfileRequest{Username: photosocialtest.GraphThrottledUser})
	e := envelope.From(err)
	if e == nil || e.Code != envelope.CodeRateLimitExceeded || e.RetryAfter != photosocialtest.GraphRegainAccessMinutes*time.Minute {
		t.Fatalf("err = %v (%+v)", err, e)
	}
}

// apifyReplay starts photosocialtest's Apify server and an Apify provider
// of it with cfg (Token and BaseURL are set here).
func apifyReplay(t *testing.T, cfg photosocial.ApifyConfig) (*photosocialtest.Server, *photosocial.Apify) {
	t.Helper()
	srv := photosocialtest.StartApify(t, credential)
	cfg.Token, cfg.BaseURL = credential, srv.URL
	a, err := photosocial.NewApify(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv, a
}

// apifyCalls counts the actor runs started (run-sync included), the polls
// and the dataset reads a replay server has served.
func apifyCalls(srv *photosocialtest.Server) (runs, polls, reads int) {
	for _, r := range srv.Requests() {
		path, _, _ := strings.Cut(r, "?")
		switch {
		case strings.HasSuffix(path, "/runs"), strings.HasSuffix(path, "/run-sync-get-dataset-items"):
			runs++
		case strings.HasPrefix(path, "/v2/actor-runs/"):
			polls++
		case strings.HasPrefix(path, "/v2/datasets/"):
			reads++
		}
	}
	return runs, polls, reads
}

// TestApifyReplayPagesOneRun reads every page of posts, comments and
// search: one actor run per query, one dataset read per page, every item
// once and in order.
func TestApifyReplayPagesOneRun(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		limit int
		pages func(c *photosocial.Client, cursor string) ([]string, string, error)
		want  int // items in all
	}{
		{"posts", 2, func(c *photosocial.Client, cursor string) ([]string, string, error) {
			l, err := c.Posts(ctx, photosocial.PostsRequest{Username: photosocialtest.Username, Limit: 2, Cursor: cursor})
			var ids []string
			for _, m := range l.Media {
				ids = append(ids, m.ID)
			}
			return ids, l.PageInfo.NextCursor, err
		}, 7},
		// 3 comments with 1 reply: a page of 3 ends inside the replies.
		{"comments", 3, func(c *photosocial.Client, cursor string) ([]string, string, error) {
			l, err := c.Comments(ctx, photosocial.CommentsRequest{Shortcode: photosocialtest.Shortcode, Limit: 3, Cursor: cursor})
			var ids []string
			for _, m := range l.Comments {
				ids = append(ids, m.ID)
			}
			return ids, l.PageInfo.NextCursor, err
		}, 4},
		{"search", 1, func(c *photosocial.Client, cursor string) ([]string, string, error) {
			l, err := c.Search(ctx, photosocial.SearchRequest{Query: "coffee", Type: "hashtag", Limit: 1, Cursor: cursor})
			var ids []string
			for _, r := range l.Results {
				ids = append(ids, r.Hashtag.Name)
			}
			return ids, l.PageInfo.NextCursor, err
		}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, a := apifyReplay(t, photosocial.ApifyConfig{})
			c, _ := photosocial.New(photosocial.Config{Provider: a})
			seen := map[string]bool{}
			cursor, pages := "", 0
			for {
				ids, next, err := tt.pages(c, cursor)
				if err != nil {
					t.Fatalf("page %d: %v", pages+1, err)
				}
				pages++
				for _, id := range ids {
					if seen[id] {
						t.Errorf("page %d repeats %s", pages, id)
					}
					seen[id] = true
				}
				if next == "" || pages > 10 {
					break
				}
				cursor = next
			}
			runs, _, reads := apifyCalls(srv)
			if len(seen) != tt.want || runs != 1 || reads != pages {
				t.Errorf("%d items in %d pages, %d runs, %d dataset reads; want %d items, 1 run, a read per page", len(seen), pages, runs, reads, tt.want)
			}
		})
	}
}

// TestApifyCursorTamper: a cursor is sealed (AES-GCM) and reads only the
// dataset and query it was issued for. Changing any byte of it, using it
// for another query, or with a provider keyed by another token, is
// INVALID_REQUEST naming cursor, before any request.
func TestApifyCursorTamper(t *testing.T) {
	ctx := context.Background()
	srv, a := apifyReplay(t, photosocial.ApifyConfig{})
	q := photosocial.UserMediaQuery{Username: photosocialtest.Username, Limit: 2}
	p1, err := a.UserMedia(ctx, q)
	if err != nil || p1.Next == "" {
		t.Fatalf("page 1: %+v, %v", p1, err)
	}
	// The cursor is sealed: the dataset it reads is not in it.
	if strings.Contains(p1.Next, "Dataset") || !strings.HasPrefix(p1.Next, "apify.") {
		t.Errorf("cursor %q shows its dataset or is not sealed", p1.Next)
	}
	flip := func(i int) string {
		b := []byte(p1.Next)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	other, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "another-token", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	before := len(srv.Requests())
	for name, use := range map[string]func() error{
		"a byte of the nonce": func() error { _, err := a.UserMedia(ctx, withCursor(q, flip(len("apify.")+2))); return err },
		"a byte of the data":  func() error { _, err := a.UserMedia(ctx, withCursor(q, flip(len(p1.Next)/2))); return err },
		"a byte of the tag":   func() error { _, err := a.UserMedia(ctx, withCursor(q, flip(len(p1.Next)-2))); return err },
		"cut short":           func() error { _, err := a.UserMedia(ctx, withCursor(q, p1.Next[:len(p1.Next)-1])); return err },
		"one more character":  func() error { _, err := a.UserMedia(ctx, withCursor(q, p1.Next+"A")); return err },
		"padded base64":       func() error { _, err := a.UserMedia(ctx, withCursor(q, p1.Next+"=")); return err },
		"the signed v1 form": func() error {
			_, err := a.UserMedia(ctx, withCursor(q, "apify:nwDataset00000001:2:0:AAAAAAAAAAAAAAAAAAAAAA"))
			return err
		},
		"old offset form": func() error { _, err := a.UserMedia(ctx, withCursor(q, "apify:2")); return err },
		"other account": func() error {
			_, err := a.UserMedia(ctx, photosocial.UserMediaQuery{Username: "someone.else", Limit: 2, Cursor: p1.Next})
			return err
		},
		"reels of it": func() error {
			_, err := a.UserMedia(ctx, photosocial.UserMediaQuery{Username: photosocialtest.Username, Limit: 2, Reels: true, Cursor: p1.Next})
			return err
		},
		"comments": func() error {
			_, err := a.Comments(ctx, photosocial.CommentsQuery{Media: photosocial.MediaRef{Shortcode: photosocialtest.Shortcode}, Limit: 2, Cursor: p1.Next})
			return err
		},
		"other token": func() error { _, err := other.UserMedia(ctx, withCursor(q, p1.Next)); return err },
	} {
		e := envelope.From(use())
		if e == nil || e.Code != envelope.CodeInvalidRequest || len(e.Details) == 0 || e.Details[0].Field != "cursor" {
			t.Errorf("%s: %v, want INVALID_REQUEST on cursor", name, e)
		}
	}
	if n := len(srv.Requests()); n != before {
		t.Errorf("refused cursors sent %d requests", n-before)
	}
	if p2, err := a.UserMedia(ctx, withCursor(q, p1.Next)); err != nil || len(p2.Media) != 2 {
		t.Errorf("the issued cursor: %+v, %v", p2, err)
	}
}

func withCursor(q photosocial.UserMediaQuery, c string) photosocial.UserMediaQuery {
	q.Cursor = c
	return q
}

// TestApifyRunEnds: a run that ends otherwise than SUCCEEDED is an error
// of its kind; a slow run is polled; a run that never ends is given up
// after a bounded number of polls.
func TestApifyRunEnds(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		hashtag string
		code    envelope.Code
		polls   int
	}{
		{photosocialtest.SlowRunHashtag, "", 1},
		{photosocialtest.FailedRunHashtag, envelope.CodeUpstreamError, 0},
		{photosocialtest.AbortedRunHashtag, envelope.CodeUpstreamError, 0},
		{photosocialtest.TimedOutRunHashtag, envelope.CodeUpstreamTimeout, 0},
	} {
		srv, a := apifyReplay(t, photosocial.ApifyConfig{})
		page, err := a.HashtagMedia(ctx, photosocial.HashtagQuery{Hashtag: tt.hashtag, Limit: 3})
		_, polls, reads := apifyCalls(srv)
		if e := envelope.From(err); (tt.code == "" && (err != nil || len(page.Media) != 3)) || (tt.code != "" && (e == nil || e.Code != tt.code)) {
			t.Errorf("#%s: %+v, %v; want code %q", tt.hashtag, page, err, tt.code)
		}
		if polls != tt.polls || (tt.code != "" && reads != 0) {
			t.Errorf("#%s: %d polls, %d reads", tt.hashtag, polls, reads)
		}
	}
	// An API whose run never ends: bounded polls, then UPSTREAM_TIMEOUT.
	srv, a := apifyReplay(t, photosocial.ApifyConfig{})
	srv.Respond("/v2/actor-runs/", http.StatusOK, nil, `{"data":{"id":"nwRun1","status":"RUNNING","defaultDatasetId":"nwDataset1"}}`)
	_, err := a.HashtagMedia(ctx, photosocial.HashtagQuery{Hashtag: photosocialtest.SlowRunHashtag, Limit: 3})
	if _, polls, _ := apifyCalls(srv); envelope.From(err) == nil || envelope.From(err).Code != envelope.CodeUpstreamTimeout || polls != 8 {
		t.Errorf("never-ending run: %v after %d polls", err, polls)
	}
	// A run that Apify no longer knows while it is polled.
	srv, a = apifyReplay(t, photosocial.ApifyConfig{})
	srv.Respond("/v2/actor-runs/", http.StatusNotFound, nil, `{"error":{"type":"record-not-found","message":"Actor run was not found"}}`)
	_, err = a.HashtagMedia(ctx, photosocial.HashtagQuery{Hashtag: photosocialtest.SlowRunHashtag, Limit: 3})
	if e := envelope.From(err); e == nil || e.Code != envelope.CodeUpstreamError || !strings.Contains(e.Message, "no longer knows the actor run") {
		t.Errorf("run gone while polled: %v", err)
	}
}

// TestApifyRunBounds: a run asks for RunItems items (or the page's limit
// when larger), charges at most that many (maxItems), and is given the
// provider's Timeout.
func TestApifyRunBounds(t *testing.T) {
	for _, tt := range []struct {
		cfg   photosocial.ApifyConfig
		limit int
		want  string
	}{
		{photosocial.ApifyConfig{}, 12, "maxItems=60&timeout=120&waitForFinish=60"},
		{photosocial.ApifyConfig{RunItems: 10, Timeout: 30 * time.Second}, 40, "maxItems=40&timeout=30&waitForFinish=30"},
	} {
		srv, a := apifyReplay(t, tt.cfg)
		if _, err := a.UserMedia(context.Background(), photosocial.UserMediaQuery{Username: photosocialtest.Username, Limit: tt.limit}); err != nil {
			t.Fatal(err)
		}
		if r := srv.Requests()[0]; !strings.HasSuffix(r, "/runs?"+tt.want) {
			t.Errorf("%+v: run %s, want query %s", tt.cfg, r, tt.want)
		}
	}
}

// TestApifyCommentsRunBound: a comments run asks for at most the 50
// comments a post the actor documents (its input schema: resultsLimit,
// "max 50 comments per post"), whatever RunItems and the page's limit
// (issue 22: it asked for 60).
func TestApifyCommentsRunBound(t *testing.T) {
	for _, tt := range []struct {
		cfg   photosocial.ApifyConfig
		limit int
		want  string
	}{
		{photosocial.ApifyConfig{}, 12, "maxItems=50&"},
		{photosocial.ApifyConfig{RunItems: 1000}, 100, "maxItems=50&"},
		{photosocial.ApifyConfig{RunItems: 10}, 20, "maxItems=20&"},
	} {
		srv, a := apifyReplay(t, tt.cfg)
		_, err := a.Comments(context.Background(), photosocial.CommentsQuery{Media: photosocial.MediaRef{Shortcode: photosocialtest.Shortcode}, Limit: tt.limit})
		if err != nil {
			t.Fatal(err)
		}
		if r := srv.Requests()[0]; !strings.Contains(r, "/runs?"+tt.want) {
			t.Errorf("%+v, limit %d: run %s, want %s", tt.cfg, tt.limit, r, tt.want)
		}
	}
}

// TestApifyFailures replays Apify's refusals and broken answers on the
// run and on the dataset.
func TestApifyFailures(t *testing.T) {
	ctx := context.Background()
	post := `{"id":"3471000000000000000","shortCode":"DAreBwfYYAA","type":"Image","ownerUsername":"northwind.coffee"}`
	for _, tt := range []struct {
		name   string
		prefix string
		status int
		header http.Header
		body   string
		cfg    photosocial.ApifyConfig
		code   envelope.Code
		check  func(*envelope.Error, photosocial.MediaPage) bool
	}{
		{name: "402 quota", prefix: "/v2/acts/", status: 402, body: `{"error":{"type":"not-enough-usage-to-run-paid-actor","message":"x"}}`,
			code: envelope.CodeUpstreamError, check: func(e *envelope.Error, _ photosocial.MediaPage) bool {
				return strings.Contains(e.Message, "no usage left")
			}},
		{name: "403", prefix: "/v2/datasets/", status: 403, body: `{"error":{"type":"insufficient-permissions","message":"x"}}`,
			code: envelope.CodeUpstreamError, check: func(e *envelope.Error, _ photosocial.MediaPage) bool {
				return strings.Contains(e.Message, "HTTP 403, insufficient-permissions")
			}},
		{name: "429 with Retry-After", prefix: "/v2/datasets/", status: 429, header: http.Header{"Retry-After": {"17"}}, body: `{"error":{"type":"rate-limit-exceeded","message":"x"}}`,
			code: envelope.CodeRateLimitExceeded, check: func(e *envelope.Error, _ photosocial.MediaPage) bool { return e.RetryAfter == 17*time.Second }},
		{name: "429 without Retry-After", prefix: "/v2/acts/", status: 429, body: `{"error":{"type":"rate-limit-exceeded","message":"x"}}`,
			code: envelope.CodeRateLimitExceeded, check: func(e *envelope.Error, _ photosocial.MediaPage) bool {
				return e.RetryAfter == upstream.DefaultRetryAfter
			}},
		{name: "oversized dataset page", cfg: photosocial.ApifyConfig{MaxResponseBytes: 2048},
			code: envelope.CodeUpstreamError, check: func(e *envelope.Error, _ photosocial.MediaPage) bool {
				return strings.Contains(e.Message, "exceeds 2048 bytes")
			}},
		{name: "dataset not an array", prefix: "/v2/datasets/", status: 200, body: `{"items":[]}`,
			code: envelope.CodeUpstreamError, check: func(e *envelope.Error, _ photosocial.MediaPage) bool {
				return strings.Contains(e.Message, "not the expected JSON")
			}},
		{name: "malformed items only", prefix: "/v2/datasets/", status: 200, body: `[{"id":5},{"shortCode":[]}]`,
			code: envelope.CodeUpstreamError, check: func(e *envelope.Error, _ photosocial.MediaPage) bool {
				return strings.Contains(e.Message, "2 item(s) of an unexpected shape")
			}},
		{name: "a malformed item", prefix: "/v2/datasets/", status: 200, body: `[{"id":5},` + post + `,{}]`,
			check: func(_ *envelope.Error, p photosocial.MediaPage) bool {
				return len(p.Media) == 1 && len(p.Notes) == 1 && strings.Contains(p.Notes[0], "1 item(s) of an unexpected shape")
			}},
		{name: "run without dataset", prefix: "/v2/acts/", status: 201, body: `{"data":{"id":"nwRun1","status":"SUCCEEDED","defaultDatasetId":"../x"}}`,
			code: envelope.CodeUpstreamError, check: func(e *envelope.Error, _ photosocial.MediaPage) bool {
				return strings.Contains(e.Message, "defaultDatasetId")
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, a := apifyReplay(t, tt.cfg)
			if tt.prefix != "" {
				srv.Respond(tt.prefix, tt.status, tt.header, tt.body)
			}
			page, err := a.UserMedia(ctx, photosocial.UserMediaQuery{Username: photosocialtest.Username, Limit: 12})
			e := envelope.From(err)
			if (tt.code == "") != (e == nil) || (e != nil && e.Code != tt.code) || !tt.check(e, page) {
				t.Errorf("%+v, %v; want code %q", page, err, tt.code)
			}
		})
	}
}

// TestApifyExpiredDatasetLogged: comments have no notes, so the re-run of
// an expired dataset is logged.
func TestApifyExpiredDatasetLogged(t *testing.T) {
	var buf bytes.Buffer
	srv, a := apifyReplay(t, photosocial.ApifyConfig{Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	q := photosocial.CommentsQuery{Media: photosocial.MediaRef{Shortcode: photosocialtest.Shortcode}, Limit: 2}
	p1, err := a.Comments(context.Background(), q)
	if err != nil || p1.Next == "" {
		t.Fatalf("page 1: %+v, %v", p1, err)
	}
	srv.ExpireDatasets()
	q.Cursor = p1.Next
	p2, err := a.Comments(context.Background(), q)
	runs, _, _ := apifyCalls(srv)
	if err != nil || len(p2.Comments) != 2 || runs != 2 || !strings.Contains(buf.String(), "had expired") || strings.Contains(buf.String(), credential) {
		t.Errorf("page 2: %+v, %v; %d runs; log %q", p2, err, runs, buf.String())
	}
}

// TestGraphReplayThumbnails: business discovery asks for thumbnail_url,
// Public since v18.0, so reels and videos have their thumbnail (issue
// 22); a version that refuses it (v14.0) is asked again without it, and
// the page says so. The replay server follows the fixtures' version,
// which is the provider's default.
func TestGraphReplayThumbnails(t *testing.T) {
	if photosocialtest.GraphAPIVersion != photosocial.DefaultGraphAPIVersion {
		t.Errorf("the fixtures follow %s, the provider asks for %s", photosocialtest.GraphAPIVersion, photosocial.DefaultGraphAPIVersion)
	}
	ctx := context.Background()
	for _, tt := range []struct {
		version    string
		requests   int
		thumbnails bool
	}{
		{"", 1, true},
		{"v18.0", 1, true},
		{"v14.0", 2, false},
	} {
		srv := photosocialtest.StartGraph(t, credential)
		g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: credential, UserID: photosocialtest.GraphUserID, BaseURL: srv.URL, APIVersion: tt.version})
		if err != nil {
			t.Fatal(err)
		}
		page, err := g.UserMedia(ctx, photosocial.UserMediaQuery{Username: photosocialtest.Username, Limit: 3})
		if err != nil {
			t.Fatalf("%q: %v", tt.version, err)
		}
		reqs := srv.Requests()
		want := "/" + cmp.Or(tt.version, photosocial.DefaultGraphAPIVersion) + "/" + photosocialtest.GraphUserID + "?"
		if len(reqs) != tt.requests || !strings.HasPrefix(reqs[0], want) || !strings.Contains(reqs[0], "thumbnail_url") {
			t.Errorf("%q: requests %q, want %d starting %s asking thumbnail_url", tt.version, reqs, tt.requests, want)
		}
		reel := page.Media[1]
		if got := reel.Type == photosocial.TypeReel && reel.ThumbnailURL != "" && reel.DisplayURL == reel.ThumbnailURL; got != tt.thumbnails {
			t.Errorf("%q: reel %+v; thumbnail wanted: %v", tt.version, reel, tt.thumbnails)
		}
		if noted := len(page.Notes) == 1 && strings.Contains(page.Notes[0], "thumbnail_url"); noted == tt.thumbnails {
			t.Errorf("%q: notes %q", tt.version, page.Notes)
		}
	}
}

// TestGraphVersionSetting: the version is APIVersion, never a suffix of
// BaseURL, and it must read as a Graph API version.
func TestGraphVersionSetting(t *testing.T) {
	for _, cfg := range []photosocial.GraphConfig{
		{BaseURL: "https://graph.facebook.com/v21.0"},
		{BaseURL: "https://graph.facebook.com/v21.0/"},
		{APIVersion: "25.0"},
		{APIVersion: "v25"},
		{APIVersion: "v25.0/../x"},
	} {
		cfg.Token, cfg.UserID = "t", "1"
		if _, err := photosocial.NewGraph(cfg); !errors.Is(err, photosocial.ErrInvalidConfig) {
			t.Errorf("%+v: err = %v, want ErrInvalidConfig", cfg, err)
		}
	}
}
