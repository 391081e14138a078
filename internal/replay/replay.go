// Package replay is the machinery of the loopback provider servers of
// packages microblogtest and photosocialtest: it records the requests,
// answers the overrides a test set (a status, headers and body, or a
// delay) and otherwise the fixture its route picks, after checking the
// credential.
package replay

import (
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Route picks the fixture (a path in the server's file system) and the
// status of an authenticated request; it may set response headers. body
// is the request body, read already. An empty fixture is a 404. A route
// that writes the whole answer itself returns [Written].
type Route func(w http.ResponseWriter, r *http.Request, body []byte) (fixture string, status int)

// Written is the fixture a Route returns when it has written the answer
// itself (a body computed from fixtures, such as a page of a dataset).
const Written = "\x00written"

// Refusal is how a server answers a request without the right
// credential.
type Refusal struct {
	// Status is the HTTP status.
	Status int
	// Fixture is the body's path in the server's file system.
	Fixture string
}

// Handler serves a provider replay. Build it with [New].
type Handler struct {
	files   fs.FS
	auth    func(*http.Request) bool
	refusal Refusal
	route   Route

	mu        sync.Mutex
	requests  []string
	overrides map[string]override
}

type override struct {
	status int
	header http.Header
	body   string
	delay  time.Duration
}

// New returns the handler of a replay: auth tells whether a request
// carries the right credential, refusal answers one that does not, route
// answers the others from files.
func New(files fs.FS, auth func(*http.Request) bool, refusal Refusal, route Route) *Handler {
	return &Handler{files: files, auth: auth, refusal: refusal, route: route, overrides: map[string]override{}}
}

// Requests returns the requests served so far as "path?query".
func (h *Handler) Requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.requests...)
}

// Respond makes requests whose path starts with prefix answer status
// with header and body.
func (h *Handler) Respond(prefix string, status int, header http.Header, body string) {
	h.set(prefix, override{status: status, header: header, body: body})
}

// Delay makes requests whose path starts with prefix wait d, or until
// the client gives up, before they are answered as usual.
func (h *Handler) Delay(prefix string, d time.Duration) { h.set(prefix, override{delay: d}) }

func (h *Handler) set(prefix string, o override) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.overrides[prefix] = o
}

// match returns the override of the longest prefix of path, if any.
func (h *Handler) match(path string) (override, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	best, found := "", false
	for p := range h.overrides {
		if strings.HasPrefix(path, p) && (!found || len(p) > len(best)) {
			best, found = p, true
		}
	}
	return h.overrides[best], found
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	h.mu.Lock()
	h.requests = append(h.requests, r.URL.Path+"?"+r.URL.RawQuery)
	h.mu.Unlock()
	if o, ok := h.match(r.URL.Path); ok && o.delay > 0 {
		select {
		case <-time.After(o.delay):
		case <-r.Context().Done():
			return
		}
	} else if ok {
		for k, v := range o.header {
			w.Header()[k] = v
		}
		w.WriteHeader(o.status)
		_, _ = io.WriteString(w, o.body)
		return
	}
	name, status := h.refusal.Fixture, h.refusal.Status
	if h.auth(r) {
		name, status = h.route(w, r, body)
	}
	if name == Written {
		return
	}
	if name == "" {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(h.files, name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// Serve starts an httptest.Server of h on a free loopback port. Where
// httptest.NewServer panics when it cannot listen, Serve returns the
// error, so that the test servers' constructors can.
func Serve(h http.Handler) (*httptest.Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	s := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	s.Start()
	return s, nil
}

// Started ends the Start functions of the test servers: it fails tb
// (with Fatal) when err is not nil, and otherwise closes s when tb and
// its subtests end (tb.Cleanup).
func Started[S interface{ Close() }](tb testing.TB, s S, err error) S {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}
