package webcheck

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/envelope"
)

const safetyZone = `
site.test.              60 IN A 127.0.0.1
a.b.c.d.site.test.      60 IN A 127.0.0.1
other.test.             60 IN A 127.0.0.1
bit.ly.                 60 IN A 127.0.0.1
xn--80ak6aa92e.com.     60 IN A 127.0.0.1
private.test.           60 IN A 10.0.0.7
`

func TestCheckURLSafetyRedirects(t *testing.T) {
	mux := http.NewServeMux()
	var port string
	mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/hop", http.StatusMovedPermanently) })
	mux.HandleFunc("/hop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/final", http.StatusFound) })
	mux.HandleFunc("/final", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<html><body>ok</body></html>") })
	mux.HandleFunc("/meta", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html><head><title>x</title><meta http-equiv="Refresh" content="0; URL='/final'"></head><body></body></html>`)
	})
	mux.HandleFunc("/loop/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/loop/"))
		http.Redirect(w, r, "/loop/"+strconv.Itoa(n+1), http.StatusFound)
	})
	mux.HandleFunc("/private", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://private.test/admin", http.StatusFound)
	})
	mux.HandleFunc("/metadata", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://other.test:"+port+"/final", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	_, port, _ = net.SplitHostPort(srv.Listener.Addr().String())
	base := "http://site.test:" + port
	c := newTestChecker(t, safetyZone)
	ctx := context.Background()

	res, err := c.CheckURLSafety(ctx, URLSafetyRequest{URL: base + "/start"})
	if err != nil {
		t.Fatal(err)
	}
	want := []RedirectHop{
		{URL: base + "/start", StatusCode: 301, Location: base + "/hop", Kind: "http"},
		{URL: base + "/hop", StatusCode: 302, Location: base + "/final", Kind: "http"},
	}
	if !slices.Equal(res.RedirectChain, want) || res.RedirectCount != 2 || res.FinalURL != base+"/final" || res.StatusCode != 200 {
		t.Errorf("chain=%+v count=%d final=%s status=%d", res.RedirectChain, res.RedirectCount, res.FinalURL, res.StatusCode)
	}
	// The test server's port is the only thing wrong with a clean chain.
	if !slices.Equal(res.ThreatTypes, []string{ThreatNonStandardPort}) || res.IsSafe || res.IsHomograph {
		t.Errorf("threats=%q is_safe=%v", res.ThreatTypes, res.IsSafe)
	}

	res, err = c.CheckURLSafety(ctx, URLSafetyRequest{URL: base + "/meta"})
	if err != nil || res.RedirectCount != 1 || res.RedirectChain[0].Kind != "meta_refresh" || res.FinalURL != base+"/final" {
		t.Errorf("meta refresh: %+v %v", res, err)
	}

	res, err = c.CheckURLSafety(ctx, URLSafetyRequest{URL: base + "/loop/0"})
	if err != nil || res.RedirectCount != MaxSafetyRedirects || !slices.Contains(res.ThreatTypes, ThreatTooManyRedirects) {
		t.Errorf("loop: count=%d threats=%q err=%v", res.RedirectCount, res.ThreatTypes, err)
	}

	for _, path := range []string{"/private", "/metadata"} {
		res, err = c.CheckURLSafety(ctx, URLSafetyRequest{URL: base + path})
		if err != nil || !slices.Contains(res.ThreatTypes, ThreatPrivateRedirect) || res.IsSafe {
			t.Errorf("%s: threats=%q err=%v", path, res.ThreatTypes, err)
		}
	}

	res, err = c.CheckURLSafety(ctx, URLSafetyRequest{URL: base + "/elsewhere"})
	if err != nil || !slices.Contains(res.ThreatTypes, ThreatCrossDomain) {
		t.Errorf("cross-domain: threats=%q err=%v", res.ThreatTypes, err)
	}

	res, err = c.CheckURLSafety(ctx, URLSafetyRequest{URL: "http://bit.ly:" + port + "/elsewhere"})
	if err != nil || !slices.Contains(res.ThreatTypes, ThreatShortener) {
		t.Errorf("shortener: threats=%q err=%v", res.ThreatTypes, err)
	}

	res, err = c.CheckURLSafety(ctx, URLSafetyRequest{URL: "http://user:pw@a.b.c.d.site.test:" + port + "/final"})
	for _, tt := range []string{ThreatCredentials, ThreatExcessiveSubdoms} {
		if err != nil || !slices.Contains(res.ThreatTypes, tt) {
			t.Errorf("want %s: threats=%q err=%v", tt, res.ThreatTypes, err)
		}
	}

	res, err = c.CheckURLSafety(ctx, URLSafetyRequest{URL: "http://аррӏе.com:" + port + "/final"})
	if err != nil || !res.IsHomograph || !slices.Contains(res.ThreatTypes, ThreatHomograph) || !slices.Contains(res.ThreatTypes, ThreatPunycode) {
		t.Errorf("homograph: %+v %v", res, err)
	}

	res, err = c.CheckURLSafety(ctx, URLSafetyRequest{URL: srv.URL + "/final"})
	if err != nil || !slices.Contains(res.ThreatTypes, ThreatIPLiteral) {
		t.Errorf("IP literal: threats=%q err=%v", res.ThreatTypes, err)
	}
}

func TestCheckURLSafetyDowngrade(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/", http.StatusFound)
	}))
	defer tlsSrv.Close()
	roots := x509.NewCertPool()
	roots.AddCert(tlsSrv.Certificate())
	c := newTestChecker(t, "", func(c *Config) { c.RootCAs = roots })
	res, err := c.CheckURLSafety(context.Background(), URLSafetyRequest{URL: tlsSrv.URL + "/"})
	if err != nil || !slices.Contains(res.ThreatTypes, ThreatHTTPDowngrade) || res.RedirectCount != 1 {
		t.Errorf("threats=%q count=%d err=%v", res.ThreatTypes, res.RedirectCount, err)
	}
}

// The URL as written is judged, not only its normal form: each repair a
// browser makes is a url_obfuscation finding naming the warning.
func TestCheckURLSafetyObfuscation(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	c := newTestChecker(t, safetyZone)
	for raw, want := range map[string]string{
		"http:\\\\site.test:" + port + "\\":   "backslash",
		"http:site.test:" + port + "/":        "missing_slashes",
		"http://@site.test:" + port + "/":     "empty_userinfo",
		"http://site\uff0etest:" + port + "/": "host_mapped",
		"http://site.test:" + port + "/":      "",
	} {
		res, err := c.CheckURLSafety(context.Background(), URLSafetyRequest{URL: raw})
		if err != nil {
			t.Errorf("%q: %v", raw, err)
			continue
		}
		var got []string
		for _, f := range res.Findings {
			if f.ThreatType == ThreatURLObfuscation {
				got = append(got, strings.SplitN(f.Detail, ":", 2)[0])
			}
		}
		if want == "" && len(got) > 0 || want != "" && !slices.Contains(got, want) {
			t.Errorf("%q: obfuscation findings %q, want %q", raw, got, want)
		}
		if want != "" && (res.IsSafe || !slices.Contains(res.ThreatTypes, ThreatURLObfuscation)) {
			t.Errorf("%q: is_safe %t, threat_types %q", raw, res.IsSafe, res.ThreatTypes)
		}
	}
}

func TestCheckURLSafetyRefused(t *testing.T) {
	c := newTestChecker(t, safetyZone, func(c *Config) { c.AllowLoopback = false })
	for _, u := range []string{"http://127.0.0.1/", "http://private.test/", "http://[::1]/", "http://2130706433/"} {
		_, err := c.CheckURLSafety(context.Background(), URLSafetyRequest{URL: u})
		assertInvalid(t, err, "destination not allowed")
	}
}

func TestHomograph(t *testing.T) {
	tests := []struct {
		host string
		want []string // reasons
	}{
		{"google.com", nil},
		{"xn--bcher-kva.de", nil},  // bücher: Latin only
		{"xn--wgv71a119e.jp", nil}, // 日本語: Han only
		{"xn--pple-43d.com", []string{"mixed_script", "confusable_with:apple.com"}},              // Cyrillic а + "pple"
		{"xn--80ak6aa92e.com", []string{"whole_script_confusable", "confusable_with:apple.com"}}, // аррӏе, all Cyrillic
		{"paypa1.com", []string{"confusable_with:paypal.com"}},
		{"rnicrosoft.com", []string{"confusable_with:microsoft.com"}},
		{"login.paypal.com", nil},
		{"xn--mxahbd.com", nil}, // Greek word with letters that are not Latin lookalikes
	}
	for _, tt := range tests {
		var got []string
		for _, f := range checkHomograph(tt.host) {
			got = append(got, f.Reason)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("checkHomograph(%q) = %q; want %q", tt.host, got, tt.want)
		}
	}
}

// safeBrowsingServer speaks the Safe Browsing v4 threatMatches:find
// protocol: it lists every URL containing "evil" as SOCIAL_ENGINEERING.
func safeBrowsingServer(t *testing.T, status int) (*httptest.Server, *int) {
	calls := new(int)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*calls++
		if r.Method != http.MethodPost || r.URL.Path != "/v4/threatMatches:find" || r.Header.Get("X-Goog-Api-Key") != "test-key" || r.URL.RawQuery != "" || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, `{"error":{"code":400}}`, http.StatusBadRequest)
			return
		}
		if status != 0 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(status)
			return
		}
		var req sbRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Client.ClientID == "" || len(req.ThreatInfo.ThreatTypes) == 0 ||
			!slices.Equal(req.ThreatInfo.ThreatEntryTypes, []string{"URL"}) || !slices.Equal(req.ThreatInfo.PlatformTypes, []string{"ANY_PLATFORM"}) {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		var matches []string
		for _, e := range req.ThreatInfo.ThreatEntries {
			if strings.Contains(e.URL, "evil") {
				matches = append(matches, fmt.Sprintf(`{"threatType":"SOCIAL_ENGINEERING","platformType":"ANY_PLATFORM","threatEntryType":"URL","threat":{"url":%q},"cacheDuration":"300s"}`, e.URL))
			}
		}
		w.Header().Set("Content-Type", "application/json")
		if len(matches) == 0 {
			io.WriteString(w, "{}")
			return
		}
		io.WriteString(w, `{"matches":[`+strings.Join(matches, ",")+`]}`)
	}))
	t.Cleanup(srv.Close)
	return srv, calls
}

func TestSafeBrowsing(t *testing.T) {
	srv, _ := safeBrowsingServer(t, 0)
	sb := &SafeBrowsing{APIKey: "test-key", BaseURL: srv.URL}
	got, err := sb.Lookup(context.Background(), []string{"https://good.test/", "https://evil.test/login"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []ThreatMatch{{URL: "https://evil.test/login", ThreatType: "social_engineering"}}; !slices.Equal(got, want) {
		t.Errorf("matches = %+v; want %+v", got, want)
	}

	limited, _ := safeBrowsingServer(t, http.StatusTooManyRequests)
	_, err = (&SafeBrowsing{APIKey: "test-key", BaseURL: limited.URL}).Lookup(context.Background(), []string{"https://x.test/"})
	var ee *envelope.Error
	if !errors.As(err, &ee) || ee.Code != envelope.CodeRateLimitExceeded || ee.RetryAfter.Seconds() != 7 {
		t.Errorf("429: err = %v", err)
	}
	_, err = (&SafeBrowsing{APIKey: "wrong", BaseURL: srv.URL}).Lookup(context.Background(), []string{"https://x.test/"})
	if !errors.As(err, &ee) || ee.Code != envelope.CodeUpstreamError {
		t.Errorf("bad key: err = %v", err)
	}
}

func TestCheckURLSafetyThreatIntel(t *testing.T) {
	sbSrv, calls := safeBrowsingServer(t, 0)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/go" {
			http.Redirect(w, r, "/evil-login", http.StatusFound)
		}
	}))
	defer page.Close()
	_, port, _ := net.SplitHostPort(page.Listener.Addr().String())
	c := newTestChecker(t, safetyZone, func(c *Config) { c.ThreatIntel = &SafeBrowsing{APIKey: "test-key", BaseURL: sbSrv.URL} })
	res, err := c.CheckURLSafety(context.Background(), URLSafetyRequest{URL: "http://site.test:" + port + "/go"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.ThreatTypes, "social_engineering") || res.IsSafe || *calls != 1 {
		t.Errorf("threats=%q calls=%d", res.ThreatTypes, *calls)
	}
}

// TestSafeBrowsingKeyNotInErrors: a transport failure must not carry the
// API key (sent in the query string) into the error text, which callers
// log and wrap.
func TestSafeBrowsingKeyNotInErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	endpoint := srv.URL
	srv.Close() // nothing listens there any more: the POST fails to dial
	_, err := (&SafeBrowsing{APIKey: "secret-key-1234", BaseURL: endpoint}).Lookup(context.Background(), []string{"https://x.test/"})
	var ee *envelope.Error
	if !errors.As(err, &ee) || ee.Code != envelope.CodeUpstreamError {
		t.Fatalf("err = %v; want UPSTREAM_ERROR", err)
	}
	if strings.Contains(err.Error(), "secret-key-1234") {
		t.Errorf("err = %q; it contains the API key", err)
	}
}
