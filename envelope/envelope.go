// Package envelope defines the response envelope shared by every Quiver
// service, the error codes that travel in it, and request IDs. The usage
// that operations answered by a language model report is [llm.Usage],
// which [Meta] carries.
//
// Every response body has the same four fields:
//
//	{"success": true, "data": {...}, "error": null, "meta": {"request_id": "req_..."}}
//
// Packages never build envelopes themselves. They return typed results and
// errors; the HTTP adapter wraps them with [Success] or [Failure]. Errors
// carry a [Code], and [Code.HTTPStatus] is the one place where a code becomes
// an HTTP status; [ErrorCode] reads the code of any error, for a Go caller.
package envelope

import "github.com/quiverkit/quiver/llm"

// Envelope is the body of every response.
type Envelope struct {
	// Success is true when the call succeeded.
	Success bool `json:"success"`
	// Data is the payload of the operation; null on failure.
	Data any `json:"data"`
	// Error describes the failure; null on success.
	Error *Error `json:"error"`
	// Meta carries the request ID and, for AI operations, usage metadata.
	Meta Meta `json:"meta"`
}

// Meta is the envelope's metadata object.
//
// Operations answered by a language model set Usage, whose fields then
// appear inline next to request_id (model, prompt_tokens,
// completion_tokens, cost_usd). When Usage is nil those fields are absent.
type Meta struct {
	// RequestID has the form req_<id>; see [IDSource].
	RequestID string `json:"request_id,omitempty"`
	*llm.Usage
}

// Success returns the envelope of a successful call.
func Success(data any, meta Meta) Envelope {
	return Envelope{Success: true, Data: data, Meta: meta}
}

// Failure returns the envelope of a failed call. Any error is accepted:
// [From] turns it into an [*Error], hiding the text of unexpected errors.
func Failure(err error, meta Meta) Envelope {
	return Envelope{Success: false, Error: From(err), Meta: meta}
}
