package llm

import (
	"net/http"

	"github.com/quiverkit/quiver/internal/llmhttp"
)

// Transport is the http.RoundTripper to put under a langchaingo model's
// HTTP client so that Quiver reads the provider's own answer to a failed
// call: its HTTP status, and the Retry-After header of a rate limit. The
// langchaingo clients keep neither (they report a plain error string, and
// some drop the status), so without it a provider's 429 is still
// RATE_LIMIT_EXCEEDED, but with the 60 s RetryAfter of a rate limit that
// does not say when to retry, not the provider's own. Transport passes every request to Base (http.DefaultTransport
// when nil) unchanged; it records a failed answer only for the Quiver
// operation that made the request. The zero Transport is ready to use.
//
//	model, err := openai.New(openai.WithModel("gpt-4o-mini"),
//		openai.WithHTTPClient(&http.Client{Transport: &llm.Transport{Base: myTransport}}))
type Transport struct {
	// Base sends the requests; default http.DefaultTransport.
	Base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	return (&llmhttp.Transport{Base: t.Base}).RoundTrip(r)
}

// HTTPClient returns a new *http.Client whose Transport is a [Transport]
// over http.DefaultTransport: give it to the model client's constructor
// (openai.WithHTTPClient, anthropic.WithHTTPClient, ollama.WithHTTPClient,
// googleai.WithHTTPClient) so that a provider's rate limit keeps its
// Retry-After. It has no timeout of its own: [Config.Timeout] bounds each
// call.
func HTTPClient() *http.Client {
	return &http.Client{Transport: &Transport{}}
}
