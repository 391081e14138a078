package mailauth_test

import (
	"fmt"

	"github.com/quiverkit/quiver/mailauth"
)

// exampleKey is a 1024-bit RSA public key generated for the examples.
const exampleKey = "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQCV+7h1IVNJYyftq4g92Pj9srkDP/6bIpcWALh/UZLpTV3W4muqcT8cSWmqDp2DAIrY2KCAnTmXXDQTyD776/4XqKJvF8eVQyNSJPHCiKbvhOoX+GF3g32BHFl9whlaMCoeuCnzvEaJrdl7HKy1CiXJx4W1wz7TaWxsiC9JmOF32QIDAQAB"

func ExampleRecordVersion() {
	for _, txt := range []string{"v=STSv1; id=20240101", "v=spf1 -all", "google-site-verification=x"} {
		fmt.Printf("%q\n", mailauth.RecordVersion(txt))
	}
	// Output:
	// "STSv1"
	// "spf1"
	// ""
}

func ExampleParseMTASTSRecord() {
	for _, txt := range []string{"v=STSv1; id=20240101T000000", "v=STSv1; id=2024-01-01"} {
		r := mailauth.ParseMTASTSRecord(txt)
		fmt.Println(r.ID, r.Valid(), r.Errors)
	}
	// Output:
	// 20240101T000000 true []
	// 2024-01-01 false [id "2024-01-01" is not 1 to 32 letters and digits]
}

func ExampleParseMTASTSPolicy() {
	p := mailauth.ParseMTASTSPolicy("version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.mx.example.net\r\nmax_age: 604800\r\n")
	fmt.Println(p.Mode, p.MaxAge, p.MX, p.Valid())

	p = mailauth.ParseMTASTSPolicy("version: STSv1\nmode: enforce\nmax_age: 3600\n")
	for _, pr := range p.Problems {
		fmt.Printf("%s %s: %s\n", pr.Severity, pr.Code, pr.Message)
	}
	// Output:
	// enforce 604800 [mail.example.com *.mx.example.net] true
	// error mta_sts_policy_syntax: mode enforce needs at least one mx pattern
	// warning mta_sts_short_max_age: max_age 3600 is under a day: senders fetch the policy again that often, and an attacker who blocks the fetch defeats it sooner
}

// A wildcard matches exactly one label (RFC 8461 section 4.1).
func ExampleMTASTSPolicy_Matches() {
	p := mailauth.ParseMTASTSPolicy("version: STSv1\nmode: enforce\nmx: *.mx.example.net\nmax_age: 604800\n")
	for _, host := range []string{"a.mx.example.net", "mx.example.net", "a.b.mx.example.net"} {
		fmt.Println(host, p.Matches(host))
	}
	// Output:
	// a.mx.example.net true
	// mx.example.net false
	// a.b.mx.example.net false
}

func ExampleParseTLSRPT() {
	r := mailauth.ParseTLSRPT("v=TLSRPTv1; rua=mailto:tls@example.com,https://reports.example.com/tls,http://insecure.example.com/")
	fmt.Println(r.RUA)
	for _, p := range r.Problems {
		fmt.Printf("%s %s: %s\n", p.Severity, p.Code, p.Message)
	}
	// Output:
	// [mailto:tls@example.com https://reports.example.com/tls]
	// error tlsrpt_invalid_rua: rua "http://insecure.example.com/" is neither mailto: nor https:
}

func ExampleParseDKIM() {
	k := mailauth.ParseDKIM("v=DKIM1; k=rsa; p=" + exampleKey)
	fmt.Println(k.KeyType, k.Bits, k.Revoked, k.Valid())
	for _, p := range k.Problems {
		fmt.Printf("%s %s: %s\n", p.Severity, p.Code, p.Message)
	}
	k = mailauth.ParseDKIM("v=DKIM1; p=")
	fmt.Println(k.Bits, k.Revoked, k.Valid())
	// Output:
	// rsa 1024 false true
	// warning dkim_short_key: the RSA key has 1024 bits; 2048 are recommended (RFC 8301)
	// 0 true false
}

func ExampleParseBIMI() {
	b := mailauth.ParseBIMI("v=BIMI1; l=https://example.com/brand/logo.svg; a=https://example.com/brand/vmc.pem")
	fmt.Println(b.Logo, b.Authority, b.Valid())
	b = mailauth.ParseBIMI("v=BIMI1; l=https://example.com/logo.png")
	fmt.Println(b.Errors)
	// Output:
	// https://example.com/brand/logo.svg https://example.com/brand/vmc.pem true
	// [l=https://example.com/logo.png does not name an svg file]
}
