package safehttp

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/quiverkit/quiver/internal/weburl"
)

// Defaults of [Client].
const (
	// DefaultTimeout bounds one fetch: connection, redirects, headers and
	// body.
	DefaultTimeout = 15 * time.Second
	// DefaultMaxBodyBytes bounds a response body (after transparent gzip
	// decoding).
	DefaultMaxBodyBytes = 10 << 20
	// DefaultMaxRedirects bounds the redirects [Client.Do] follows.
	DefaultMaxRedirects = 10
	// DefaultUserAgent is sent when a request sets no User-Agent.
	DefaultUserAgent = "QuiverBot/1.0 (+https://github.com/quiverkit/quiver)"
)

// ErrResponseTooLarge is returned by the body of a response larger than
// the client's limit, once the limit is passed.
var ErrResponseTooLarge = errors.New("response body too large")

// ErrTooManyRedirects is returned by [Client.Do] past the redirect limit.
var ErrTooManyRedirects = errors.New("too many redirects")

// WithTimeout bounds each fetch. Default [DefaultTimeout].
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithMaxBodyBytes bounds each response body. Default
// [DefaultMaxBodyBytes].
func WithMaxBodyBytes(n int64) Option { return func(o *options) { o.maxBody = n } }

// WithMaxRedirects bounds the redirects [Client.Do] follows. Default
// [DefaultMaxRedirects]; negative: none.
func WithMaxRedirects(n int) Option { return func(o *options) { o.maxRedirects = n } }

// WithRootCAs sets the roots HTTPS servers are verified against. Default:
// the system roots.
func WithRootCAs(pool *x509.CertPool) Option { return func(o *options) { o.roots = pool } }

// WithUserAgent sets the User-Agent of requests that set none. Default
// [DefaultUserAgent].
func WithUserAgent(ua string) Option { return func(o *options) { o.userAgent = ua } }

// Client is an HTTP client that only reaches allowed destinations, with
// size and time limits on every fetch. Build it with [New]; it is safe for
// concurrent use. It never uses an HTTP proxy from the environment.
type Client struct {
	o         options
	dialer    *Dialer
	transport *http.Transport
}

// New returns a client enforcing the SSRF policy.
func New(opts ...Option) *Client {
	o := newOptions(opts)
	d := newDialer(o)
	t := &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		TLSClientConfig:        &tls.Config{RootCAs: o.roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  o.timeout,
		MaxResponseHeaderBytes: 64 << 10,
		IdleConnTimeout:        30 * time.Second,
		MaxIdleConnsPerHost:    2,
		ForceAttemptHTTP2:      true,
	}
	return &Client{o: o, dialer: d, transport: t}
}

// CloseIdleConnections closes the connections the client keeps open
// for reuse: a client built for one fetch calls it when done.
func (c *Client) CloseIdleConnections() { c.transport.CloseIdleConnections() }

// Dialer returns the client's guarded dialer, for protocols other than
// HTTP (TLS inspection, SMTP).
func (c *Client) Dialer() *Dialer { return c.dialer }

// RootCAs returns the roots the client verifies HTTPS servers against; nil
// means the system roots.
func (c *Client) RootCAs() *x509.CertPool { return c.o.roots }

// Timeout returns the client's per-fetch time limit.
func (c *Client) Timeout() time.Duration { return c.o.timeout }

// CheckURL reports whether u may be fetched: http or https, a host that
// parses, and when the host is an IP literal, an allowed address. Names
// are checked when dialed.
func (c *Client) CheckURL(u *url.URL) error {
	if u == nil {
		return fmt.Errorf("%w: no URL", ErrDestinationNotAllowed)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: scheme %q (only http and https)", ErrDestinationNotAllowed, u.Scheme)
	}
	h, err := ParseHost(u.Hostname())
	if err != nil {
		if errors.Is(err, ErrDestinationNotAllowed) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrDestinationNotAllowed, err)
	}
	if h.IsIP() {
		return c.dialer.CheckAddr(h.Addr)
	}
	return nil
}

// RoundTrip sends one request without following redirects. The URL is
// checked, the whole exchange (body included) is bounded by the client's
// timeout, and the body by its size limit. It lets the Client serve as the
// Transport of an http.Client.
func (c *Client) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := c.CheckURL(req.URL); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(req.Context(), c.o.timeout)
	req = req.Clone(ctx)
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", c.o.userAgent)
	}
	resp, err := c.transport.RoundTrip(req)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &limitedBody{rc: resp.Body, left: c.o.maxBody, cancel: cancel}
	return resp, nil
}

// Do sends the request and follows up to the client's redirect limit,
// checking every hop. The client's timeout bounds the whole chain, the
// final body included, which is also limited in size as with
// [Client.RoundTrip].
//
// A redirect's Location is read by the one URL parser, [weburl.ParseRef]
// (the WHATWG URL Standard's reading, as a browser would follow it), not
// by net/url: the hop that is checked and dialled is the one a browser
// would fetch. A 301, 302 or 303 to a request other than GET or HEAD
// continues as a GET without a body, as browsers do; 307 and 308 are
// followed only when the request has no body.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	if err := c.CheckURL(req.URL); err != nil { // later hops: in redirect
		return nil, err
	}
	ctx, cancel := context.WithTimeout(req.Context(), c.o.timeout)
	req = req.WithContext(ctx)
	for hops := 0; ; hops++ {
		resp, err := c.transport.RoundTrip(c.prepare(req))
		if err != nil {
			cancel()
			return nil, err
		}
		next, err := c.redirect(req, resp)
		if err != nil || next == nil {
			if err != nil {
				resp.Body.Close()
				cancel()
				return nil, err
			}
			resp.Body = &limitedBody{rc: resp.Body, left: c.o.maxBody, cancel: cancel}
			return resp, nil
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		if hops >= c.o.maxRedirects {
			cancel()
			return nil, fmt.Errorf("%w: more than %d", ErrTooManyRedirects, c.o.maxRedirects)
		}
		req = next
	}
}

// prepare sets the default User-Agent on a copy of req.
func (c *Client) prepare(req *http.Request) *http.Request {
	if req.Header.Get("User-Agent") != "" {
		return req
	}
	req = req.Clone(req.Context())
	req.Header.Set("User-Agent", c.o.userAgent)
	return req
}

// redirect returns the request that follows resp, or nil when resp is
// not a redirect to follow. The Location is resolved against the
// request's URL by the one URL parser and checked before it is returned.
func (c *Client) redirect(req *http.Request, resp *http.Response) (*http.Request, error) {
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return nil, nil
	}
	loc := resp.Header.Get("Location")
	if loc == "" {
		return nil, nil
	}
	ref, err := weburl.ParseRef(req.URL.String(), loc)
	if err != nil {
		return nil, fmt.Errorf("redirect Location: %w", err)
	}
	u, err := ref.Go()
	if err != nil {
		return nil, fmt.Errorf("redirect Location: %w", err)
	}
	if err := c.CheckURL(u); err != nil {
		return nil, err
	}
	method, body := req.Method, req.Body
	switch {
	case resp.StatusCode <= http.StatusSeeOther && method != http.MethodGet && method != http.MethodHead:
		method, body = http.MethodGet, nil
	case resp.StatusCode >= http.StatusTemporaryRedirect && body != nil && body != http.NoBody:
		return nil, nil // the body is spent: hand the redirect to the caller
	}
	next, err := http.NewRequestWithContext(req.Context(), method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("redirect: %w", err)
	}
	next.URL = u
	for k, vs := range req.Header {
		// Credentials do not follow a redirect to another host.
		if u.Host != req.URL.Host && (k == "Authorization" || k == "Cookie") {
			continue
		}
		next.Header[k] = vs
	}
	return next, nil
}

// Get fetches rawURL with GET, following redirects. rawURL is read by
// the one URL parser, [weburl.Parse], as a browser would read it.
func (c *Client) Get(ctx context.Context, rawURL string) (*http.Response, error) {
	parsed, err := weburl.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	u, err := parsed.Go()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.URL = u
	return c.Do(req)
}

// limitedBody fails with ErrResponseTooLarge once more than left bytes
// arrive, and releases the fetch's timer when closed.
type limitedBody struct {
	rc     io.ReadCloser
	left   int64
	cancel context.CancelFunc
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, ErrResponseTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error {
	err := b.rc.Close()
	b.cancel()
	return err
}

// IsTimeout reports whether err is a time-out of a fetch or a dial.
func IsTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
