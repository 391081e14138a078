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
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/llmhttp"
	"github.com/quiverkit/quiver/internal/upstream"
)

// NoModel returns the SERVICE_UNAVAILABLE error of an operation that
// needs a language model when none is configured. lead says so in the
// caller's words ("headlines needs a language model, and none is
// configured"); the message adds what to configure. setting
// names the Go field that gives one ("content.Config.LLM.Model"): it is
// the cause, which Go callers and logs read and an HTTP caller never
// does.
func NoModel(lead, setting string) error {
	return envelope.Wrap(envelope.CodeServiceUnavailable, errors.New(setting+" is not set"),
		lead+": configure a language model")
}

// statusInText finds the status code in the error texts of the OpenAI and
// Anthropic clients ("API returned unexpected status code: 429: ...") and
// of the Google client ("googleapi: Error 429: ...").
var statusInText = regexp.MustCompile(`(?:status code:|googleapi: Error) (\d{3})`)

// classify maps the error of one provider call to an *envelope.Error.
// parent is the caller's context, attempt the context of the call.
func classify(parent, attempt context.Context, rec *llmhttp.Recorder, err error) error {
	switch {
	case parent.Err() != nil && errors.Is(parent.Err(), context.Canceled):
		return envelope.Wrap(envelope.CodeUpstreamTimeout, parent.Err(),
			"the request was canceled before the language model answered")
	case attempt.Err() != nil:
		// The caller's deadline or the per-attempt timeout ran out.
		return envelope.Wrap(envelope.CodeUpstreamTimeout, deadline{err},
			"the language model did not answer in time")
	}

	status, retryAfter := rec.Get()
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

// deadline is the error of a call that ran out of time: the client's
// error, which errors.Is also finds to be context.DeadlineExceeded,
// whatever the client made of it. (errors.Join would do as much, and
// add "context deadline exceeded" on a line of its own to a text that
// says the timeout already.)
type deadline struct{ error }

func (d deadline) Is(target error) bool { return target == context.DeadlineExceeded }
func (d deadline) Unwrap() error        { return d.error }

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

// parseRetryAfter reads a Retry-After header (delay-seconds or an HTTP
// date) by the rule of every rate limit, upstream.RetryAfterOrDefault: at
// least a second, and upstream.DefaultRetryAfter when the header is
// absent or unusable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	return upstream.RetryAfterOrDefault(http.Header{"Retry-After": {v}}, now)
}
