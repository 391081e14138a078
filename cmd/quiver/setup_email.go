package main

import (
	"crypto/x509"
	"fmt"
	"os"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
)

// dnsSetup binds the flags of the shared DNS resolver (used by the email
// and web checks), one for each field of resolver.Config.
func dnsSetup(f *flags, c *config) {
	bind(f, &c.DNS.Servers, "dns-servers", nil, "comma-separated recursive DNS servers, each an IP address with an optional port (192.0.2.53, 192.0.2.53:5353, [2001:db8::53]:5353); default: the nameservers of /etc/resolv.conf")
	bind(f, &c.DNS.Timeout, "dns-timeout", 0, "timeout of one DNS query to one server; 0: the timeout of /etc/resolv.conf when -dns-servers is not set, else 2s")
	bind(f, &c.DNS.Attempts, "dns-attempts", 0, "how many times the list of DNS servers is tried; 0: the attempts of /etc/resolv.conf when -dns-servers is not set, else 2")
	bind(f, &c.DNS.CacheSize, "dns-cache-size", resolver.DefaultCacheSize, "most DNS answers cached; negative: no cache")
	bind(f, &c.DNS.MaxTTL, "dns-max-ttl", resolver.DefaultMaxTTL, "longest time a positive DNS answer is cached")
	bind(f, &c.DNS.NegativeTTL, "dns-negative-ttl", resolver.DefaultNegativeTTL, "longest time an NXDOMAIN or NODATA answer is cached")
	bind(f, &c.DNS.MaxInFlight, "dns-max-in-flight", resolver.DefaultMaxInFlight, "most DNS queries on the network at once; negative: no bound")
	bind(f, &c.DNSUDPSize, "dns-udp-size", resolver.DefaultUDPSize, "EDNS0 buffer size advertised in DNS queries, 512 to 65535")
	bind(f, &c.DNS.DNSSECOK, "dns-dnssec-ok", false, "set the DO bit on every DNS query (for servers that validate DNSSEC only for DO queries); queries always carry the AD bit")
}

// emailSetup binds the flags of package email.
func emailSetup(f *flags, c *config) {
	bind(f, &c.EmailDisposableList, "email-disposable-list", "", "file of disposable domains (one a line) replacing the embedded list")
	bind(f, &c.EmailAllowDomains, "email-allow-domains", nil, "comma-separated domains never reported disposable")
	bind(f, &c.Email.SMTP.HeloName, "smtp-helo", email.DefaultHeloName, "name sent with EHLO by the SMTP probe")
	bind(f, &c.Email.SMTP.MailFrom, "smtp-mail-from", "", "MAIL FROM address of the SMTP probe; default the null reverse path")
	bind(f, &c.Email.SMTP.Port, "smtp-port", email.DefaultSMTPPort, "port the SMTP probe connects to")
	bind(f, &c.Email.SMTP.StepTimeout, "smtp-timeout", email.DefaultStepTimeout, "timeout of the SMTP probe's connection and of each command")
	bind(f, &c.Email.SMTP.Proxy, "smtp-proxy", "", "SOCKS5 proxy of the SMTP probe and STARTTLS checks, socks5://user:password@host:port (prefer the environment variable: flags show in ps); default direct connections")
	bind(f, &c.Email.SMTP.HostConnections, "smtp-host-connections", email.DefaultHostConnections, "most SMTP connections at once to one mail server; negative: no limit")
	bind(f, &c.Email.SMTP.HostInterval, "smtp-host-interval", email.DefaultHostInterval, "least time between the starts of two SMTP connections to one mail server; negative: none")
	bind(f, &c.Email.SMTP.SkipCatchAll, "smtp-skip-catch-all", false, "skip the SMTP probe's catch-all test (a second RCPT TO a random address); smtp_verified then stays false")
	bind(f, &c.Email.SMTP.MaxHosts, "smtp-max-hosts", email.DefaultSMTPHosts, "how many MX hosts the SMTP probe tries when connecting fails")
	bind(f, &c.Email.SMTP.AllowPrivateAddresses, "smtp-allow-private-addresses", false, "let the SMTP probe and STARTTLS checks connect to MX hosts on loopback, private and other non-public addresses (internal deployments only: a domain could aim them at your network)")
	bind(f, &c.Email.DNSBLZones, "dnsbl-zones", nil, "comma-separated DNSBL zones in which domain health looks up the MX addresses; default none (public DNSBLs refuse queries through large public resolvers: use your own resolver or a paid query service)")
	bind(f, &c.MTASTSRoots, "mta-sts-roots", "", "PEM file of root certificates that MTA-STS policy hosts may also chain to, besides the system roots (a private CA)")
	bind(f, &c.Email.MTASTS.Port, "mta-sts-port", 443, "HTTPS port of the MTA-STS policy hosts")
	bind(f, &c.Email.MTASTS.Timeout, "mta-sts-timeout", mailauth.DefaultMTASTSTimeout, "timeout of one MTA-STS policy fetch: connection, TLS and body")
	bind(f, &c.Email.MTASTS.AllowLoopback, "mta-sts-allow-loopback", false, "let the MTA-STS policy fetch reach loopback addresses")
	bind(f, &c.Email.MTASTS.AllowPrivateAddresses, "mta-sts-allow-private-addresses", false, "let the MTA-STS policy fetch reach loopback, private and other non-public addresses (internal deployments only: a domain could aim it at your network)")
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
