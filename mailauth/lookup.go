package mailauth

import (
	"errors"
	"strings"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/resolver"
)

// LookupText is what a result says of a failed lookup err: the question
// and the failure in the resolver's words ("example.com MX: server
// failure (SERVFAIL)"), with the Extended DNS Errors of the reply, and
// not the network error behind it, which names the resolver's own
// address and belongs in the logs. For an error that is not a
// *resolver.LookupError it is the error's text.
func LookupText(err error) string {
	var le *resolver.LookupError
	if !errors.As(err, &le) {
		return err.Error()
	}
	why := "the lookup failed"
	for _, s := range []error{resolver.ErrDNSSECBogus, resolver.ErrNXDomain, resolver.ErrNoData, resolver.ErrServFail,
		resolver.ErrRefused, resolver.ErrTimeout, resolver.ErrUnreachable, resolver.ErrInvalidName} {
		if errors.Is(le.Err, s) {
			why = s.Error()
			break
		}
	}
	for _, e := range le.ExtendedErrors {
		why += ", " + e.String()
	}
	return strings.TrimSuffix(le.Name, ".") + " " + dns.TypeToString[le.Type] + ": " + why
}

// LookupProblem is the problem of lookups (what: "the MX lookup") that
// failed with err. When the answer failed DNSSEC validation at the
// resolver (resolver.ErrDNSSECBogus), as it does for every sender that
// validates, which therefore cannot read the record either, it is a
// CodeDNSSECBogus error naming the question and the resolver's Extended
// DNS Errors; otherwise it has code and severity sev.
func LookupProblem(sev Severity, code Code, what string, err error) Problem {
	var le *resolver.LookupError
	if !errors.Is(err, resolver.ErrDNSSECBogus) || !errors.As(err, &le) {
		return Problem{Code: code, Severity: sev, Message: what + " failed: " + LookupText(err)}
	}
	msg := what + " (" + strings.TrimSuffix(le.Name, ".") + " " + dns.TypeToString[le.Type] + ") failed DNSSEC validation at the resolver, as it does for every sender that validates DNSSEC"
	sep := "; the resolver says "
	for _, e := range le.ExtendedErrors {
		msg += sep + e.String()
		sep = ", "
	}
	return Problem{Code: CodeDNSSECBogus, Severity: SeverityError, Message: msg}
}
