// Package upstream is the plumbing shared by the adapters of third-party
// data providers (microblog, photo-sharing): a JSON GET (or, with
// [Client.Send], a POST and a body-level error classifier) with a timeout
// and a size bound, and one mapping from what a provider answers to the error
// codes of package envelope.
//
// The mapping:
//
//   - 404 and 410: NOT_FOUND;
//   - 429: RATE_LIMIT_EXCEEDED, with the provider's Retry-After (seconds or
//     an HTTP date), X API style x-rate-limit-reset (Unix seconds) or Graph
//     API style estimated_time_to_regain_access (minutes, in
//     X-Business-Use-Case-Usage or X-App-Usage) in
//     [envelope.Error.RetryAfter] (at least [MinRetryAfter]), and
//     [DefaultRetryAfter] when the provider gives no hint: a rate limit
//     always says when to retry ([RetryAfterOrDefault]);
//   - 401 and 403: UPSTREAM_ERROR saying the provider refused the
//     configured credentials (the caller is not at fault);
//   - 400 to a request carrying a caller's cursor whose body names the
//     cursor's parameter ([Request.CursorParam]): INVALID_REQUEST on cursor;
//   - any other non-2xx status, a body over the size bound, a body that is
//     not the expected JSON, a connection failure: UPSTREAM_ERROR;
//   - no answer within the timeout, or the caller's deadline: UPSTREAM_TIMEOUT;
//   - no provider configured ([NotConfigured]): SERVICE_UNAVAILABLE.
//
// Credentials travel only in request headers set from [Client.Header], and
// a redirect is followed only within the provider's host, so that they
// are never forwarded elsewhere. Error messages name the provider and the
// path, never the query or the headers; [FormatProvider] prints a
// provider without its credential.
package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/strictjson"
	"github.com/quiverkit/quiver/internal/textcut"
)

// Defaults of [Client].
const (
	DefaultTimeout  = 15 * time.Second
	DefaultMaxBytes = 4 << 20
	// DefaultRetryAfter is the RetryAfter of a provider's rate limit that
	// does not say when to retry.
	DefaultRetryAfter = 60 * time.Second
	// MinRetryAfter is the least RetryAfter of a rate limit: a provider
	// asking to retry now (Retry-After: 0, or a time already past) is told
	// to wait a second, so that the answer still says when to retry.
	MinRetryAfter = time.Second
)

// Client fetches JSON from one provider. The zero value is not usable:
// set Name and BaseURL. A Client is safe for concurrent use.
type Client struct {
	// Name names the provider in error messages, e.g. "twitterapi.io".
	Name string
	// BaseURL is the provider's API root, e.g. "https://api.x.com/2".
	// Paths passed to Get are appended to it.
	BaseURL string
	// Header is sent with every request; put credentials here.
	Header http.Header
	// HTTP sends the requests. Default: a client with Timeout.
	HTTP *http.Client
	// Timeout bounds each request, body included. Default DefaultTimeout.
	Timeout time.Duration
	// MaxBytes bounds a response body. Default DefaultMaxBytes (4 MiB).
	MaxBytes int64
	// Now is the clock used to turn dates into Retry-After durations.
	// Default time.Now.
	Now func() time.Time
}

var defaultHTTP = &http.Client{Timeout: 2 * DefaultTimeout}

// Get sends GET BaseURL+path?query and decodes the JSON response into v.
// Every failure is an *envelope.Error classified as the package doc says.
// Path segments taken from user input must be escaped by the caller with
// url.PathEscape.
func (c *Client) Get(ctx context.Context, path string, query url.Values, v any) error {
	return c.Send(ctx, Request{Path: path, Query: query}, v)
}

// Request is a request for [Client.Send].
type Request struct {
	// Method is the HTTP method; default GET.
	Method string
	// Path is appended to BaseURL; escape user input with url.PathEscape.
	Path string
	// Query is the query string; it never appears in error messages.
	Query url.Values
	// Body, when non-nil, is sent JSON-encoded with Content-Type
	// application/json.
	Body any
	// Classify, when set, sees every non-2xx answer before the status
	// mapping, for providers that say what went wrong in the body (the
	// Graph API answers a rate limit with HTTP 400 and error code 4). A
	// non-nil error it returns is used as it is, except that a
	// RATE_LIMIT_EXCEEDED error without RetryAfter gets the answer's
	// Retry-After; nil falls back to the status mapping.
	Classify func(status int, body []byte) error
	// Header, when set, receives the headers of a 2xx answer, for
	// providers that page in headers (Apify's X-Apify-Pagination-Total).
	Header *http.Header
	// CursorParam, when set, names the query parameter that carries a
	// cursor from the caller. A 400 answer to a request that has it, whose
	// body names it, is the caller's error: [CursorRefused].
	CursorParam string
}

// CursorRefused is the INVALID_REQUEST error of a cursor that provider
// refused: not a next_cursor it gave.
func CursorRefused(provider string) error {
	return envelope.Invalidf("cursor", "was refused by %s: pass the next_cursor of a previous page, or none", provider)
}

// Send sends the request and decodes the JSON response into v, with the
// timeout, size bound and error mapping of [Client.Get].
func (c *Client) Send(ctx context.Context, r Request, v any) error {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	path := r.Path
	u := strings.TrimRight(c.BaseURL, "/") + path
	if len(r.Query) > 0 {
		u += "?" + r.Query.Encode()
	}
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if r.Body != nil {
		b, err := json.Marshal(r.Body)
		if err != nil {
			return &envelope.Error{Code: envelope.CodeInternal, Message: fmt.Sprintf("%s: the request body for %s cannot be encoded", c.Name, path), Err: err}
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return envelope.Errorf(envelope.CodeUpstreamError, "%s: invalid request URL for %s", c.Name, path)
	}
	for k, vs := range c.Header {
		req.Header[k] = vs
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := c.HTTP
	if hc == nil {
		hc = defaultHTTP
	}
	resp, err := sameHostRedirects(hc).Do(req)
	if err != nil {
		return c.transportError(ctx, path, timeout, err)
	}
	defer resp.Body.Close()

	limit := c.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return c.transportError(ctx, path, timeout, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		if p := r.CursorParam; p != "" && resp.StatusCode == http.StatusBadRequest && r.Query.Get(p) != "" && bytes.Contains(data, []byte(p)) {
			return CursorRefused(c.Name)
		}
		if r.Classify != nil {
			if err := r.Classify(resp.StatusCode, data); err != nil {
				var e *envelope.Error
				if errors.As(err, &e) && e.Code == envelope.CodeRateLimitExceeded && e.RetryAfter == 0 {
					e.RetryAfter = c.retryAfter(resp.Header)
				}
				return err
			}
		}
		return c.statusError(resp, data, path)
	}
	if int64(len(data)) > limit {
		return envelope.Errorf(envelope.CodeUpstreamError, "%s: the response to %s exceeds %d bytes", c.Name, path, limit)
	}
	if r.Header != nil {
		*r.Header = resp.Header.Clone()
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &envelope.Error{
			Code:    envelope.CodeUpstreamError,
			Message: fmt.Sprintf("%s: the response to %s is not the expected JSON", c.Name, path),
			Err:     strictjson.Describe(err),
		}
	}
	return nil
}

// sameHostRedirects returns a copy of hc that follows a redirect only
// within the host of the original request. net/http strips Authorization
// on a redirect to another host but forwards custom headers such as
// X-API-Key, so a provider redirecting elsewhere would hand the key on.
// A refused redirect is answered as the 3xx itself: UPSTREAM_ERROR.
func sameHostRedirects(hc *http.Client) *http.Client {
	c := *hc
	next := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Host != via[0].URL.Host || req.URL.Scheme != via[0].URL.Scheme {
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// transportError classifies a failure to get or read a response. The
// *url.Error is unwrapped so that the URL (and its query) is not repeated.
func (c *Client) transportError(ctx context.Context, path string, timeout time.Duration, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &envelope.Error{
			Code:    envelope.CodeUpstreamTimeout,
			Message: fmt.Sprintf("%s did not answer %s in time (timeout %s)", c.Name, path, timeout),
			Err:     context.DeadlineExceeded,
		}
	}
	if errors.Is(err, context.Canceled) {
		return &envelope.Error{Code: envelope.CodeUpstreamError, Message: fmt.Sprintf("%s: the request to %s was cancelled", c.Name, path), Err: err}
	}
	return &envelope.Error{Code: envelope.CodeUpstreamError, Message: fmt.Sprintf("%s could not be reached for %s", c.Name, path), Err: err}
}

// statusError classifies a non-2xx answer.
func (c *Client) statusError(resp *http.Response, body []byte, path string) error {
	status := resp.StatusCode
	// The message names the provider and the status; the cause adds what
	// the provider said, for the logs and Go callers.
	cause := errors.New("it answered with an empty body")
	if said := textcut.OneLine(string(body), 200, "..."); said != "" {
		cause = errors.New("it answered " + said)
	}
	switch {
	case status == http.StatusNotFound || status == http.StatusGone:
		return &envelope.Error{Code: envelope.CodeNotFound, Message: fmt.Sprintf("%s has no such resource (%s)", c.Name, path), Err: cause}
	case status == http.StatusTooManyRequests:
		return c.RateLimited(resp.Header, cause)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return &envelope.Error{Code: envelope.CodeUpstreamError, Message: fmt.Sprintf("%s refused the configured credentials (HTTP %d)", c.Name, status), Err: cause}
	}
	return &envelope.Error{Code: envelope.CodeUpstreamError, Message: fmt.Sprintf("%s failed with HTTP %d for %s", c.Name, status, path), Err: cause}
}

// RateLimited is the RATE_LIMIT_EXCEEDED error of a rate limit the
// provider reported with headers h (a 429, or a provider's own way of
// saying it in a 2xx), with cause: its RetryAfter is what h asks, or
// DefaultRetryAfter when h says nothing.
func (c *Client) RateLimited(h http.Header, cause error) *envelope.Error {
	return &envelope.Error{
		Code:       envelope.CodeRateLimitExceeded,
		Message:    fmt.Sprintf("%s rate limit exceeded; retry later", c.Name),
		RetryAfter: c.retryAfter(h),
		Err:        cause,
	}
}

// maxRetryAfter bounds the wait a provider can ask for.
const maxRetryAfter = 24 * time.Hour

// retryAfter is RetryAfterOrDefault at the client's clock.
func (c *Client) retryAfter(h http.Header) time.Duration {
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	return RetryAfterOrDefault(h, now())
}

// RetryAfterOrDefault is the one rule of the RetryAfter of a rate limit,
// of data and language-model providers alike: the wait h asks
// ([RetryAfter]), at least [MinRetryAfter], or [DefaultRetryAfter] when
// h does not say.
func RetryAfterOrDefault(h http.Header, now time.Time) time.Duration {
	if d, ok := RetryAfter(h, now); ok {
		return max(d, MinRetryAfter)
	}
	return DefaultRetryAfter
}

// RetryAfter reads how long a provider asks to wait: Retry-After
// (delay-seconds or HTTP-date) or, failing that, x-rate-limit-reset (Unix
// seconds) or, failing that, the Graph API's estimated_time_to_regain_access
// (minutes) in X-Business-Use-Case-Usage or X-App-Usage; relative to now
// and bounded by 24 hours. A time already past is 0. It reports false
// when none says (absent or unusable headers).
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	until := func(t time.Time) time.Duration {
		return min(max(0, t.Sub(now).Round(time.Second)), maxRetryAfter)
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.ParseInt(v, 10, 64); err == nil && secs >= 0 {
			return time.Duration(min(secs, int64(maxRetryAfter/time.Second))) * time.Second, true
		}
		if t, err := http.ParseTime(v); err == nil {
			return until(t), true
		}
	}
	if v := strings.TrimSpace(h.Get("X-Rate-Limit-Reset")); v != "" {
		if unix, err := strconv.ParseInt(v, 10, 64); err == nil {
			return until(time.Unix(unix, 0)), true
		}
	}
	d := min(graphRegainAccess(h), maxRetryAfter)
	return d, d > 0
}

// graphUsage is one usage report of the Graph API's usage headers.
type graphUsage struct {
	// RegainAccess is estimated_time_to_regain_access, in minutes.
	RegainAccess float64 `json:"estimated_time_to_regain_access"`
}

// graphRegainAccess is the longest estimated_time_to_regain_access of
// X-Business-Use-Case-Usage (reports per business ID:
// {"<id>":[{"type":"instagram",...,"estimated_time_to_regain_access":5}]})
// and X-App-Usage (one report), as a duration; 0 when neither has one.
// Malformed headers count as absent.
func graphRegainAccess(h http.Header) time.Duration {
	var minutes float64
	if v := h.Get("X-Business-Use-Case-Usage"); v != "" {
		var byID map[string][]graphUsage
		if json.Unmarshal([]byte(v), &byID) == nil {
			for _, reports := range byID {
				for _, r := range reports {
					minutes = max(minutes, r.RegainAccess)
				}
			}
		}
	}
	if v := h.Get("X-App-Usage"); v != "" {
		var r graphUsage
		if json.Unmarshal([]byte(v), &r) == nil {
			minutes = max(minutes, r.RegainAccess)
		}
	}
	if minutes <= 0 || math.IsNaN(minutes) {
		return 0
	}
	return time.Duration(min(minutes, maxRetryAfter.Minutes()) * float64(time.Minute)).Round(time.Second)
}

// NotConfigured returns the SERVICE_UNAVAILABLE error of a service whose
// provider is not configured; how says how to configure one.
func NotConfigured(service, how string) error {
	return envelope.Errorf(envelope.CodeServiceUnavailable, "the %s service has no data provider configured: %s", service, how)
}

// NotFound returns a NOT_FOUND error naming what was not found, keeping
// err as the cause. Adapters use it to replace the generic message of a
// 404 with one the caller understands ("user @nobody not found").
func NotFound(err error, format string, args ...any) error {
	return &envelope.Error{Code: envelope.CodeNotFound, Message: fmt.Sprintf(format, args...), Err: err}
}

// FormatProvider writes a provider for fmt as "typeName{base URL}",
// whatever the verb: what a provider's Format method does, so that no
// verb reaches the credential in the client's header.
func FormatProvider(f fmt.State, typeName string, c *Client) {
	base := ""
	if c != nil {
		base = c.BaseURL
	}
	fmt.Fprintf(f, "%s{%s}", typeName, base)
}
