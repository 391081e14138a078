// Package envelope defines the response envelope shared by every Quiver
// service, the error codes that travel in it, request IDs, and the metadata
// that AI-backed operations report.
//
// Every response body has the same four fields:
//
//	{"success": true, "data": {...}, "error": null, "meta": {"request_id": "req_..."}}
//
// Packages never build envelopes themselves. They return typed results and
// errors; the HTTP adapter wraps them with [Success] or [Failure]. Errors
// carry a [Code], and [Code.HTTPStatus] is the one place where a code becomes
// an HTTP status.
package envelope

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
// AI operations embed [AI], whose fields then appear inline next to
// request_id. When AI is nil those fields are absent.
type Meta struct {
	// RequestID has the form req_<id>; see [IDSource].
	RequestID string `json:"request_id,omitempty"`
	*AI
}

// AI is the metadata of an operation answered by a language model.
type AI struct {
	// Model names the model that answered, e.g. "gpt-4o-mini" or
	// "quiver-extractive" for the deterministic fallback.
	Model string `json:"model"`
	// PromptTokens is the number of input tokens the provider reported,
	// summed over every attempt.
	PromptTokens int `json:"prompt_tokens"`
	// CompletionTokens is the number of output tokens the provider
	// reported, summed over every attempt.
	CompletionTokens int `json:"completion_tokens"`
	// CostUSD is the estimated cost in US dollars, summed over every attempt.
	CostUSD float64 `json:"cost_usd"`
}

// Add accumulates the usage of another call into a. The model name of the
// latest non-empty call wins.
func (a *AI) Add(b AI) {
	if b.Model != "" {
		a.Model = b.Model
	}
	a.PromptTokens += b.PromptTokens
	a.CompletionTokens += b.CompletionTokens
	a.CostUSD += b.CostUSD
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
