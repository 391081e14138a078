package redislimit_test

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/httpapi/redislimit"
	"github.com/quiverkit/quiver/internal/redistest"
	"github.com/quiverkit/quiver/secret"
)

// client returns a client of the server at addr, closed at the end of the
// test, configured as cmd/quiver configures its own.
func client(t *testing.T, addr string) *redis.Client {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{
		Addr:                  addr,
		ContextTimeoutEnabled: true,
		DialTimeout:           time.Second,
		MaxRetries:            -1, // a retry would double the time a hung Redis costs
	})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// instance is one Quiver instance: its own handler, Redis client and
// limiter, sharing only the Redis server.
func instance(t *testing.T, addr string, cfg redislimit.Config) http.Handler {
	cfg.Client = client(t, addr)
	return handler(t, httpapi.Config{Keys: []secret.String{"k1", "k2"}, Limiter: newLimiter(t, cfg)})
}

// newLimiter returns the limiter of cfg, failing the test on an error.
// Without a Timeout, each call may take 5s rather than the default 100ms:
// on a saturated machine a healthy loopback Redis can take longer than
// 100ms, and only the timeout tests are about timeouts.
func newLimiter(t testing.TB, cfg redislimit.Config) *redislimit.Limiter {
	t.Helper()
	if cfg.Timeout == 0 {
		cfg.Timeout = 5 * time.Second
	}
	l, err := redislimit.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// handler returns the handler of cfg, failing the test on an error.
func handler(t testing.TB, cfg httpapi.Config) http.Handler {
	t.Helper()
	h, err := httpapi.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestNewRefusesInvalidConfig(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	for _, tt := range []struct {
		cfg   redislimit.Config
		field string
	}{
		{redislimit.Config{}, "Client"},
		{redislimit.Config{Client: rdb, RatePerSecond: -1}, "RatePerSecond"},
		{redislimit.Config{Client: rdb, RatePerSecond: math.Inf(1)}, "RatePerSecond"},
		{redislimit.Config{Client: rdb, Burst: -1}, "Burst"},
		{redislimit.Config{Client: rdb, Timeout: -time.Second}, "Timeout"},
	} {
		l, err := redislimit.New(tt.cfg)
		if l != nil || !errors.Is(err, redislimit.ErrInvalidConfig) || !strings.Contains(err.Error(), "Config."+tt.field) {
			t.Errorf("%+v: New = %v, %v; want an error naming %s", tt.cfg, l, err, tt.field)
		}
	}
	if _, err := redislimit.New(redislimit.Config{}); !errors.Is(err, redislimit.ErrNoClient) || !errors.Is(err, redislimit.ErrInvalidConfig) {
		t.Errorf("no client: %v, want ErrNoClient", err)
	}
	if _, err := redislimit.New(redislimit.Config{Client: rdb}); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

func encode(h http.Handler, key string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/v1/dev/data/base64/encode", strings.NewReader(`{"value":"hi"}`))
	req.Header.Set("X-Gateway-Key", key)
	req.Header.Set("X-Gateway-Host", "test")
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Two instances behind a load balancer share one Redis: together they
// allow one burst per key, not one each.
func TestSharedLimitAcrossInstances(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	srv := redistest.Start(t)
	cfg := redislimit.Config{RatePerSecond: 0.01, Burst: 5} // one new request per 100s: none during the test
	a, b := instance(t, srv.Addr, cfg), instance(t, srv.Addr, cfg)

	// Round robin, as a load balancer would.
	for i := range 5 {
		h := []http.Handler{a, b}[i%2]
		rec := encode(h, "k1")
		if rec.Code != http.StatusOK {
			t.Fatalf("request %d: status %d, want 200: %s", i+1, rec.Code, rec.Body)
		}
		if got, want := rec.Header().Get("X-RateLimit-Remaining"), string(rune('0'+4-i)); got != want {
			t.Errorf("request %d: X-RateLimit-Remaining = %q, want %q", i+1, got, want)
		}
		if got := rec.Header().Get("X-RateLimit-Limit"); got != "5" {
			t.Errorf("request %d: X-RateLimit-Limit = %q, want 5", i+1, got)
		}
	}
	for _, h := range []http.Handler{a, b} {
		rec := encode(h, "k1")
		if rec.Code != http.StatusTooManyRequests {
			t.Fatalf("request over the shared burst: status %d, want 429", rec.Code)
		}
		if !strings.Contains(rec.Body.String(), `"code":"RATE_LIMIT_EXCEEDED"`) {
			t.Errorf("429 body: %s", rec.Body)
		}
		if ra := rec.Header().Get("Retry-After"); ra == "" || ra == "0" {
			t.Errorf("Retry-After = %q, want whole seconds > 0", ra)
		}
	}
	// Another key has its own allowance.
	if rec := encode(b, "k2"); rec.Code != http.StatusOK {
		t.Errorf("other key: status %d, want 200", rec.Code)
	}
}

// The limit refills at the configured rate, measured by Redis's clock.
func TestRefill(t *testing.T) {
	srv := redistest.Start(t)
	l := newLimiter(t, redislimit.Config{Client: client(t, srv.Addr), RatePerSecond: 20, Burst: 1})
	ctx := context.Background()
	d, err := l.Allow(ctx, "key")
	if err != nil || !d.Allowed {
		t.Fatalf("first Allow = %+v, %v", d, err)
	}
	d, err = l.Allow(ctx, "key")
	if err != nil || d.Allowed {
		t.Fatalf("second Allow = %+v, %v; want refused", d, err)
	}
	if d.RetryAfter <= 0 || d.RetryAfter > 50*time.Millisecond {
		t.Errorf("RetryAfter = %v, want in (0, 50ms]", d.RetryAfter)
	}
	time.Sleep(d.RetryAfter + 10*time.Millisecond)
	if d, err = l.Allow(ctx, "key"); err != nil || !d.Allowed {
		t.Errorf("Allow after RetryAfter = %+v, %v; want allowed", d, err)
	}
}

// A Redis that stops answering costs each request at most the timeout,
// after which the request is let through (fail open); nothing is left
// running.
func TestRedisHangsFailsOpen(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	srv := redistest.Start(t)
	const timeout = 100 * time.Millisecond
	h := instance(t, srv.Addr, redislimit.Config{Burst: 1, RatePerSecond: 0.01, Timeout: timeout})
	if rec := encode(h, "k1"); rec.Code != http.StatusOK {
		t.Fatalf("before the hang: status %d", rec.Code)
	}

	srv.Pause(t)
	for i := range 3 {
		start := time.Now()
		rec := encode(h, "k1")
		took := time.Since(start)
		if rec.Code != http.StatusOK {
			t.Errorf("request %d with Redis hung: status %d, want 200 (fail open)", i, rec.Code)
		}
		if took > timeout+time.Second { // far below go-redis's own 3s read timeout
			t.Errorf("request %d with Redis hung took %v, want about %v", i, took, timeout)
		}
		if rec.Header().Get("X-RateLimit-Limit") != "" {
			t.Errorf("request %d: a limit is reported though none was decided", i)
		}
	}
	srv.Resume(t)

	// Once Redis answers again, the limit is enforced again: the burst of
	// 1 was spent before the hang.
	deadline := time.Now().Add(5 * time.Second)
	for {
		rec := encode(h, "k1")
		if rec.Code == http.StatusTooManyRequests {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("limit not enforced after Redis resumed: status %d", rec.Code)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A Redis that is gone fails open at once.
func TestRedisDownFailsOpen(t *testing.T) {
	l := newLimiter(t, redislimit.Config{Client: client(t, "127.0.0.1:1"), Timeout: time.Second})
	start := time.Now()
	_, err := l.Allow(context.Background(), "key")
	if err == nil {
		t.Fatal("Allow with no Redis: no error")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("Allow with no Redis took %v", took)
	}
	h := handler(t, httpapi.Config{Keys: []secret.String{"k1"}, Limiter: l})
	if rec := encode(h, "k1"); rec.Code != http.StatusOK {
		t.Errorf("status %d, want 200 (fail open)", rec.Code)
	}
}

// BenchmarkAllow compares a limit check in Redis (one round trip to a
// loopback redis-server) with the in-process limiter.
func BenchmarkAllow(b *testing.B) {
	srv := redistest.Start(b)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, ContextTimeoutEnabled: true})
	defer rdb.Close()
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		l    httpapi.Limiter
	}{
		{"limiter=redis", newLimiter(b, redislimit.Config{Client: rdb, RatePerSecond: 1e9, Burst: 1e6})},
		{"limiter=memory", httpapi.NewMemoryLimiter(1e9, 1e6)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := bc.l.Allow(ctx, "key"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
