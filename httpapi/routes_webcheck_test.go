package httpapi_test

import (
	"crypto/x509"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/webcheck"
)

// webcheckHandler serves the routes with a Checker that may reach
// loopback (allowLoopback) and resolves through a loopback DNS server.
func webcheckHandler(t *testing.T, allowLoopback bool, roots *x509.CertPool) http.Handler {
	t.Helper()
	ns := resolvertest.Start(t, resolvertest.Config{Zone: `
example.test. 60 IN A   192.0.2.1
example.test. 60 IN MX  10 mx.example.test.
example.test. 60 IN TXT "v=spf1 -all"
`})
	r, err := resolver.New(resolver.Config{Servers: []string{ns.Addr}, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wc, err := webcheck.New(webcheck.Config{Resolver: r, AllowLoopback: allowLoopback, RootCAs: roots, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Email: verifierT(t, email.Config{Resolver: r}), WebCheck: wc})
}

// wcPost posts a JSON body and returns the status and the envelope.
func wcPost(t *testing.T, h http.Handler, path, body string) (int, envelopeBody) {
	t.Helper()
	resp, env := send(t, h, http.MethodPost, path, "application/json", strings.NewReader(body))
	return resp.StatusCode, env
}

func TestWebcheckRoutes(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /admin\nSitemap: /sitemap.xml\n")
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://`+r.Host+`/</loc></url></urlset>`)
	})
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
		w.Header().Set("Access-Control-Allow-Credentials", "true")
	})
	mux.HandleFunc("/go", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/api", http.StatusFound) })
	site := httptest.NewServer(mux)
	defer site.Close()
	tlsSite := httptest.NewTLSServer(http.NotFoundHandler())
	defer tlsSite.Close()
	roots := x509.NewCertPool()
	roots.AddCert(tlsSite.Certificate())
	_, tlsPort, _ := net.SplitHostPort(tlsSite.Listener.Addr().String())
	h := webcheckHandler(t, true, roots)

	tests := []struct {
		path, body string
		check      func(t *testing.T, data map[string]any)
	}{
		{"/v1/dev/data/url/parse", `{"url":"HTTPS://Example.COM:443/a/../b?x=1"}`, func(t *testing.T, d map[string]any) {
			if d["normalized_url"] != "https://example.com/b?x=1" || d["port"] != 443.0 || d["username"] != nil {
				t.Errorf("%v", d)
			}
		}},
		{"/v1/utility/ssl/check", `{"domain":"127.0.0.1","port":` + tlsPort + `}`, func(t *testing.T, d map[string]any) {
			if d["is_valid"] != true || d["error"] != nil || d["subject"] == nil {
				t.Errorf("%v", d)
			}
		}},
		{"/v1/utility/cors/check", `{"url":"` + site.URL + `/api"}`, func(t *testing.T, d map[string]any) {
			if d["risk_level"] != "critical" || d["allows_origin"] != true || d["allows_credentials"] != true {
				t.Errorf("%v", d)
			}
		}},
		{"/v1/utility/dns/analyze", `{"domain":"example.test"}`, func(t *testing.T, d map[string]any) {
			if !strings.Contains(wcJSON(d["mx_records"]), "10 mx.example.test") || d["dmarc"] != nil || d["spf"] == nil {
				t.Errorf("%v", d)
			}
		}},
		{"/v1/utility/url/safety", `{"url":"` + site.URL + `/go"}`, func(t *testing.T, d map[string]any) {
			if d["redirect_count"] != 1.0 || d["final_url"] != site.URL+"/api" || d["is_safe"] != false || d["status_code"] != 200.0 {
				t.Errorf("%v", d)
			}
		}},
		{"/v1/utility/robots/analyze", `{"url":"` + site.URL + `/page"}`, func(t *testing.T, d map[string]any) {
			if d["exists"] != true || wcJSON(d["disallow_rules"]) != `["/admin"]` || wcJSON(d["user_agents"]) != `["*"]` {
				t.Errorf("%v", d)
			}
		}},
		{"/v1/utility/sitemap/validate", `{"url":"` + site.URL + `/sitemap.xml"}`, func(t *testing.T, d map[string]any) {
			if d["is_valid_xml"] != true || d["url_count"] != 1.0 || d["sitemap_count"] != 0.0 || wcJSON(d["warnings"]) != `[]` {
				t.Errorf("%v", d)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			code, env := wcPost(t, h, tt.path, tt.body)
			if code != http.StatusOK || !env.Success || env.Error != nil {
				t.Fatalf("status %d, envelope %+v", code, env)
			}
			var data map[string]any
			if err := json.Unmarshal(env.Data, &data); err != nil {
				t.Fatal(err)
			}
			tt.check(t, data)
		})
	}
}

func TestWebcheckRoutesRefuseDestinations(t *testing.T) {
	site := httptest.NewServer(http.NotFoundHandler())
	defer site.Close()
	_, port, _ := net.SplitHostPort(site.Listener.Addr().String())
	h := webcheckHandler(t, false, nil)
	for _, tt := range []struct{ path, body, field string }{
		{"/v1/utility/ssl/check", `{"domain":"127.0.0.1","port":` + port + `}`, "domain"},
		{"/v1/utility/cors/check", `{"url":"` + site.URL + `"}`, "url"},
		{"/v1/utility/url/safety", `{"url":"http://169.254.169.254/latest/meta-data/"}`, "url"},
		{"/v1/utility/robots/analyze", `{"url":"http://0x7f.1:` + port + `/"}`, "url"},
		{"/v1/utility/sitemap/validate", `{"url":"http://[::ffff:127.0.0.1]:` + port + `/sitemap.xml"}`, "url"},
	} {
		code, env := wcPost(t, h, tt.path, tt.body)
		if code != http.StatusBadRequest || env.Error == nil || env.Error.Code != "INVALID_REQUEST" ||
			!strings.Contains(env.Error.Message, "destination not allowed") || len(env.Error.Details) != 1 || env.Error.Details[0].Field != tt.field {
			t.Errorf("%s: status %d, error %+v", tt.path, code, env.Error)
		}
	}
}

func TestWebcheckRoutesInvalid(t *testing.T) {
	h := webcheckHandler(t, false, nil)
	for _, tt := range []struct{ path, body, field string }{
		{"/v1/dev/data/url/parse", `{"url":"not a url"}`, "url"},
		{"/v1/dev/data/url/parse", `{}`, "url"},
		{"/v1/utility/ssl/check", `{"domain":"example.test","port":70000}`, "port"},
		{"/v1/utility/ssl/check", `{"domain":"example.test","port":-1}`, "port"},
		{"/v1/utility/dns/analyze", `{"domain":""}`, "domain"},
		{"/v1/utility/cors/check", `{"url":"https://example.test","origin":"evil"}`, "origin"},
		{"/v1/utility/url/safety", `{"url":"javascript:alert(1)"}`, "url"},
	} {
		code, env := wcPost(t, h, tt.path, tt.body)
		if code != http.StatusBadRequest || env.Error == nil || env.Error.Code != "INVALID_REQUEST" || len(env.Error.Details) == 0 || env.Error.Details[0].Field != tt.field {
			t.Errorf("%s %s: status %d, error %+v", tt.path, tt.body, code, env.Error)
		}
	}
}

func wcJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
