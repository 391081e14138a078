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
// # Checks of the answers
//
//   - summarize: in the "paragraph" format, summary is one paragraph of at
//     most max_words words and key_points holds 1 to 10 points of at most
//     40 words; in the "bullets" format, summary is null and key_points
//     holds 2 to 15 points of at most max_words words together;
//   - rewrite: rewritten_text is not empty; at most 10 notes;
//   - meta-tags: title of at most 60 characters and description of at most
//     160 (the lengths search engines display without truncation);
//     3 to 10 distinct keywords including target_keyword when given;
//   - blog outline: exactly `sections` sections with distinct headings and
//     2 to 6 talking points each; 3 to 10 distinct SEO keywords including
//     target_keyword;
//   - product description: short 20 to 100 words, medium 60 to 250, long
//     150 to 500; 3 to 8 bullet points; 3 to 10 SEO keywords including
//     target_keyword;
//   - social caption: exactly `variants` distinct captions; with hashtags,
//     1 to 10 distinct hashtags each, without "#" or spaces (letters,
//     digits and underscores); without, none in the list or the caption;
//     each caption with its hashtags within the platform's post limit
//     (x 280, bluesky 300, threads and mastodon 500, photosocial 2200,
//     linkedin 3000, facebook 5000 characters);
//   - headlines: exactly `count` distinct headlines of at most 150
//     characters, each with an angle and a predicted_ctr_score from 0 to 1;
//   - faq: exactly `count` distinct questions ending with "?", each with an
//     answer.
//
// # Decisions on what the specification leaves open
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
