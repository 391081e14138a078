package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
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

// verdictBody is the part of a validation the verdict tests read.
type verdictBody struct {
	IsValid             bool     `json:"is_valid"`
	Reachability        string   `json:"reachability"`
	ReachabilityReasons []string `json:"reachability_reasons"`
	MailboxProvider     string   `json:"mailbox_provider"`
	SMTPVerified        bool     `json:"smtp_verified"`
	SMTP                *struct {
		Status       email.SMTPStatus `json:"status"`
		Reason       email.SMTPReason `json:"reason"`
		Code         int              `json:"code"`
		EnhancedCode string           `json:"enhanced_code"`
		MailboxFull  bool             `json:"mailbox_full"`
		Disabled     bool             `json:"disabled"`
	} `json:"smtp"`
}

// Each class of SMTP reply through the validate route: the answer has
// the probe's reading and the verdict, and matches the OpenAPI document.
func TestEmailValidateReadsRepliesRoute(t *testing.T) {
	for _, pc := range testutil.ProbeCases() {
		t.Run(pc.Name, func(t *testing.T) {
			port, _ := pc.Start(t)
			h := smtpHandler(t, email.Config{SMTP: email.SMTPOptions{Port: port, AllowPrivateAddresses: true, HostInterval: -1}}, httpapi.Config{})
			body := fmt.Sprintf(`{"email":%q,"check_smtp":true}`, pc.Addr)
			code, env := postJSON(t, h, "/v1/dev/email/validate", body)
			if code != 200 {
				t.Fatalf("status %d: %s", code, errorText(env))
			}
			var res verdictBody
			if err := json.Unmarshal(env.Data, &res); err != nil {
				t.Fatal(err)
			}
			p := res.SMTP
			if p == nil || string(p.Status) != pc.Status || string(p.Reason) != pc.Reason || p.Code != pc.Code || p.MailboxFull != pc.MailboxFull || p.Disabled != pc.Disabled {
				t.Errorf("smtp %+v; want %s/%q code %d full %v disabled %v", p, pc.Status, pc.Reason, pc.Code, pc.MailboxFull, pc.Disabled)
			}
			if res.Reachability != pc.Reach || !slices.Equal(res.ReachabilityReasons, pc.Why) || res.ReachabilityReasons == nil {
				t.Errorf("reachability %s %q; want %s %q", res.Reachability, res.ReachabilityReasons, pc.Reach, pc.Why)
			}
			if res.SMTPVerified != (pc.Status == string(email.SMTPVerified)) || res.MailboxProvider != "other" {
				t.Errorf("smtp_verified %v, mailbox_provider %q", res.SMTPVerified, res.MailboxProvider)
			}
			checkExchange(t, documentRouter(t, h), h, http.MethodPost, "/v1/utility/email/validate", body)
		})
	}
}

// providerRouteZone points a Yahoo-named and a Gmail-named MX host at the
// loopback SMTP server.
const providerRouteZone = `
$ORIGIN test.
@              SOA ns h 1 3600 600 86400 60
yahoo          MX 1 mta5.am0.yahoodns.net.
$ORIGIN com.
gmail          MX 5 gmail-smtp-in.l.google.com.
gmail-smtp-in.l.google A 127.0.0.1
$ORIGIN net.
mta5.am0.yahoodns A 127.0.0.1
`

// A Yahoo-style MX host: its 250 proves nothing, no catch-all test is
// made, and the verdict is risky; gmail.com's 250 is verified without the
// test.
func TestEmailValidateProvidersRoute(t *testing.T) {
	dns := resolvertest.Start(t, resolvertest.Config{Zone: providerRouteZone})
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}, Timeout: 2 * time.Second, Attempts: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		addr, provider string
		status         email.SMTPStatus
		reason         email.SMTPReason
		reach          string
		why            []string
	}{
		{"ana@yahoo.test", "yahoo", email.SMTPUnknown, email.SMTPProviderUnverifiable, "risky", []string{"provider_unverifiable"}},
		{"ana@gmail.com", "google", email.SMTPVerified, "", "safe", []string{}},
	} {
		t.Run(tt.addr, func(t *testing.T) {
			mail := testutil.NewSMTPServer(t, testutil.SMTPOptions{Known: map[string]bool{tt.addr: true}})
			h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, Email: verifierT(t, email.Config{Resolver: r,
				SMTP: email.SMTPOptions{Port: mail.Port, AllowPrivateAddresses: true, HostInterval: -1}})})
			body := fmt.Sprintf(`{"email":%q,"check_smtp":true}`, tt.addr)
			code, env := postJSON(t, h, "/v1/dev/email/validate", body)
			if code != 200 {
				t.Fatalf("status %d: %s", code, errorText(env))
			}
			var res verdictBody
			json.Unmarshal(env.Data, &res)
			if res.SMTP == nil || res.SMTP.Status != tt.status || res.SMTP.Reason != tt.reason || res.SMTP.Code != 250 {
				t.Errorf("smtp %+v", res.SMTP)
			}
			if res.MailboxProvider != tt.provider || res.Reachability != tt.reach || !slices.Equal(res.ReachabilityReasons, tt.why) {
				t.Errorf("provider %s, reachability %s %q", res.MailboxProvider, res.Reachability, res.ReachabilityReasons)
			}
			if got := mail.Recipients(); len(got) != 1 {
				t.Errorf("RCPT TO %q: want the address alone, no catch-all test", got)
			}
			checkExchange(t, documentRouter(t, h), h, http.MethodPost, "/v1/dev/email/validate", body)
		})
	}
}

// The list routes carry the verdict too: never safe, since lists are not
// probed.
func TestEmailListRoutesCarryReachability(t *testing.T) {
	h := emailHandler(t, httpapi.Config{})
	want := map[string]verdictBody{
		"ana@mx.test":     {Reachability: "unknown", ReachabilityReasons: []string{"not_probed"}, MailboxProvider: "other"},
		"info@mx.test":    {Reachability: "risky", ReachabilityReasons: []string{"role_account", "not_probed"}, MailboxProvider: "other"},
		"bob@nullmx.test": {Reachability: "invalid", ReachabilityReasons: []string{"null_mx"}},
		"not-an-address":  {Reachability: "invalid", ReachabilityReasons: []string{"invalid_syntax"}},
	}
	check := func(route string, items []json.RawMessage) {
		t.Helper()
		if len(items) != len(want) {
			t.Fatalf("%s: %d results", route, len(items))
		}
		for _, raw := range items {
			var it struct {
				Input string `json:"input"`
				verdictBody
			}
			json.Unmarshal(raw, &it)
			w := want[it.Input]
			if it.Reachability != w.Reachability || !slices.Equal(it.ReachabilityReasons, w.ReachabilityReasons) || it.MailboxProvider != w.MailboxProvider {
				t.Errorf("%s %s: %s %q %q; want %s %q %q", route, it.Input, it.Reachability, it.ReachabilityReasons, it.MailboxProvider,
					w.Reachability, w.ReachabilityReasons, w.MailboxProvider)
			}
		}
	}
	body := `{"emails":["ana@mx.test","info@mx.test","bob@nullmx.test","not-an-address"]}`
	code, env := postJSON(t, h, "/v1/email/bulk/validate", body)
	if code != 200 {
		t.Fatalf("bulk: %d %s", code, errorText(env))
	}
	var bulk struct {
		Results []json.RawMessage `json:"results"`
	}
	json.Unmarshal(env.Data, &bulk)
	check("bulk/validate", bulk.Results)
	checkExchange(t, documentRouter(t, h), h, http.MethodPost, "/v1/email/bulk/validate", body)

	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "list.csv")
	fw.Write([]byte("email\nana@mx.test\ninfo@mx.test\nbob@nullmx.test\nnot-an-address\n"))
	mw.Close()
	code, env = call(t, h, "/v1/email/bulk/validate-csv", mw.FormDataContentType(), &form)
	if code != 200 {
		t.Fatalf("validate-csv: %d %s", code, errorText(env))
	}
	json.Unmarshal(env.Data, &bulk)
	check("bulk/validate-csv", bulk.Results)
}

// The OpenAPI document lists the verdict's values and marks the new
// fields as extensions.
func TestOpenAPIReachabilityEnums(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Description string   `json:"description"`
					Enum        []string `json:"enum"`
					Items       struct {
						Enum []string `json:"enum"`
					} `json:"items"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(fetchOpenAPI(t, mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})), &doc); err != nil {
		t.Fatal(err)
	}
	for _, schema := range []string{"email.Validation", "email.BulkItem"} {
		props := doc.Components.Schemas[schema].Properties
		if got := props["reachability"].Enum; strings.Join(got, ",") != "safe,risky,invalid,unknown" {
			t.Errorf("%s.reachability enum %q", schema, got)
		}
		if got := props["reachability_reasons"].Items.Enum; len(got) != len(email.ReachabilityReasons()) || !slices.Contains(got, "not_probed") {
			t.Errorf("%s.reachability_reasons enum %q", schema, got)
		}
		if got := props["mailbox_provider"].Enum; !slices.Contains(got, "outlook_consumer") {
			t.Errorf("%s.mailbox_provider enum %q", schema, got)
		}
		for _, f := range []string{"reachability", "reachability_reasons", "mailbox_provider"} {
			if !strings.Contains(props[f].Description, "Extension") {
				t.Errorf("%s.%s: description %q", schema, f, props[f].Description)
			}
		}
	}
	for _, f := range []string{"mailbox_full", "disabled", "enhanced_code"} {
		if d := doc.Components.Schemas["email.SMTPResult"].Properties[f].Description; !strings.Contains(d, "Extension") {
			t.Errorf("email.SMTPResult.%s: description %q", f, d)
		}
	}
}
