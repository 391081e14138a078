package webcheck

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/netip"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/resolver"
)

// Config configures a [Checker]. The zero value works: checks resolve
// hosts through a resolver on the servers of /etc/resolv.conf, refuse
// private and loopback destinations, verify certificates against the
// system roots and consult no threat-intelligence source.
type Config struct {
	// Resolver answers the DNS queries of [Checker.AnalyzeDNS] and
	// resolves the hosts that are fetched. Default: a resolver built by
	// resolver.New(resolver.Config{}), on the servers of /etc/resolv.conf.
	Resolver *resolver.Resolver
	// AllowLoopback lets checks reach loopback addresses (127.0.0.0/8 and
	// ::1; the name "localhost" stays refused). Tests, examples and
	// internal deployments set it; private ranges stay refused. Default
	// false: loopback is refused like every other non-public address.
	AllowLoopback bool
	// AllowPrefixes lets checks reach these otherwise refused prefixes,
	// e.g. an internal network a deployment trusts. Default none.
	AllowPrefixes []netip.Prefix
	// RootCAs are the roots that [Checker.CheckSSL] and HTTPS fetches
	// verify certificates against. Default nil: the system roots.
	RootCAs *x509.CertPool
	// Timeout bounds each fetch, redirects and body included. Default
	// DefaultTimeout (15s).
	Timeout time.Duration
	// OperationTimeout bounds one whole check, all its fetches and lookups
	// together (URL safety follows up to ten hops, CORS sends a dozen
	// probes). When it passes, the check ends with UPSTREAM_TIMEOUT or
	// with the probes it finished, as each check documents. Default
	// DefaultOperationTimeout (45s).
	OperationTimeout time.Duration
	// MaxBodyBytes bounds each response body that is read. Default
	// DefaultMaxBodyBytes (64 MiB). A sitemap is never read past the
	// protocol's 50 MiB ([MaxSitemapSize]), whatever this says.
	MaxBodyBytes int64
	// ThreatIntel is consulted by [Checker.CheckURLSafety] for every URL of
	// the redirect chain. Default nil: heuristics only. See
	// [SafeBrowsing].
	ThreatIntel ThreatIntel
	// UserAgent is sent with every fetch, and is the agent whose rules
	// robots analysis reports. Default DefaultUserAgent.
	UserAgent string
	// Now returns the current time, against which certificate validity
	// and DaysRemaining are computed. Default time.Now.
	Now func() time.Time
}

// Defaults of [Config].
const (
	DefaultTimeout          = 15 * time.Second
	DefaultOperationTimeout = 45 * time.Second
	DefaultMaxBodyBytes     = 64 << 20
	// DefaultUserAgent is the User-Agent of fetches when Config.UserAgent
	// is empty.
	DefaultUserAgent = "QuiverBot/1.0 (+https://github.com/quiverkit/quiver)"
)

// Checker runs the web and domain checks. Build it with [New]; it is safe
// for concurrent use.
type Checker struct {
	cfg    Config
	client *safehttp.Client
}

// New returns a Checker configured by cfg, with the defaults of [Config]
// for the fields left zero. It fails only when the default resolver
// cannot be built (no usable /etc/resolv.conf); pass Config.Resolver to
// avoid reading it.
func New(cfg Config) (*Checker, error) {
	if cfg.Resolver == nil {
		r, err := resolver.New(resolver.Config{})
		if err != nil {
			return nil, err
		}
		cfg.Resolver = r
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.OperationTimeout <= 0 {
		cfg.OperationTimeout = DefaultOperationTimeout
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	opts := []safehttp.Option{
		safehttp.WithResolver(cfg.Resolver),
		safehttp.WithTimeout(cfg.Timeout),
		safehttp.WithMaxBodyBytes(cfg.MaxBodyBytes),
		safehttp.WithRootCAs(cfg.RootCAs),
		safehttp.WithUserAgent(cfg.UserAgent),
		safehttp.AllowPrefixes(cfg.AllowPrefixes...),
	}
	if cfg.AllowLoopback {
		opts = append(opts, safehttp.AllowLoopback())
	}
	return &Checker{cfg: cfg, client: safehttp.New(opts...)}, nil
}

// operation bounds one check by Config.OperationTimeout.
func (c *Checker) operation(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.cfg.OperationTimeout)
}

// fetchError classifies the error of a fetch the caller asked for: a
// refused destination is the caller's mistake (INVALID_REQUEST), a
// time-out is UPSTREAM_TIMEOUT, and anything else UPSTREAM_ERROR.
func fetchError(field string, err error) error {
	switch {
	case errors.Is(err, safehttp.ErrDestinationNotAllowed):
		return &envelope.Error{
			Code:    envelope.CodeInvalidRequest,
			Message: "destination not allowed: " + field + " must point to a public address",
			Details: []envelope.FieldIssue{{Field: field, Issue: "destination not allowed (private, loopback or special-purpose address)"}},
			Err:     err,
		}
	case safehttp.IsTimeout(err), errors.Is(err, context.DeadlineExceeded), errors.Is(err, resolver.ErrTimeout):
		return envelope.Wrap(envelope.CodeUpstreamTimeout, err, "the site did not answer in time")
	default:
		// A fixed sentence per kind of failure: the error text itself can
		// name internal addresses (the resolver's, a proxy's), so it stays
		// in Err, for the logs.
		return envelope.Wrap(envelope.CodeUpstreamError, err, "the site could not be fetched: "+fetchFailure(err))
	}
}

// fetchFailure names the kind of a fetch failure for the caller.
func fetchFailure(err error) string {
	var opErr *net.OpError
	var certErr *tls.CertificateVerificationError
	switch {
	case errors.Is(err, resolver.ErrNXDomain), errors.Is(err, resolver.ErrNoData):
		return "the host name does not resolve"
	case errors.Is(err, resolver.ErrServFail), errors.Is(err, resolver.ErrRefused):
		return "the host name could not be resolved"
	case safehttp.IsTimeout(err), errors.Is(err, context.DeadlineExceeded), errors.Is(err, resolver.ErrTimeout):
		return "it did not answer in time"
	case errors.As(err, &certErr):
		return "its TLS certificate could not be verified"
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return "no connection could be made"
	case errors.As(err, &opErr) && opErr.Op == "remote error":
		return "the TLS handshake failed"
	default:
		return "the connection or the response failed"
	}
}

// isRefused reports whether err is a destination refusal.
func isRefused(err error) bool { return errors.Is(err, safehttp.ErrDestinationNotAllowed) }
