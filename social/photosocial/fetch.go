package photosocial

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
)

// DefaultMaxResponseBytes bounds a provider's response body.
const DefaultMaxResponseBytes = 8 << 20

// fetcher sends provider requests and maps failures to envelope errors.
// The secret (the provider's token) is scrubbed from every error text.
type fetcher struct {
	client   *http.Client
	maxBytes int64
	name     string // provider name for messages
	secret   string
}

// do sends req and returns the body of a 2xx answer. Non-2xx answers are
// handed to classify (when non-nil) with their body; a nil result falls
// back to the generic mapping: 404 NOT_FOUND, 429 RATE_LIMIT_EXCEEDED
// with Retry-After, 408 and 504 UPSTREAM_TIMEOUT, anything else
// UPSTREAM_ERROR.
func (f *fetcher) do(req *http.Request, classify func(status int, body []byte) error) ([]byte, error) {
	hc := f.client
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, f.transportError(req.Context(), err)
	}
	defer resp.Body.Close()
	max := f.maxBytes
	if max <= 0 {
		max = DefaultMaxResponseBytes
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, f.transportError(req.Context(), err)
	}
	if int64(len(body)) > max {
		return nil, envelope.Errorf(envelope.CodeUpstreamError, "the %s provider's response exceeds %d bytes", f.name, max)
	}
	if resp.StatusCode/100 == 2 {
		return body, nil
	}
	if classify != nil {
		if err := classify(resp.StatusCode, body); err != nil {
			return nil, withRetryAfter(err, resp.Header)
		}
	}
	return nil, f.statusError(resp.StatusCode, resp.Header)
}

// getJSON sends req and decodes a 2xx body into out.
func (f *fetcher) getJSON(req *http.Request, out any, classify func(int, []byte) error) error {
	body, err := f.do(req, classify)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, out); err != nil {
		return envelope.Errorf(envelope.CodeUpstreamError, "the %s provider sent a malformed response", f.name)
	}
	return nil
}

func (f *fetcher) statusError(status int, h http.Header) error {
	switch {
	case status == http.StatusNotFound:
		return envelope.Errorf(envelope.CodeNotFound, "the %s provider found no such object", f.name)
	case status == http.StatusTooManyRequests:
		return withRetryAfter(envelope.Errorf(envelope.CodeRateLimitExceeded, "the %s provider's rate limit was reached; retry later", f.name), h)
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		return envelope.Errorf(envelope.CodeUpstreamTimeout, "the %s provider timed out", f.name)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return envelope.Errorf(envelope.CodeUpstreamError, "the %s provider refused the configured credentials (HTTP %d)", f.name, status)
	}
	return envelope.Errorf(envelope.CodeUpstreamError, "the %s provider failed with HTTP %d", f.name, status)
}

// withRetryAfter copies a Retry-After header (seconds or an HTTP date)
// into a RATE_LIMIT_EXCEEDED error that has none.
func withRetryAfter(err error, h http.Header) error {
	var e *envelope.Error
	if !errors.As(err, &e) || e.Code != envelope.CodeRateLimitExceeded || e.RetryAfter > 0 {
		return err
	}
	ra := strings.TrimSpace(h.Get("Retry-After"))
	if n, perr := strconv.Atoi(ra); perr == nil && n > 0 {
		e.RetryAfter = time.Duration(n) * time.Second
	} else if t, perr := http.ParseTime(ra); perr == nil {
		if d := time.Until(t); d > 0 {
			e.RetryAfter = d.Round(time.Second)
		}
	}
	return e
}

func (f *fetcher) transportError(ctx context.Context, err error) error {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return envelope.Errorf(envelope.CodeUpstreamTimeout, "the %s provider did not answer in time", f.name)
	}
	if ctx.Err() != nil {
		return envelope.Errorf(envelope.CodeUpstreamTimeout, "the request was cancelled while waiting for the %s provider", f.name)
	}
	// The transport's text may hold the URL; keep it out of the message
	// and scrub the secret from the logged cause.
	return envelope.Wrap(envelope.CodeUpstreamError, scrubbed{err, f.secret}, fmt.Sprintf("the %s provider could not be reached", f.name))
}

// scrubbed is an error whose text has a secret replaced.
type scrubbed struct {
	err    error
	secret string
}

func (s scrubbed) Error() string {
	if s.secret == "" {
		return s.err.Error()
	}
	return strings.ReplaceAll(s.err.Error(), s.secret, "[redacted]")
}

func (s scrubbed) Unwrap() error { return s.err }
