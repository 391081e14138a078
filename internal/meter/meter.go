// Package meter lets an operation charge the memory of the answer it
// builds to whoever admitted the request, through the request's context:
// the HTTP handler's admission control puts a Meter there, and package
// email charges each domain-health result as it is finished. Without a
// Meter in the context (a library user's call) charging does nothing.
package meter

import "context"

// A Meter takes charges of memory, in bytes, for the request it belongs
// to, and refuses one that does not fit with an error saying why (an
// *envelope.Error with a Retry-After). It is safe for concurrent use.
type Meter interface {
	Charge(n int64) error
}

type ctxKey struct{}

// With returns ctx carrying m.
func With(ctx context.Context, m Meter) context.Context {
	return context.WithValue(ctx, ctxKey{}, m)
}

// From returns the Meter of ctx, or nil when it carries none: a caller
// skips measuring what nobody charges.
func From(ctx context.Context) Meter {
	m, _ := ctx.Value(ctxKey{}).(Meter)
	return m
}
