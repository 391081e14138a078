package main

import (
	"context"
	"fmt"
	"time"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/internal/dnsx"
)

// emailSetup registers the flags of package email and of the shared DNS
// resolver (used by the email and webcheck routes).
func emailSetup(f *flags) func(context.Context, *httpapi.Config) error {
	var (
		servers []string
		timeout time.Duration
	)
	f.Strings(&servers, "dns-servers", "QUIVER_DNS_SERVERS", nil, "comma-separated recursive DNS servers (host or host:port); default: the nameservers of /etc/resolv.conf")
	f.Duration(&timeout, "dns-timeout", "QUIVER_DNS_TIMEOUT", dnsx.DefaultTimeout, "timeout of one DNS query to one server")
	return func(_ context.Context, cfg *httpapi.Config) error {
		r, err := dnsx.New(dnsx.Config{Servers: servers, Timeout: timeout})
		if err != nil {
			return fmt.Errorf("dns resolver: %w", err)
		}
		cfg.Resolver = r
		return nil
	}
}
