package main

import (
	"fmt"
	"log/slog"
	"net/netip"
	"runtime/debug"
	"strings"
	"time"

	"github.com/quiverkit/quiver/httpapi"
)

// abuseConfig holds the flags of the server's abuse limits (issue 13):
// admission control, the failed-authentication limit and the trusted
// proxies.
type abuseConfig struct {
	memoryBudget     int64
	keyMemoryBudget  int64
	heavySlots       int
	slowWriteTimeout time.Duration
	authBurst        int
	authRate         float64
	authPrefixBurst  int
	authPrefixRate   float64
	authMaxAddresses int
	trustedProxies   []string
	getenv           func(string) string
}

// abuseFlags registers the flags of the abuse limits.
func abuseFlags(f *flags) *abuseConfig {
	a := abuseConfig{getenv: f.getenv}
	bind(f, &a.memoryBudget, "memory-budget", httpapi.DefaultMemoryBudget,
		"bytes that the requests in flight may use together, by each route's weight; past it 503 (also the Go memory limit unless GOMEMLIMIT is set); negative disables admission control")
	bind(f, &a.keyMemoryBudget, "key-memory-budget", 0,
		"share of -memory-budget one key may hold; past it 429 (0: half the budget)")
	bind(f, &a.heavySlots, "heavy-slots", 0,
		"CPU-bound requests (json/format, sitemap, hash, stack trace, CSV) run at once (0: the cores less one, at least 1)")
	bind(f, &a.slowWriteTimeout, "slow-write-timeout", httpapi.DefaultSlowWriteTimeout,
		"time allowed to write a response larger than 64 KiB to a client; negative leaves only -write-timeout")
	bind(f, &a.authBurst, "auth-failure-burst", httpapi.DefaultAuthFailureBurst,
		"failed authentications a client address may make before 429; negative disables the limit")
	bind(f, &a.authRate, "auth-failure-rate", httpapi.DefaultAuthFailureRate,
		"failed authentications per second a client address earns back")
	bind(f, &a.authPrefixBurst, "auth-failure-prefix-burst", httpapi.DefaultAuthFailurePrefixBurst,
		"failed authentications all the /64s of one IPv6 /48 may make together before the whole /48 gets 429; negative turns the /48 limit off")
	bind(f, &a.authPrefixRate, "auth-failure-prefix-rate", httpapi.DefaultAuthFailurePrefixRate,
		"failed authentications per second an IPv6 /48 earns back")
	bind(f, &a.authMaxAddresses, "auth-failure-max-addresses", httpapi.DefaultAuthFailureMaxAddresses,
		"client addresses and IPv6 /48s the failed-authentication limit tracks at most, 64 bytes each; past it new addresses share a bucket per IPv6 /32 or IPv4 /16")
	bind(f, &a.trustedProxies, "trusted-proxies", nil,
		"comma-separated IP addresses or CIDR prefixes of reverse proxies whose X-Forwarded-For is believed")
	return &a
}

// apply checks the flags (handlerSettings puts them in the
// httpapi.Config). With a memory budget and
// no GOMEMLIMIT in the environment, the budget is also the Go runtime's
// soft memory limit, so that the collector works harder before the
// process outgrows it.
func (a *abuseConfig) apply(logger *slog.Logger) error {
	for _, p := range a.trustedProxies {
		if _, err := netip.ParsePrefix(p); err == nil {
			continue
		}
		if _, err := netip.ParseAddr(p); err != nil {
			return usageError{fmt.Errorf("%s %q: not an IP address or CIDR prefix", flagName("trusted-proxies"), p)}
		}
	}
	if a.heavySlots < 0 {
		return usageError{fmt.Errorf("%s %d: must not be negative (0: the cores less one)", flagName("heavy-slots"), a.heavySlots)}
	}
	if a.authMaxAddresses < 0 {
		return usageError{fmt.Errorf("%s %d: must not be negative", flagName("auth-failure-max-addresses"), a.authMaxAddresses)}
	}
	if a.memoryBudget > 0 && strings.TrimSpace(a.getenv("GOMEMLIMIT")) == "" {
		debug.SetMemoryLimit(a.memoryBudget)
		logger.Info("Go memory limit set to the memory budget", "bytes", a.memoryBudget)
	}
	return nil
}
