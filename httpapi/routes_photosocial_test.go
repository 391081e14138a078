package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/social/photosocial/photosocialtest"
)

// apifyReplay is photosocialtest's loopback Apify server and a provider
// of it.
func apifyReplay(t *testing.T) (*photosocialtest.Server, photosocial.Provider) {
	t.Helper()
	srv := photosocialtest.StartApify(t, "apify-secret")
	p, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "apify-secret", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	return srv, p
}

// callJSON sends body, when given, as JSON, and checks that the
// provider's token never reaches the client.
func callJSON(t *testing.T, h http.Handler, method, target, body string) (*http.Response, envelopeBody) {
	t.Helper()
	var rd io.Reader
	ct := ""
	if body != "" {
		rd, ct = strings.NewReader(body), "application/json"
	}
	resp, env := send(t, h, method, target, ct, rd)
	if b, _ := json.Marshal(env); strings.Contains(string(b), "apify-secret") {
		t.Fatalf("%s %s: the provider token leaked: %s", method, target, b)
	}
	return resp, env
}

func TestPhotosocialDataRoutes(t *testing.T) {
	_, p := apifyReplay(t)
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Photosocial: photosocialT(t, p, llm.Config{})})
	tests := []struct {
		target string
		status int
		check  string // a fragment the data or error must contain
	}{
		{"/v1/photosocial/profile?username=@northwind.coffee", 200, `"followers_count":267793`},
		{"/v1/photosocial/posts?username=northwind.coffee&limit=4", 200, `"next_cursor":"apify.`},
		{"/v1/photosocial/posts?username=northwind.coffee&limit=4&cursor=apify:4", 400, `cursor`},
		{"/v1/photosocial/posts?username=quiet.person", 200, `"notes":["no public media`},
		{"/v1/photosocial/posts?username=northwind.coffee&limit=101", 400, `INVALID_REQUEST`},
		{"/v1/photosocial/reels?username=northwind.coffee", 200, `"type":"reel"`},
		{"/v1/photosocial/media?shortcode=DAreBwfYYAA", 200, `"shortcode":"DAreBwfYYAA"`},
		{"/v1/photosocial/media", 400, `shortcode: is required when media_id is not given`},
		{"/v1/photosocial/comments?shortcode=DAreBwfYYAA&limit=2", 200, `"result_count":2`},
		{"/v1/photosocial/hashtag/search?hashtag=%23coffee&limit=3", 200, `"result_count":3`},
		{"/v1/photosocial/search?query=northwind", 200, `"type":"profile"`},
		{"/v1/photosocial/search?query=coffee&type=hashtag", 200, `"media_count":183920431`},
		{"/v1/photosocial/search?query=paris&type=place", 400, `does not support place search`},
		{"/v1/photosocial/search?query=x&bogus=1", 400, `bogus`},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			res, env := callJSON(t, h, http.MethodGet, tt.target, "")
			if res.StatusCode != tt.status || env.Success != (tt.status == 200) {
				t.Fatalf("status %d success %v, want %d: %+v", res.StatusCode, env.Success, tt.status, env.Error)
			}
			text := string(env.Data)
			if env.Error != nil {
				text = env.Error.Code + " " + env.Error.Message
			}
			if !strings.Contains(text, tt.check) {
				t.Errorf("response %s does not contain %s", text, tt.check)
			}
			if tt.status == 200 && !strings.Contains(text, `"source":"apify"`) {
				t.Errorf("no source in %s", text)
			}
		})
	}
}

// TestPhotosocialApifyPaging pages posts through the route: one actor
// run for all pages, a dataset read per page, and a cursor that cannot be
// turned to another dataset or account (issue 14).
func TestPhotosocialApifyPaging(t *testing.T) {
	srv, p := apifyReplay(t)
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Photosocial: photosocialT(t, p, llm.Config{})})
	var ids []string
	cursor, pages := "", 0
	for pages < 10 {
		res, env := callJSON(t, h, http.MethodGet, "/v1/photosocial/posts?username=northwind.coffee&limit=2&cursor="+url.QueryEscape(cursor), "")
		var l photosocial.MediaList
		if res.StatusCode != 200 || json.Unmarshal(env.Data, &l) != nil {
			t.Fatalf("page %d: %d %+v", pages+1, res.StatusCode, env.Error)
		}
		pages++
		for _, m := range l.Media {
			ids = append(ids, m.ID)
		}
		if cursor = l.PageInfo.NextCursor; cursor == "" {
			break
		}
		if pages == 1 {
			// The first page's cursor, changed by one character, or
			// turned to another account. It does not show its dataset.
			if strings.Contains(cursor, "nwDataset") {
				t.Errorf("cursor %q shows its dataset", cursor)
			}
			b := []byte(cursor)
			b[len(b)/2] ^= 1
			forged := string(b)
			for _, target := range []string{
				"/v1/photosocial/posts?username=northwind.coffee&limit=2&cursor=" + url.QueryEscape(forged),
				"/v1/photosocial/posts?username=someone.else&limit=2&cursor=" + url.QueryEscape(cursor),
			} {
				res, env := callJSON(t, h, http.MethodGet, target, "")
				if res.StatusCode != 400 || env.Error == nil || !strings.Contains(env.Error.Message+fmt.Sprint(env.Error.Details), "cursor") {
					t.Errorf("%s: %d %+v, want 400 on cursor", target, res.StatusCode, env.Error)
				}
			}
		}
	}
	runs, reads := 0, 0
	for _, r := range srv.Requests() {
		switch path, _, _ := strings.Cut(r, "?"); {
		case strings.HasSuffix(path, "/runs"):
			runs++
		case strings.HasPrefix(path, "/v2/datasets/"):
			reads++
		}
	}
	if len(ids) != 7 || pages != 4 || runs != 1 || reads != 4 {
		t.Errorf("%d media in %d pages, %d runs, %d dataset reads; want 7 in 4 pages, 1 run, 4 reads", len(ids), pages, runs, reads)
	}
}

// TestPhotosocialApifyRateLimit: Apify's 429 is 429 with Retry-After,
// Apify's when it sends one, the documented default (60 s) when not.
func TestPhotosocialApifyRateLimit(t *testing.T) {
	for _, tt := range []struct {
		header http.Header
		want   string
	}{
		{http.Header{"Retry-After": {"30"}}, "30"},
		{nil, "60"},
	} {
		srv, p := apifyReplay(t)
		h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Photosocial: photosocialT(t, p, llm.Config{})})
		srv.Respond("/v2/", http.StatusTooManyRequests, tt.header, `{"error":{"type":"rate-limit-exceeded","message":"You have exceeded the rate limit of 60 requests per second"}}`)
		res, env := callJSON(t, h, http.MethodGet, "/v1/photosocial/posts?username=northwind.coffee", "")
		if res.StatusCode != 429 || res.Header.Get("Retry-After") != tt.want || env.Error == nil || env.Error.Code != "RATE_LIMIT_EXCEEDED" {
			t.Errorf("Retry-After %v: %d, Retry-After %q, %+v; want 429 with %s", tt.header, res.StatusCode, res.Header.Get("Retry-After"), env.Error, tt.want)
		}
	}
}

func TestPhotosocialNotConfigured(t *testing.T) {
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})
	res, env := callJSON(t, h, http.MethodGet, "/v1/photosocial/profile?username=x", "")
	if res.StatusCode != 503 || !strings.Contains(env.Error.Message, "configure a data provider") {
		t.Errorf("status %d, error %+v", res.StatusCode, env.Error)
	}
	h = mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Photosocial: photosocialT(t, photosocial.Sample(), llm.Config{})})
	res, env = callJSON(t, h, http.MethodPost, "/v1/photosocial/ai/profile-insights", `{"username":"sample.bakery"}`)
	if res.StatusCode != 503 || !strings.Contains(env.Error.Message, "language model") {
		t.Errorf("no model: status %d, error %+v", res.StatusCode, env.Error)
	}
}

func TestPhotosocialAIRoutes(t *testing.T) {
	prov := photosocial.Sample()
	c, err := photosocial.New(photosocial.Config{Provider: prov})
	if err != nil {
		t.Fatal(err)
	}
	posts, _ := c.Posts(t.Context(), photosocial.PostsRequest{Username: "sample.bakery", Limit: 12})
	var car photosocial.Media
	for _, m := range posts.Media {
		if m.Type == photosocial.TypeCarousel && m.CommentCount > 100 {
			car = m
		}
	}
	id := posts.Media[0].ID
	srv := llmtest.Start(t, llmtest.OpenAI,
		llmtest.Reply{Content: `{"content_themes":[{"name":"Bread","description":"","evidence_ids":["` + id + `"]}],"posting_summary":"steady","engagement_drivers":[],"strengths":[],"opportunities":[],"evidence":[{"id":"` + id + `","reason":"r"},{"id":"ghost","reason":"r"}],"confidence":0.6,"limitations":[]}`, PromptTokens: 800, CompletionTokens: 60},
		llmtest.Reply{Content: `{"sentiment_summary":"warm","recurring_topics":[],"objections":[],"moderation_flags":[],"evidence":[],"confidence":0.5,"limitations":[]}`, PromptTokens: 500, CompletionTokens: 30},
	)
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Photosocial: photosocialT(t, prov, llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"})})
	res, env := callJSON(t, h, http.MethodPost, "/v1/photosocial/ai/profile-insights", `{"username":"@sample.bakery","media_limit":12,"analysis_goal":"grow"}`)
	if res.StatusCode != 200 || env.Meta["model"] != "gpt-4o-mini" || env.Meta["prompt_tokens"] != float64(800) || env.Meta["request_id"] == nil {
		t.Fatalf("profile insights: %d %+v %+v", res.StatusCode, env.Meta, env.Error)
	}
	if d := string(env.Data); !strings.Contains(d, `"confidence":0.6`) || !strings.Contains(d, "ghost") || !strings.Contains(d, `"content_themes"`) {
		t.Errorf("profile insights data: %s", d)
	}
	res, env = callJSON(t, h, http.MethodPost, "/v1/photosocial/ai/comment-insights", `{"shortcode":"`+car.Shortcode+`","comment_limit":20}`)
	if res.StatusCode != 200 || env.Meta["completion_tokens"] != float64(30) {
		t.Fatalf("comment insights: %d %+v %+v", res.StatusCode, env.Meta, env.Error)
	}
	if d := string(env.Data); !strings.Contains(d, `"moderation_flags":[{`) || !strings.Contains(d, `"questions":[{`) {
		t.Errorf("comment insights data: %s", d)
	}
	res, env = callJSON(t, h, http.MethodPost, "/v1/photosocial/ai/comment-insights", `{"shortcode":"x","extra":1}`)
	if res.StatusCode != 400 || env.Error.Code != "INVALID_REQUEST" {
		t.Errorf("unknown field: %d %+v", res.StatusCode, env.Error)
	}
}

func TestPhotosocialOpenAPI(t *testing.T) {
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for path, method := range map[string]string{
		"/v1/photosocial/profile": "get", "/v1/photosocial/posts": "get", "/v1/photosocial/reels": "get",
		"/v1/photosocial/media": "get", "/v1/photosocial/comments": "get", "/v1/photosocial/hashtag/search": "get",
		"/v1/photosocial/search": "get", "/v1/photosocial/ai/profile-insights": "post", "/v1/photosocial/ai/comment-insights": "post",
	} {
		if _, ok := doc.Paths[path][method]; !ok {
			t.Errorf("OpenAPI lacks %s %s", method, path)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc.Paths["/v1/photosocial/profile"]["get"])), ""), `"required":true`) {
		t.Errorf("username is not required in the OpenAPI document")
	}
	for _, name := range []string{"photosocial.Profile", "photosocial.Media", "photosocial.Comment", "photosocial.SearchResult", "photosocial.ProfileInsights", "photosocial.CommentInsights"} {
		if _, ok := doc.Components.Schemas[name]; !ok {
			t.Errorf("OpenAPI lacks the schema %s", name)
		}
	}
}

// TestPhotosocialGraphRoutes replays Graph API fixtures: business
// discovery with pagination, a hidden video file, unknown accounts, rate
// limits in the error body, and the operations the Graph API cannot serve.
func TestPhotosocialGraphRoutes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fields := r.URL.Query().Get("fields")
		name, status := "profile.json", 200
		switch {
		case strings.Contains(fields, "username(somebody.private)"):
			name, status = "error_user_not_found.json", 400
		case strings.Contains(fields, "username(busy.account)"):
			name, status = "error_rate_limit.json", 400
		case strings.Contains(fields, "media.after("):
			name = "media_page2.json"
		case strings.Contains(fields, "media.limit("):
			name = "media_page1.json"
		}
		b, err := os.ReadFile("../social/photosocial/photosocialtest/fixtures/graph/" + name)
		if err != nil {
			t.Error(err)
		}
		w.WriteHeader(status)
		w.Write(b)
	}))
	defer srv.Close()
	g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "apify-secret", UserID: "17841405309211844", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Photosocial: photosocialT(t, g, llm.Config{})})
	for _, tt := range []struct {
		target string
		status int
		check  string
	}{
		{"/v1/photosocial/profile?username=northwind.coffee", 200, `"source":"instagram_graph"`},
		{"/v1/photosocial/posts?username=northwind.coffee&limit=3", 200, `"video_url":"","children":[]`},
		{"/v1/photosocial/posts?username=northwind.coffee&limit=3&cursor=QVFIUkNhbmV4dF9wYWdlX2N1cnNvcg", 200, `"type":"carousel"`},
		{"/v1/photosocial/profile?username=somebody.private", 404, `business and creator accounts`},
		{"/v1/photosocial/profile?username=busy.account", 429, `RATE_LIMIT_EXCEEDED`},
		{"/v1/photosocial/comments?shortcode=C-9V5IU6efX", 503, `other accounts' media`},
		{"/v1/photosocial/media?shortcode=C-9V5IU6efX", 503, `media_id`},
	} {
		res, env := callJSON(t, h, http.MethodGet, tt.target, "")
		text := string(env.Data)
		if env.Error != nil {
			text = env.Error.Code + " " + env.Error.Message
		}
		if res.StatusCode != tt.status || !strings.Contains(text, tt.check) {
			t.Errorf("%s: %d %s; want %d with %s", tt.target, res.StatusCode, text, tt.status, tt.check)
		}
	}
}

// TestPhotosocialGraphConformance replays the Graph API as it answers
// (issues 14 and 22) through the HTTP routes: business discovery serves
// thumbnail_url, a Public field since v18.0, so a reel has its thumbnail;
// a code-100 refusal of an optional field is asked again without it and
// noted, and throttling is 429 with the Retry-After of
// X-Business-Use-Case-Usage.
func TestPhotosocialGraphConformance(t *testing.T) {
	srv := photosocialtest.StartGraph(t, "graph-secret")
	g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "graph-secret", UserID: photosocialtest.GraphUserID, BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Photosocial: photosocialT(t, g, llm.Config{})})

	res, env := callJSON(t, h, http.MethodGet, "/v1/photosocial/posts?username="+photosocialtest.Username+"&limit=3", "")
	if res.StatusCode != 200 || !strings.Contains(string(env.Data), `"source":"instagram_graph"`) {
		t.Errorf("posts: %d %s %+v", res.StatusCode, env.Data, env.Error)
	}
	var posts struct {
		Media []struct {
			Type         string `json:"type"`
			ThumbnailURL string `json:"thumbnail_url"`
		} `json:"media"`
	}
	if err := json.Unmarshal(env.Data, &posts); err != nil || len(posts.Media) != 3 || posts.Media[1].Type != "reel" || posts.Media[1].ThumbnailURL == "" {
		t.Errorf("posts: the reel has no thumbnail: %s, %v", env.Data, err)
	}

	res, env = callJSON(t, h, http.MethodGet, "/v1/photosocial/profile?username="+photosocialtest.GraphThrottledUser, "")
	if want := "420"; res.StatusCode != 429 || res.Header.Get("Retry-After") != want || env.Error == nil || env.Error.Code != "RATE_LIMIT_EXCEEDED" {
		t.Errorf("throttled: %d Retry-After %q %+v; want 429 with Retry-After %s", res.StatusCode, res.Header.Get("Retry-After"), env.Error, want)
	}

	// A Graph API that refuses the optional fields too.
	strict := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, status := "media_page1.json", 200
		if f := r.URL.Query().Get("fields"); strings.Contains(f, "children") || strings.Contains(f, "thumbnail_url") {
			name, status = "error_unsupported_field.json", 400
		}
		b, err := os.ReadFile("../social/photosocial/photosocialtest/fixtures/graph/" + name)
		if err != nil {
			t.Error(err)
		}
		w.WriteHeader(status)
		w.Write(b)
	}))
	t.Cleanup(strict.Close)
	g, err = photosocial.NewGraph(photosocial.GraphConfig{Token: "graph-secret", UserID: photosocialtest.GraphUserID, BaseURL: strict.URL})
	if err != nil {
		t.Fatal(err)
	}
	h = mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Photosocial: photosocialT(t, g, llm.Config{})})
	res, env = callJSON(t, h, http.MethodGet, "/v1/photosocial/posts?username="+photosocialtest.Username+"&limit=2", "")
	if res.StatusCode != 200 || !strings.Contains(string(env.Data), "refused optional media fields") {
		t.Errorf("field refusal: %d %s %+v", res.StatusCode, env.Data, env.Error)
	}
}
