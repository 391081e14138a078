// Package devutil holds the developer utilities of Quiver: Base64, hashes,
// JSON formatting, regular expressions, stack trace analysis and README
// drafts.
//
// Each operation is a plain function taking a context and a typed request
// and returning a typed result. Input that the operation exists to check
// (Base64 that does not decode, JSON that does not parse) is reported
// inside the result with IsValid false and an Error string; a request that
// is itself malformed (a required field missing) is an
// [envelope.ValidationError].
//
// # Language model
//
// Three types add a language model to a deterministic operation:
// [RegexGenerator], [StacktraceAnalyzer] and [ReadmeGenerator]. Each is
// built from a [Config] by its constructor, whose LLM field is an
// [llm.Config] (model, name, prices, timeout, attempts, JSON mode); the
// zero Config, like the zero value of each type, has no model, and each
// still works without one. The usage metadata each returns names the
// model and its cost in US dollars; a model the price table does not name
// costs 0 there, whatever the provider charges, so that 0 means "not
// priced" rather than "free": [llm.Config.PriceKnown] tells the two apart.
//
// The doc of each model-backed method gives its answer contract: the JSON
// fields the model answers, one a line, with their type and the rules
// checked before the answer is used. Types: string; []string (an array
// of strings); []{a, b} (an array of objects with the fields a and b).
// A field outside the contract is refused; an answer that breaks a rule
// is sent back with the broken rules, up to LLM.MaxAttempts times in all,
// after which the call is UPSTREAM_ERROR (the stack trace analysis then
// keeps its deterministic result and says why in ai_note).
//
// # Base64
//
// [EncodeBase64] encodes UTF-8 text; [DecodeBase64] decodes to UTF-8 text.
// Both use the standard alphabet (RFC 4648 section 4), or the URL-safe
// one (RFC 4648 section 5) when URLSafe is set. Encoding always pads. Decoding
// accepts padded and unpadded input, ignores CR and LF (so MIME-wrapped
// text decodes), and is strict otherwise: a character outside the
// alphabet, wrong padding, or non-zero trailing bits make the input
// invalid, and the error gives the offset. A value is required: an empty
// value is INVALID_REQUEST rather than an empty result.
//
// # Hashes
//
// [Hash] computes any of 26 algorithms ([HashAlgorithms]): md5, sha1,
// sha224, sha256, sha384, sha512, sha512-224, sha512-256, sha3-224/256/
// 384/512, keccak-256 and keccak-512 (the original Keccak padding used by
// Ethereum; not SHA-3, and named apart from it), shake128 and shake256,
// blake2b-256/384/512, blake2s-256, ripemd160, crc32 (IEEE), crc32c
// (Castagnoli), adler32, fnv1a-32 and fnv1a-64. Names are
// case-insensitive and separators are ignored, so SHA-256, sha_256 and
// "SHA 256" are sha256; the aliases (blake2b is blake2b-512, crc32c may
// be written crc32-castagnoli, ...) are listed at
// [HashRequest.Algorithms]. Decisions:
//
//   - SHAKE128 and SHAKE256 are extendable-output functions; they are
//     given fixed lengths of 256 and 512 bits (twice their security
//     strength, as FIPS 202's examples and most tools do).
//   - Checksums are written big-endian (crc32 of "123456789" is
//     cbf43926).
//   - Each digest is keyed by the name the request gave (asked for
//     "SHA-256" or "keccak256", the key is "SHA-256" or "keccak256"), so
//     a caller finds it under its own name; names that denote the same
//     algorithm are computed once. Unknown names go, as given and once
//     each, to UnsupportedAlgorithms and are never an error.
//   - The empty string is a value like any other (its digests are
//     published test vectors) and is hashed; over HTTP a missing value
//     is INVALID_REQUEST: the value is required.
//   - As extensions, Encoding picks hex (default), base64 or base64url
//     (unpadded) digests, and HMACKey turns every hash into its HMAC
//     (RFC 2104). Checksums and SHAKE have no HMAC and are then reported
//     unsupported.
//
// # JSON
//
// [FormatJSON] is a strict RFC 8259 parser and formatter written for the
// purpose: nothing is decoded and re-encoded, so numbers stay exactly as
// written (1e400, 12345678901234567890 and -0.0 survive) and strings keep
// their escapes. Comments, trailing commas, single quotes, unquoted keys,
// NaN, leading zeros or +, a byte order mark and invalid UTF-8 are
// rejected. Errors read "line L, column C: expected ..." with the column
// counted in characters, plus a hint for the usual JSON5 and JavaScript
// habits. Indent is 0 to 8 (default 2); 0 puts every value on its own line
// without indentation, as encoding/json.Indent does with an empty indent.
// Formatted output is byte-for-byte what encoding/json.Indent gives, and
// Minified what encoding/json.Compact gives, for valid input. SortKeys
// sorts the members of every object by key (unescaped, compared by code
// point), stably. Duplicate keys are kept and reported in Warnings. Arrays
// and objects may nest MaxJSONDepth (1000) deep. Deep nesting multiplies
// the indentation, so the formatted output is bounded to 8 times the input
// or 1 MiB, whichever is larger; beyond it the request is INVALID_REQUEST
// on indent (a 1 MB input could otherwise format to gigabytes, and a 16 KB
// one to 64 MiB).
//
// # Regular expressions
//
// [ExplainRegex] explains a pattern token by token, in the common
// PCRE/.NET/Python/JavaScript syntax: literals, escapes, classes and
// ranges, negated and POSIX classes, Unicode properties, anchors and word
// boundaries, capturing, named (both (?<n>) and Python's (?P<n>)),
// non-capturing and atomic groups, lookahead and lookbehind, numbered and
// named backreferences, alternation, greedy, lazy and possessive
// quantifiers, {n,m}, inline flags (scoped or not), conditionals,
// comments and extended mode, and PCRE's \Q...\E, \K, \R, \h and \H.
// Each token carries its offset (in characters), its depth and the
// capture group it opens, closes or refers to; groups are numbered left
// to right, as PCRE, Python and JavaScript do. Warnings name a quantified
// capture group (it keeps only its last repetition) and nested quantifiers
// (catastrophic backtracking). The pattern is validated by our tokenizer,
// which gives the position, and then by github.com/dlclark/regexp2/v2; an
// invalid pattern is an INVALID_REQUEST error wrapping a [*PatternError].
//
// [RegexGenerator] writes a pattern from a description. Flavors are pcre
// (default), python, javascript, go, re2 and dotnet. Without a language
// model, a built-in catalog ([CatalogNames]) answers descriptions that name
// one of its entries, matched on the whole description ("email addresses"
// yes, "gmail addresses" no), and anything else is SERVICE_UNAVAILABLE
// saying how to configure a model. With a model, the model does the work
// for every description. Every pattern is anchored to the whole string in
// its flavor's own way: \A...\z for pcre and dotnet, \A...\Z for python
// (where $ would accept a trailing newline), ^...$ for javascript, go and
// re2; an inline m flag, which lets ^ and $ match at every line, is
// refused. Every pattern is compiled in its flavor (Go's regexp for go and
// re2, regexp2 with ECMAScript semantics for javascript, regexp2 for the
// rest) and run against its test cases with a match timeout; a model's
// failing pattern is sent back with its failures, a bounded number of
// times.
//
// # Stack traces
//
// [AnalyzeStacktrace] is deterministic: it detects the language (go,
// python, java, kotlin, javascript, ruby, dotnet, php, rust) from weighted
// signatures, parses Go panics and goroutine dumps (the panicking
// goroutine), Python tracebacks with their chains, Java and Kotlin
// "Caused by:" chains, JavaScript/Node, Ruby, .NET inner exceptions, PHP
// fatal errors and Rust panics (with or without a backtrace), and looks the
// error up in a knowledge base of about a hundred common errors with a fix
// and links to the official documentation. RootCause names the innermost
// error of a chain and the innermost frame of application code (frames of
// the standard library, the runtime and dependencies such as
// site-packages, node_modules, /pkg/mod/ or vendor/ are skipped). Confidence
// (0 to 1) says how sure the analysis is; input that is not a stack trace
// gets ErrorType "unknown" and 0.1. The analysis reads at most
// MaxStacktraceLines lines of 2000 bytes. [StacktraceAnalyzer] adds a
// language model: when one is configured and the error was recognized, it
// writes advice specific to the trace into AISuggestion. Every other field
// is the deterministic analysis, never a guess; when the model fails the
// analysis is still returned, with the reason in AINote (after a model's
// rate limit, with the wait: "(retry after 30s)").
//
// # README drafts
//
// [GenerateReadme] writes deterministic CommonMark: title, language and
// license badges (shields.io), description, features, installation (the
// given commands, or the language's usual ones), usage in a fenced code
// block whose fence is longer than any backtick run in the code, tech
// stack, contributing and license. Sections without content (features,
// usage, tech stack) are left out rather than filled with placeholders.
// Everything the caller supplies is escaped so that it renders as the
// literal text, never as Markdown or HTML. With Polish set,
// [ReadmeGenerator] first has the language model rewrite the description
// and the features (same number of features, bounded lengths, checked and
// retried); the model's text is escaped and laid out exactly like the
// caller's, so the structure stays deterministic. Polish without a model
// is SERVICE_UNAVAILABLE rather than a silent fallback.
package devutil
