package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/resolver/resolvertest"
)

func TestRunOffline(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, "", false, false, []string{"Jane@Example.COM", "bad@@x.com"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"email": "Jane@example.com"`, `"reason": "multiple_at"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %s:\n%s", want, out.String())
		}
	}
	if err := run(&out, "", true, false, []string{"a@b.co"}); err == nil {
		t.Error("-domain-health without -dns accepted")
	}
}

func TestRunWithDNS(t *testing.T) {
	srv := resolvertest.Start(t, resolvertest.Config{Zone: "$ORIGIN test.\n@ SOA ns h 1 3600 600 86400 60\nmx MX 10 mail.mx.test.\nmx TXT \"v=spf1 -all\"\n"})
	var out bytes.Buffer
	if err := run(&out, srv.Addr, true, false, []string{"a@mx.test"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"has_mx_records": true`, `"verdict": "not_ready"`, `"dmarc_missing"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %s:\n%s", want, out.String())
		}
	}
}
