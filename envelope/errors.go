package envelope

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Code is a machine-readable error code. The set is closed: every code maps
// to exactly one HTTP status through [Code.HTTPStatus].
type Code string

// The error codes of every Quiver service.
const (
	CodeInvalidRequest       Code = "INVALID_REQUEST"        // 400: a bad or missing field, a value out of range
	CodeUnauthorized         Code = "UNAUTHORIZED"           // 401: gateway authentication failed
	CodeNotFound             Code = "NOT_FOUND"              // 404: no such route or upstream object
	CodeMethodNotAllowed     Code = "METHOD_NOT_ALLOWED"     // 405: the route exists for other methods
	CodeRequestTimeout       Code = "REQUEST_TIMEOUT"        // 408: the request body did not arrive in time
	CodeConflict             Code = "CONFLICT"               // 409: the resource is not in a state that allows it (an extension: bulk jobs' results before the job is done)
	CodePayloadTooLarge      Code = "PAYLOAD_TOO_LARGE"      // 413: the body exceeds the configured limit
	CodeUnsupportedMediaType Code = "UNSUPPORTED_MEDIA_TYPE" // 415: wrong Content-Type
	CodeRateLimitExceeded    Code = "RATE_LIMIT_EXCEEDED"    // 429: our limit or an upstream's
	CodeInternal             Code = "INTERNAL_ERROR"         // 500: a bug; details go to the log only
	CodeUpstreamError        Code = "UPSTREAM_ERROR"         // 502: an upstream provider failed
	CodeServiceUnavailable   Code = "SERVICE_UNAVAILABLE"    // 503: a capability is not configured
	CodeUpstreamTimeout      Code = "UPSTREAM_TIMEOUT"       // 504: an upstream provider did not answer in time
)

// Codes lists every code, in the order of their HTTP statuses.
var Codes = []Code{
	CodeInvalidRequest, CodeUnauthorized, CodeNotFound, CodeMethodNotAllowed,
	CodeRequestTimeout, CodeConflict, CodePayloadTooLarge, CodeUnsupportedMediaType, CodeRateLimitExceeded,
	CodeInternal, CodeUpstreamError, CodeServiceUnavailable, CodeUpstreamTimeout,
}

// HTTPStatus returns the HTTP status of the code. Unknown codes are 500.
func (c Code) HTTPStatus() int {
	switch c {
	case CodeInvalidRequest:
		return http.StatusBadRequest
	case CodeUnauthorized:
		return http.StatusUnauthorized
	case CodeNotFound:
		return http.StatusNotFound
	case CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case CodeRequestTimeout:
		return http.StatusRequestTimeout
	case CodeConflict:
		return http.StatusConflict
	case CodePayloadTooLarge:
		return http.StatusRequestEntityTooLarge
	case CodeUnsupportedMediaType:
		return http.StatusUnsupportedMediaType
	case CodeRateLimitExceeded:
		return http.StatusTooManyRequests
	case CodeUpstreamError:
		return http.StatusBadGateway
	case CodeServiceUnavailable:
		return http.StatusServiceUnavailable
	case CodeUpstreamTimeout:
		return http.StatusGatewayTimeout
	default:
		return http.StatusInternalServerError
	}
}

// FieldIssue says which request field broke which rule.
type FieldIssue struct {
	// Field is the JSON name of the field, with a path for nested values:
	// "emails[3]", "page.size". Empty when the issue concerns the whole body.
	Field string `json:"field"`
	// Issue states the rule that was broken, e.g. "must be at most 500 items".
	Issue string `json:"issue"`
}

// Error is the error object of the envelope, and the error type that every
// Quiver package returns when the failure has a code.
type Error struct {
	// Code classifies the failure.
	Code Code `json:"code"`
	// Message is a human-readable sentence, safe to show to the caller.
	Message string `json:"message"`
	// Details lists the field-level problems of an INVALID_REQUEST.
	Details []FieldIssue `json:"details,omitempty"`
	// RetryAfter, when positive, is sent as the Retry-After header.
	RetryAfter time.Duration `json:"-"`
	// Err is the underlying cause. It is never serialized.
	Err error `json:"-"`
}

// Error implements the error interface: "CODE: message: cause", each
// part said once.
//
//   - The details replace the message when it is one of them, as [From]
//     makes it ("CODE: field: issue; field: issue"); a message of its own
//     stands for the details, which restate it field by field for an HTTP
//     caller.
//   - The cause follows, without what the text already says: a cause that
//     is an *Error is written without its code, its leading clauses that
//     the text holds are left out ("destination not allowed: 10.0.0.1 is
//     ..." after a message that says "destination not allowed"), and a
//     cause whose text is already there (quoted by a detail, or the
//     [ValidationError] that the details list) is left out.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	e.writeBody(&b)
	return b.String()
}

// writeBody writes what follows the code in Error: ": message", the
// details, and the cause.
func (e *Error) writeBody(b *strings.Builder) {
	head := e.Message
	if len(e.Details) > 0 && (head == "" || head == issueText(e.Details[0]) || head == e.Details[0].Issue) {
		parts := make([]string, len(e.Details))
		for i, d := range e.Details {
			parts[i] = issueText(d)
		}
		head = strings.Join(parts, "; ")
	}
	if head != "" {
		b.WriteString(": ")
		b.WriteString(head)
	}
	if e.Err == nil {
		return
	}
	var v *ValidationError
	if errors.As(e.Err, &v) && slices.Equal(v.Issues, e.Details) {
		return // the details list its issues
	}
	var cause string
	if inner, ok := e.Err.(*Error); ok {
		var ib strings.Builder
		inner.writeBody(&ib)
		cause = strings.TrimPrefix(ib.String(), ": ")
	} else {
		cause = e.Err.Error()
	}
	said := b.String()
	for {
		clause, rest, ok := strings.Cut(cause, ": ")
		if !ok || !holdsClause(said, clause) {
			break
		}
		cause = rest
	}
	if cause == "" || strings.Contains(said, cause) {
		return
	}
	b.WriteString(": ")
	b.WriteString(cause)
}

// holdsClause reports whether text holds clause whole: between the
// separators that Error writes (": ", "; ") or the text's ends.
func holdsClause(text, clause string) bool {
	for i := 0; clause != ""; {
		k := strings.Index(text[i:], clause)
		if k < 0 {
			return false
		}
		start, end := i+k, i+k+len(clause)
		before := start == 0 || strings.HasSuffix(text[:start], ": ") || strings.HasSuffix(text[:start], "; ")
		after := end == len(text) || strings.HasPrefix(text[end:], ": ") || strings.HasPrefix(text[end:], "; ")
		if before && after {
			return true
		}
		i = start + 1
	}
	return false
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &envelope.Error{Code: envelope.CodeNotFound}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Message == "" && t.Err == nil
}

// HTTPStatus returns the HTTP status of the error's code.
func (e *Error) HTTPStatus() int { return e.Code.HTTPStatus() }

// Errorf returns an *Error with the code and a formatted message. A %w verb
// in format wraps its operand as the cause, as with fmt.Errorf.
func Errorf(code Code, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Code: code, Message: err.Error(), Err: errors.Unwrap(err)}
}

// Wrap returns an *Error with the code and message whose cause is err.
func Wrap(code Code, err error, message string) *Error {
	return &Error{Code: code, Message: message, Err: err}
}

// ValidationError reports that request fields broke rules. Packages return
// it from input validation; the HTTP adapter reports it as INVALID_REQUEST
// with one detail per issue.
//
// The zero value is an empty list of issues; use [ValidationError.Add] to
// collect problems and [ValidationError.Err] to return them.
type ValidationError struct {
	Issues []FieldIssue

	// Cause, when not nil, is the error behind the issues: a package's
	// sentinel such as photosocial.ErrInvalidMediaID, found by errors.Is
	// and errors.As through Unwrap. Clients see the issues, never Cause.
	Cause error
}

// Unwrap returns v.Cause.
func (v *ValidationError) Unwrap() error { return v.Cause }

// Invalid returns a *ValidationError for one field and one broken rule.
func Invalid(field, issue string) error {
	return &ValidationError{Issues: []FieldIssue{{Field: field, Issue: issue}}}
}

// Invalidf is [Invalid] with a formatted issue.
func Invalidf(field, format string, args ...any) error {
	return Invalid(field, fmt.Sprintf(format, args...))
}

// Add records that field broke the rule described by issue.
func (v *ValidationError) Add(field, issue string) {
	v.Issues = append(v.Issues, FieldIssue{Field: field, Issue: issue})
}

// Addf is [ValidationError.Add] with a formatted issue.
func (v *ValidationError) Addf(field, format string, args ...any) {
	v.Add(field, fmt.Sprintf(format, args...))
}

// Err returns v as an error when it holds issues, and nil otherwise.
func (v *ValidationError) Err() error {
	if v == nil || len(v.Issues) == 0 {
		return nil
	}
	return v
}

// Error implements the error interface: "field: issue; field: issue".
func (v *ValidationError) Error() string {
	parts := make([]string, len(v.Issues))
	for i, is := range v.Issues {
		parts[i] = issueText(is)
	}
	return "invalid request: " + strings.Join(parts, "; ")
}

// issueText is "field: issue", or the issue alone when it concerns no
// one field.
func issueText(is FieldIssue) string {
	if is.Field == "" {
		return is.Issue
	}
	return is.Field + ": " + is.Issue
}

// ErrorCode returns the code of err as [From] classifies it: the Code of
// the *Error in its chain, INVALID_REQUEST for a *ValidationError,
// UPSTREAM_TIMEOUT for context.DeadlineExceeded, INTERNAL_ERROR for any
// other error, and "" for nil. A caller switches on it, as the HTTP
// adapter maps it to a status with [Code.HTTPStatus]; errors.Is tells the
// package's own sentinels apart within a code.
func ErrorCode(err error) Code {
	if e := From(err); e != nil {
		return e.Code
	}
	return ""
}

// From converts any error into the envelope's error object. It is the single
// place where errors are classified:
//
//   - an *Error (anywhere in the chain) is returned as it is;
//   - a *ValidationError becomes INVALID_REQUEST with its issues as details;
//   - context.DeadlineExceeded becomes UPSTREAM_TIMEOUT;
//   - anything else becomes INTERNAL_ERROR with a generic message, so that
//     internal text never reaches a caller.
//
// From returns nil for a nil error.
func From(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var v *ValidationError
	if errors.As(err, &v) {
		msg := "the request is invalid"
		if len(v.Issues) > 0 {
			msg = issueText(v.Issues[0])
		}
		return &Error{Code: CodeInvalidRequest, Message: msg, Details: v.Issues, Err: err}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeUpstreamTimeout, Message: "the operation did not finish in time", Err: err}
	}
	return &Error{Code: CodeInternal, Message: "internal error", Err: err}
}
