package metrics

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Transport wraps next so that every request through it is recorded as a
// call to provider, with its outcome and duration. With a nil Metrics it
// returns next unchanged; a nil next means http.DefaultTransport.
//
//	client := &http.Client{Transport: m.Transport("instagram", base)}
func (m *Metrics) Transport(provider string, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	if m == nil {
		return next
	}
	return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		start := time.Now()
		res, err := next.RoundTrip(r)
		m.ObserveUpstream(provider, Outcome(res, err), time.Since(start))
		return res, err
	})
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Outcome classifies the result of an HTTP call as one of the Outcome
// constants.
func Outcome(res *http.Response, err error) string {
	if err != nil {
		var ne net.Error
		switch {
		case errors.Is(err, context.Canceled):
			return OutcomeCanceled
		case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
			return OutcomeTimeout
		}
		return OutcomeError
	}
	switch code := res.StatusCode; {
	case code == http.StatusTooManyRequests:
		return OutcomeRateLimited
	case code >= 500:
		return OutcomeServerError
	case code >= 400:
		return OutcomeClientError
	}
	return OutcomeOK
}
