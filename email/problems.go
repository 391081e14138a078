package email

import (
	"errors"
	"fmt"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/mailauth"
)

// checkSelectors validates the caller's DKIM selectors as
// mailauth.CheckSelectors does, or returns a validation error on field
// (at field[i] for a bad selector). It returns them lowercased.
func checkSelectors(field string, sels []string) ([]string, error) {
	out, err := mailauth.CheckSelectors(sels)
	var se *mailauth.SelectorError
	switch {
	case errors.As(err, &se) && se.Index < 0:
		return nil, envelope.Invalid(field, se.Reason)
	case errors.As(err, &se):
		return nil, envelope.Invalidf(fmt.Sprintf("%s[%d]", field, se.Index), "is not a DKIM selector: %s", se.Reason)
	case err != nil:
		return nil, envelope.Invalid(field, err.Error())
	}
	return out, nil
}

// problems collects findings as DomainHealth reports them.
type problems []Problem

func (p *problems) add(sev mailauth.Severity, code ProblemCode, msg string) {
	*p = append(*p, newProblem(sev, code, msg))
}

// newProblem is a finding, its message cut by shownMessage.
func newProblem(sev mailauth.Severity, code ProblemCode, msg string) Problem {
	return Problem{Code: code, Severity: sev, Message: shownMessage(msg)}
}

// shownMessage cuts a message to mailauth.MaxMessageBytes, as mailauth
// cuts its own: messages may quote what a domain publishes.
func shownMessage(msg string) string { return textcut.Mark(msg, mailauth.MaxMessageBytes, "…") }

// fromMailauth converts the findings of a mailauth check, under their
// mailauth codes (every one is a ProblemCode of the same word).
func fromMailauth(ps []mailauth.Problem) []Problem {
	out := make([]Problem, len(ps))
	for i, x := range ps {
		out[i] = Problem{Code: ProblemCode(x.Code), Severity: x.Severity, Message: x.Message}
	}
	return out
}

// lookupProblem is mailauth.LookupProblem under this package's codes:
// the problem of lookups (what: "the MX lookup") that failed with err,
// dnssec_bogus when the answer failed DNSSEC validation at the resolver,
// otherwise code with severity sev.
func lookupProblem(sev mailauth.Severity, code ProblemCode, what string, err error) Problem {
	return fromMailauth([]mailauth.Problem{mailauth.LookupProblem(sev, mailauth.Code(code), what, err)})[0]
}
