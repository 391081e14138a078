// Package llmjson asks a language model for one JSON value, checks it,
// and accounts for what the asking cost.
//
// [Ask] is the one place in Quiver where a model is called for structured
// output. It
//
//   - sends a system message and a prompt through any langchaingo
//     [llms.Model], in JSON mode where the provider has one (OpenAI and
//     compatible servers: response_format json_object; Ollama: format json;
//     Google AI: response MIME type application/json; Anthropic has none and
//     is steered by the prompt alone);
//   - decodes the answer strictly into T: unknown fields are rejected and the
//     answer must hold exactly one JSON value. A single Markdown code fence
//     around the whole answer (```json ... ```) is tolerated and removed,
//     because models without a JSON mode often add one; any other text
//     around the value is a violation;
//   - runs the caller's validate function, which returns the broken rules in
//     words the model can act on;
//   - when the answer cannot be decoded or breaks a rule, asks again, once by
//     llm's default ([Settings.Attempts] is 2), showing the model its previous
//     answer and the list of violations. When the last attempt fails too,
//     Ask returns an UPSTREAM_ERROR whose cause is a [*ContractError]: an
//     unchecked answer never reaches the caller;
//   - sums the token usage of every attempt from the provider's
//     GenerationInfo (PromptTokens and CompletionTokens for OpenAI, Ollama
//     and Google AI; InputTokens and OutputTokens for Anthropic) and prices
//     it with [Settings.Cost];
//   - maps provider failures to envelope codes: HTTP 429 becomes
//     RATE_LIMIT_EXCEEDED with the provider's Retry-After, timeouts and
//     deadlines UPSTREAM_TIMEOUT, every other failure UPSTREAM_ERROR.
//
// # Status codes and Retry-After
//
// The langchaingo clients turn HTTP failures into plain error strings, and
// some (Ollama) drop the status code. Give the client llm.HTTPClient(), or
// an *http.Client whose transport is an llm.Transport: it records the
// status and Retry-After header of the provider's answer for the Ask call
// in flight (internal/llmhttp), so the mapping is exact.
//
// The package depends on no public package but envelope: it takes its
// model as [Settings] and reports its [Usage] in its own types, which
// the public packages build from llm.Config and convert to llm.Usage. Without it, Ask
// falls back to reading the status from the error text, and a rate limit
// carries upstream.DefaultRetryAfter: every rate limit's RetryAfter follows
// upstream.RetryAfterOrDefault.
package llmjson
