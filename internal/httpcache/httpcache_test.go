package httpcache_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/quiverkit/quiver/internal/httpcache"
	"github.com/quiverkit/quiver/internal/redistest"
)

// healthyTimeout is the Redis timeout of the tests that do not test it.
const healthyTimeout = 10 * time.Second

// upstream is a provider whose every answer is numbered.
type upstream struct {
	*httptest.Server
	calls atomic.Int64
}

func newUpstream(t *testing.T) *upstream {
	u := &upstream{}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := u.calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/missing":
			http.Error(w, "no such user", http.StatusNotFound)
			return
		case "/big":
			w.Write([]byte(strings.Repeat("x", 2000)))
			return
		case "/large":
			fmt.Fprintf(w, `{"answer":%d,"items":%q}`, n, strings.Repeat("x", 3<<20))
			return
		case "/failing":
			// twitterapi.io's way: a 200 reporting an error.
			fmt.Fprintf(w, `{"status":"error","msg":"rate limited %d"}`, n)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"answer":%d,"auth":%q,"body":%q}`, n, r.Header.Get("Authorization"), body)
	}))
	t.Cleanup(u.Close)
	return u
}

// client is one instance's client of u, caching in the shared Redis.
func client(t *testing.T, u *upstream, redisAddr string, cfg httpcache.Config) *http.Client {
	return checkedClient(t, u, redisAddr, cfg, nil)
}

// checkedClient is client with a check of the answers it caches.
func checkedClient(t *testing.T, u *upstream, redisAddr string, cfg httpcache.Config, cacheable func([]byte) bool) *http.Client {
	if cfg.Timeout == 0 {
		// Only the tests of a hung Redis measure the timeout; for the
		// others, a busy machine's scheduling must not make a miss.
		cfg.Timeout = healthyTimeout
	}
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: redisAddr, ContextTimeoutEnabled: true, MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	c, err := httpcache.New(rdb, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: c.Transport("acme", tr, cacheable)}
}

type answer struct {
	status int
	body   string
	cached bool
	ctype  string
}

func call(t *testing.T, c *http.Client, method, url, auth, body string) answer {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body == "" {
		req.Body = http.NoBody
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return answer{res.StatusCode, string(b), res.Header.Get("X-Quiver-Cache") == "hit", res.Header.Get("Content-Type")}
}

func TestSharedAcrossInstances(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	srv := redistest.Start(t)
	u := newUpstream(t)
	cfg := httpcache.Config{TTL: time.Minute}
	a, b := client(t, u, srv.Addr, cfg), client(t, u, srv.Addr, cfg)

	first := call(t, a, "GET", u.URL+"/user?id=1", "Bearer one", "")
	if first.cached || !strings.Contains(first.body, `"answer":1`) {
		t.Fatalf("first call: %+v", first)
	}
	again := call(t, b, "GET", u.URL+"/user?id=1", "Bearer one", "")
	if !again.cached || again.body != first.body || again.status != 200 || again.ctype != "application/json" {
		t.Errorf("same call on the other instance: %+v, want the first answer from the cache", again)
	}

	// What makes an answer different makes another key.
	for _, c := range []struct{ name, method, path, auth, body string }{
		{"other query", "GET", "/user?id=2", "Bearer one", ""},
		{"other credentials", "GET", "/user?id=1", "Bearer two", ""},
		{"a POST", "POST", "/user?id=1", "Bearer one", `{"q":"a"}`},
		{"another POST body", "POST", "/user?id=1", "Bearer one", `{"q":"b"}`},
	} {
		got := call(t, a, c.method, u.URL+c.path, c.auth, c.body)
		if got.cached {
			t.Errorf("%s: answered from the cache: %s", c.name, got.body)
		}
	}
	// The POST body reached the provider intact, and its answer is cached.
	if got := call(t, b, "POST", u.URL+"/user?id=1", "Bearer one", `{"q":"b"}`); !got.cached || !strings.Contains(got.body, `"body":"{\"q\":\"b\"}"`) {
		t.Errorf("repeated POST: %+v", got)
	}
	// Failures are not cached.
	call(t, a, "GET", u.URL+"/missing", "", "")
	if got := call(t, b, "GET", u.URL+"/missing", "", ""); got.cached || got.status != 404 {
		t.Errorf("a 404 was cached: %+v", got)
	}
	if n := u.calls.Load(); n != 7 {
		t.Errorf("provider called %d times, want 7", n)
	}
}

// An answer is stored for the TTL, as Redis reports it: the test does
// not race a short TTL against a busy machine's clock. Once Redis has
// let it go, the provider is asked again.
func TestExpiresAndBounds(t *testing.T) {
	srv := redistest.Start(t)
	u := newUpstream(t)
	const ttl = time.Hour
	c := client(t, u, srv.Addr, httpcache.Config{TTL: ttl, MaxBodyBytes: 1000})
	call(t, c, "GET", u.URL+"/x", "", "")
	if got := call(t, c, "GET", u.URL+"/x", "", ""); !got.cached {
		t.Fatal("not cached within the TTL")
	}
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	ctx := context.Background()
	keys, err := rdb.Keys(ctx, "quiver:http:acme:*").Result()
	if err != nil || len(keys) != 1 {
		t.Fatalf("keys = %q, %v; want the one answer", keys, err)
	}
	if left := rdb.PTTL(ctx, keys[0]).Val(); left <= ttl-time.Minute || left > ttl {
		t.Errorf("the answer expires in %v, want about %v", left, ttl)
	}
	rdb.Del(ctx, keys[0]) // as Redis does when the TTL is over
	if got := call(t, c, "GET", u.URL+"/x", "", ""); got.cached || !strings.Contains(got.body, `"answer":2`) {
		t.Errorf("after the answer expired: %+v, want the provider's new answer", got)
	}

	// An answer over MaxBodyBytes is delivered whole and not cached.
	for range 2 {
		got := call(t, c, "GET", u.URL+"/big", "", "")
		if got.cached || len(got.body) != 2000 {
			t.Errorf("big answer: cached %v, %d bytes", got.cached, len(got.body))
		}
	}
	// So is a request body over it.
	big := strings.Repeat("y", 1500)
	for range 2 {
		got := call(t, c, "POST", u.URL+"/x", "", big)
		if got.cached || !strings.Contains(got.body, big) {
			t.Errorf("big request: cached %v, body not passed on whole", got.cached)
		}
	}
}

// A Redis that hangs costs at most the timeout per call, and the provider
// answers: the cache never fails a request.
func TestRedisHangsIsAMiss(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	srv := redistest.Start(t)
	u := newUpstream(t)
	c := client(t, u, srv.Addr, httpcache.Config{TTL: time.Minute, Timeout: httpcache.DefaultTimeout})
	call(t, c, "GET", u.URL+"/x", "", "")

	srv.Pause(t)
	defer srv.Resume(t)
	start := time.Now()
	got := call(t, c, "GET", u.URL+"/x", "", "")
	if took := time.Since(start); took > time.Second {
		t.Errorf("with Redis hung the call took %v", took)
	}
	if got.cached || !strings.Contains(got.body, `"answer":2`) {
		t.Errorf("with Redis hung: %+v, want the provider's new answer", got)
	}
}

func TestOff(t *testing.T) {
	var c *httpcache.Cache
	if tr := c.Transport("acme", http.DefaultTransport, nil); tr != http.DefaultTransport {
		t.Error("a nil Cache wrapped the transport")
	}
	if _, err := httpcache.New(nil, httpcache.Config{}); err == nil {
		t.Error("New without a TTL: no error")
	}
}

// By default an answer as large as the adapters accept is cached: those
// are the most expensive to ask for again.
func TestLargeAnswerCachedByDefault(t *testing.T) {
	srv := redistest.Start(t)
	u := newUpstream(t)
	c := client(t, u, srv.Addr, httpcache.Config{TTL: time.Minute})
	first := call(t, c, "GET", u.URL+"/large", "", "")
	again := call(t, c, "GET", u.URL+"/large", "", "")
	if !again.cached || again.body != first.body || u.calls.Load() != 1 {
		t.Errorf("a %d-byte answer: cached %v, provider called %d times", len(first.body), again.cached, u.calls.Load())
	}
}

// A 200 that the caller's check calls a failure is handed on, not
// cached: the next call asks the provider again. Without a check it is
// an answer like any other.
func TestFailureIn200NotCached(t *testing.T) {
	srv := redistest.Start(t)
	u := newUpstream(t)
	notError := func(body []byte) bool { return !strings.Contains(string(body), `"status":"error"`) }
	checked := checkedClient(t, u, srv.Addr, httpcache.Config{TTL: time.Minute}, notError)
	for i := 1; i <= 2; i++ {
		got := call(t, checked, "GET", u.URL+"/failing", "", "")
		if got.cached || got.status != 200 || !strings.Contains(got.body, fmt.Sprintf("rate limited %d", i)) {
			t.Errorf("call %d: %+v, want the provider's answer %d, not from the cache", i, got, i)
		}
	}
	// The check decides: the same answers, unchecked, are cached.
	plain := client(t, u, srv.Addr, httpcache.Config{TTL: time.Minute, Prefix: "other:"})
	first := call(t, plain, "GET", u.URL+"/failing", "", "")
	if again := call(t, plain, "GET", u.URL+"/failing", "", ""); !again.cached || again.body != first.body {
		t.Errorf("unchecked: %+v, want the first answer from the cache", again)
	}
}
