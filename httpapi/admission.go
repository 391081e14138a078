package httpapi

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/meter"
)

// Defaults of the admission control in [Config].
const (
	// DefaultMemoryBudget is the memory that the requests in flight may
	// use together, as estimated by their weights: 512 MiB.
	DefaultMemoryBudget = 512 << 20
	// DefaultSlowWriteTimeout is the time allowed to write a response
	// larger than 64 KiB to a client.
	DefaultSlowWriteTimeout = 10 * time.Second
)

// Weights of the route kinds: what one request may allocate while it runs,
// per byte of its body, measured with the bench/abuse script. A 1 MiB
// json/format with sort_keys and indent 8 allocates about 50 MB and
// answers about 8 MB; it is charged 80 MiB.
const (
	baseWeight      = 64 << 10 // every request: buffers, the envelope
	lightPerByte    = 4        // decode, validate, encode the echo
	heavyPerByte    = 16       // hash, stack trace, CSV
	formatPerByte   = 80       // json/format: a tree, the indented text, its escaped envelope
	sitemapWeight   = 64 << 20 // sitemap: up to 50 MiB inflated, whatever the body
	largeResponse   = 64 << 10 // responses above this get Config.SlowWriteTimeout
	retryAfterAdmit = time.Second
	// jobUploadWeight is a job upload's: jobs.UploadMemory (what Submit
	// holds of a file, whatever its size) and the parts around the file
	// (jobsUploadSlack), twice, for the heap's room for garbage.
	jobUploadWeight = 2 * (jobs.UploadMemory + jobsUploadSlack)
)

// routeKind is how a route is charged: the weight of its row
// (route.weigh), lightKind unless it says otherwise.
type routeKind struct {
	perByte int64 // weight per byte of the declared body
	fixed   int64 // weight whatever the body
	heavy   bool  // CPU-bound: takes one of the heavy slots
}

// The kinds of routes, by what a request costs.
var (
	// lightKind decodes, validates and encodes about its body's size.
	lightKind = routeKind{perByte: lightPerByte}
	// heavyKind is CPU-bound work over the body: a hash, a stack trace,
	// a CSV.
	heavyKind = routeKind{perByte: heavyPerByte, heavy: true}
	// formatKind is json/format's: a tree, the indented text, its
	// escaped envelope.
	formatKind = routeKind{perByte: formatPerByte, heavy: true}
	// sitemapKind is the sitemap's: up to 50 MiB inflated, whatever the
	// body.
	sitemapKind = routeKind{fixed: sitemapWeight, heavy: true}
	// jobUploadKind is a job upload's, which streams: at most
	// jobs.UploadMemory of it in memory.
	jobUploadKind = routeKind{fixed: jobUploadWeight}
)

// resultKind is the kind of a route whose result does not follow its
// small body: the weight is the result's worst case, held before the
// answer is encoded (and charged apart).
func resultKind(worst int64) routeKind { return routeKind{fixed: worst} }

// admission bounds the work in flight: a server-wide memory budget, a
// share of it per key, and slots for CPU-bound routes. A request that does
// not fit is refused at once, never queued: 429 when its key is over its
// share, 503 when the server is full.
type admission struct {
	budget, keyBudget int64
	heavySlots        int

	mu    sync.Mutex
	used  int64
	heavy int
	byKey map[[32]byte]int64
}

func newAdmission(budget, keyBudget int64, heavySlots int) *admission {
	if budget <= 0 {
		budget = DefaultMemoryBudget
	}
	if keyBudget <= 0 || keyBudget > budget {
		keyBudget = budget / 2
	}
	if heavySlots <= 0 {
		// Leave a core to the cheap routes: a sitemap or a sort may not
		// make a Base64 call wait for the scheduler.
		heavySlots = max(1, runtime.GOMAXPROCS(0)-1)
	}
	return &admission{budget: budget, keyBudget: keyBudget, heavySlots: heavySlots, byKey: make(map[[32]byte]int64)}
}

// weight is what a request of kind k with a declared body of n bytes (-1
// when unknown: the body limit) is charged, clamped so that any single
// request can run on an idle server.
func (a *admission) weight(k routeKind, n, maxBody int64) int64 {
	if n < 0 || n > maxBody {
		n = maxBody
	}
	w := baseWeight + k.fixed + k.perByte*n
	return min(w, a.keyBudget)
}

// acquire takes w for key, or says why it cannot: envelope.CodeRateLimitExceeded
// when the key is over its share, envelope.CodeServiceUnavailable when the
// server is.
func (a *admission) acquire(key [32]byte, w int64, heavy bool) envelope.Code {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.byKey[key]+w > a.keyBudget {
		return envelope.CodeRateLimitExceeded
	}
	if a.used+w > a.budget || (heavy && a.heavy >= a.heavySlots) {
		return envelope.CodeServiceUnavailable
	}
	a.used += w
	a.byKey[key] += w
	if heavy {
		a.heavy++
	}
	return ""
}

// grow adds n to the weight that key holds, as acquire does, when the
// key's share and the budget allow it.
func (a *admission) grow(key [32]byte, n int64) envelope.Code {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.byKey[key]+n > a.keyBudget {
		return envelope.CodeRateLimitExceeded
	}
	if a.used+n > a.budget {
		return envelope.CodeServiceUnavailable
	}
	a.used += n
	a.byKey[key] += n
	return ""
}

// A ticket is the weight one admitted request holds: what its kind and
// body are charged at admission, then what its answer is charged as it is
// built (package email's domain-health results through the request
// context, see internal/meter) and encoded (server.write). It implements
// meter.Meter. All of it goes back when the request ends.
type ticket struct {
	a   *admission
	key [32]byte

	mu   sync.Mutex
	held int64
}

// Charge adds n bytes to the ticket, or refuses them with the error
// answered instead of an answer that does not fit: 429 when the key is
// over its share, 503 when the server is full, each with Retry-After.
func (t *ticket) Charge(n int64) error {
	if t == nil || n <= 0 {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch t.a.grow(t.key, n) {
	case envelope.CodeRateLimitExceeded:
		return &envelope.Error{
			Code:       envelope.CodeRateLimitExceeded,
			Message:    fmt.Sprintf("the answer is too large for this key's share of the server's memory (%d MiB in flight at most); retry after %ss, or ask for less at once", t.a.keyBudget>>20, retryAfterSeconds(retryAfterAdmit)),
			RetryAfter: retryAfterAdmit,
		}
	case envelope.CodeServiceUnavailable:
		return &envelope.Error{
			Code:       envelope.CodeServiceUnavailable,
			Message:    "the server's memory budget cannot hold this answer with the work in flight; retry after " + retryAfterSeconds(retryAfterAdmit) + "s",
			RetryAfter: retryAfterAdmit,
		}
	}
	t.held += n
	return nil
}

// release gives back all the ticket holds.
func (t *ticket) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.a.release(t.key, t.held)
	t.held = 0
}

// release gives back the weight w that key acquired. A heavy slot goes
// back apart, through releaseHeavy, as soon as the answer starts.
func (a *admission) release(key [32]byte, w int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.used -= w
	if a.byKey[key] -= w; a.byKey[key] <= 0 {
		delete(a.byKey, key)
	}
}

// releaseHeavy gives back one heavy slot.
func (a *admission) releaseHeavy() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.heavy--
}

// admit wraps a route's handler in the admission control. The weight is
// held until the response is written, since a response that a client
// reads slowly holds its memory until then; the request's ticket, in its
// context, is charged its answer as it grows (see ticket).
func (s *server) admit(rt route, next http.Handler) http.Handler {
	if s.admission == nil {
		return next
	}
	k := rt.kind()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ri := info(r.Context())
		var key [32]byte
		if ri != nil {
			key = ri.key
		}
		n := r.ContentLength
		if rt.body == nil && !rt.form {
			n = 0
		}
		wt := s.admission.weight(k, n, s.cfg.MaxBodyBytes)
		code := s.admission.acquire(key, wt, k.heavy)
		if code != "" {
			// Read the body (at most MaxBodyBytes, through a small buffer)
			// before refusing: net/http closes a connection whose large
			// body is left unread, and the client, still sending, would
			// see a broken pipe instead of the 429 or 503. A route with a
			// larger limit (a job upload) is not read to its end for a
			// refusal: past MaxBodyBytes the connection closes instead.
			if n, _ := io.CopyN(io.Discard, r.Body, s.cfg.MaxBodyBytes); n == s.cfg.MaxBodyBytes {
				w.Header().Set("Connection", "close")
			}
		}
		switch code {
		case envelope.CodeRateLimitExceeded:
			s.metrics.RateLimited()
			s.respond(w, r, nil, nil, &envelope.Error{
				Code:       envelope.CodeRateLimitExceeded,
				Message:    "this key has too much work in flight; retry after " + retryAfterSeconds(retryAfterAdmit) + "s",
				RetryAfter: retryAfterAdmit,
			})
			return
		case envelope.CodeServiceUnavailable:
			s.respond(w, r, nil, nil, &envelope.Error{
				Code:       envelope.CodeServiceUnavailable,
				Message:    "the server is at its limit of work in flight; retry after " + retryAfterSeconds(retryAfterAdmit) + "s",
				RetryAfter: retryAfterAdmit,
			})
			return
		}
		t := &ticket{a: s.admission, key: key, held: wt}
		defer t.release()
		r = r.WithContext(meter.With(r.Context(), t))
		if !k.heavy {
			next.ServeHTTP(w, r)
			return
		}
		// The CPU is done once the answer is being written: the heavy slot
		// goes back then, and the weight when the write ends, for a slow
		// reader holds memory but no core.
		aw := &admittedWriter{ResponseWriter: w, done: func() { s.admission.releaseHeavy() }}
		defer aw.once.Do(aw.done)
		next.ServeHTTP(aw, r)
	})
}

// admittedWriter calls done, once, when the handler starts its answer.
type admittedWriter struct {
	http.ResponseWriter
	once sync.Once
	done func()
}

func (w *admittedWriter) WriteHeader(code int) {
	w.once.Do(w.done)
	w.ResponseWriter.WriteHeader(code)
}

func (w *admittedWriter) Write(b []byte) (int, error) {
	w.once.Do(w.done)
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *admittedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// boundWrite gives the write of a response of n bytes its own deadline
// when it is large, so that a client that does not read cannot pin the
// response (and its weight) until the server's WriteTimeout.
func (s *server) boundWrite(w http.ResponseWriter, n int) {
	if n <= largeResponse || s.cfg.SlowWriteTimeout <= 0 {
		return
	}
	// An error means the writer has no deadline to set (a recorder in a
	// test); the server's WriteTimeout still holds.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.cfg.SlowWriteTimeout))
}
