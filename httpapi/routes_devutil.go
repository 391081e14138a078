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
		post(groupDev, "/v1/dev/data/base64/encode", "Encode UTF-8 text to Base64", devutil.EncodeBase64),
		post(groupDev, "/v1/dev/data/base64/decode", "Decode Base64 to UTF-8 text", devutil.DecodeBase64),
		{
			method: http.MethodPost, path: "/v1/dev/data/hash", group: groupDev, summary: "Hash text with one or more algorithms",
			body: typeOf[devutil.HashRequest](), response: typeOf[devutil.HashResult](), op: hash,
			description: "Algorithm names are case-insensitive, with the separators - _ space / and . ignored (SHA-256, sha_256 and sha256 are one algorithm; " +
				"keccak256 is keccak-256), and a few aliases are accepted (blake2b is blake2b-512, crc32-castagnoli is crc32c). " +
				"Each digest in hashes is keyed by the name exactly as the request gives it; names of one algorithm share one digest. " +
				"Beyond md5, sha1, sha256 and sha512, the other algorithms, encoding and hmac_key are extensions.",
		},
		post(groupDev, "/v1/dev/data/json/format", "Validate, format and minify JSON", devutil.FormatJSON),
		postAI(groupDev, "/v1/dev/regex/generate", "Generate a regular expression from a description", regex.Generate),
		post(groupDev, "/v1/dev/regex/explain", "Explain a regular expression token by token", devutil.ExplainRegex),
		postAI(groupDev, "/v1/dev/stacktrace", "Analyze a stack trace", stacktrace.Analyze),
		postAI(groupDev, "/v1/dev/readme", "Draft a README from repository metadata", readme.Generate),
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
