// Package httpcache keeps the answers of expensive upstream providers
// (social data, scraping actors) in Redis for a fixed time, so that one
// call to the provider serves every Quiver instance until it expires.
//
// It is an http.RoundTripper for the provider's http.Client:
//
//	c := httpcache.New(rdb, httpcache.Config{TTL: 10 * time.Minute})
//	client := &http.Client{Transport: c.Transport("graph", base, nil)}
//
// Unlike an RFC 9111 cache it ignores the provider's Cache-Control: the
// APIs in question forbid caching while their answers cost money and
// quota, and the TTL is the operator's decision. What is cached:
//
//   - GET and POST requests (POST bodies up to MaxBodyBytes are part of
//     the key: a scraping actor's input is its query);
//   - 200 answers up to MaxBodyBytes, with their Content-Type, unless
//     the caller's check says the answer is a failure (some providers,
//     twitterapi.io among them, report errors in a 200): a failure kept
//     for the whole TTL would be served to every caller until it expires;
//   - keyed by a SHA-256 of the method, the URL, the body and the
//     credentials (Authorization and the provider's key headers), so that
//     no secret is ever written to Redis in clear and two accounts never
//     share an answer.
//
// The cache never fails a request: every Redis call is bounded by
// Config.Timeout, and a Redis that is slow or down is a miss.
// An answer from the cache carries the header "X-Quiver-Cache: hit".
package httpcache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/internal/rediskv"
)

// Defaults of Config. DefaultMaxBodyBytes is the largest answer the
// social data adapters accept (8 MiB): their largest answers, such as a
// scraping actor's hundred posts, are the most expensive ones to repeat.
const (
	DefaultTimeout      = 100 * time.Millisecond
	DefaultMaxBodyBytes = 8 << 20
)

// keyHeaders are the request headers that identify the caller to a
// provider; they are part of the cache key.
var keyHeaders = []string{"Authorization", "X-Api-Key", "Api-Key", "X-Goog-Api-Key", "Accept"}

// Config configures a Cache.
type Config struct {
	// TTL is how long an answer is kept. Required.
	TTL time.Duration
	// Prefix is put before every Redis key. Default "quiver:".
	Prefix string
	// Timeout bounds each Redis call. Default DefaultTimeout.
	Timeout time.Duration
	// MaxBodyBytes bounds the request and answer bodies that are cached;
	// larger ones pass through. Default DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// OnError, when set, is told of Redis failures (which are misses).
	OnError func(error)
}

// Cache stores upstream answers in Redis. It is safe for concurrent use.
type Cache struct {
	kv  rediskv.Store
	cfg Config
}

// New returns a Cache storing answers in rdb.
func New(rdb redis.UniversalClient, cfg Config) (*Cache, error) {
	if cfg.TTL <= 0 {
		return nil, errors.New("httpcache: TTL must be positive")
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "quiver:"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	return &Cache{kv: rediskv.Store{Client: rdb, Timeout: cfg.Timeout, OnError: cfg.OnError}, cfg: cfg}, nil
}

// entry is a stored answer. It is kept as its Content-Type, a line
// break and the body as received: no encoding makes it larger or costs
// a pass over it.
type entry struct {
	ContentType string
	Body        []byte
}

// Transport returns a RoundTripper answering from the cache when it can,
// else through next (http.DefaultTransport when nil), under the
// namespace provider. cacheable, when not nil, is asked about the body
// of each 200 answer before it is stored, and keeps out of the cache
// those it reports false for: a provider's errors in a 200. A nil Cache
// returns next: caching off.
func (c *Cache) Transport(provider string, next http.RoundTripper, cacheable func(body []byte) bool) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	if c == nil {
		return next
	}
	return &transport{c: c, provider: provider, next: next, cacheable: cacheable}
}

type transport struct {
	c         *Cache
	provider  string
	next      http.RoundTripper
	cacheable func([]byte) bool
}

func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		return t.next.RoundTrip(r)
	}
	// The body is read for the key; the request sent on is a copy with
	// the body restored, as a RoundTripper must not change its request.
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(io.LimitReader(r.Body, t.c.cfg.MaxBodyBytes+1))
		if err != nil {
			r.Body.Close()
			return nil, err
		}
		r2 := r.Clone(r.Context())
		if int64(len(b)) > t.c.cfg.MaxBodyBytes {
			r2.Body = rejoin(b, r.Body)
			return t.next.RoundTrip(r2) // too large to key on
		}
		r.Body.Close()
		r2.Body = io.NopCloser(bytes.NewReader(b))
		r2.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		body, r = b, r2
	}
	key := t.c.key(t.provider, r, body)
	if e, ok := t.c.get(r.Context(), key); ok {
		return e.response(r), nil
	}
	res, err := t.next.RoundTrip(r)
	if err != nil || res.StatusCode != http.StatusOK {
		return res, err
	}
	// Read the answer to store it, within the bound; a larger one is
	// handed on whole, uncached.
	b, err := io.ReadAll(io.LimitReader(res.Body, t.c.cfg.MaxBodyBytes+1))
	if err != nil {
		res.Body.Close()
		return nil, err
	}
	if int64(len(b)) > t.c.cfg.MaxBodyBytes {
		res.Body = rejoin(b, res.Body)
		return res, nil
	}
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(b))
	if t.cacheable == nil || t.cacheable(b) {
		t.c.put(r.Context(), key, entry{ContentType: res.Header.Get("Content-Type"), Body: b})
	}
	return res, nil
}

// rejoin returns a body reading head, then the rest of rc.
func rejoin(head []byte, rc io.ReadCloser) io.ReadCloser {
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), rc), rc}
}

// key hashes everything that makes an answer what it is.
func (c *Cache) key(provider string, r *http.Request, body []byte) string {
	h := sha256.New()
	for _, s := range []string{r.Method, r.URL.String()} {
		io.WriteString(h, strconv.Itoa(len(s))+":"+s)
	}
	for _, name := range keyHeaders {
		v := r.Header.Get(name)
		io.WriteString(h, strconv.Itoa(len(v))+":"+v)
	}
	h.Write(body)
	return c.cfg.Prefix + "http:" + provider + ":" + hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) get(ctx context.Context, key string) (entry, bool) {
	b, ok := c.kv.Get(ctx, key)
	if !ok {
		return entry{}, false
	}
	ctype, body, ok := bytes.Cut(b, []byte{'\n'})
	if !ok {
		c.kv.Fail(errors.New("httpcache: unreadable entry " + key))
		return entry{}, false
	}
	return entry{ContentType: string(ctype), Body: body}, true
}

func (c *Cache) put(ctx context.Context, key string, e entry) {
	// A header value has no line break (net/http rejects them).
	b := make([]byte, 0, len(e.ContentType)+1+len(e.Body))
	b = append(append(append(b, e.ContentType...), '\n'), e.Body...)
	c.kv.Set(ctx, key, b, c.cfg.TTL)
}

// response builds the answer to r from a stored entry.
func (e entry) response(r *http.Request) *http.Response {
	h := http.Header{"X-Quiver-Cache": {"hit"}}
	if e.ContentType != "" {
		h.Set("Content-Type", e.ContentType)
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(e.Body)),
		ContentLength: int64(len(e.Body)),
		Request:       r,
	}
}
