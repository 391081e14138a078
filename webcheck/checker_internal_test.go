package webcheck

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/resolver"
)

func TestFetchErrorHidesInternalText(t *testing.T) {
	server := "10.9.8.7:53"
	tests := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("lookup via %s: %w", server, resolver.ErrNXDomain), "the host name does not resolve"},
		{fmt.Errorf("lookup via %s: %w", server, resolver.ErrServFail), "the host name could not be resolved"},
		{&net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.ParseIP("10.9.8.7"), Port: 443}, Err: errors.New("connection refused")}, "no connection could be made"},
		{fmt.Errorf("get: %w", &tls.CertificateVerificationError{Err: errors.New("x509: unknown authority " + server)}), "its TLS certificate could not be verified"},
		{errors.New("read tcp " + server + ": reset by peer"), "the connection or the response failed"},
	}
	for _, tt := range tests {
		e := envelope.From(fetchError("url", tt.err))
		if e.Code != envelope.CodeUpstreamError || e.Message != "the site could not be fetched: "+tt.want {
			t.Errorf("fetchError(%v) = %s %q, want UPSTREAM_ERROR %q", tt.err, e.Code, e.Message, tt.want)
		}
		if strings.Contains(e.Message, "10.9.8.7") {
			t.Errorf("message %q leaks an internal address", e.Message)
		}
		if !errors.Is(e, tt.err) && e.Err != tt.err {
			t.Errorf("the cause %v is lost", tt.err)
		}
	}
}

// TestDefaultUserAgentMatchesClient keeps the documented default in step
// with the one the fetch client sends.
func TestDefaultUserAgentMatchesClient(t *testing.T) {
	if DefaultUserAgent != safehttp.DefaultUserAgent {
		t.Errorf("DefaultUserAgent = %q; safehttp sends %q", DefaultUserAgent, safehttp.DefaultUserAgent)
	}
}
