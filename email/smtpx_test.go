package email

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/secret"
)

// proxyZone serves the MX hosts of the proxy, pacing and MX host tests.
const proxyZone = `
$ORIGIN test.
$TTL 300
@              SOA ns hostmaster 1 3600 600 86400 60
mx             MX 10 mail.mx.test.
other          MX 10 mail.mx.test.
third          MX 10 mail.mx.test.
mail.mx        A 127.0.0.1
; forward-confirmed reverse DNS: pass, fail, missing, IPv6
pass           MX 10 mail.pass.test.
mail.pass      A 192.0.2.20
mail.pass      AAAA 2001:db8::25
fail           MX 10 mail.fail.test.
mail.fail      A 192.0.2.21
elsewhere.fail A 192.0.2.99
noptr          MX 10 mail.noptr.test.
mail.noptr     A 192.0.2.22
noaddr         MX 10 gone.noaddr.test.
many           MX 10 a.many.test.
many           MX 20 b.many.test.
many           MX 30 c.many.test.
many           MX 40 d.many.test.
many           MX 50 e.many.test.
a.many         A 192.0.2.20
a.many         A 192.0.2.30
a.many         A 192.0.2.31
b.many         A 192.0.2.20
c.many         A 192.0.2.20
d.many         A 192.0.2.20
e.many         A 192.0.2.20
; a DNSBL: 192.0.2.20 listed with a reason, 192.0.2.21 answered the
; Spamhaus error code for public resolvers, 2001:db8::25 listed
20.2.0.192.bl    A 127.0.0.2
20.2.0.192.bl    TXT "Listed\009for spam: see https://bl.test/q?ip=192.0.2.20"
21.2.0.192.bl    A 127.255.255.254
5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.bl A 127.0.0.4
$ORIGIN 2.0.192.in-addr.arpa.
20             PTR mail.pass.test.
21             PTR elsewhere.fail.test.
$ORIGIN 0.0.127.in-addr.arpa.
1              PTR mail.mx.test.
$ORIGIN 8.b.d.0.1.0.0.2.ip6.arpa.
5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0 PTR mail.pass.test.
`

func proxyFixture(t *testing.T) (*resolver.Resolver, func() int) {
	t.Helper()
	srv := resolvertest.Start(t, resolvertest.Config{Zone: proxyZone})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: time.Second, Attempts: 2})
	if err != nil {
		t.Fatal(err)
	}
	return r, srv.Queries
}

func mustVerifier(t testing.TB, cfg Config) *Verifier {
	t.Helper()
	v, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// recordingDialer dials directly and records the local address of each
// connection it opens.
type recordingDialer struct {
	mu    sync.Mutex
	local []string
}

func (d *recordingDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err == nil {
		d.mu.Lock()
		d.local = append(d.local, c.LocalAddr().String())
		d.mu.Unlock()
	}
	return c, err
}

// The probe reaches the SMTP server through the proxy: the server's
// sessions come from exactly the proxy's outbound sockets, and the
// prober's own sockets (opened to the proxy) never reach it.
func TestSMTPProbeThroughSOCKS5(t *testing.T) {
	for _, tt := range []struct{ name, user, pass string }{
		{"no authentication", "", ""},
		{"user and password", "probe", "s3cret-Pa55"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := proxyFixture(t)
			mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{Known: map[string]bool{"alice@mx.test": true}})
			proxy := testutil.NewSOCKS5(t, tt.user, tt.pass)
			url := "socks5://" + proxy.Addr
			if tt.user != "" {
				url = "socks5://" + tt.user + ":" + tt.pass + "@" + proxy.Addr
			}
			rec := &recordingDialer{}
			v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: mail.Port, Proxy: secret.String(url), DialContext: rec.dial, AllowPrivateAddresses: true}})
			res := v.Validate(context.Background(), "alice@mx.test", Checks{SMTP: true})
			if res.SMTP == nil || res.SMTP.Status != SMTPVerified {
				t.Fatalf("probe through the proxy: %+v", res.SMTP)
			}
			remotes, outbound := mail.Remotes(), proxy.Outbound()
			if len(remotes) != 1 || !slices.Equal(remotes, outbound) {
				t.Errorf("the SMTP server saw %q; the proxy opened %q", remotes, outbound)
			}
			if len(rec.local) != 1 || slices.Contains(remotes, rec.local[0]) {
				t.Errorf("the prober's sockets %q reached the SMTP server (%q)", rec.local, remotes)
			}
			if want := fmt.Sprintf("127.0.0.1:%d", mail.Port); !slices.Equal(proxy.Targets(), []string{want}) {
				t.Errorf("the proxy was asked for %q, want the resolved address %s", proxy.Targets(), want)
			}
		})
	}
}

func TestSMTPProbeProxyFailures(t *testing.T) {
	r, _ := proxyFixture(t)
	const pass = "right-Pa55word"
	proxy := testutil.NewSOCKS5(t, "probe", pass)
	mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{})
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln.Addr().String()
	ln.Close()
	closedPort := ln.Addr().(*net.TCPAddr).Port
	for _, tt := range []struct {
		name, proxy string
		port        int
		reason      SMTPReason
		message     string
	}{
		{"wrong password", "socks5://probe:wrong-Pa55word@" + proxy.Addr, mail.Port, SMTPProxyError, "authentication failed"},
		{"no credentials", "socks5://" + proxy.Addr, mail.Port, SMTPProxyError, "no acceptable authentication methods"},
		{"proxy down", "socks5://probe:" + pass + "@" + closed, mail.Port, SMTPProxyError, "connection refused"},
		{"mail server down", "socks5://probe:" + pass + "@" + proxy.Addr, closedPort, SMTPPortUnreachable, "connection refused"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: tt.port, Proxy: secret.String(tt.proxy), AllowPrivateAddresses: true}})
			res := v.Validate(context.Background(), "alice@mx.test", Checks{SMTP: true})
			p := res.SMTP
			if p == nil || p.Status != SMTPUnknown || p.Reason != tt.reason || !strings.Contains(p.Message, tt.message) {
				t.Fatalf("got %+v; want reason %s with a message naming %q", p, tt.reason, tt.message)
			}
			if strings.Contains(p.Message, "Pa55word") {
				t.Errorf("the message shows a password: %s", p.Message)
			}
		})
	}
	if got := len(mail.Remotes()); got != 0 {
		t.Errorf("the SMTP server saw %d sessions through a proxy that refused", got)
	}
	if proxy.Refused() != 1 {
		t.Errorf("the proxy refused %d clients, want the one with the wrong password", proxy.Refused())
	}
}

// The MX address is still checked against the private-address policy
// when a proxy would connect to it.
func TestSMTPProbeProxyKeepsAddressPolicy(t *testing.T) {
	r, _ := proxyFixture(t)
	proxy := testutil.NewSOCKS5(t, "", "")
	v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Proxy: secret.String("socks5://" + proxy.Addr)}})
	res := v.Validate(context.Background(), "alice@mx.test", Checks{SMTP: true})
	if res.SMTP == nil || res.SMTP.Reason != SMTPForbidden || len(proxy.Targets()) != 0 {
		t.Errorf("got %+v, proxy asked for %q", res.SMTP, proxy.Targets())
	}
}

func TestNewRefusesBadProxies(t *testing.T) {
	const password = "hunter2-Secret"
	for _, p := range []secret.String{
		"http://u:" + password + "@127.0.0.1:1080",
		"socks4://u:" + password + "@127.0.0.1:1080",
		"socks5://u:" + password + "@127.0.0.1",
		"socks5://u:" + password + "@127.0.0.1:0",
		"socks5://u:" + password + "@127.0.0.1:99999",
		"socks5://u:" + password + "@:1080",
		"socks5://:" + password + "@127.0.0.1:1080",
		"socks5://u:" + password + "@127.0.0.1:1080/path",
		"socks5://u:" + password + "@127.0.0.1:1080?q=1",
		secret.String("socks5://u:" + password + strings.Repeat("x", 300) + "@127.0.0.1:1080"),
		"socks5://u:" + password + "@[::1:1080",
		"127.0.0.1:1080",
		"%zz" + password,
	} {
		_, err := New(Config{SMTP: SMTPOptions{Proxy: p}})
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "SMTP.Proxy") {
			t.Errorf("%q: err = %v, want ErrInvalidConfig naming SMTP.Proxy", p, err)
		}
		if err != nil && strings.Contains(err.Error(), password) {
			t.Errorf("%q: the error shows the password: %v", p, err)
		}
	}
	for _, p := range []secret.String{"socks5://127.0.0.1:1080", "socks5://u@127.0.0.1:1080", "SOCKS5://u:p@proxy.example:1080", "socks5://u:p%40ss@[::1]:1080/"} {
		if _, err := New(Config{SMTP: SMTPOptions{Proxy: p}}); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
}

// The proxy's credentials appear in no printed form of the options, the
// Config or the Verifier.
func TestProxyCredentialsAreRedacted(t *testing.T) {
	const user, pass = "proxyUser7", "proxyPass9"
	o := SMTPOptions{Proxy: "socks5://" + user + ":" + pass + "@127.0.0.1:1080", HeloName: "probe.example", DialContext: (&net.Dialer{}).DialContext}
	cfg := Config{SMTP: o, DNSBLZones: []string{"bl.test"}}
	v := mustVerifier(t, cfg)
	values := map[string]any{"SMTPOptions": o, "*SMTPOptions": &o, "Config": cfg, "*Config": &cfg, "*Verifier": v, "Verifier": *v, "[]any": []any{o, cfg, v}}
	for name, val := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T"} {
			out := fmt.Sprintf(verb, val)
			for _, secret := range []string{user, pass} {
				if strings.Contains(out, secret) || strings.Contains(strings.ToLower(out), fmt.Sprintf("%x", secret)) {
					t.Errorf("fmt %s of %s shows %s: %s", verb, name, secret, out)
				}
			}
		}
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("config", "v", val)
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "v", val)
		if strings.Contains(buf.String(), user) || strings.Contains(buf.String(), pass) {
			t.Errorf("slog of %s shows a credential: %s", name, buf.String())
		}
	}
	for _, val := range []any{o, cfg} {
		b, err := json.Marshal(val)
		if err != nil || bytes.Contains(b, []byte(user)) || bytes.Contains(b, []byte(pass)) {
			t.Errorf("JSON: %s, %v", b, err)
		}
	}
	// The redacted forms show the other settings.
	if got := fmt.Sprintf("%+v", o); !strings.Contains(got, "Proxy:[redacted]") || !strings.Contains(got, "HeloName:probe.example") {
		t.Errorf("%%+v = %s", got)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("smtp", "smtp", o)
	if !strings.Contains(buf.String(), `"Proxy":"[redacted]"`) || !strings.Contains(buf.String(), `"HeloName":"probe.example"`) {
		t.Errorf("slog JSON: %s", buf.String())
	}
}

func TestSMTPProbeRecordsSTARTTLS(t *testing.T) {
	r, _ := proxyFixture(t)
	for _, offered := range []bool{true, false} {
		mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{STARTTLS: offered})
		v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: mail.Port, AllowPrivateAddresses: true}})
		res := v.Validate(context.Background(), "alice@mx.test", Checks{SMTP: true})
		if res.SMTP == nil || res.SMTP.STARTTLS == nil || *res.SMTP.STARTTLS != offered {
			t.Errorf("offered %v: got %+v", offered, res.SMTP)
		}
		b, _ := json.Marshal(res.SMTP)
		if want := fmt.Sprintf(`"starttls":%v`, offered); !bytes.Contains(b, []byte(want)) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
	// A server that refuses at the greeting: no EHLO answer, null.
	v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: banner(t, "554 5.7.1 go away\r\n"), AllowPrivateAddresses: true}})
	if res := v.Validate(context.Background(), "alice@mx.test", Checks{SMTP: true}); res.SMTP == nil || res.SMTP.STARTTLS != nil {
		t.Errorf("refused at the greeting: %+v", res.SMTP)
	}
}

// countingDialer counts the connections open at once (a connection
// counts until it is closed, before the pacer frees its slot).
type countingDialer struct {
	open, peak, total atomic.Int64
}

type countedConn struct {
	net.Conn
	d    *countingDialer
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.d.open.Add(-1) })
	return c.Conn.Close()
}

func (d *countingDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	d.total.Add(1)
	n := d.open.Add(1)
	for p := d.peak.Load(); n > p && !d.peak.CompareAndSwap(p, n); p = d.peak.Load() {
	}
	return &countedConn{Conn: c, d: d}, nil
}

// probeAll probes the addresses at once with v and waits for them.
func probeAll(v *Verifier, addrs []string) []*SMTPResult {
	out := make([]*SMTPResult, len(addrs))
	var wg sync.WaitGroup
	for i, a := range addrs {
		wg.Go(func() { out[i] = v.Validate(context.Background(), a, Checks{SMTP: true}).SMTP })
	}
	wg.Wait()
	return out
}

// Probes of several domains whose MX is one server share its limit of
// connections at once.
func TestPacingLimitsConnectionsPerHost(t *testing.T) {
	r, _ := proxyFixture(t)
	const hold = 150 * time.Millisecond
	mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{Hold: hold})
	d := &countingDialer{}
	v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: mail.Port, AllowPrivateAddresses: true, DialContext: d.dial, HostInterval: -1}})
	start := time.Now()
	addrs := []string{"a@mx.test", "b@other.test", "c@third.test", "d@mx.test", "e@other.test", "f@third.test"}
	for i, res := range probeAll(v, addrs) {
		if res == nil || res.Status != SMTPCatchAll {
			t.Errorf("%s: %+v", addrs[i], res)
		}
	}
	if p := d.peak.Load(); p > DefaultHostConnections {
		t.Errorf("%d connections at once to one server, want at most %d", p, DefaultHostConnections)
	}
	// Six sessions that each hold the greeting, two at a time: at least
	// three holds one after the other.
	if el := time.Since(start); el < 3*hold {
		t.Errorf("six held sessions took %v with two at a time, want at least %v", el, 3*hold)
	}
	if n := d.total.Load(); n != int64(len(addrs)) {
		t.Errorf("%d connections, want %d", n, len(addrs))
	}
}

func TestPacingKeepsAGapBetweenStarts(t *testing.T) {
	r, _ := proxyFixture(t)
	mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{})
	const gap = 120 * time.Millisecond
	v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: mail.Port, AllowPrivateAddresses: true, HostConnections: -1, HostInterval: gap}})
	start := time.Now()
	addrs := []string{"a@mx.test", "b@other.test", "c@third.test", "d@mx.test"}
	probeAll(v, addrs)
	// The first start is after start; each later one at least gap after
	// the one before.
	if el := time.Since(start); el < time.Duration(len(addrs)-1)*gap {
		t.Errorf("%d probes took %v, want at least %v", len(addrs), el, time.Duration(len(addrs)-1)*gap)
	}
	starts := mail.Starts()
	if len(starts) != len(addrs) || starts[len(starts)-1].Sub(start) < time.Duration(len(addrs)-1)*gap {
		t.Errorf("sessions began at %v after the start", starts)
	}
	// The default: a second between starts to one server.
	v = mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: mail.Port, AllowPrivateAddresses: true}})
	start = time.Now()
	probeAll(v, addrs[:2])
	if el := time.Since(start); el < DefaultHostInterval {
		t.Errorf("two probes with the default pacing took %v, want at least %v", el, DefaultHostInterval)
	}
}

// A probe waiting for its turn gives up when its context ends, while
// the connection ahead of it is still open.
func TestPacingWaitEndsWithContext(t *testing.T) {
	r, _ := proxyFixture(t)
	mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{Hold: 2 * time.Second})
	v := mustVerifier(t, Config{Resolver: r, SMTP: SMTPOptions{Port: mail.Port, AllowPrivateAddresses: true, HostConnections: 1}})
	first := make(chan struct{})
	go func() {
		defer close(first)
		v.Validate(context.Background(), "a@mx.test", Checks{SMTP: true})
	}()
	for len(mail.Remotes()) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res := v.Validate(ctx, "b@other.test", Checks{SMTP: true})
	select {
	case <-first:
		t.Error("the waiting probe returned only after the first ended")
	default:
	}
	if res.SMTP == nil || res.SMTP.Reason != SMTPTimeout || !strings.Contains(res.SMTP.Message, "waiting for a turn") {
		t.Errorf("got %+v", res.SMTP)
	}
	<-first
	if n := len(mail.Remotes()); n != 1 {
		t.Errorf("the server saw %d sessions, want 1", n)
	}
}

// The pacer forgets the addresses nobody uses.
func TestPacerMemoryIsBounded(t *testing.T) {
	p := newPacer(2, -1)
	for i := range 5000 {
		a := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		release, err := p.acquire(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		release()
		release() // a second call changes nothing
	}
	if n := p.tracked(); n > 200 {
		t.Errorf("the pacer holds %d addresses after 5000 released ones", n)
	}
	// A held address is never forgotten.
	held := netip.MustParseAddr("10.255.255.255")
	r1, _ := p.acquire(context.Background(), held)
	r2, _ := p.acquire(context.Background(), held)
	for i := range 500 {
		release, _ := p.acquire(context.Background(), netip.AddrFrom4([4]byte{11, 0, byte(i >> 8), byte(i)}))
		release()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := p.acquire(ctx, held); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a third connection to a full address: err = %v", err)
	}
	r1()
	r2()
}

// FuzzParseProxy: whatever the proxy URL, parseProxy does not panic;
// the address it returns holds no user information, and the user name
// and password it returns are those the URL encodes.
func FuzzParseProxy(f *testing.F) {
	f.Add("socks5://u:p@127.0.0.1:1080", "user", "pass", "proxy.example")
	f.Add("socks5://:p@h:1", "", "p@ss:w/rd", "[::1]")
	f.Add("%zz", "a", "b", "h@x")
	simpleHost := regexp.MustCompile(`^[a-z0-9.-]+$`)
	f.Fuzz(func(t *testing.T, raw, user, pass, host string) {
		parseProxy(raw)
		s := "socks5://" + url.UserPassword(user, pass).String() + "@" + host + ":1080"
		addr, auth, err := parseProxy(s)
		if err != nil || !simpleHost.MatchString(host) {
			return
		}
		if strings.Contains(addr, "@") || auth == nil || auth.User != user || auth.Password != pass {
			t.Fatalf("parseProxy(%q) = %q, %+v; want the user %q and password %q", s, addr, auth, user, pass)
		}
	})
}

// TestCheckSTARTTLSSentinels: CheckSTARTTLS wraps ErrForbiddenAddress
// and ErrProxy, and neither for other failures.
func TestCheckSTARTTLSSentinels(t *testing.T) {
	r, _ := proxyFixture(t)
	mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{STARTTLS: true})
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln.Addr().String()
	ln.Close()
	closedPort := ln.Addr().(*net.TCPAddr).Port
	for _, tt := range []struct {
		name      string
		smtp      SMTPOptions
		forbidden bool
		proxy     bool
	}{
		{"loopback refused", SMTPOptions{Port: mail.Port}, true, false},
		{"proxy down", SMTPOptions{Port: mail.Port, Proxy: secret.String("socks5://" + closed), AllowPrivateAddresses: true}, false, true},
		{"port closed", SMTPOptions{Port: closedPort, AllowPrivateAddresses: true}, false, false},
	} {
		v := mustVerifier(t, Config{Resolver: r, SMTP: tt.smtp})
		_, err := v.CheckSTARTTLS(context.Background(), "mail.mx.test")
		if err == nil || errors.Is(err, ErrForbiddenAddress) != tt.forbidden || errors.Is(err, ErrProxy) != tt.proxy {
			t.Errorf("%s: err = %v", tt.name, err)
		}
	}
}
