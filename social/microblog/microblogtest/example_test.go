package microblogtest_test

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
)

func ExampleNewTwitterAPIIO() {
	srv := microblogtest.NewTwitterAPIIO("test-key")
	defer srv.Close()
	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "test-key", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	prof, err := p.Profile(context.Background(), microblogtest.Username)
	if err != nil {
		panic(err)
	}
	fmt.Println(prof.ID == microblogtest.UserID, prof.DisplayName)
	fmt.Println(srv.Requests())
	// Output:
	// true Ana Torres
	// [/twitter/user/info?userName=ana_dev]
}

func ExampleNewXAPI() {
	srv := microblogtest.NewXAPI("test-token")
	defer srv.Close()
	p, err := microblog.NewXAPI(microblog.XAPIConfig{Token: "test-token", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	page, err := p.Search(context.Background(), microblog.SearchQuery{Query: "acme", Limit: 10})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(page.Tweets), "tweets")
	// Output:
	// 2 tweets
}

// Respond replays a provider's failure: here a rate limit with
// Retry-After.
func ExampleServer_Respond() {
	srv := microblogtest.NewTwitterAPIIO("test-key")
	defer srv.Close()
	srv.Respond("/twitter/user/info", http.StatusTooManyRequests, http.Header{"Retry-After": {"60"}}, `{"error":"Too Many Requests"}`)
	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "test-key", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	_, err = p.Profile(context.Background(), microblogtest.Username)
	e := envelope.From(err)
	fmt.Println(e.Code, e.RetryAfter)
	// Output:
	// RATE_LIMIT_EXCEEDED 1m0s
}

// Delay replays a provider that does not answer in time.
func ExampleServer_Delay() {
	srv := microblogtest.NewTwitterAPIIO("test-key")
	defer srv.Close()
	srv.Delay("/", time.Minute)
	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "test-key", BaseURL: srv.URL, Timeout: 50 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	_, err = p.Profile(context.Background(), microblogtest.Username)
	fmt.Println(envelope.From(err).Code)
	// Output:
	// UPSTREAM_TIMEOUT
}
