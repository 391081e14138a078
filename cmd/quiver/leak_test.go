package main

import (
	"testing"

	"go.uber.org/goleak"
)

// checkLeaks fails t when goroutines outlive it. The Google AI client
// (langchaingo googleai over generative-ai-go) cannot be fully closed: its
// Close leaves the gRPC connection of the cache client open, so the
// goroutines of that connection, started by any test that builds the
// client, are ignored. Quiver itself uses no gRPC.
func checkLeaks(t *testing.T) {
	t.Helper()
	goleak.VerifyNone(t,
		goleak.IgnoreAnyFunction("google.golang.org/grpc/internal/grpcsync.(*CallbackSerializer).run"),
		goleak.IgnoreAnyFunction("google.golang.org/grpc.(*addrConn).resetTransportAndUnlock"),
		goleak.IgnoreAnyFunction("google.golang.org/grpc/internal/transport.(*http2Client).reader"),
		goleak.IgnoreAnyFunction("google.golang.org/grpc.(*ccBalancerWrapper).watcher"),
	)
}
