package httpapi

import (
	"cmp"
	"net/http"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
)

// devutilRoutes returns the routes served by package devutil.
func (s *server) devutilRoutes() ([]route, error) {
	// The zero values have no model (see package devutil).
	regex, stacktrace, readme := cmp.Or(s.cfg.Regex, new(devutil.RegexGenerator)),
		cmp.Or(s.cfg.Stacktrace, new(devutil.StacktraceAnalyzer)), cmp.Or(s.cfg.Readme, new(devutil.ReadmeGenerator))
	return []route{
		post(groupDev, "/v1/dev/data/base64/encode", "Encode UTF-8 text to Base64", devutil.EncodeBase64).
			example(`{"value":"hello","urlsafe":false}`),
		post(groupDev, "/v1/dev/data/base64/decode", "Decode Base64 to UTF-8 text", devutil.DecodeBase64).
			example(`{"value":"aGVsbG8=","urlsafe":false}`),
		{
			method: http.MethodPost, path: "/v1/dev/data/hash", group: groupDev, summary: "Hash text with one or more algorithms",
			body: typeOf[devutil.HashRequest](), response: typeOf[devutil.HashResult](), op: hash,
			weight:         heavyKind,
			requestExample: `{"value":"hello","algorithms":["sha256","md5"],"encoding":"hex"}`,
			description: "Algorithm names are case-insensitive, with the separators - _ space / and . ignored (SHA-256, sha_256 and sha256 are one algorithm; " +
				"keccak256 is keccak-256), and a few aliases are accepted (blake2b is blake2b-512, crc32-castagnoli is crc32c). " +
				"Each digest in hashes is keyed by the name exactly as the request gives it; names of one algorithm share one digest. " +
				"Beyond md5, sha1, sha256 and sha512, the other algorithms, encoding and hmac_key are extensions.",
		},
		post(groupDev, "/v1/dev/data/json/format", "Validate, format and minify JSON", devutil.FormatJSON).
			example(`{"text":"{\"b\":[1,2],\"a\":{\"x\":true}}","indent":2,"sort_keys":true}`).
			weigh(formatKind),
		postAI(groupDev, "/v1/dev/regex/generate", "Generate a regular expression from a description", regex.Generate).
			example(`{"description":"a semantic version number such as 1.4.2","flavor":"python"}`),
		post(groupDev, "/v1/dev/regex/explain", "Explain a regular expression token by token", devutil.ExplainRegex).
			example(`{"pattern":"^(?<year>\\d{4})-(\\d{2})-(\\d{2})$"}`).
			// A pattern of up to devutil.MaxPatternLength (10,000)
			// characters explains in up to about 80 bytes a character:
			// "(a)" 3,333 times gives 826 KB of JSON. 2 MiB.
			weigh(resultKind(2 << 20)),
		postAI(groupDev, "/v1/dev/stacktrace", "Analyze a stack trace", stacktrace.Analyze).
			example(`{"stacktrace":"Traceback (most recent call last):\n  File \"app.py\", line 12, in <module>\n    total = prices[\"apple\"] * qty\nKeyError: 'apple'",` +
				`"language":"python"}`).
			weigh(heavyKind),
		postAI(groupDev, "/v1/dev/readme", "Draft a README from repository metadata", readme.Generate).
			example(`{"repo_name":"tidy-csv","description":"A command-line tool that cleans and normalizes CSV files.",` +
				`"language":"Go","features":["detects delimiters","trims whitespace","dedupes rows"],` +
				`"install_commands":["go install example.com/tidy-csv@latest"],"usage_example":"tidy-csv -in data.csv -out clean.csv","license":"MIT"}`),
	}, nil
}

// hash decodes a hash request telling a missing value (400: the value
// is required) from an empty one, which [devutil.Hash] hashes like any
// other string. The shallower Value shadows the embedded one.
func hash(r *http.Request) (any, *llm.Usage, error) {
	var req struct {
		devutil.HashRequest
		Value *string `json:"value"`
	}
	if err := decodeJSON(r, &req); err != nil {
		return nil, nil, err
	}
	if req.Value == nil {
		return nil, nil, envelope.Invalid("value", "is required (the empty string is a value and is hashed)")
	}
	req.HashRequest.Value = *req.Value
	res, err := devutil.Hash(r.Context(), req.HashRequest)
	return res, nil, err
}
