package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/resolver"
)

// emailSetup registers the flags of package email and of the shared DNS
// resolver (used by the email and webcheck routes).
func emailSetup(f *flags) func(context.Context, *httpapi.Config) error {
	var (
		servers    []string
		timeout    time.Duration
		disposable string
		allow      []string
		smtp       email.SMTPOptions
		dnsbl      []string
	)
	f.Strings(&servers, "dns-servers", "QUIVER_DNS_SERVERS", nil, "comma-separated recursive DNS servers (host or host:port); default: the nameservers of /etc/resolv.conf")
	f.Duration(&timeout, "dns-timeout", "QUIVER_DNS_TIMEOUT", resolver.DefaultTimeout, "timeout of one DNS query to one server")
	f.String(&disposable, "email-disposable-list", "QUIVER_EMAIL_DISPOSABLE_LIST", "", "file of disposable domains (one a line) replacing the embedded list")
	f.Strings(&allow, "email-allow-domains", "QUIVER_EMAIL_ALLOW_DOMAINS", nil, "comma-separated domains never reported disposable")
	f.String(&smtp.HeloName, "smtp-helo", "QUIVER_SMTP_HELO", email.DefaultHeloName, "name sent with EHLO by the SMTP probe")
	f.String(&smtp.MailFrom, "smtp-mail-from", "QUIVER_SMTP_MAIL_FROM", "", "MAIL FROM address of the SMTP probe; default the null reverse path")
	f.Int(&smtp.Port, "smtp-port", "QUIVER_SMTP_PORT", email.DefaultSMTPPort, "port the SMTP probe connects to")
	f.Duration(&smtp.StepTimeout, "smtp-timeout", "QUIVER_SMTP_TIMEOUT", email.DefaultStepTimeout, "timeout of the SMTP probe's connection and of each command")
	f.Secret(&smtp.Proxy, "smtp-proxy", "QUIVER_SMTP_PROXY", "SOCKS5 proxy of the SMTP probe and STARTTLS checks, socks5://user:password@host:port (prefer the environment variable: flags show in ps); default direct connections")
	f.Int(&smtp.HostConnections, "smtp-host-connections", "QUIVER_SMTP_HOST_CONNECTIONS", email.DefaultHostConnections, "most SMTP connections at once to one mail server; negative: no limit")
	f.Duration(&smtp.HostInterval, "smtp-host-interval", "QUIVER_SMTP_HOST_INTERVAL", email.DefaultHostInterval, "least time between the starts of two SMTP connections to one mail server; negative: none")
	f.Strings(&dnsbl, "dnsbl-zones", "QUIVER_DNSBL_ZONES", nil, "comma-separated DNSBL zones in which domain health looks up the MX addresses; default none (public DNSBLs refuse queries through large public resolvers: use your own resolver or a paid query service)")
	return func(_ context.Context, cfg *httpapi.Config) error {
		r, err := resolver.New(resolver.Config{Servers: servers, Timeout: timeout})
		if err != nil {
			return fmt.Errorf("dns resolver: %w", err)
		}
		cfg.Resolver = r
		err = f.deps.watchDNS(func() (uint64, uint64) {
			s := r.Stats()
			return uint64(s.CacheHits), uint64(s.CacheMisses)
		})
		if err != nil {
			return fmt.Errorf("dns cache metrics: %w", err)
		}
		lists := email.DefaultLists()
		if disposable != "" {
			fh, err := os.Open(disposable)
			if err != nil {
				return fmt.Errorf("email disposable list: %w", err)
			}
			defer fh.Close()
			if lists, err = lists.WithDisposable(fh); err != nil {
				return err
			}
		}
		if len(allow) > 0 {
			lists = lists.WithAllowed(allow...)
		}
		cfg.EmailLists = lists
		smtp.ConnectTimeout = smtp.StepTimeout
		if _, err := email.New(email.Config{SMTP: smtp, DNSBLZones: dnsbl}); err != nil {
			return fmt.Errorf("email settings: %w", err)
		}
		cfg.EmailSMTP = smtp
		cfg.EmailDNSBLZones = dnsbl
		return nil
	}
}
