package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"path"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
)

// Defaults of the failed-authentication limit in [Config].
const (
	// DefaultAuthFailureBurst is how many failed authentications a client
	// address may make before it is answered 429.
	DefaultAuthFailureBurst = 10
	// DefaultAuthFailureRate is how many more failures per second a client
	// address earns back: one every 10 seconds.
	DefaultAuthFailureRate = 0.1
	// MinKeyLength is the shortest gateway key that New accepts without a
	// warning in the log: 16 characters.
	MinKeyLength = 16
)

// guard applies the defaults of the abuse limits: admission control, the
// failed-authentication limit, the trusted proxies, and the warning about
// short keys.
func (s *server) guard() {
	if s.cfg.MemoryBudget >= 0 {
		s.admission = newAdmission(s.cfg.MemoryBudget, s.cfg.KeyMemoryBudget, s.cfg.HeavySlots)
	}
	if s.cfg.SlowWriteTimeout == 0 {
		s.cfg.SlowWriteTimeout = DefaultSlowWriteTimeout
	}
	if s.cfg.AuthFailureBurst >= 0 {
		burst, rate := s.cfg.AuthFailureBurst, s.cfg.AuthFailureRate
		if burst == 0 {
			burst = DefaultAuthFailureBurst
		}
		if rate <= 0 {
			rate = DefaultAuthFailureRate
		}
		s.authFailures = NewMemoryLimiter(rate, burst)
	}
	// New has validated the list.
	s.proxies, _ = parseProxies(s.cfg.TrustedProxies)
	s.warnShortKeys()
}

// parseProxies reads Config.TrustedProxies: addresses or CIDR prefixes.
func parseProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %s: not an IP address or CIDR prefix", envelope.Quote(s))
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

func (s *server) trusted(a netip.Addr) bool {
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddr is the address a request comes from: the connection's peer,
// or, when the peer is a trusted proxy, the last address of
// X-Forwarded-For that is not one. A client can write anything into
// X-Forwarded-For; only what our proxies appended is believed.
func (s *server) clientAddr(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	peer = peer.Unmap()
	if len(s.proxies) == 0 || !s.trusted(peer) {
		return peer
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return peer // a hop our proxy did not write: stop believing
		}
		if a = a.Unmap(); !s.trusted(a) {
			return a
		}
		peer = a
	}
	return peer
}

// failureKey is the limiter key of a client address. An IPv6 client
// usually holds a whole /64, so that is what is counted.
func failureKey(a netip.Addr) string {
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// authBlocked answers 429 when the client address of r has used up its
// failed authentications, and reports whether it did.
func (s *server) authBlocked(w http.ResponseWriter, r *http.Request, key string) bool {
	if s.authFailures == nil {
		return false
	}
	wait := s.authFailures.wait(key)
	if wait <= 0 {
		return false
	}
	s.refuseAuth(w, r, wait)
	return true
}

// authFailed records a failed authentication from key's address and
// answers 401, or 429 when this failure used up the address's burst.
func (s *server) authFailed(w http.ResponseWriter, r *http.Request, key string) {
	if s.authFailures != nil {
		if d, _ := s.authFailures.Allow(r.Context(), key); !d.Allowed {
			s.refuseAuth(w, r, d.RetryAfter)
			return
		}
	}
	s.fail(w, r, envelope.CodeUnauthorized, "missing or invalid gateway credentials")
}

func (s *server) refuseAuth(w http.ResponseWriter, r *http.Request, wait time.Duration) {
	s.metrics.RateLimited()
	s.respond(w, r, nil, nil, &envelope.Error{
		Code:       envelope.CodeRateLimitExceeded,
		Message:    "too many failed authentications from this address; retry after " + retryAfterSeconds(wait) + "s",
		RetryAfter: wait,
	})
}

// warnShortKeys logs, at start-up, every configured key shorter than
// MinKeyLength: such a key can be guessed. Only its position and length
// are logged, never the key.
func (s *server) warnShortKeys() {
	for i, k := range s.cfg.Keys {
		if n := len([]rune(k)); k != "" && n < MinKeyLength {
			s.log.Warn("gateway key is too short to resist guessing; use at least 16 random characters",
				"key_index", i, "length", n, "min_length", MinKeyLength)
		}
	}
}

// withCleanPath answers 404 in the envelope for a path that is not in its
// clean form (//v1/x, /v1/x/../y, /v1/./x): net/http's mux would answer
// those with a redirect and an empty body, and a redirect on an API only
// hides the caller's mistake.
func (s *server) withCleanPath(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "" || p[0] != '/' || path.Clean(p) != strings.TrimSuffix(p, "/") && path.Clean(p) != p {
			s.fail(w, r, envelope.CodeNotFound, "no route for "+r.Method+" "+envelope.Quote(p)+": the path is not in its clean form")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// maxErrorText bounds each text of an error envelope (the message, each
// field and issue). Packages quote at most an excerpt of the input
// (envelope.Quote); this catches one that does not, so that no error
// answers a 1 MiB input with a 1 MiB message.
const maxErrorText = 1000

// boundError returns e, or a copy whose texts are cut to maxErrorText.
func boundError(e *envelope.Error) *envelope.Error {
	long := len(e.Message) > maxErrorText
	for _, d := range e.Details {
		long = long || len(d.Field) > maxErrorText || len(d.Issue) > maxErrorText
	}
	if !long {
		return e
	}
	c := *e
	c.Message = cutText(e.Message)
	c.Details = make([]envelope.FieldIssue, len(e.Details))
	for i, d := range e.Details {
		c.Details[i] = envelope.FieldIssue{Field: cutText(d.Field), Issue: cutText(d.Issue)}
	}
	return &c
}

func cutText(s string) string { return textcut.Mark(s, maxErrorText, "… (cut)") }
