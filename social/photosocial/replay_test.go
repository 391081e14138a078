package photosocial_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/social/photosocial/photosocialtest"
)

const secret = "EAAG-DO-NOT-PRINT-4242"

// replay starts the loopback server of a provider ("graph" or "apify")
// that accepts token, closed when the test ends, and a Client over a
// provider of it configured with cred.
func replay(t testing.TB, provider, token, cred string) (*photosocialtest.Server, *photosocial.Client) {
	t.Helper()
	var srv *photosocialtest.Server
	var p photosocial.Provider
	var err error
	if provider == "graph" {
		srv = photosocialtest.NewGraph(token)
		p, err = photosocial.NewGraph(photosocial.GraphConfig{Token: cred, UserID: photosocialtest.GraphUserID, BaseURL: srv.URL + "/v21.0"})
	} else {
		srv = photosocialtest.NewApify(token)
		p, err = photosocial.NewApify(photosocial.ApifyConfig{Token: cred, BaseURL: srv.URL})
	}
	t.Cleanup(srv.Close)
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
			srv, c := replay(t, provider, secret, secret)
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
	gcfg := photosocial.GraphConfig{Token: secret, UserID: "1", BaseURL: "http://127.0.0.1:1"}
	acfg := photosocial.ApifyConfig{Token: secret, BaseURL: "http://127.0.0.1:1"}
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
			if out := fmt.Sprintf(verb, v); strings.Contains(out, secret) || strings.Contains(out, fmt.Sprintf("%x", secret)) {
				t.Errorf("fmt %s of %s shows the token: %s", verb, name, out)
			}
		}
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("config", "v", v)
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "v", v)
		if strings.Contains(buf.String(), secret) {
			t.Errorf("slog of %s shows the token: %s", name, buf.String())
		}
	}
	for _, provider := range []string{"graph", "apify"} {
		_, c := replay(t, provider, "the-right-token", secret)
		_, err := c.Profile(context.Background(), photosocial.ProfileRequest{Username: photosocialtest.Username})
		if err == nil || strings.Contains(fmt.Sprintf("%+v", err), secret) {
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
	if !errors.Is(err, llm.ErrInvalidConfig) {
		t.Errorf("negative model timeout: err = %v, want llm.ErrInvalidConfig", err)
	}
	if _, err := photosocial.New(photosocial.Config{}); err != nil {
		t.Errorf("zero Config: %v", err)
	}
}

// TestGraphReplayThrottled: the replay's throttled account answers code
// 80002 with X-Business-Use-Case-Usage; the wait it names is RetryAfter.
func TestGraphReplayThrottled(t *testing.T) {
	_, c := replay(t, "graph", secret, secret)
	_, err := c.Profile(context.Background(), photosocial.ProfileRequest{Username: photosocialtest.GraphThrottledUser})
	e := envelope.From(err)
	if e == nil || e.Code != envelope.CodeRateLimitExceeded || e.RetryAfter != photosocialtest.GraphRegainAccessMinutes*time.Minute {
		t.Fatalf("err = %v (%+v)", err, e)
	}
}
