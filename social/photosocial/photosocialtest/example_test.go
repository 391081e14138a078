package photosocialtest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/social/photosocial/photosocialtest"
)

// StartGraph is NewGraph for a test: the server closes when the test
// ends. (This example only compiles: it needs the *testing.T of a test.)
func ExampleStartGraph() {
	testPosts := func(t *testing.T) {
		srv := photosocialtest.StartGraph(t, "test-token")
		g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "test-token", UserID: photosocialtest.GraphUserID, BaseURL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		c, err := photosocial.New(photosocial.Config{Provider: g})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Posts(context.Background(), photosocial.PostsRequest{Username: photosocialtest.Username, Limit: 2}); err != nil {
			t.Error(err)
		}
	}
	_ = testPosts
}

func ExampleNewGraph() {
	srv, err := photosocialtest.NewGraph("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "test-token", UserID: photosocialtest.GraphUserID, BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	c, err := photosocial.New(photosocial.Config{Provider: g})
	if err != nil {
		panic(err)
	}
	l, err := c.Posts(context.Background(), photosocial.PostsRequest{Username: photosocialtest.Username, Limit: 2})
	if err != nil {
		panic(err)
	}
	for _, m := range l.Media {
		fmt.Println(m.ID, m.Type)
	}
	_, err = c.Profile(context.Background(), photosocial.ProfileRequest{Username: photosocialtest.MissingUser})
	fmt.Println(envelope.From(err).Code)
	// Output:
	// 18027939643004123 image
	// 18031122334455667 reel
	// NOT_FOUND
}

func ExampleNewApify() {
	srv, err := photosocialtest.NewApify("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	a, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "test-token", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	c, err := photosocial.New(photosocial.Config{Provider: a})
	if err != nil {
		panic(err)
	}
	l, err := c.Posts(context.Background(), photosocial.PostsRequest{Username: photosocialtest.PrivateUser})
	if err != nil {
		panic(err)
	}
	fmt.Println(l.ResultCount, l.Notes)
	for _, r := range srv.Requests() {
		path, _, _ := strings.Cut(r, "?")
		fmt.Println(path)
	}
	// Output:
	// 0 [no public media: the account is private or has not posted]
	// /v2/acts/apify~instagram-scraper/runs
	// /v2/datasets/nwDataset00000001/items
}

// ExpireDatasets replays the deletion of a run's dataset: the next page
// runs the actor again, and says so.
func ExampleServer_ExpireDatasets() {
	srv, err := photosocialtest.NewApify("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	a, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "test-token", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	c, err := photosocial.New(photosocial.Config{Provider: a})
	if err != nil {
		panic(err)
	}
	p1, err := c.Posts(context.Background(), photosocial.PostsRequest{Username: photosocialtest.Username, Limit: 4})
	if err != nil {
		panic(err)
	}
	srv.ExpireDatasets()
	p2, err := c.Posts(context.Background(), photosocial.PostsRequest{Username: photosocialtest.Username, Limit: 4, Cursor: p1.PageInfo.NextCursor})
	if err != nil {
		panic(err)
	}
	fmt.Println(p1.ResultCount, p2.ResultCount, p2.Notes)
	for _, r := range srv.Requests() {
		path, _, _ := strings.Cut(r, "?")
		fmt.Println(path)
	}
	// Output:
	// 4 3 [the Apify dataset of this query had expired: the actor ran again, so this page may repeat or miss items]
	// /v2/acts/apify~instagram-scraper/runs
	// /v2/datasets/nwDataset00000001/items
	// /v2/datasets/nwDataset00000001/items
	// /v2/acts/apify~instagram-scraper/runs
	// /v2/datasets/nwDataset00000002/items
}

// Respond replays a provider's failure: here a rate limit with
// Retry-After.
func ExampleServer_Respond() {
	srv, err := photosocialtest.NewApify("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	srv.Respond("/v2/acts/", http.StatusTooManyRequests, http.Header{"Retry-After": {"20"}}, `{"error":{"type":"rate-limit-exceeded"}}`)
	a, err := photosocial.NewApify(photosocial.ApifyConfig{Token: "test-token", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	_, err = a.Profile(context.Background(), photosocialtest.Username)
	e := envelope.From(err)
	fmt.Println(e.Code, e.RetryAfter)
	// Output:
	// RATE_LIMIT_EXCEEDED 20s
}

// Delay replays a provider that does not answer in time.
func ExampleServer_Delay() {
	srv, err := photosocialtest.NewGraph("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	srv.Delay("/", time.Minute)
	g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "test-token", UserID: photosocialtest.GraphUserID, BaseURL: srv.URL, Timeout: 50 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	_, err = g.Profile(context.Background(), photosocialtest.Username)
	fmt.Println(envelope.From(err).Code)
	// Output:
	// UPSTREAM_TIMEOUT
}

// Requests shows what a provider was asked: here, that business discovery
// is asked once per page of posts.
func ExampleServer_Requests() {
	srv, err := photosocialtest.NewGraph("test-token")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "test-token", UserID: photosocialtest.GraphUserID, BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	if _, err := g.UserMedia(context.Background(), photosocial.UserMediaQuery{Username: photosocialtest.Username, Limit: 12}); err != nil {
		panic(err)
	}
	for _, r := range srv.Requests() {
		path, query, _ := strings.Cut(r, "?")
		q, _ := url.ParseQuery(query)
		fmt.Println(path, q.Get("fields"))
	}
	// Output:
	// /v25.0/17841405309211844 business_discovery.username(northwind.coffee){id,media.limit(12){id,caption,comments_count,like_count,media_type,media_product_type,media_url,permalink,timestamp,thumbnail_url,username,children{id,media_type,media_url,thumbnail_url}}}
}
