package testutil

import (
	"testing"

	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// DNSServer starts a resolvertest server answering from zone and closes
// it when the test ends. A zone that does not parse fails the test.
func DNSServer(tb testing.TB, zone string, opts ...resolvertest.Option) *resolvertest.Server {
	tb.Helper()
	s, err := resolvertest.NewServer(zone, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}
