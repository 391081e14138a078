package safehttp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/weburl"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// noResolver fails every lookup: the hostile table must be refused
// without any name being resolved.
type noResolver struct{ t *testing.T }

func (r noResolver) LookupIP(_ context.Context, host string) ([]netip.Addr, error) {
	r.t.Errorf("unexpected lookup of %q", host)
	return nil, errors.New("no resolver in this test")
}

// serveOn starts an httptest server on addr ("127.0.0.2:0").
func serveOn(t *testing.T, addr string, h http.Handler) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	s := httptest.NewUnstartedServer(h)
	s.Listener.Close()
	s.Listener = l
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func TestHostileURLsRefused(t *testing.T) {
	var hits atomic.Int32
	victim := serveOn(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "secret")
	}))
	vport := victim.Listener.Addr().(*net.TCPAddr).Port
	// The allowed test host: 127.0.0.2 only, never the rest of loopback.
	allowed := serveOn(t, "127.0.0.2:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	redirect := func(to string) string { return allowed.URL + "/?to=" + to }
	p := func(s string) string { return strings.ReplaceAll(s, "PORT", strconv.Itoa(vport)) }

	hostile := []string{
		p("http://127.0.0.1:PORT/"),
		p("http://127.0.0.1:PORT/admin"),
		p("http://127.255.255.254:PORT/"),
		p("http://localhost:PORT/"),
		p("http://LOCALHOST:PORT/"),
		p("http://api.localhost:PORT/"),
		p("http://2130706433:PORT/"),        // decimal
		p("http://0x7f000001:PORT/"),        // hex
		p("http://017700000001:PORT/"),      // octal
		p("http://0177.0.0.1:PORT/"),        // octal part
		p("http://0x7f.0x0.0x0.0x1:PORT/"),  // hex parts
		p("http://127.1:PORT/"),             // short form
		p("http://0x7f.1:PORT/"),            // short hex
		p("http://１２７.０.０.１:PORT/"),         // full-width digits
		p("http://user:pw@127.0.0.1:PORT/"), // credentials
		p("http://example.com@127.0.0.1:PORT/"),
		p("http://127.0.0.1:PORT#@example.com/"),
		"http://0/",
		"http://0.0.0.0/",
		"http://10.0.0.1/",
		"http://10.255.255.255:8080/",
		"http://172.16.0.1/",
		"http://172.31.255.254/",
		"http://192.168.0.1/",
		"http://100.64.0.1/", // CGNAT
		"http://100.100.100.200/latest/meta-data/",
		"http://169.254.169.254/latest/meta-data/", // cloud metadata
		"http://169.254.0.1/",
		"http://224.0.0.1/",       // multicast
		"http://239.255.255.250/", // SSDP multicast
		"http://255.255.255.255/", // broadcast
		"http://240.0.0.1/",       // reserved
		"http://198.18.0.1/",      // benchmark
		"http://192.0.2.1/",       // documentation
		"http://192.0.0.1/",       // IETF protocol assignments
		p("http://[::1]:PORT/"),
		"http://[::]/",
		"http://[fc00::1]/",                              // ULA
		"http://[fd00:ec2::254]/",                        // ULA (AWS metadata over IPv6)
		"http://[fe80::1]/",                              // link-local
		"http://[fe80::1%25eth0]/",                       // link-local with zone
		"http://[ff02::1]/",                              // multicast
		p("http://[::ffff:127.0.0.1]:PORT/"),             // IPv4-mapped
		"http://[::ffff:a9fe:a9fe]/",                     // IPv4-mapped metadata
		"http://[::127.0.0.1]/",                          // IPv4-compatible
		"http://[64:ff9b::7f00:1]/",                      // NAT64 of 127.0.0.1
		"http://[64:ff9b::a9fe:a9fe]/",                   // NAT64 of metadata
		"http://[2002:7f00:1::1]/",                       // 6to4 of 127.0.0.1
		"http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", // Teredo of 127.0.0.1
		"http://[2001:db8::1]/",                          // documentation
		"file:///etc/passwd",
		"gopher://127.0.0.1:70/",
		"ftp://example.com/",
		"dict://example.com:11211/",
		"http://exa mple.com/",
		// Redirects from an allowed host.
		redirect(p("http://127.0.0.1:PORT/")),
		redirect(p("http://2130706433:PORT/")),
		redirect(p("http://localhost:PORT/")),
		redirect("http://169.254.169.254/latest/meta-data/"),
		redirect("file:///etc/passwd"),
		redirect(p("http://[::1]:PORT/")),
	}
	if len(hostile) < 40 {
		t.Fatalf("only %d hostile URLs", len(hostile))
	}
	c := New(WithResolver(noResolver{t}), AllowPrefixes(netip.MustParsePrefix("127.0.0.2/32")), WithTimeout(5*time.Second))
	for _, u := range hostile {
		t.Run(u, func(t *testing.T) {
			resp, err := c.Get(context.Background(), u)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("fetched %s (status %d); want refused", u, resp.StatusCode)
			}
			if !errors.Is(err, ErrDestinationNotAllowed) {
				// A URL the one parser refuses never leaves either.
				t.Logf("not a refusal but a parse error: %v", err)
				var perr *weburl.Error
				if !errors.As(err, &perr) {
					t.Fatalf("err = %v; want ErrDestinationNotAllowed", err)
				}
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback victim was reached %d times", n)
	}
}

func TestAllowedHostAndLoopbackOption(t *testing.T) {
	srv := serveOn(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Header.Get("User-Agent"))
	}))
	if _, err := New().Get(context.Background(), srv.URL); !errors.Is(err, ErrDestinationNotAllowed) {
		t.Fatalf("default client: err = %v; want refused", err)
	}
	resp, err := New(AllowLoopback()).Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if string(b) != DefaultUserAgent {
		t.Errorf("body = %q; want the default user agent", b)
	}
}

func TestLimits(t *testing.T) {
	srv := serveOn(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Write(make([]byte, 2048))
		case "/slow":
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	}))
	c := New(AllowLoopback(), WithMaxBodyBytes(1024), WithTimeout(300*time.Millisecond), WithMaxRedirects(3))
	resp, err := c.Get(context.Background(), srv.URL+"/big")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !errors.Is(err, ErrResponseTooLarge) {
		t.Errorf("big body: err = %v; want ErrResponseTooLarge", err)
	}
	resp, err = c.Get(context.Background(), srv.URL+"/slow")
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if !IsTimeout(err) {
		t.Errorf("slow body: err = %v; want a time-out", err)
	}
	_, err = c.Get(context.Background(), srv.URL+"/loop")
	if !errors.Is(err, ErrTooManyRedirects) {
		t.Errorf("redirect loop: err = %v; want ErrTooManyRedirects", err)
	}
}

func TestParseHost(t *testing.T) {
	tests := []struct{ in, want string }{
		{"example.com", "example.com"},
		{"EXAMPLE.com", "example.com"},
		{"Bücher.de", "xn--bcher-kva.de"},
		{"a_b.example.com", "a_b.example.com"},
		{"2130706433", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"1.2.3.4.", "1.2.3.4"},
		{"0x", "0.0.0.0"},
		{"[::1]", "::1"},
		{"8.8.8.8", "8.8.8.8"},
		{"１２７.０.０.１", "127.0.0.1"},
	}
	for _, tt := range tests {
		h, err := ParseHost(tt.in)
		if err != nil || h.String() != tt.want {
			t.Errorf("ParseHost(%q) = %q, %v; want %q", tt.in, h, err, tt.want)
		}
	}
	for _, bad := range []string{"", "1.2.3.256", "1.2.3.4.5", "999999999999", "0x1g.1", "a..b", "[::1", "exa mple.com", "1.+1", "[fe80::1%25eth0]", "09.1.1.1"} {
		if _, err := ParseHost(bad); err == nil {
			t.Errorf("ParseHost(%q) succeeded; want an error", bad)
		}
	}
}

func TestDialerRefusesPrivate(t *testing.T) {
	d := NewDialer(WithResolver(noResolver{t}))
	for _, a := range []string{"127.0.0.1:25", "10.1.2.3:25", "[::1]:25", "[::ffff:10.0.0.1]:25"} {
		if _, err := d.DialContext(context.Background(), "tcp", a); !errors.Is(err, ErrDestinationNotAllowed) {
			t.Errorf("DialContext(%s): err = %v; want refused", a, err)
		}
	}
	if _, err := d.DialContext(context.Background(), "udp", "8.8.8.8:53"); !errors.Is(err, ErrDestinationNotAllowed) {
		t.Errorf("udp: err = %v; want refused", err)
	}
}

func TestDNSAnswersChecked(t *testing.T) {
	var hits atomic.Int32
	srv := serveOn(t, "127.0.0.2:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if to := r.URL.Query().Get("to"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		io.WriteString(w, "ok")
	}))
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	ns := resolvertest.Start(t, resolvertest.Config{Zone: `
good.test.      60 IN A    127.0.0.2
private.test.   60 IN A    10.0.0.1
loop.test.      60 IN A    127.0.0.1
meta.test.      60 IN CNAME metadata.test.
metadata.test.  60 IN A    169.254.169.254
mixed.test.     60 IN A    127.0.0.2
mixed.test.     60 IN A    192.168.1.1
mapped.test.    60 IN AAAA ::ffff:127.0.0.2
ula.test.       60 IN AAAA fd00::1
`})
	res, err := resolver.New(resolver.Config{Servers: []string{ns.Addr}})
	if err != nil {
		t.Fatal(err)
	}
	c := New(WithResolver(res), AllowPrefixes(netip.MustParsePrefix("127.0.0.2/32")), WithTimeout(5*time.Second))

	resp, err := c.Get(context.Background(), "http://good.test:"+port+"/")
	if err != nil {
		t.Fatalf("allowed host: %v", err)
	}
	resp.Body.Close()

	for _, u := range []string{
		"http://private.test:" + port + "/",
		"http://loop.test:" + port + "/",
		"http://meta.test/latest/meta-data/",
		"http://mixed.test:" + port + "/",
		"http://mapped.test:" + port + "/",
		"http://ula.test/",
		"http://good.test:" + port + "/?to=http://private.test:" + port + "/",
		"http://good.test:" + port + "/?to=http://loop.test:" + port + "/",
	} {
		before := hits.Load()
		resp, err := c.Get(context.Background(), u)
		if err == nil {
			resp.Body.Close()
			t.Errorf("%s: fetched; want refused", u)
			continue
		}
		if !errors.Is(err, ErrDestinationNotAllowed) {
			t.Errorf("%s: err = %v; want ErrDestinationNotAllowed", u, err)
		}
		if strings.Contains(u, "?to=") {
			before++ // the allowed first hop
		}
		if hits.Load() != before {
			t.Errorf("%s: a refused host was reached", u)
		}
	}
}

// rebinder answers an allowed address first and loopback afterwards, as a
// DNS rebinding attacker would.
type rebinder struct{ calls atomic.Int32 }

func (r *rebinder) LookupIP(context.Context, string) ([]netip.Addr, error) {
	if r.calls.Add(1) == 1 {
		return []netip.Addr{netip.MustParseAddr("127.0.0.2")}, nil
	}
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

func TestDNSRebindingCannotPass(t *testing.T) {
	var victimHits atomic.Int32
	victim := serveOn(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { victimHits.Add(1) }))
	port := strconv.Itoa(victim.Listener.Addr().(*net.TCPAddr).Port)
	// The allowed host listens on the same port on 127.0.0.2 when it can.
	l, err := net.Listen("tcp", "127.0.0.2:"+port)
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2:%s: %v", port, err)
	}
	allowed := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "allowed") }))
	allowed.Listener.Close()
	allowed.Listener = l
	allowed.Start()
	defer allowed.Close()

	r := &rebinder{}
	c := New(WithResolver(r), AllowPrefixes(netip.MustParsePrefix("127.0.0.2/32")))
	resp, err := c.Get(context.Background(), "http://rebind.test:"+port+"/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "allowed" || victimHits.Load() != 0 {
		t.Errorf("body %q, victim hits %d: the connection did not go to the checked address", b, victimHits.Load())
	}
	// A second connection resolves again, gets loopback, and is refused.
	c.transport.CloseIdleConnections()
	if _, err := c.Get(context.Background(), "http://rebind.test:"+port+"/"); !errors.Is(err, ErrDestinationNotAllowed) {
		t.Errorf("after rebinding: err = %v; want refused", err)
	}
	if victimHits.Load() != 0 {
		t.Error("the rebound name reached the victim")
	}
}

func BenchmarkParseHost(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ParseHost("www.example.com")
		ParseHost("0x7f.1")
		ParseHost("[2001:db8::1]")
	}
}

// TestDoTimeoutCoversRedirects: the client's timeout bounds a whole fetch,
// redirects included, as DefaultTimeout documents, not each hop alone.
func TestDoTimeoutCoversRedirects(t *testing.T) {
	const hop = 250 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(hop)
		if n := len(r.URL.Path); n < 5 {
			http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
			return
		}
		w.Write([]byte("done"))
	}))
	defer srv.Close()
	c := New(AllowLoopback(), WithTimeout(3*hop))
	resp, err := c.Get(context.Background(), srv.URL+"/")
	if err == nil {
		resp.Body.Close()
		t.Fatalf("a chain of 5 hops of %v each finished within a timeout of %v", hop, 3*hop)
	}
	if !IsTimeout(err) {
		t.Errorf("err = %v; want a time-out", err)
	}

	c = New(AllowLoopback(), WithTimeout(20*hop))
	resp, err = c.Get(context.Background(), srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(b) != "done" {
		t.Errorf("body = %q, %v; want done", b, err)
	}
}

// TestParseHostErrorsQuoteLittle: an error quotes at most about 100
// bytes of the host, however long the host.
func TestParseHostErrorsQuoteLittle(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	for _, h := range []string{"[" + long, "[" + long + "]", long + ":x", long + "%zz", long + "\xff", "xn--" + long + "ü", long + "!", long + ".1", long + "..b", long + ".com"} {
		_, err := ParseHost(h)
		if err == nil {
			t.Errorf("ParseHost(%.20q...) = nil error", h)
			continue
		}
		if m := err.Error(); len(m) > 300 {
			t.Errorf("ParseHost(%.20q...): a %d-byte message: %.200s", h, len(m), m)
		}
	}
}

// Do reads a redirect's Location as a browser does (the WHATWG URL
// Standard, through the one parser), not as net/url does: the backslash
// ends the host, so the hop goes to 127.0.0.1 with the path
// "/@example.com/". net/url refused this Location outright.
func TestDoFollowsRedirectsWithTheOneParser(t *testing.T) {
	var got []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.EscapedPath())
		mu.Unlock()
		if r.URL.Path == "/start" {
			w.Header().Set("Location", "http://"+r.Host+`\@example.com/`)
			w.WriteHeader(http.StatusFound)
		}
	}))
	defer srv.Close()
	resp, err := New(AllowLoopback()).Get(context.Background(), srv.URL+"/start")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"/start", "/@example.com/"}; !slices.Equal(got, want) {
		t.Errorf("paths asked = %q, want %q", got, want)
	}
	// Without loopback allowed, the same hop is refused before it is sent.
	if _, err := New().Get(context.Background(), "http://"+srv.Listener.Addr().String()+`\@example.com/`); !errors.Is(err, ErrDestinationNotAllowed) {
		t.Errorf("err = %v, want ErrDestinationNotAllowed", err)
	}
}

// TestRefusalSaysItsCauseOnce: a refused name says the sentinel once and
// which address it resolves to; a name that does not resolve gives the
// resolver's error, which names it, without naming it again.
func TestRefusalSaysItsCauseOnce(t *testing.T) {
	ns := resolvertest.Start(t, resolvertest.Config{Zone: "loop.test. 60 IN A 127.0.0.1\n", ServFail: []string{"servfail.test"}})
	res, err := resolver.New(resolver.Config{Servers: []string{ns.Addr}, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	d := NewDialer(WithResolver(res))
	_, err = d.Resolve(context.Background(), "loop.test")
	want := "destination not allowed: loop.test resolves to 127.0.0.1, which is a special-purpose address (prohibited IP address)"
	if err == nil || err.Error() != want || !errors.Is(err, ErrDestinationNotAllowed) {
		t.Errorf("loop.test: err = %v\n\twant %s", err, want)
	}
	_, err = d.Resolve(context.Background(), "servfail.test")
	var le *resolver.LookupError
	if !errors.As(err, &le) || strings.Count(err.Error(), "servfail.test") != 1 {
		t.Errorf("servfail.test: err = %v; want the resolver's error, naming the host once", err)
	}
}
