package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// A library user who marshals a check's result keeps its findings:
// each problem with its code and severity, not only the messages.
func TestResultsMarshalTheirProblems(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: `$ORIGIN test.
@ 300 SOA ns h 1 3600 600 86400 60
broken 300 MX 10 mx.broken.test.
_mta-sts.broken 300 TXT "v=STSv1; id=not-an-id!"
_smtp._tls.broken 300 TXT "v=TLSRPTv1; rua=ftp://reports.example"
default._bimi.broken 300 TXT "v=BIMI1; l=http://logo.example/logo.svg"
google._domainkey.broken 300 TXT "v=DKIM1; k=rsa; p=bm90IGEga2V5"
_dmarc.broken 300 TXT "v=DMARC1; p=sometimes"
broken 300 TXT "v=spf1 +all"
broken 300 DNSKEY 257 3 13 VdvmKNQqFxtUACDTwlBq7+2hq5j8NjVJKghgxCDkct2CzquIn4PhWt8uuqVKKYw7Fz9Oe4zGK82r77yM/9ZF1Q==
`})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	must := func(x any, err error) any {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for name, result := range map[string]any{
		"CheckMTASTS":          must(mailauth.CheckMTASTS(ctx, r, "broken.test", []string{"mx.broken.test"}, mailauth.MTASTSOptions{})),
		"CheckTLSRPT":          must(mailauth.CheckTLSRPT(ctx, r, "broken.test")),
		"CheckBIMI":            must(mailauth.CheckBIMI(ctx, r, "broken.test")),
		"CheckDKIM":            must(mailauth.CheckDKIM(ctx, r, "broken.test", nil)),
		"mailauth.ParseDMARC":  mailauth.ParseDMARC("v=DMARC1; p=sometimes"),
		"mailauth.ParseDKIM":   mailauth.ParseDKIM("v=DKIM1; k=rsa; p=bm90IGEga2V5"),
		"mailauth.ParseTLSRPT": mailauth.ParseTLSRPT("v=TLSRPTv1; rua=ftp://reports.example"),
		"mailauth.ParseBIMI":   mailauth.ParseBIMI("v=BIMI1; l=http://logo.example/logo.svg"),
		"mailauth.ParseMTASTS": mailauth.ParseMTASTSRecord("v=STSv1; id=not-an-id!"),
		"mailauth.ParsePolicy": mailauth.ParseMTASTSPolicy("version: STSv1\nmode: sometimes\n"),
	} {
		b, err := json.Marshal(result)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Problems []struct{ Code, Severity, Message string }
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Problems) == 0 || !strings.Contains(string(b), `"problems":[{"code":"`) {
			t.Errorf("%s: the JSON form has no problems: %s", name, b)
			continue
		}
		for _, p := range got.Problems {
			if p.Code == "" || (p.Severity != "error" && p.Severity != "warning") || p.Message == "" {
				t.Errorf("%s: problem %+v lacks its code, severity or message", name, p)
			}
		}
	}
	// A result without findings says so with an empty list, not null.
	clean, _ := json.Marshal(mailauth.ParseTLSRPT("v=TLSRPTv1; rua=mailto:tlsrpt@example.org"))
	if !strings.Contains(string(clean), `"problems":[]`) {
		t.Errorf("no findings: %s", clean)
	}
}
