package mailauth

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"
)

// fuzzFindings checks the invariants every parsed record keeps: Errors,
// Warnings and Problems agree, and messages are bounded excerpts.
func fuzzFindings(t *testing.T, in string, errs, warns []string, ps []Problem) {
	t.Helper()
	checkFindings(t, in, errs, warns, ps)
	for _, p := range ps {
		if p.Code == "" || len(p.Message) > 1000 {
			t.Fatalf("problem %+v", p)
		}
	}
}

func FuzzParseMTASTSPolicy(f *testing.F) {
	f.Add("version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmx: *.example.net\r\nmax_age: 604800\r\n", "mx1.example.com")
	f.Add("version: STSv1\nmode: none\nmax_age: 0\n", "a.example.net")
	f.Add("mode: testing\nmx: *.\nmax_age: -1\n", "x")
	f.Fuzz(func(t *testing.T, text, host string) {
		p := ParseMTASTSPolicy(text)
		fuzzFindings(t, text, p.Errors, p.Warnings, p.Problems)
		if p.MaxAge < -1 || p.MaxAge > MTASTSMaxAge || len(p.MX) > maxMTASTSMX {
			t.Fatalf("max_age %d, %d mx", p.MaxAge, len(p.MX))
		}
		for _, m := range p.MX {
			if !validMXPattern(m) || m != strings.ToLower(m) {
				t.Fatalf("invalid pattern kept: %q", m)
			}
			if !strings.HasPrefix(m, "*.") && !p.Matches(m) {
				t.Fatalf("%q does not match itself", m)
			}
		}
		if p.Matches(host) && !strings.Contains(strings.ToLower(host), ".") {
			t.Fatalf("a host without a dot matched: %q", host)
		}
		r := ParseMTASTSRecord(text)
		fuzzFindings(t, text, r.Errors, r.Warnings, r.Problems)
		if r.Valid() && !validSTSID(r.ID) {
			t.Fatalf("valid record with id %q", r.ID)
		}
	})
}

func FuzzParseTLSRPT(f *testing.F) {
	f.Add("v=TLSRPTv1; rua=mailto:tls@example.com,https://r.example.com/x")
	f.Add("v=TLSRPTv1;rua=mailto:%40@example.com")
	f.Add("v=TLSRPTv1; rua=")
	f.Fuzz(func(t *testing.T, in string) {
		r := ParseTLSRPT(in)
		fuzzFindings(t, in, r.Errors, r.Warnings, r.Problems)
		for _, u := range r.RUA {
			if checkReportURI(u) != "" {
				t.Fatalf("invalid rua kept: %q", u)
			}
		}
		if len(r.RUA) > maxRUA*maxTags {
			t.Fatalf("%d rua", len(r.RUA))
		}
	})
}

func FuzzParseBIMI(f *testing.F) {
	f.Add("v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem")
	f.Add("v=BIMI1; l=; a=")
	f.Add("v=BIMI1; l=https://user@x/a.SVG")
	f.Fuzz(func(t *testing.T, in string) {
		b := ParseBIMI(in)
		fuzzFindings(t, in, b.Errors, b.Warnings, b.Problems)
		if b.Logo != "" && checkHTTPS(b.Logo, ".svg") != "" || b.Authority != "" && checkHTTPS(b.Authority, "") != "" {
			t.Fatalf("invalid URL kept: %+v", b)
		}
	})
}

func FuzzParseDKIM(f *testing.F) {
	f.Add(rsaKeyRecord(f, 1024, false))
	f.Add(rsaKeyRecord(f, 512, true))
	edPub, _, _ := ed25519.GenerateKey(rand.Reader)
	f.Add("v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(edPub))
	f.Add("v=DKIM1; p=")
	f.Fuzz(func(t *testing.T, in string) {
		k := ParseDKIM(in)
		fuzzFindings(t, in, k.Errors, k.Warnings, k.Problems)
		if k.Revoked && k.Bits != 0 || k.Bits < 0 || k.Bits > 8*maxDKIMKeyBytes {
			t.Fatalf("revoked %v bits %d", k.Revoked, k.Bits)
		}
		if k.Valid() && (k.Bits == 0 || k.KeyType == "rsa" && k.Bits < MinDKIMRSABits) {
			t.Fatalf("valid key of %d bits: %+v", k.Bits, k)
		}
	})
}
