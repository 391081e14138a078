package mailauth_test

import (
	"fmt"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
)

// A failed lookup, as the resolver reports it: a server failure whose
// reply says the data failed DNSSEC validation.
var bogusMX = &resolver.LookupError{
	Name:           "example.com.",
	Type:           dns.TypeMX,
	Err:            fmt.Errorf("%w: %w", resolver.ErrDNSSECBogus, resolver.ErrServFail),
	ExtendedErrors: []resolver.ExtendedError{{InfoCode: dns.ExtendedErrorCodeDNSBogus}},
}

func ExampleLookupText() {
	fmt.Println(mailauth.LookupText(bogusMX))
	timeout := &resolver.LookupError{Name: "example.com.", Type: dns.TypeTXT, Err: resolver.ErrTimeout}
	fmt.Println(mailauth.LookupText(timeout))
	// Output:
	// example.com MX: the answer failed DNSSEC validation (bogus), EDE 6 (DNSSEC Bogus)
	// example.com TXT: timeout
}

func ExampleLookupProblem() {
	servfail := &resolver.LookupError{Name: "example.com.", Type: dns.TypeTXT, Err: resolver.ErrServFail}
	p := mailauth.LookupProblem(mailauth.SeverityWarning, mailauth.CodeDNSError, "the TLS-RPT lookup", servfail)
	fmt.Println(p.Code, p.Severity)
	// A bogus answer is a DNSSEC error, whatever code the caller gave.
	p = mailauth.LookupProblem(mailauth.SeverityWarning, mailauth.CodeDNSError, "the MX lookup", bogusMX)
	fmt.Println(p.Code, p.Severity)
	fmt.Println(p.Message)
	// Output:
	// dns_error warning
	// dnssec_bogus error
	// the MX lookup (example.com MX) failed DNSSEC validation at the resolver, as it does for every sender that validates DNSSEC; the resolver says EDE 6 (DNSSEC Bogus)
}

func ExampleDNSSEC_Covers() {
	d := &mailauth.DNSSEC{Bogus: []string{"example.com MX"}}
	fmt.Println(d.Failed("example.com MX"), d.Failed("example.com TXT"))
	fmt.Println(d.Covers(bogusMX))
	var none *mailauth.DNSSEC // no DNSSEC check: nothing is covered
	fmt.Println(none.Covers(bogusMX))
	// Output:
	// true false
	// true
	// false
}
