// Package llmhttp carries the HTTP status and Retry-After header of a
// language model provider's failed answer from the model client's
// transport to the call that made the request: the langchaingo clients
// turn HTTP failures into plain error strings, and some drop the status.
//
// The call puts a [Recorder] in the request's context ([WithRecorder]);
// the client's transport, [Transport] (public as llm.Transport), records
// into it.
package llmhttp

import (
	"context"
	"net/http"
	"sync"
)

// Transport is an http.RoundTripper that passes requests to Base
// (http.DefaultTransport when nil) and records the status code and
// Retry-After header of an unsuccessful answer in the Recorder of the
// request's context, if any.
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
		if rec, ok := r.Context().Value(recorderKey{}).(*Recorder); ok {
			rec.set(resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	return resp, err
}

type recorderKey struct{}

// Recorder holds the last failed HTTP status, and its Retry-After
// header, seen by a Transport during one call.
type Recorder struct {
	mu         sync.Mutex
	status     int
	retryAfter string
}

// WithRecorder returns a context whose requests record into the returned
// Recorder.
func WithRecorder(ctx context.Context) (context.Context, *Recorder) {
	rec := &Recorder{}
	return context.WithValue(ctx, recorderKey{}, rec), rec
}

func (r *Recorder) set(status int, retryAfter string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status, r.retryAfter = status, retryAfter
}

// Get returns the last failed status and its Retry-After header; 0 and
// "" when no request of the call failed through a Transport. A nil
// Recorder records nothing.
func (r *Recorder) Get() (status int, retryAfter string) {
	if r == nil {
		return 0, ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status, r.retryAfter
}
