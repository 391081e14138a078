package httpapi

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
)

// reqInfo is what the middleware learns about a request, shared through
// the context by pointer so that outer layers see what inner ones found.
type reqInfo struct {
	id      string
	pattern string   // the route pattern, once the mux has matched
	key     [32]byte // SHA-256 of the gateway key, once authenticated
}

type ctxKey struct{}

func info(ctx context.Context) *reqInfo {
	ri, _ := ctx.Value(ctxKey{}).(*reqInfo)
	return ri
}

// requestID returns the ID of the request that ctx belongs to, or "".
func requestID(ctx context.Context) string {
	if ri := info(ctx); ri != nil {
		return ri.id
	}
	return ""
}

func setPattern(ctx context.Context, pattern string) {
	if ri := info(ctx); ri != nil {
		ri.pattern = pattern
	}
}

// withRequestID gives every request an ID, in the context and in the
// X-Request-Id response header.
func (s *server) withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ri := &reqInfo{id: s.ids.New()}
		w.Header().Set("X-Request-Id", ri.id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, ri)))
	})
}

// statusWriter records the status a handler writes.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// withAccessLog logs one line per request: method, route, status,
// duration, size and request ID. Never the key, never the query string.
func (s *server) withAccessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		// Deferred: a stream aborted with http.ErrAbortHandler, or a panic
		// on its way to withRecovery, still leaves its line.
		defer func() {
			if !s.log.Enabled(r.Context(), slog.LevelInfo) {
				return
			}
			ri := info(r.Context())
			route := ri.pattern
			if route == "" {
				route = "unmatched"
			}
			s.log.InfoContext(r.Context(), "request",
				"method", r.Method,
				"route", route,
				"status", sw.status,
				"duration", time.Since(start),
				"bytes", sw.bytes,
				"request_id", ri.id,
			)
		}()
		next.ServeHTTP(sw, r)
	})
}

// withRecovery turns a panic into 500 INTERNAL_ERROR. The stack goes to
// the log; the client sees only the request ID.
func (s *server) withRecovery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.ErrorContext(r.Context(), "panic", "request_id", requestID(r.Context()), "panic", v, "stack", string(debug.Stack()))
			s.respond(w, r, nil, nil, errors.New("panic"))
		}()
		next.ServeHTTP(w, r)
	})
}

func hashKey(k string) [32]byte { return sha256.Sum256([]byte(k)) }

// withGateway authenticates every /v1 request by X-Gateway-Key and
// X-Gateway-Host. The key is compared in constant time against every
// configured key; a failure says nothing about which part was wrong.
func (s *server) withGateway(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isAPIPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		ticket, blocked := s.authBlocked(w, r, s.clientAddr(r))
		if blocked {
			return
		}
		given := hashKey(r.Header.Get("X-Gateway-Key"))
		keyOK := 0
		for _, k := range s.keys {
			keyOK |= subtle.ConstantTimeCompare(given[:], k[:])
		}
		host := strings.ToLower(strings.TrimSpace(r.Header.Get("X-Gateway-Host")))
		hostOK := host != "" && (s.hosts == nil || s.hosts[host])
		// Two keys or two hosts: a proxy in front may read the other one,
		// so neither is believed.
		single := len(r.Header.Values("X-Gateway-Key")) == 1 && len(r.Header.Values("X-Gateway-Host")) == 1
		if keyOK != 1 || !hostOK || !single || r.Header.Get("X-Gateway-Key") == "" {
			s.fail(w, r, envelope.CodeUnauthorized, "missing or invalid gateway credentials")
			return
		}
		s.authPassed(ticket)
		info(r.Context()).key = given
		next.ServeHTTP(w, r)
	})
}

func isAPIPath(p string) bool { return p == "/v1" || strings.HasPrefix(p, "/v1/") }

// withRateLimit applies the per-key limit to /v1 requests and reports it in
// X-RateLimit-Limit and X-RateLimit-Remaining.
func (s *server) withRateLimit(next http.Handler) http.Handler {
	if s.limiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isAPIPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		ri := info(r.Context())
		d, err := s.limiter.Allow(r.Context(), string(ri.key[:]))
		if err != nil {
			// A limiter that cannot answer (a shared store is down) must not
			// take the service down with it: fail open, and say so in the log.
			s.log.WarnContext(r.Context(), "rate limiter failed; allowing request", "request_id", ri.id, "error", err)
			s.metrics.LimiterFailed()
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(d.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
		if !d.Allowed {
			s.metrics.RateLimited()
			s.respond(w, r, nil, nil, &envelope.Error{
				Code:       envelope.CodeRateLimitExceeded,
				Message:    "rate limit exceeded; retry after " + retryAfterSeconds(d.RetryAfter) + "s",
				RetryAfter: d.RetryAfter,
			})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// withBodyLimit bounds request bodies to Config.MaxBodyBytes. Reading past
// the bound fails, and the decoder reports 413; a declared Content-Length
// over the bound is refused at once.
func (s *server) withBodyLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := s.cfg.MaxBodyBytes
		if l, ok := s.bodyLimits[r.Method+" "+r.URL.Path]; ok {
			limit = l
		}
		if r.ContentLength > limit {
			s.fail(w, r, envelope.CodePayloadTooLarge, "the request body exceeds "+strconv.FormatInt(limit, 10)+" bytes")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		next.ServeHTTP(w, r)
	})
}

// withRequestTimeout ends the context of a request to rt after
// Config.RequestTimeout, so that no operation outlives its caller's
// patience: one that is still waiting then fails with the deadline, which
// the envelope reports as UPSTREAM_TIMEOUT. A download route is exempt:
// each of its writes has its own deadline instead; so is an upload route,
// each read of whose body has its own deadline (see uploadBody).
func (s *server) withRequestTimeout(rt route, next http.Handler) http.Handler {
	if rt.upload {
		return s.withUploadDeadlines(next)
	}
	if s.cfg.RequestTimeout <= 0 || rt.download { // New turns 0 into the default
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// withUploadDeadlines gives each read of the request body its own
// deadline, in place of the server's ReadTimeout and WriteTimeout, which
// count from the start of the request and would cut a long upload or the
// answer to it.
func (s *server) withUploadDeadlines(next http.Handler) http.Handler {
	if s.cfg.SlowWriteTimeout <= 0 { // only the server's own timeouts apply
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The answer is written after the body is read and the work done:
		// the write deadline leaves it RequestTimeout for that.
		after := s.cfg.SlowWriteTimeout + max(s.cfg.RequestTimeout, 0)
		b := &uploadBody{ReadCloser: r.Body, rc: http.NewResponseController(w), read: s.cfg.SlowWriteTimeout, write: after}
		b.push()
		r.Body = b
		next.ServeHTTP(w, r)
	})
}

// uploadBody pushes the connection's deadlines forward on every read that
// brings bytes: the next read must come within read, the answer within
// write. A server without deadline support (a test recorder) is left as
// it is.
type uploadBody struct {
	io.ReadCloser
	rc          *http.ResponseController
	read, write time.Duration
}

func (b *uploadBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.push()
	}
	return n, err
}

func (b *uploadBody) push() {
	now := time.Now()
	_ = b.rc.SetReadDeadline(now.Add(b.read))
	_ = b.rc.SetWriteDeadline(now.Add(b.write))
}
