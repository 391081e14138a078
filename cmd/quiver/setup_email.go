package main

import (
	"cmp"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"os"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/resolver"
)

// dnsFlags are the settings of the shared DNS resolver.
type dnsFlags struct {
	rc      resolver.Config // every field but UDPSize
	udpSize int
}

// registerDNSFlags registers the flags of the shared DNS resolver, one
// for each field of resolver.Config.
func registerDNSFlags(f *flags) *dnsFlags {
	d := &dnsFlags{}
	f.Strings(&d.rc.Servers, "dns-servers", "QUIVER_DNS_SERVERS", nil, "comma-separated recursive DNS servers, each an IP address with an optional port (192.0.2.53, 192.0.2.53:5353, [2001:db8::53]:5353); default: the nameservers of /etc/resolv.conf")
	f.Duration(&d.rc.Timeout, "dns-timeout", "QUIVER_DNS_TIMEOUT", resolver.DefaultTimeout, "timeout of one DNS query to one server")
	f.Int(&d.rc.Attempts, "dns-attempts", "QUIVER_DNS_ATTEMPTS", 0, "how many times the list of DNS servers is tried; 0: the attempts of /etc/resolv.conf when -dns-servers is not set, else 2")
	f.Int(&d.rc.CacheSize, "dns-cache-size", "QUIVER_DNS_CACHE_SIZE", resolver.DefaultCacheSize, "most DNS answers cached; negative: no cache")
	f.Duration(&d.rc.MaxTTL, "dns-max-ttl", "QUIVER_DNS_MAX_TTL", resolver.DefaultMaxTTL, "longest time a positive DNS answer is cached")
	f.Duration(&d.rc.NegativeTTL, "dns-negative-ttl", "QUIVER_DNS_NEGATIVE_TTL", resolver.DefaultNegativeTTL, "longest time an NXDOMAIN or NODATA answer is cached")
	f.Int(&d.rc.MaxInFlight, "dns-max-in-flight", "QUIVER_DNS_MAX_IN_FLIGHT", resolver.DefaultMaxInFlight, "most DNS queries on the network at once; negative: no bound")
	f.Int(&d.udpSize, "dns-udp-size", "QUIVER_DNS_UDP_SIZE", resolver.DefaultUDPSize, "EDNS0 buffer size advertised in DNS queries, 512 to 65535")
	f.Bool(&d.rc.DNSSECOK, "dns-dnssec-ok", "QUIVER_DNS_DNSSEC_OK", false, "set the DO bit on every DNS query (for servers that validate DNSSEC only for DO queries); queries always carry the AD bit")
	return d
}

// config is the resolver's configuration, or an error naming the flag
// whose value cannot work.
func (d *dnsFlags) config() (resolver.Config, error) {
	if d.udpSize < 512 || d.udpSize > 65535 {
		return resolver.Config{}, fmt.Errorf("-dns-udp-size (QUIVER_DNS_UDP_SIZE): %w: %d is not an EDNS0 buffer size, 512 to 65535 (RFC 6891 section 6.2.5)", resolver.ErrInvalidConfig, d.udpSize)
	}
	rc := d.rc
	rc.UDPSize = uint16(d.udpSize)
	return rc, nil
}

// emailSetup registers the flags of package email and of the shared DNS
// resolver (used by the email and webcheck routes).
func emailSetup(f *flags) func(context.Context, *httpapi.Config) error {
	var (
		disposable string
		allow      []string
		smtp       email.SMTPOptions
		dnsbl      []string
		mtasts     email.MTASTSOptions
		roots      string
	)
	dnsf := registerDNSFlags(f)
	f.String(&disposable, "email-disposable-list", "QUIVER_EMAIL_DISPOSABLE_LIST", "", "file of disposable domains (one a line) replacing the embedded list")
	f.Strings(&allow, "email-allow-domains", "QUIVER_EMAIL_ALLOW_DOMAINS", nil, "comma-separated domains never reported disposable")
	f.String(&smtp.HeloName, "smtp-helo", "QUIVER_SMTP_HELO", email.DefaultHeloName, "name sent with EHLO by the SMTP probe")
	f.String(&smtp.MailFrom, "smtp-mail-from", "QUIVER_SMTP_MAIL_FROM", "", "MAIL FROM address of the SMTP probe; default the null reverse path")
	f.Int(&smtp.Port, "smtp-port", "QUIVER_SMTP_PORT", email.DefaultSMTPPort, "port the SMTP probe connects to")
	f.Duration(&smtp.StepTimeout, "smtp-timeout", "QUIVER_SMTP_TIMEOUT", email.DefaultStepTimeout, "timeout of the SMTP probe's connection and of each command")
	f.Secret(&smtp.Proxy, "smtp-proxy", "QUIVER_SMTP_PROXY", "SOCKS5 proxy of the SMTP probe and STARTTLS checks, socks5://user:password@host:port (prefer the environment variable: flags show in ps); default direct connections")
	f.Int(&smtp.HostConnections, "smtp-host-connections", "QUIVER_SMTP_HOST_CONNECTIONS", email.DefaultHostConnections, "most SMTP connections at once to one mail server; negative: no limit")
	f.Duration(&smtp.HostInterval, "smtp-host-interval", "QUIVER_SMTP_HOST_INTERVAL", email.DefaultHostInterval, "least time between the starts of two SMTP connections to one mail server; negative: none")
	f.Bool(&smtp.SkipCatchAll, "smtp-skip-catch-all", "QUIVER_SMTP_SKIP_CATCH_ALL", false, "skip the SMTP probe's catch-all test (a second RCPT TO a random address); smtp_verified then stays false")
	f.Int(&smtp.MaxHosts, "smtp-max-hosts", "QUIVER_SMTP_MAX_HOSTS", email.DefaultSMTPHosts, "how many MX hosts the SMTP probe tries when connecting fails")
	f.Bool(&smtp.AllowPrivateAddresses, "smtp-allow-private-addresses", "QUIVER_SMTP_ALLOW_PRIVATE_ADDRESSES", false, "let the SMTP probe and STARTTLS checks connect to MX hosts on loopback, private and other non-public addresses (internal deployments only: a domain could aim them at your network)")
	f.Strings(&dnsbl, "dnsbl-zones", "QUIVER_DNSBL_ZONES", nil, "comma-separated DNSBL zones in which domain health looks up the MX addresses; default none (public DNSBLs refuse queries through large public resolvers: use your own resolver or a paid query service)")
	f.String(&roots, "mta-sts-roots", "QUIVER_MTA_STS_ROOTS", "", "PEM file of root certificates that MTA-STS policy hosts may also chain to, besides the system roots (a private CA)")
	f.Int(&mtasts.Port, "mta-sts-port", "QUIVER_MTA_STS_PORT", 443, "HTTPS port of the MTA-STS policy hosts")
	f.Duration(&mtasts.Timeout, "mta-sts-timeout", "QUIVER_MTA_STS_TIMEOUT", email.DefaultMTASTSTimeout, "timeout of one MTA-STS policy fetch: connection, TLS and body")
	f.Bool(&mtasts.AllowLoopback, "mta-sts-allow-loopback", "QUIVER_MTA_STS_ALLOW_LOOPBACK", false, "let the MTA-STS policy fetch reach loopback addresses")
	f.Bool(&mtasts.AllowPrivateAddresses, "mta-sts-allow-private-addresses", "QUIVER_MTA_STS_ALLOW_PRIVATE_ADDRESSES", false, "let the MTA-STS policy fetch reach loopback, private and other non-public addresses (internal deployments only: a domain could aim it at your network)")
	return func(_ context.Context, cfg *httpapi.Config) error {
		rc, err := dnsf.config()
		if err != nil {
			return err
		}
		r, err := resolver.New(rc)
		if err != nil {
			if errors.Is(err, resolver.ErrInvalidConfig) {
				return fmt.Errorf("-dns-servers (QUIVER_DNS_SERVERS): %w", err)
			}
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
		if roots != "" {
			if mtasts.RootCAs, err = rootsFile(roots); err != nil {
				return fmt.Errorf("-mta-sts-roots (QUIVER_MTA_STS_ROOTS): %w", err)
			}
		}
		// Each setting alone, so that the error names its flag.
		for _, c := range []struct {
			flag string
			cfg  email.Config
		}{
			{"-smtp-port (QUIVER_SMTP_PORT)", email.Config{SMTP: email.SMTPOptions{Port: smtp.Port}}},
			{"-smtp-helo (QUIVER_SMTP_HELO)", email.Config{SMTP: email.SMTPOptions{HeloName: smtp.HeloName}}},
			{"-smtp-mail-from (QUIVER_SMTP_MAIL_FROM)", email.Config{SMTP: email.SMTPOptions{MailFrom: smtp.MailFrom}}},
			{"-smtp-proxy (QUIVER_SMTP_PROXY)", email.Config{SMTP: email.SMTPOptions{Proxy: smtp.Proxy}}},
			{"-dnsbl-zones (QUIVER_DNSBL_ZONES)", email.Config{DNSBLZones: dnsbl}},
			{"-mta-sts-port (QUIVER_MTA_STS_PORT)", email.Config{MTASTS: email.MTASTSOptions{Port: mtasts.Port}}},
			{"", email.Config{SMTP: smtp, DNSBLZones: dnsbl, MTASTS: mtasts}},
		} {
			if _, err := email.New(c.cfg); err != nil {
				return fmt.Errorf("%s: %w", cmp.Or(c.flag, "email settings"), err)
			}
		}
		cfg.EmailSMTP = smtp
		cfg.EmailDNSBLZones = dnsbl
		cfg.EmailMTASTS = mtasts
		return nil
	}
}

// rootsFile returns the system roots and the certificates of the PEM
// file at path, or why there are none to add.
func rootsFile(path string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", email.ErrInvalidConfig, err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%w: %s holds no PEM certificate", email.ErrInvalidConfig, path)
	}
	return pool, nil
}
