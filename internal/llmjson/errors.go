package llmjson

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/upstream"
	"github.com/tmc/langchaingo/llms"
)

// Transport is an http.RoundTripper for the HTTP client of a langchaingo
// provider. It passes requests to Base (http.DefaultTransport when nil)
// and, for the [Ask] call that made the request, records the status code
// and Retry-After header of an unsuccessful answer, which the provider
// clients do not report in a usable form.
type Transport struct {
	Base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err == nil && resp.StatusCode >= 400 {
		if rec, ok := r.Context().Value(recorderKey{}).(*recorder); ok {
			rec.set(resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	return resp, err
}

// HTTPClient returns an *http.Client whose transport is a [Transport]
// over http.DefaultTransport. Give it to the provider's constructor
// (openai.WithHTTPClient, anthropic.WithHTTPClient, ollama.WithHTTPClient).
func HTTPClient() *http.Client {
	return &http.Client{Transport: &Transport{}}
}

type recorderKey struct{}

// recorder holds the last failed HTTP status seen during one attempt.
type recorder struct {
	mu         sync.Mutex
	status     int
	retryAfter string
}

func (r *recorder) set(status int, retryAfter string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status, r.retryAfter = status, retryAfter
}

func (r *recorder) get() (int, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status, r.retryAfter
}

// statusInText finds the status code in the error texts of the OpenAI and
// Anthropic clients ("API returned unexpected status code: 429: ...") and
// of the Google client ("googleapi: Error 429: ...").
var statusInText = regexp.MustCompile(`(?:status code:|googleapi: Error) (\d{3})`)

// classify maps the error of one provider call to an *envelope.Error.
// parent is the caller's context, attempt the context of the call.
func classify(parent, attempt context.Context, rec *recorder, err error) error {
	switch {
	case parent.Err() != nil && errors.Is(parent.Err(), context.Canceled):
		return envelope.Wrap(envelope.CodeUpstreamTimeout, parent.Err(),
			"the request was canceled before the language model answered")
	case attempt.Err() != nil:
		// The caller's deadline or the per-attempt timeout ran out.
		return envelope.Wrap(envelope.CodeUpstreamTimeout, errors.Join(context.DeadlineExceeded, err),
			"the language model did not answer in time")
	}

	status, retryAfter := rec.get()
	if status == 0 {
		msg := err.Error()
		if m := statusInText.FindStringSubmatch(msg); m != nil {
			status, _ = strconv.Atoi(m[1])
		} else if strings.Contains(msg, "code = ResourceExhausted") { // gRPC
			status = http.StatusTooManyRequests
		}
	}
	switch {
	case status == http.StatusTooManyRequests || (status == 0 && llms.IsRateLimitError(err)):
		return &envelope.Error{
			Code:       envelope.CodeRateLimitExceeded,
			Message:    "the language model provider's rate limit was exceeded; try again later",
			RetryAfter: parseRetryAfter(retryAfter, time.Now()),
			Err:        err,
		}
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout || isTimeout(err):
		return envelope.Wrap(envelope.CodeUpstreamTimeout, err, "the language model did not answer in time")
	case status != 0:
		return envelope.Wrap(envelope.CodeUpstreamError, err,
			fmt.Sprintf("the language model provider failed (HTTP %d)", status))
	case unreachable(err):
		return envelope.Wrap(envelope.CodeUpstreamError, err, "the language model provider could not be reached")
	default:
		return envelope.Wrap(envelope.CodeUpstreamError, err, "the language model provider failed")
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	if llms.IsTimeoutError(err) {
		return true
	}
	// The OpenAI client replaces timeouts with this text.
	return strings.Contains(err.Error(), "request timeout")
}

// unreachable reports a failure to connect to the provider.
func unreachable(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	// The OpenAI client replaces network errors with this text.
	return strings.Contains(err.Error(), "failed to reach API server")
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP
// date. It returns 0 when the header is absent or unusable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	return upstream.RetryAfter(http.Header{"Retry-After": {v}}, now)
}
