package mailauth

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"math/big"
	"slices"
	"strings"
	"testing"
)

// codes returns the codes of ps, in order.
func codes(ps []Problem) []Code {
	var out []Code
	for _, p := range ps {
		out = append(out, p.Code)
	}
	return out
}

// checkFindings asserts that errors, warnings and problems agree.
func checkFindings(t *testing.T, what string, errs, warns []string, ps []Problem) {
	t.Helper()
	if errs == nil || warns == nil {
		t.Fatalf("%s: nil Errors or Warnings", what)
	}
	ne, nw := 0, 0
	for _, p := range ps {
		if p.Severity == SeverityError {
			ne++
		} else {
			nw++
		}
	}
	if ne != len(errs) || nw != len(warns) {
		t.Fatalf("%s: %d errors %d warnings but problems %v", what, len(errs), len(warns), ps)
	}
}

func TestRecordVersion(t *testing.T) {
	for in, want := range map[string]string{
		"v=STSv1; id=1":      "STSv1",
		" V = TLSRPTv1 ;rua": "TLSRPTv1",
		"v=BIMI1":            "BIMI1",
		"id=1; v=STSv1":      "",
		"spf1":               "",
		"":                   "",
	} {
		if got := RecordVersion(in); got != want {
			t.Errorf("RecordVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseMTASTSRecord(t *testing.T) {
	tests := []struct {
		in    string
		id    string
		codes []Code
	}{
		{"v=STSv1; id=20240101T000000", "20240101T000000", nil},
		{"v=STSv1;id=abc;ext=1;", "abc", nil},
		{"v=STSv1;", "", []Code{CodeMTASTSSyntax}},
		{"v=STSv1; id=has-dash", "has-dash", []Code{CodeMTASTSSyntax}},
		{"v=STSv1; id=" + strings.Repeat("a", 33), strings.Repeat("a", 33), []Code{CodeMTASTSSyntax}},
		{"id=1; v=STSv1", "1", []Code{CodeMTASTSSyntax}},
		{"v=STSv2; id=1", "1", []Code{CodeMTASTSSyntax}},
		{"v=STSv1; id=1; id=2", "1", []Code{CodeMTASTSSyntax}},
		{"v=STSv1; id", "", []Code{CodeMTASTSSyntax, CodeMTASTSSyntax}},
	}
	for _, tt := range tests {
		r := ParseMTASTSRecord(tt.in)
		checkFindings(t, tt.in, r.Errors, r.Warnings, r.Problems)
		if r.ID != tt.id || !slices.Equal(codes(r.Problems), tt.codes) || r.Valid() != (len(tt.codes) == 0) {
			t.Errorf("%q: id %q problems %v; want %q %v", tt.in, r.ID, r.Problems, tt.id, tt.codes)
		}
	}
}

func TestParseMTASTSPolicy(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		mode   string
		maxAge int64
		mx     []string
		codes  []Code
	}{
		{"valid CRLF", "version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmx: *.Example.NET.\r\nmax_age: 604800\r\n", "enforce", 604800, []string{"mx1.example.com", "*.example.net"}, nil},
		{"valid LF unknown field", "version: STSv1\nmode: testing\nmx: mx.example.com\nmax_age: 86400\nfoo: bar\n", "testing", 86400, []string{"mx.example.com"}, nil},
		{"none without mx", "version: STSv1\nmode: none\nmax_age: 0\n", "none", 0, []string{}, nil},
		{"missing fields", "mode: enforce\nmx: mx.example.com\n", "enforce", -1, []string{"mx.example.com"}, []Code{CodeMTASTSPolicySyntax, CodeMTASTSPolicySyntax}},
		{"bad values", "version: STSv2\nmode: strict\nmax_age: 99999999999\nmx: not a host\n", "", -1, []string{}, []Code{CodeMTASTSPolicySyntax, CodeMTASTSPolicySyntax, CodeMTASTSPolicySyntax, CodeMTASTSPolicySyntax}},
		{"enforce without mx", "version: STSv1\nmode: enforce\nmax_age: 604800\n", "enforce", 604800, []string{}, []Code{CodeMTASTSPolicySyntax}},
		{"short max_age", "version: STSv1\nmode: enforce\nmx: mx.example.com\nmax_age: 60\n", "enforce", 60, []string{"mx.example.com"}, []Code{CodeMTASTSShortMaxAge}},
		{"duplicate mode", "version: STSv1\nmode: testing\nmode: enforce\nmx: mx.example.com\nmax_age: 604800\n", "testing", 604800, []string{"mx.example.com"}, []Code{CodeMTASTSDuplicateField}},
		{"signed max_age", "version: STSv1\nmode: none\nmax_age: +5\n", "none", -1, []string{}, []Code{CodeMTASTSPolicySyntax}},
		{"not key value", "version: STSv1\nmode: none\nmax_age: 5\njunk\n", "none", 5, []string{}, []Code{CodeMTASTSPolicySyntax}},
		{"oversized", "version: STSv1\nmode: none\nmax_age: 5\n" + strings.Repeat("x: y\n", MaxMTASTSPolicyBytes/5), "none", 5, []string{}, []Code{CodeMTASTSPolicySyntax, CodeMTASTSPolicySyntax}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ParseMTASTSPolicy(tt.in)
			checkFindings(t, tt.name, p.Errors, p.Warnings, p.Problems)
			if p.Mode != tt.mode || p.MaxAge != tt.maxAge || !slices.Equal(p.MX, tt.mx) || !slices.Equal(codes(p.Problems), tt.codes) {
				t.Errorf("mode %q max_age %d mx %q problems %v", p.Mode, p.MaxAge, p.MX, p.Problems)
			}
		})
	}
}

func TestMTASTSMatches(t *testing.T) {
	p := ParseMTASTSPolicy("version: STSv1\nmode: enforce\nmax_age: 604800\nmx: mail.example.com\nmx: *.mx.example.net\n")
	for host, want := range map[string]bool{
		"mail.example.com":      true,
		"MAIL.Example.com.":     true,
		"a.mx.example.net":      true,
		"mx.example.net":        false,
		"a.b.mx.example.net":    false,
		".mx.example.net":       false,
		"other.example.com":     false,
		"mail.example.com.evil": false,
	} {
		if got := p.Matches(host); got != want {
			t.Errorf("Matches(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestParseTLSRPT(t *testing.T) {
	tests := []struct {
		in    string
		rua   []string
		codes []Code
	}{
		{"v=TLSRPTv1; rua=mailto:tls@example.com", []string{"mailto:tls@example.com"}, nil},
		{"v=TLSRPTv1;rua=mailto:a@example.com, https://reports.example.com/tls", []string{"mailto:a@example.com", "https://reports.example.com/tls"}, nil},
		{"v=TLSRPTv1", []string{}, []Code{CodeTLSRPTSyntax}},
		{"rua=mailto:a@example.com", []string{"mailto:a@example.com"}, []Code{CodeTLSRPTSyntax}},
		{"v=TLSRPTv1; rua=http://example.com/r", []string{}, []Code{CodeTLSRPTInvalidRUA}},
		{"v=TLSRPTv1; rua=mailto:nobody", []string{}, []Code{CodeTLSRPTInvalidRUA}},
		{"v=TLSRPTv1; rua=mailto:a@b@example.com", []string{}, []Code{CodeTLSRPTInvalidRUA}},
		{"v=TLSRPTv1; rua=https://", []string{}, []Code{CodeTLSRPTInvalidRUA}},
		{"v=TLSRPTv1; rua=tls@example.com", []string{}, []Code{CodeTLSRPTInvalidRUA}},
		// RFC 6068 header fields after "?" are part of a mailto: URI.
		{"v=TLSRPTv1; rua=mailto:tls@example.com?subject=TLS%20report", []string{"mailto:tls@example.com?subject=TLS%20report"}, nil},
		{"v=TLSRPTv1; rua=mailto:?to=tls@example.com", []string{}, []Code{CodeTLSRPTInvalidRUA}},
		// Tag names are case-sensitive: RUA is not rua.
		{"v=TLSRPTv1; RUA=mailto:tls@example.com", []string{}, []Code{CodeTLSRPTSyntax}},
	}
	for _, tt := range tests {
		r := ParseTLSRPT(tt.in)
		checkFindings(t, tt.in, r.Errors, r.Warnings, r.Problems)
		if !slices.Equal(r.RUA, tt.rua) || !slices.Equal(codes(r.Problems), tt.codes) {
			t.Errorf("%q: rua %q problems %v; want %q %v", tt.in, r.RUA, r.Problems, tt.rua, tt.codes)
		}
	}
}

func TestParseBIMI(t *testing.T) {
	tests := []struct {
		in        string
		logo, vmc string
		codes     []Code
	}{
		{"v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem", "https://example.com/logo.svg", "https://example.com/vmc.pem", nil},
		{"v=BIMI1; l=https://example.com/logo.svg", "https://example.com/logo.svg", "", []Code{CodeBIMINoAuthority}},
		{"v=BIMI1; l=; a=", "", "", nil},
		{"v=BIMI1; l=http://example.com/logo.svg", "", "", []Code{CodeBIMISyntax}},
		{"v=BIMI1; l=https://example.com/logo.png; a=https://example.com/v.pem", "", "https://example.com/v.pem", []Code{CodeBIMISyntax}},
		{"v=BIMI1; l=https://example.com/l.svg; a=ftp://example.com/v.pem", "https://example.com/l.svg", "", []Code{CodeBIMISyntax, CodeBIMINoAuthority}},
		{"v=BIMI1", "", "", []Code{CodeBIMISyntax}},
		{"l=https://example.com/l.svg; v=BIMI1; a=https://example.com/v.pem", "https://example.com/l.svg", "https://example.com/v.pem", []Code{CodeBIMISyntax}},
	}
	for _, tt := range tests {
		b := ParseBIMI(tt.in)
		checkFindings(t, tt.in, b.Errors, b.Warnings, b.Problems)
		if b.Logo != tt.logo || b.Authority != tt.vmc || !slices.Equal(codes(b.Problems), tt.codes) {
			t.Errorf("%q: l %q a %q problems %v; want %q %q %v", tt.in, b.Logo, b.Authority, b.Problems, tt.logo, tt.vmc, tt.codes)
		}
	}
}

// rsaKeyRecord returns a DKIM record holding a fresh RSA public key of
// the given size, as a SubjectPublicKeyInfo or a bare RSAPublicKey. The
// modulus is built from two primes, so that sizes crypto/rsa refuses to
// generate (512 bits) can be published as a weak domain would.
func rsaKeyRecord(t testing.TB, bits int, pkcs1 bool) string {
	t.Helper()
	p, err := rand.Prime(rand.Reader, bits/2)
	if err != nil {
		t.Fatal(err)
	}
	q, err := rand.Prime(rand.Reader, bits-bits/2)
	if err != nil {
		t.Fatal(err)
	}
	pub := &rsa.PublicKey{N: new(big.Int).Mul(p, q), E: 65537}
	der := x509.MarshalPKCS1PublicKey(pub)
	if !pkcs1 {
		if der, err = x509.MarshalPKIXPublicKey(pub); err != nil {
			t.Fatal(err)
		}
	}
	return "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(der)
}

func TestParseDKIM(t *testing.T) {
	edPub, _, _ := ed25519.GenerateKey(rand.Reader)
	ed := base64.StdEncoding.EncodeToString(edPub)
	k2048 := rsaKeyRecord(t, 2048, false)
	// A key split by spaces, as long TXT strings often are.
	spaced := k2048[:60] + " " + k2048[60:120] + "\t" + k2048[120:]
	tests := []struct {
		name    string
		in      string
		keyType string
		bits    int
		revoked bool
		valid   bool
		codes   []Code
	}{
		{"rsa 2048", k2048, "rsa", 2048, false, true, nil},
		{"rsa 2048 spaced", spaced, "rsa", 2048, false, true, nil},
		{"rsa 1024", rsaKeyRecord(t, 1024, false), "rsa", 1024, false, true, []Code{CodeDKIMShortKey}},
		{"rsa 1024 pkcs1", rsaKeyRecord(t, 1024, true), "rsa", 1024, false, true, []Code{CodeDKIMShortKey}},
		{"rsa 512", rsaKeyRecord(t, 512, false), "rsa", 512, false, false, []Code{CodeDKIMWeakKey}},
		{"revoked", "v=DKIM1; k=rsa; p=", "rsa", 0, true, false, []Code{CodeDKIMRevoked}},
		{"ed25519", "v=DKIM1; k=ed25519; p=" + ed, "ed25519", 256, false, true, nil},
		{"ed25519 wrong size", "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(make([]byte, 31)), "ed25519", 0, false, false, []Code{CodeDKIMInvalidKey}},
		{"ed25519 key as rsa", "v=DKIM1; p=" + ed, "rsa", 0, false, false, []Code{CodeDKIMInvalidKey}},
		{"not base64", "v=DKIM1; p=!!!", "rsa", 0, false, false, []Code{CodeDKIMInvalidKey}},
		{"no p", "v=DKIM1; k=rsa", "rsa", 0, false, false, []Code{CodeDKIMSyntax}},
		{"unknown k", "v=DKIM1; k=dsa; p=AAAA", "dsa", 0, false, false, []Code{CodeDKIMSyntax}},
		{"v not first", "k=rsa; v=DKIM1; p=", "rsa", 0, true, false, []Code{CodeDKIMSyntax, CodeDKIMRevoked}},
		{"testing", "v=DKIM1; t=y:s; p=" + ed + "; k=ed25519", "ed25519", 256, false, true, []Code{CodeDKIMTesting}},
		{"too long", "p=" + strings.Repeat("A", 8000), "rsa", 0, false, false, []Code{CodeDKIMInvalidKey}},
		// RFC 6376 section 2.4: the "=" padding of base64 is optional.
		{"unpadded base64", "v=DKIM1; k=ed25519; p=" + base64.RawStdEncoding.EncodeToString(edPub), "ed25519", 256, false, true, nil},
		{"unpadded rsa", strings.TrimRight(rsaKeyRecord(t, 1024, true), "="), "rsa", 1024, false, true, []Code{CodeDKIMShortKey}},
		// Tag names are case-sensitive (RFC 6376 section 3.2).
		{"uppercase P unknown", "v=DKIM1; k=ed25519; P=" + ed, "ed25519", 0, false, false, []Code{CodeDKIMSyntax}},
		{"uppercase K unknown", "v=DKIM1; K=ed25519; p=" + ed, "rsa", 0, false, false, []Code{CodeDKIMInvalidKey}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := ParseDKIM(tt.in)
			checkFindings(t, tt.name, k.Errors, k.Warnings, k.Problems)
			if k.KeyType != tt.keyType || k.Bits != tt.bits || k.Revoked != tt.revoked || k.Valid() != tt.valid || !slices.Equal(codes(k.Problems), tt.codes) {
				t.Errorf("type %q bits %d revoked %v valid %v problems %v", k.KeyType, k.Bits, k.Revoked, k.Valid(), k.Problems)
			}
		})
	}
}

// TestRecordBounds: a parsed record shows MaxRecordBytes of itself, its
// values cut to MaxValueBytes, at most ten problems of at most
// MaxMessageBytes, whatever it holds; the checks read all of it.
func TestRecordBounds(t *testing.T) {
	long := strings.Repeat("\x01", 10000)
	dkim := ParseDKIM("v=DKIM1; k=" + long + "; p=; " + strings.Repeat("bad; ", 100))
	dmarc := ParseDMARC("v=DMARC1; p=reject; rua=" + strings.Repeat("mailto:"+long[:500]+"@a.test,", 40) + "; " + long + "=" + long)
	tlsrpt := ParseTLSRPT("v=TLSRPTv1; rua=https://a.test/" + long)
	bimi := ParseBIMI("v=BIMI1; l=https://a.test/" + strings.Repeat("l", 5000) + ".svg; a=")
	sts := ParseMTASTSRecord("v=STSv1; id=" + long)
	policy := ParseMTASTSPolicy("version: " + long + "\nmode: none\nmax_age: 86400\n")
	for _, r := range []struct {
		name      string
		record    string
		truncated bool
		values    []string
		errs      []string
	}{
		{"dkim", dkim.Record, dkim.RecordTruncated, []string{dkim.KeyType}, append(dkim.Errors, dkim.Warnings...)},
		{"dmarc", dmarc.Record, dmarc.RecordTruncated, append(append([]string{}, dmarc.RUA...), dmarc.Tags[len(dmarc.Tags)-1].Name, dmarc.Tags[len(dmarc.Tags)-1].Value), append(dmarc.Errors, dmarc.Warnings...)},
		{"tlsrpt", tlsrpt.Record, tlsrpt.RecordTruncated, tlsrpt.RUA, tlsrpt.Errors},
		{"bimi", bimi.Record, bimi.RecordTruncated, []string{bimi.Logo}, bimi.Errors},
		{"mta-sts", sts.Record, sts.RecordTruncated, []string{sts.ID}, sts.Errors},
		{"policy", "", true, []string{policy.Version}, policy.Errors},
	} {
		if r.name != "policy" && (len(r.record) != MaxRecordBytes || !r.truncated) {
			t.Errorf("%s: record of %d bytes, truncated %v", r.name, len(r.record), r.truncated)
		}
		for _, v := range r.values {
			if len(v) > MaxValueBytes+len("…") || len(v) < MaxValueBytes {
				t.Errorf("%s: value of %d bytes", r.name, len(v))
			}
		}
		if len(r.errs) > maxRecordFindings+1 {
			t.Errorf("%s: %d problems", r.name, len(r.errs))
		}
		for _, e := range r.errs {
			if len(e) > MaxMessageBytes+len("…") {
				t.Errorf("%s: message of %d bytes", r.name, len(e))
			}
		}
	}
	if len(dmarc.RUA) != maxRUA {
		t.Errorf("dmarc: %d rua URIs, want %d", len(dmarc.RUA), maxRUA)
	}
	// The checks read what is not shown: the key type is still wrong.
	if dkim.Valid() || len(dkim.Errors) == 0 {
		t.Errorf("dkim: %+v", dkim.Errors)
	}
}
