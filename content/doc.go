// Package content generates marketing and editorial content with a
// language model: summaries, rewrites, SEO meta tags, blog outlines,
// product descriptions, social captions, headlines and FAQs.
//
// [New] builds a [Generator] from a [Config], whose LLM field is an
// [llm.Config]: any langchaingo model (OpenAI and compatible servers,
// Anthropic, Ollama, Google AI) with its name, prices, timeout and
// attempts. Each operation
//
//  1. validates its request: required fields, minimum lengths counted in
//     characters (runes) after trimming surrounding white space, inclusive
//     ranges, enumerations; defaults are applied. Violations are an
//     [*envelope.ValidationError] naming the JSON field;
//  2. renders its prompt from the templates in prompts.tmpl, the one place
//     where the prompts live, and asks for JSON (in the provider's JSON
//     mode where it has one), with a max_tokens bound of twice the answer's
//     expected size (1024 to 8192 tokens);
//  3. decodes the answer strictly into the result type and checks it
//     against the request (below). An answer that breaks a rule is sent
//     back once with the violations listed; if the second answer breaks a
//     rule too, the call fails with UPSTREAM_ERROR. No unchecked model text
//     reaches the caller;
//  4. returns the usage metadata (model, prompt and completion tokens,
//     cost in US dollars from the per-million-token [llm.Prices] of
//     Config.LLM) summed over both attempts, also when the call fails
//     after the model answered. A model the price table does not name
//     costs 0 in the metadata, whatever the provider charges: that 0 means
//     "not priced", not "free". [llm.Config.PriceKnown] tells the two
//     apart; the quiver server logs a warning at start-up.
//
// Provider failures are *envelope.Error values: a provider's HTTP 429 is
// RATE_LIMIT_EXCEEDED (with its Retry-After), a timeout or deadline
// UPSTREAM_TIMEOUT, any other failure UPSTREAM_ERROR.
//
// # Answer contracts
//
// Each operation's doc gives its answer contract: the JSON fields the
// model answers, one a line, with their type and the rules checked.
// Types: string; string|null (a string or null); number; []string (an
// array of strings); []{a, b} (an array of objects with the fields a and
// b). Strings are trimmed of surrounding white space before the rules
// are checked; characters are Unicode code points; distinct compares
// case-insensitively. A field the result type does not have is refused.
//
// # Decisions on what the contract leaves open
//
//   - format is "paragraph" or "bullets"; length is short, medium or long;
//     platform is one of linkedin, x (alias twitter), photosocial,
//     facebook, threads, mastodon, bluesky. Other values are
//     INVALID_REQUEST listing the allowed ones. tone, audience and goal are
//     free text of at most 200 characters on one line.
//   - Long inputs are bounded at 50,000 characters, topics and product
//     names at 300, page_url at 2048 and must be an absolute http(s) URL.
//   - predicted_ctr_score is the model's own estimate of relative appeal,
//     not a measured rate.
//
// # Without a model
//
// A Generator made without a model (New(Config{})) answers Summarize and MetaTags with a
// deterministic extractive engine, reported as model "quiver-extractive"
// with zero tokens and cost: TextRank sentence ranking (with a prior for
// early sentences) for the summary,
// TextRank keyword extraction over word co-occurrence, and a title and
// description cut at word boundaries. The other six operations fail with
// SERVICE_UNAVAILABLE, saying how to configure a provider.
package content
