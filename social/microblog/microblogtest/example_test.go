package microblogtest_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
)

// StartTwitterAPIIO is NewTwitterAPIIO for a test: the server closes
// when the test ends. (This example only compiles: it needs the
// *testing.T of a test.)
func ExampleStartTwitterAPIIO() {
	testProfile := func(t *testing.T) {
		srv := microblogtest.StartTwitterAPIIO(t, "test-key")
		p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: "test-key", BaseURL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Profile(context.Background(), microblogtest.Username); err != nil {
			t.Error(err)
		}
	}
	_ = testProfile
}

func ExampleNewTwitterAPIIO() {
	srv, err := microblogtest.NewTwitterAPIIO("test-key")
	if err != nil {
		panic(err)
	}
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
	srv, err := microblogtest.NewXAPI("test-token")
	if err != nil {
		panic(err)
	}
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
	srv, err := microblogtest.NewTwitterAPIIO("test-key")
	if err != nil {
		panic(err)
	}
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
	srv, err := microblogtest.NewTwitterAPIIO("test-key")
	if err != nil {
		panic(err)
	}
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
