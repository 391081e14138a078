package httpapi_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/secret"
)

// smtpHandler is emailHandler with a resolver that waits longer: these
// tests make many lookups, on a machine that may be busy.
func smtpHandler(t *testing.T, ec email.Config, cfg httpapi.Config) http.Handler {
	t.Helper()
	srv := resolvertest.Start(t, resolvertest.Config{Zone: emailZone})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: 2 * time.Second, Attempts: 2})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Keys = []secret.String{"k"}
	ec.Resolver = r
	cfg.Email = verifierT(t, ec)
	return mustNew(t, cfg)
}

// domain/health reports mx_hosts, with STARTTLS when check_starttls asks
// and the listings of the configured DNSBL zones (extensions).
func TestEmailDomainHealthMXHostsRoute(t *testing.T) {
	mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{STARTTLS: true})
	h := smtpHandler(t, email.Config{
		SMTP:       email.SMTPOptions{Port: mail.Port, AllowPrivateAddresses: true, HostInterval: -1},
		DNSBLZones: []string{"bl.test"},
	}, httpapi.Config{})
	router := documentRouter(t, h)
	checkExchange(t, router, h, http.MethodPost, "/v1/email/domain/health", `{"domains":["good.test"],"check_starttls":true}`)
	if n := len(mail.Remotes()); n != 1 {
		t.Fatalf("check_starttls: %d SMTP sessions, want 1", n)
	}
	for _, tt := range []struct {
		body     string
		starttls string
	}{
		{`{"domains":["good.test"],"check_starttls":true}`, "true"},
		{`{"domains":["good.test"]}`, "null"},
	} {
		code, env := postJSON(t, h, "/v1/email/domain/health", tt.body)
		if code != 200 {
			t.Fatalf("%s: status %d: %s", tt.body, code, errorText(env))
		}
		var raw struct {
			Results []struct {
				Verdict  email.Verdict   `json:"verdict"`
				MXHosts  json.RawMessage `json:"mx_hosts"`
				Problems []email.Problem `json:"problems"`
			} `json:"results"`
		}
		json.Unmarshal(env.Data, &raw)
		want := `[{"host":"mail.mx.test","addresses":[{"ip":"127.0.0.1","ptr":["mail.mx.test"],"fcrdns":true,"listed":["bl.test"]}],"starttls":` + tt.starttls + `}]`
		if r := raw.Results[0]; string(r.MXHosts) != want || r.Verdict != email.VerdictNotReady {
			t.Errorf("%s: verdict %s, mx_hosts %s; want %s", tt.body, r.Verdict, r.MXHosts, want)
		}
		i := slices.IndexFunc(raw.Results[0].Problems, func(p email.Problem) bool { return p.Code == "mx_listed" })
		if i < 0 || !strings.Contains(raw.Results[0].Problems[i].Message, "listed in the test zone") {
			t.Errorf("%s: problems %+v", tt.body, raw.Results[0].Problems)
		}
	}
	// The request above without check_starttls did not connect.
	if n := len(mail.Remotes()); n != 2 {
		t.Errorf("%d SMTP sessions after one more check_starttls, want 2", n)
	}
	code, env := postJSON(t, h, "/v1/email/domain/health", `{"domains":["good.test"],"check_starttls":"yes"}`)
	if code != 400 || !strings.Contains(errorText(env), "check_starttls") {
		t.Errorf("status %d, %s; want 400 naming check_starttls", code, errorText(env))
	}
}

// The validate routes probe through the configured SOCKS5 proxy: the
// SMTP server sees the proxy's sockets, and the proxy's credentials
// show in no answer and no log line.
func TestEmailValidateThroughProxyRoute(t *testing.T) {
	const pass = "route-Pa55word"
	mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{Known: map[string]bool{"jane@mx.test": true}})
	proxy := testutil.NewSOCKS5(t, "probe", pass)
	var logs testutil.SyncBuffer
	for _, tt := range []struct {
		name, proxy string
		status      email.SMTPStatus
		reason      email.SMTPReason
	}{
		{"right credentials", "socks5://probe:" + pass + "@" + proxy.Addr, email.SMTPVerified, ""},
		{"wrong credentials", "socks5://probe:wrong-" + pass + "@" + proxy.Addr, email.SMTPUnknown, email.SMTPProxyError},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := smtpHandler(t, email.Config{
				SMTP: email.SMTPOptions{Port: mail.Port, Proxy: secret.String(tt.proxy), AllowPrivateAddresses: true},
			}, httpapi.Config{Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
			checkExchange(t, documentRouter(t, h), h, http.MethodPost, "/v1/dev/email/validate", `{"email":"jane@mx.test","check_smtp":true}`)
			code, env := postJSON(t, h, "/v1/utility/email/validate", `{"email":"jane@mx.test","check_smtp":true}`)
			if code != 200 {
				t.Fatalf("status %d: %s", code, errorText(env))
			}
			var res email.Validation
			json.Unmarshal(env.Data, &res)
			if res.SMTP == nil || res.SMTP.Status != tt.status || res.SMTP.Reason != tt.reason {
				t.Errorf("smtp %+v", res.SMTP)
			}
			if tt.reason == "" && (res.SMTP.STARTTLS == nil || *res.SMTP.STARTTLS) {
				t.Errorf("starttls %v, want false", res.SMTP.STARTTLS)
			}
			if strings.Contains(string(env.Data), "Pa55word") {
				t.Errorf("the answer shows the password: %s", env.Data)
			}
		})
	}
	if remotes := mail.Remotes(); len(remotes) != 2 || !slices.Equal(remotes, proxy.Outbound()) {
		t.Errorf("the SMTP server saw %q; the proxy opened %q", remotes, proxy.Outbound())
	}
	if proxy.Refused() != 2 {
		t.Errorf("the proxy refused %d clients, want 2", proxy.Refused())
	}
	if strings.Contains(logs.String(), "Pa55word") {
		t.Errorf("the logs show the password: %s", logs.String())
	}
}

// The OpenAPI document describes the fields added beyond the
// contract as extensions.
func TestOpenAPIMarksEmailExtensions(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Description string `json:"description"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(fetchOpenAPI(t, mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})), &doc); err != nil {
		t.Fatal(err)
	}
	for schema, fields := range map[string][]string{
		"email.DomainHealthRequest": {"check_starttls"},
		"email.DomainHealth":        {"mx_hosts"},
		"email.SMTPResult":          {"starttls"},
	} {
		for _, f := range fields {
			if d := doc.Components.Schemas[schema].Properties[f].Description; !strings.Contains(d, "Extension") {
				t.Errorf("%s.%s: description %q", schema, f, d)
			}
		}
	}
	if d := doc.Components.Schemas["email.DomainHealth"].Properties["domain"].Description; d != "" {
		t.Errorf("a field of the contract is described as %q", d)
	}
}
