package mailauth

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/resolver"
)

// TestPolicyFetchTransient: failures on the network or on this side are
// transient (a warning); the server's certificate and a name that does
// not exist are the domain's (an error).
func TestPolicyFetchTransient(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"deadline", fmt.Errorf("fetching: %w", context.DeadlineExceeded), true},
		{"dial timeout", &net.OpError{Op: "dial", Err: &net.DNSError{Err: "i/o timeout", IsTimeout: true}}, true},
		{"refused", &net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, true},
		{"address policy", fmt.Errorf("x: %w", safehttp.ErrDestinationNotAllowed), true},
		{"dns servfail", fmt.Errorf("lookup mta-sts.x.test: %w", resolver.ErrServFail), true},
		{"dns nxdomain", fmt.Errorf("lookup mta-sts.x.test: %w", resolver.ErrNXDomain), false},
		{"no address", &net.DNSError{Err: "no addresses", IsNotFound: true}, false},
		{"unknown CA", fmt.Errorf("x: %w", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}), false},
		{"wrong host", x509.HostnameError{Host: "mta-sts.x.test", Certificate: &x509.Certificate{}}, false},
		{"other", errors.New("malformed HTTP response"), false},
	}
	for _, tt := range tests {
		if got := policyFetchTransient(tt.err); got != tt.want {
			t.Errorf("%s: %v; want %v", tt.name, got, tt.want)
		}
	}
}
