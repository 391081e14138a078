package httpapi

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/secret"
)

func from(addr string) func(*http.Request) { return func(r *http.Request) { r.RemoteAddr = addr } }

func TestAuthFailureLimit(t *testing.T) {
	h := testServer(t, Config{AuthFailureBurst: 3, AuthFailureRate: 0.001, RatePerSecond: -1}, echoRoutes()...)
	attacker, other := from("192.0.2.1:4000"), from("192.0.2.2:4000")
	for i := range 3 {
		res := do(t, h, "POST", "/v1/test/echo", `{}`, attacker, header("X-Gateway-Key", "guess-"+strconv.Itoa(i)))
		checkEnvelope(t, res, 401, envelope.CodeUnauthorized)
	}
	refused := 0
	for i := range 1000 {
		res := do(t, h, "POST", "/v1/test/echo", `{}`, attacker, header("X-Gateway-Key", "guess-"+strconv.Itoa(i)))
		if res.status == 429 {
			refused++
		}
	}
	if refused != 1000 {
		t.Errorf("%d of 1000 wrong keys after the burst of 3 answered 429", refused)
	}
	res := do(t, h, "POST", "/v1/test/echo", `{}`, attacker)
	checkEnvelope(t, res, 429, envelope.CodeRateLimitExceeded)
	if ra, err := strconv.Atoi(res.header.Get("Retry-After")); err != nil || ra < 1 {
		t.Errorf("Retry-After = %q", res.header.Get("Retry-After"))
	}
	if !strings.Contains(res.env.Error.Message, "failed authentications") {
		t.Errorf("message %q", res.env.Error.Message)
	}
	// The right key from another address is not affected, nor is an IPv6
	// client in another /64.
	checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, other), 200, "")
	checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, from("[2001:db8:1::1]:4000")), 200, "")
	// Addresses of one IPv6 /64 share their count.
	for i := range 4 {
		do(t, h, "POST", "/v1/test/echo", `{}`, from(fmt.Sprintf("[2001:db8:2::%x]:4000", i+1)), header("X-Gateway-Key", "nope"))
	}
	checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, from("[2001:db8:2::99]:4000")), 429, envelope.CodeRateLimitExceeded)

	t.Run("disabled", func(t *testing.T) {
		h := testServer(t, Config{AuthFailureBurst: -1, RatePerSecond: -1}, echoRoutes()...)
		for range 50 {
			checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`, attacker, header("X-Gateway-Key", "x")), 401, envelope.CodeUnauthorized)
		}
	})
}

func TestTrustedProxies(t *testing.T) {
	h := testServer(t, Config{AuthFailureBurst: 2, AuthFailureRate: 0.001, RatePerSecond: -1, TrustedProxies: []string{"10.0.0.0/8", "192.0.2.10"}}, echoRoutes()...)
	wrong := header("X-Gateway-Key", "wrong")
	fail := func(peer, xff string) result {
		return do(t, h, "POST", "/v1/test/echo", `{}`, from(peer), wrong, header("X-Forwarded-For", xff))
	}
	// An untrusted peer cannot spread its failures over forged addresses.
	for i := range 2 {
		checkEnvelope(t, fail("198.51.100.7:1", "203.0.113."+strconv.Itoa(i)), 401, envelope.CodeUnauthorized)
	}
	checkEnvelope(t, fail("198.51.100.7:1", "203.0.113.99"), 429, envelope.CodeRateLimitExceeded)
	// Behind trusted proxies, the client is the last untrusted hop; what
	// the client wrote before it is not believed.
	for range 2 {
		checkEnvelope(t, fail("10.1.2.3:1", "1.1.1.1, 203.0.113.50, 192.0.2.10"), 401, envelope.CodeUnauthorized)
	}
	checkEnvelope(t, fail("10.9.9.9:1", "8.8.8.8, 203.0.113.50"), 429, envelope.CodeRateLimitExceeded)
	// Other clients of the same proxy are not affected.
	res := do(t, h, "POST", "/v1/test/echo", `{}`, from("10.1.2.3:1"), header("X-Forwarded-For", "203.0.113.51"))
	checkEnvelope(t, res, 200, "")
}

func TestDuplicateGatewayHeaders(t *testing.T) {
	h := testServer(t, Config{Keys: []secret.String{testKey, "other-key-0123456789"}, RatePerSecond: -1}, echoRoutes()...)
	for _, tc := range []struct{ name, header, second string }{
		{"right then wrong key", "X-Gateway-Key", "wrong"},
		{"the same key twice", "X-Gateway-Key", testKey},
		{"two right keys", "X-Gateway-Key", "other-key-0123456789"},
		{"two hosts", "X-Gateway-Host", "api.test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := do(t, h, "POST", "/v1/test/echo", `{}`, func(r *http.Request) { r.Header.Add(tc.header, tc.second) })
			checkEnvelope(t, res, 401, envelope.CodeUnauthorized)
		})
	}
}

func TestShortKeyWarning(t *testing.T) {
	var logs testutil.SyncBuffer
	newServer(Config{Keys: []secret.String{"abcde", "0123456789abcdef", "ééééééééééééééé"}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	l := logs.String()
	if strings.Count(l, "too short") != 2 || !strings.Contains(l, "key_index=0 length=5") || !strings.Contains(l, "key_index=2 length=15") {
		t.Errorf("want warnings for keys 0 and 2:\n%s", l)
	}
	if strings.Contains(l, "abcde") || strings.Contains(l, "éé") {
		t.Errorf("the log shows a key:\n%s", l)
	}
}

func TestUncleanPathsAre404Envelopes(t *testing.T) {
	h := testServer(t, Config{}, echoRoutes()...)
	for _, p := range []string{"//v1/test/echo", "/v1/x/../test/echo", "/v1/./test/echo", "/v1//test/echo", "/v1/test/echo/.", "//healthz"} {
		res := do(t, h, "POST", "/", `{}`, func(r *http.Request) { r.URL.Path = p })
		checkEnvelope(t, res, 404, envelope.CodeNotFound)
		if res.header.Get("Location") != "" {
			t.Errorf("%s: Location %q", p, res.header.Get("Location"))
		}
	}
	checkEnvelope(t, do(t, h, "POST", "/v1/test/echo", `{}`), 200, "")
	checkEnvelope(t, do(t, h, "GET", "/healthz", ``), 200, "")
}

// rawRequest writes a request by hand on conn and returns the response.
func rawResponse(t *testing.T, conn net.Conn) (*http.Response, string) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the response: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestTricklingBodyIs408(t *testing.T) {
	srv := httptest.NewUnstartedServer(testServer(t, Config{}, echoRoutes()...))
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Start()
	defer srv.Close()
	conn := dialRequest(t, srv, "POST /v1/test/echo HTTP/1.1\r\nHost: x\r\nX-Gateway-Key: "+testKey+"\r\nX-Gateway-Host: api.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":")
	defer conn.Close()
	resp, body := rawResponse(t, conn) // the rest of the body never comes
	if resp.StatusCode != 408 || !strings.Contains(body, `"code":"REQUEST_TIMEOUT"`) {
		t.Errorf("status %d, body %s", resp.StatusCode, body)
	}
}

// blocking returns a route at path that holds its request until release
// is closed, and signals each arrival on started.
func blocking(method, path string, started chan<- struct{}, release <-chan struct{}) route {
	return route{
		method: method, path: path, group: groupDev, response: typeOf[struct{}](),
		op: func(r *http.Request) (any, *llm.Usage, error) {
			started <- struct{}{}
			<-release
			return struct{}{}, nil, nil
		},
	}
}

func TestAdmission(t *testing.T) {
	started, release := make(chan struct{}, 16), make(chan struct{})
	s := newServer(Config{
		Keys: []secret.String{"key-a-0123456789", "key-b-0123456789", "key-c-0123456789"}, RatePerSecond: -1,
		MemoryBudget: 4 * baseWeight, KeyMemoryBudget: 2 * baseWeight, HeavySlots: 1,
	})
	h := s.handler([]route{
		blocking("GET", "/v1/test/block", started, release),
		// A heavy route: the row, not its path, says so.
		blocking("GET", "/v1/test/heavy", started, release).weigh(heavyKind),
	})
	get := func(path, key string) result {
		return do(t, h, "GET", path, "", header("X-Gateway-Key", key))
	}
	var wg sync.WaitGroup
	results := make(chan result, 8)
	hold := func(path, key string) {
		wg.Add(1)
		go func() { defer wg.Done(); results <- get(path, key) }()
		<-started
	}
	hold("/v1/test/block", "key-a-0123456789")
	hold("/v1/test/block", "key-a-0123456789")
	res := get("/v1/test/block", "key-a-0123456789")
	checkEnvelope(t, res, 429, envelope.CodeRateLimitExceeded)
	if res.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	hold("/v1/test/heavy", "key-b-0123456789")
	checkEnvelope(t, get("/v1/test/heavy", "key-c-0123456789"), 503, envelope.CodeServiceUnavailable) // no heavy slot
	hold("/v1/test/block", "key-b-0123456789")
	res = get("/v1/test/block", "key-c-0123456789") // the server is full
	checkEnvelope(t, res, 503, envelope.CodeServiceUnavailable)
	if res.header.Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
	if got := s.admission.inFlight(); got != 4*baseWeight {
		t.Errorf("in flight %d, want %d", got, 4*baseWeight)
	}
	close(release)
	wg.Wait()
	close(results)
	for res := range results {
		checkEnvelope(t, res, 200, "")
	}
	if got := s.admission.inFlight(); got != 0 {
		t.Errorf("in flight %d after every request ended", got)
	}
	checkEnvelope(t, get("/v1/test/block", "key-c-0123456789"), 200, "") // release is closed: it does not block
}

func TestAdmissionWeights(t *testing.T) {
	a := newAdmission(DefaultMemoryBudget, 0, 0)
	light := a.weight(kindOf(t, "/v1/dev/data/base64/encode"), 1<<20, 1<<20)
	format := a.weight(kindOf(t, "/v1/dev/data/json/format"), 1<<20, 1<<20)
	chunked := a.weight(kindOf(t, "/v1/dev/data/json/format"), -1, 1<<20)
	small := a.weight(kindOf(t, "/v1/dev/data/json/format"), 100, 1<<20)
	sitemap := a.weight(kindOf(t, "/v1/utility/sitemap/validate"), 50, 1<<20)
	if !(light < format && small < format && chunked == format && sitemap > 50<<20) {
		t.Errorf("weights: light %d, format %d, chunked %d, small %d, sitemap %d", light, format, chunked, small, sitemap)
	}
	if format > a.keyBudget {
		t.Errorf("a single request (%d) does not fit a key's share (%d)", format, a.keyBudget)
	}
	if !kindOf(t, "/v1/dev/stacktrace").heavy || !kindOf(t, "/v1/email/bulk/validate-csv").heavy || kindOf(t, "/v1/utility/dns/analyze").heavy {
		t.Error("heavy kinds misclassified")
	}
}

// kindOf returns the kind that admission control charges the route of
// the table at path.
func kindOf(t *testing.T, path string) routeKind {
	t.Helper()
	routes, _ := newServer(Config{}).routes() // a service that cannot be built still has its routes
	for _, rt := range routes {
		if rt.path == path {
			return rt.kind()
		}
	}
	t.Fatalf("no route at %s", path)
	return routeKind{}
}

// TestSlowReaderReleasesItsWeight: a client that never reads a large
// answer holds its memory only for SlowWriteTimeout, not until the
// server's WriteTimeout (none here).
func TestSlowReaderReleasesItsWeight(t *testing.T) {
	big := route{
		method: http.MethodGet, path: "/v1/test/big", group: groupDev, response: typeOf[string](),
		op: func(*http.Request) (any, *llm.Usage, error) { return strings.Repeat("x", 64<<20), nil, nil },
	}
	s := newServer(Config{Keys: []secret.String{testKey}, RatePerSecond: -1, SlowWriteTimeout: 300 * time.Millisecond})
	srv := httptest.NewServer(s.handler([]route{big}))
	defer srv.Close()
	conn := dialRequest(t, srv, "GET /v1/test/big HTTP/1.1\r\nHost: x\r\nX-Gateway-Key: "+testKey+"\r\nX-Gateway-Host: api.test\r\n\r\n")
	defer conn.Close()
	deadline := time.Now().Add(30 * time.Second)
	for s.admission.inFlight() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if s.admission.inFlight() == 0 {
		t.Fatal("the request never started")
	}
	for s.admission.inFlight() != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := s.admission.inFlight(); got != 0 {
		t.Errorf("30 s after a 300 ms write timeout, %d bytes are still in flight for a client that does not read", got)
	}
}

// TestSlowReaderFreesItsHeavySlot: a client that does not read a heavy
// route's answer holds its memory while the write lasts, but not the
// CPU slot: the next heavy request runs.
func TestSlowReaderFreesItsHeavySlot(t *testing.T) {
	big := route{
		method: http.MethodGet, path: "/v1/test/heavy", group: groupDev, response: typeOf[string](), weight: heavyKind,
		op: func(*http.Request) (any, *llm.Usage, error) { return strings.Repeat("x", 64<<20), nil, nil },
	}
	s := newServer(Config{Keys: []secret.String{testKey}, RatePerSecond: -1, HeavySlots: 1, SlowWriteTimeout: time.Minute})
	h := s.handler([]route{big})
	srv := httptest.NewServer(h)
	defer srv.Close()
	conn := dialRequest(t, srv, "GET /v1/test/heavy HTTP/1.1\r\nHost: x\r\nX-Gateway-Key: "+testKey+"\r\nX-Gateway-Host: api.test\r\n\r\n")
	defer conn.Close()
	for deadline := time.Now().Add(30 * time.Second); s.admission.inFlight() == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	// Once the first answer is encoded and being written (and not read),
	// a second heavy request runs.
	var res result
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if res = do(t, h, "GET", "/v1/test/heavy", ""); res.status != 503 {
			break
		}
	}
	checkEnvelope(t, res, 200, "")
	if s.admission.inFlight() == 0 {
		t.Error("the first request is no longer in flight: the test proves nothing")
	}
}

// dialRequest opens a connection to srv and writes a raw request on it.
func dialRequest(t *testing.T, srv *httptest.Server, request string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	return conn
}

// TestLongErrorTextsAreCut: the envelope bounds an error's texts even
// when a package quotes its input whole.
func TestLongErrorTextsAreCut(t *testing.T) {
	huge := strings.Repeat("é", 1<<19)
	loud := route{
		method: http.MethodGet, path: "/v1/test/loud", group: groupDev, response: typeOf[struct{}](),
		op: func(*http.Request) (any, *llm.Usage, error) {
			var v envelope.ValidationError
			v.Add(huge, "is "+huge)
			v.Add("short", "is fine")
			return nil, nil, v.Err()
		},
	}
	res := do(t, testServer(t, Config{}, loud), "GET", "/v1/test/loud", "")
	checkEnvelope(t, res, 400, envelope.CodeInvalidRequest)
	if len(res.raw) > 4*maxErrorText {
		t.Errorf("a %d-byte answer", len(res.raw))
	}
	d := res.env.Error.Details
	if len(d) != 2 || !strings.HasSuffix(d[0].Issue, "é… (cut)") || d[1] != (envelope.FieldIssue{Field: "short", Issue: "is fine"}) {
		t.Errorf("details %.200v", d)
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestRefusedUploadIsDrainedOnlyToMaxBody: a refused request on a route
// with a larger body limit (a job upload) is read only up to
// Config.MaxBodyBytes, and its connection is then closed.
func TestRefusedUploadIsDrainedOnlyToMaxBody(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	big := blocking(http.MethodPost, "/v1/test/upload", started, release)
	big.body, big.maxBody = typeOf[struct{}](), 1<<20
	s := newServer(Config{Keys: []secret.String{testKey}, RatePerSecond: -1, MaxBodyBytes: 1024, KeyMemoryBudget: baseWeight})
	h := s.handler([]route{big})
	go func() {
		req := httptest.NewRequest(http.MethodPost, "/v1/test/upload", strings.NewReader("{}"))
		req.Header.Set("X-Gateway-Key", testKey)
		req.Header.Set("X-Gateway-Host", "api.test")
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}()
	<-started // the key's budget is held
	for _, tt := range []struct {
		size      int
		wantClose bool
	}{{512, false}, {256 << 10, true}} {
		body := &countingReader{r: strings.NewReader(strings.Repeat("x", tt.size))}
		res := do(t, h, http.MethodPost, "/v1/test/upload", "", func(r *http.Request) { r.Body = io.NopCloser(body); r.ContentLength = -1 })
		checkEnvelope(t, res, 429, envelope.CodeRateLimitExceeded)
		if n := body.n.Load(); n > int64(tt.size) || n > 1024 {
			t.Errorf("%d-byte body: %d bytes read for a refusal, want at most MaxBodyBytes (1024)", tt.size, n)
		}
		if got := res.header.Get("Connection") == "close"; got != tt.wantClose {
			t.Errorf("%d-byte body: Connection: close %v, want %v", tt.size, got, tt.wantClose)
		}
	}
}

// Every weighted route keeps the kind its row gives it, and every other
// route is light: dropping a row's weight, or giving one to a route by
// mistake, fails here.
func TestRouteWeights(t *testing.T) {
	want := map[string]routeKind{
		"POST /v1/dev/data/hash":            heavyKind,
		"POST /v1/dev/data/json/format":     formatKind,
		"POST /v1/dev/regex/explain":        resultKind(2 << 20),
		"POST /v1/dev/stacktrace":           heavyKind,
		"POST /v1/email/bulk/validate":      resultKind(4 << 20),
		"POST /v1/email/bulk/validate-csv":  heavyKind,
		"POST /v1/email/bulk/jobs":          jobUploadKind,
		"POST /v1/utility/dns/analyze":      resultKind(1 << 20),
		"POST /v1/utility/robots/analyze":   resultKind(4 << 20),
		"POST /v1/utility/sitemap/validate": sitemapKind,
	}
	routes, _ := newServer(Config{}).routes()
	seen := 0
	for _, rt := range routes {
		key := rt.method + " " + rt.path
		k, ok := want[key]
		if !ok {
			k = lightKind
		} else {
			seen++
		}
		if rt.kind() != k {
			t.Errorf("%s is charged as %+v, want %+v", key, rt.kind(), k)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d weighted routes", seen, len(want))
	}
}
