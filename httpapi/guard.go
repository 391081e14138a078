package httpapi

import (
	"cmp"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
)

// Defaults of the failed-authentication limit in [Config].
const (
	// DefaultAuthFailureBurst is how many failed authentications a client
	// address (an IPv4 address or an IPv6 /64) may make before it is
	// answered 429.
	DefaultAuthFailureBurst = 10
	// DefaultAuthFailureRate is how many more failures per second a client
	// address earns back: one every 10 seconds.
	DefaultAuthFailureRate = 0.1
	// DefaultAuthFailurePrefixBurst is how many failed authentications
	// all the /64s of one IPv6 /48 may make together before the whole
	// /48 is answered 429.
	DefaultAuthFailurePrefixBurst = 100
	// DefaultAuthFailurePrefixRate is how many more failures per second
	// an IPv6 /48 earns back: one a second.
	DefaultAuthFailurePrefixRate = 1.0
	// DefaultAuthFailureMaxAddresses is how many client addresses and
	// IPv6 /48s the failed-authentication limit tracks at most: 6.1 MiB
	// of memory at most.
	DefaultAuthFailureMaxAddresses = 100_000
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
	if c := s.cfg; c.AuthFailureBurst >= 0 {
		s.authFailures = newFailureTable(
			cmp.Or(c.AuthFailureBurst, DefaultAuthFailureBurst), positiveOr(c.AuthFailureRate, DefaultAuthFailureRate),
			cmp.Or(c.AuthFailurePrefixBurst, DefaultAuthFailurePrefixBurst), positiveOr(c.AuthFailurePrefixRate, DefaultAuthFailurePrefixRate),
			cmp.Or(c.AuthFailureMaxAddresses, DefaultAuthFailureMaxAddresses))
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
			return nil, fmt.Errorf("holds %s, which is not an IP address or CIDR prefix", textcut.Quote(s))
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

// positiveOr returns v when it is positive, else def.
func positiveOr(v, def float64) float64 {
	if v > 0 {
		return v
	}
	return def
}

// authBlocked takes one failed authentication from the allowance of the
// client at a before its credentials are checked, and answers 429 when
// there is none left. Otherwise the caller calls authPassed with the
// ticket if the credentials are right, or answers 401 and the failure
// stays counted.
func (s *server) authBlocked(w http.ResponseWriter, r *http.Request, a netip.Addr) (failureTicket, bool) {
	if s.authFailures == nil {
		return failureTicket{}, false
	}
	tk, wait, full := s.authFailures.take(a)
	if full {
		s.log.WarnContext(r.Context(), "the failed-authentication table is full: addresses it does not track share a bucket per IPv6 /32 or IPv4 /16",
			"max_addresses", s.authFailures.capacity)
	}
	if wait <= 0 {
		return tk, false
	}
	s.refuseAuth(w, r, wait)
	return tk, true
}

// authPassed gives back the failure that authBlocked took: the
// credentials were right.
func (s *server) authPassed(tk failureTicket) {
	if s.authFailures != nil {
		s.authFailures.give(tk)
	}
}

func (s *server) refuseAuth(w http.ResponseWriter, r *http.Request, wait time.Duration) {
	s.metrics.RateLimited()
	s.respond(w, r, nil, nil, &envelope.Error{
		Code:       envelope.CodeRateLimitExceeded,
		Message:    "too many failed authentications from this address or its network; retry after " + retryAfterSeconds(wait) + "s",
		RetryAfter: wait,
	})
}

// warnShortKeys logs, at start-up, every configured key shorter than
// MinKeyLength: such a key can be guessed. Only its position and length
// are logged, never the key.
func (s *server) warnShortKeys() {
	for i, k := range s.cfg.Keys {
		if n := utf8.RuneCountInString(k.Reveal()); k != "" && n < MinKeyLength {
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
			s.fail(w, r, envelope.CodeNotFound, "no route for "+r.Method+" "+textcut.Quote(p)+": the path is not in its clean form")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// maxErrorText bounds each text of an error envelope (the message, each
// field and issue). Packages quote at most an excerpt of the input
// (textcut.Quote); this catches one that does not, so that no error
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
	const mark = "… (cut)"
	c := *e
	c.Message = textcut.Mark(e.Message, maxErrorText, mark)
	c.Details = make([]envelope.FieldIssue, len(e.Details))
	for i, d := range e.Details {
		c.Details[i] = envelope.FieldIssue{Field: textcut.Mark(d.Field, maxErrorText, mark), Issue: textcut.Mark(d.Issue, maxErrorText, mark)}
	}
	return &c
}
