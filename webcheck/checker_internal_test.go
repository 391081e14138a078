package webcheck

import (
	"context"
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

// TestMessagesQuoteLittleInput: an error message quotes at most about
// 100 characters of the input, however long the input (issue 13: a 1 MiB
// domain got a 2 MiB answer).
func TestMessagesQuoteLittleInput(t *testing.T) {
	c, err := New(Config{Resolver: &resolver.Resolver{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	long := strings.Repeat("a", 7000)
	huge := strings.Repeat("a", 1<<20)
	for name, call := range map[string]func() error{
		"url host":  func() error { _, err := ParseURL(ctx, URLParseRequest{URL: "http://" + long + "^x/"}); return err },
		"url label": func() error { _, err := ParseURL(ctx, URLParseRequest{URL: "http://" + long + ".09/"}); return err },
		"url port":  func() error { _, err := ParseURL(ctx, URLParseRequest{URL: "http://a:" + long + "/"}); return err },
		"url ipv6":  func() error { _, err := ParseURL(ctx, URLParseRequest{URL: "http://[" + long + "]/"}); return err },
		"url idna": func() error {
			_, err := ParseURL(ctx, URLParseRequest{URL: "http://xn--" + long + "ü.com/"})
			return err
		},
		"dns domain":     func() error { _, err := c.AnalyzeDNS(ctx, DNSRequest{Domain: huge}); return err },
		"dns bad domain": func() error { _, err := c.AnalyzeDNS(ctx, DNSRequest{Domain: huge + "!"}); return err },
		"ssl domain":     func() error { _, err := c.CheckSSL(ctx, SSLRequest{Domain: huge + "!"}); return err },
		"cors url":       func() error { _, err := c.CheckCORS(ctx, CORSRequest{URL: "http://" + long + "!/"}); return err },
		"robots url":     func() error { _, err := c.AnalyzeRobots(ctx, RobotsRequest{URL: "http://" + long + "%/"}); return err },
		"sitemap url": func() error {
			_, err := c.ValidateSitemap(ctx, SitemapRequest{URL: "http://[::1" + long + "/"})
			return err
		},
		"safety url": func() error {
			_, err := c.CheckURLSafety(ctx, URLSafetyRequest{URL: "http://" + long + "%zz/"})
			return err
		},
	} {
		err := call()
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if m := err.Error(); len(m) > 300 || strings.Contains(m, strings.Repeat("a", 150)) {
			t.Errorf("%s: a %d-character message quotes too much of the input: %.200s...", name, len(m), m)
		}
	}
}
