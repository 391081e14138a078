package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/secret"
)

// postDev posts a JSON body to a devutil route and checks that success
// agrees with the status.
func postDev(t *testing.T, h http.Handler, path, body string) (int, envelopeBody) {
	t.Helper()
	res, env := send(t, h, http.MethodPost, path, "application/json", strings.NewReader(body))
	if env.Success != (res.StatusCode == http.StatusOK) {
		t.Errorf("%s: status %d but success %v", path, res.StatusCode, env.Success)
	}
	return res.StatusCode, env
}

func devHandler(t testing.TB) http.Handler {
	return mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1})
}

// jsonString encodes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// devCase is one request to a devutil route and what must come back.
type devCase struct {
	name   string
	path   string
	body   string
	status int
	code   string   // error code when status is not 200
	field  string   // field named in the error details
	data   []string // substrings of the data, when 200
}

func runDevCases(t *testing.T, h http.Handler, cases []devCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, res := postDev(t, h, tc.path, tc.body)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %+v %.300s", status, tc.status, res.Error, res.Data)
			}
			if tc.status != http.StatusOK {
				if res.Error == nil || res.Error.Code != tc.code {
					t.Fatalf("error %+v, want %s", res.Error, tc.code)
				}
				if tc.field != "" {
					found := false
					for _, d := range res.Error.Details {
						found = found || d.Field == tc.field
					}
					if !found {
						t.Errorf("details %+v do not name %s", res.Error.Details, tc.field)
					}
				}
				return
			}
			for _, s := range tc.data {
				if !bytes.Contains(res.Data, []byte(s)) {
					t.Errorf("data lacks %s:\n%.1000s", s, res.Data)
				}
			}
		})
	}
}

const bodyLimit = httpapi.DefaultMaxBodyBytes

func TestDevHashRoute(t *testing.T) {
	huge := strings.Repeat("a", bodyLimit-100)
	runDevCases(t, devHandler(t), []devCase{
		{"defaults", "/v1/dev/data/hash", `{"value":"abc"}`, 200, "", "", []string{
			`"md5":"900150983cd24fb0d6963f7d28e17f72"`, `"sha1":"a9993e364706816aba3e25717850c26c9cd0d89d"`,
			`"sha256":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`, `"sha512":"ddaf35a1`, `"unsupported_algorithms":[]`}},
		{"empty value", "/v1/dev/data/hash", `{"value":""}`, 200, "", "", []string{`"md5":"d41d8cd98f00b204e9800998ecf8427e"`}},
		{"missing value", "/v1/dev/data/hash", `{"algorithms":["md5"]}`, 400, "INVALID_REQUEST", "value", nil},
		{"null value", "/v1/dev/data/hash", `{"value":null}`, 400, "INVALID_REQUEST", "value", nil},
		{"value not a string", "/v1/dev/data/hash", `{"value":42}`, 400, "INVALID_REQUEST", "value", nil},
		{"aliases, unknown and duplicates", "/v1/dev/data/hash", `{"value":"abc","algorithms":["SHA-256","sha_256","whirlpool","Keccak-256"]}`, 200, "", "", []string{
			`"SHA-256":"ba78`, `"sha_256":"ba78`, `"Keccak-256":"4e03657a`, `"unsupported_algorithms":["whirlpool"]`}},
		// Each digest is keyed by the name asked for (issue 22: asked for
		// keccak256, the answer was keyed keccak-256).
		{"keyed as asked", "/v1/dev/data/hash", `{"value":"abc","algorithms":["keccak256","SHA-256"]}`, 200, "", "", []string{
			`"keccak256":"4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"`,
			`"SHA-256":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`}},
		{"every algorithm", "/v1/dev/data/hash", `{"value":"abc","algorithms":["md5","sha1","sha224","sha256","sha384","sha512","sha512-224","sha512-256","sha3-224","sha3-256","sha3-384","sha3-512","keccak-256","keccak-512","shake128","shake256","blake2b-256","blake2b-384","blake2b-512","blake2s-256","ripemd160","crc32","crc32c","adler32","fnv1a-32","fnv1a-64"]}`, 200, "", "", []string{`"fnv1a-64":`, `"unsupported_algorithms":[]`}},
		{"base64url and hmac", "/v1/dev/data/hash", `{"value":"The quick brown fox jumps over the lazy dog","algorithms":["md5"],"hmac_key":"key","encoding":"base64url"}`, 200, "", "", []string{`"md5":"gAcHE0Y-d0m5DC3CSRHidQ"`, `"hmac":true`}},
		{"bad encoding", "/v1/dev/data/hash", `{"value":"a","encoding":"base32"}`, 400, "INVALID_REQUEST", "encoding", nil},
		// The request type embeds devutil.HashRequest: its Go name is not
		// part of the field's name.
		{"algorithms not an array", "/v1/dev/data/hash", `{"value":"a","algorithms":"sha256"}`, 400, "INVALID_REQUEST", "algorithms", nil},
		{"an algorithm not a string", "/v1/dev/data/hash", `{"value":"a","algorithms":[1]}`, 400, "INVALID_REQUEST", "algorithms[0]", nil},
		{"hmac_key not a string", "/v1/dev/data/hash", `{"value":"a","hmac_key":{}}`, 400, "INVALID_REQUEST", "hmac_key", nil},
		{"too many algorithms", "/v1/dev/data/hash", `{"value":"a","algorithms":[` + strings.Repeat(`"md5",`, 64) + `"md5"]}`, 400, "INVALID_REQUEST", "algorithms", nil},
		{"algorithms not strings", "/v1/dev/data/hash", `{"value":"a","algorithms":[1]}`, 400, "INVALID_REQUEST", "", nil},
		{"unknown field", "/v1/dev/data/hash", `{"value":"a","salt":"x"}`, 400, "INVALID_REQUEST", "", nil},
		{"huge value", "/v1/dev/data/hash", `{"value":"` + huge + `"}`, 200, "", "", []string{`"sha256":`}},
		{"over the body limit", "/v1/dev/data/hash", `{"value":"` + huge + strings.Repeat("a", 200) + `"}`, 413, "PAYLOAD_TOO_LARGE", "", nil},
	})
}

func TestDevJSONFormatRoute(t *testing.T) {
	var cases []devCase
	for indent := 0; indent <= 8; indent++ {
		want := "{\\n" + strings.Repeat(" ", indent) + `\"a\": [\n` + strings.Repeat(" ", 2*indent) + `1e400\n` + strings.Repeat(" ", indent) + "]\\n}"
		cases = append(cases, devCase{fmt.Sprintf("indent %d", indent), "/v1/dev/data/json/format", fmt.Sprintf(`{"text":"{\"a\":[1e400]}","indent":%d}`, indent), 200, "", "",
			[]string{`"formatted":"` + want + `"`, `"minified":"{\"a\":[1e400]}"`, `"type":"object"`, `"is_valid":true`, `"error":null`}})
	}
	// ~1 MB of JSON, sent as a JSON string inside the body.
	var doc strings.Builder
	doc.WriteString("[")
	for doc.Len() < bodyLimit/2-1000 {
		doc.WriteString(`{"k":12345678901234567890},`)
	}
	doc.WriteString("null]")
	cases = append(cases,
		devCase{"default indent 2", "/v1/dev/data/json/format", `{"text":"[1]"}`, 200, "", "", []string{`"formatted":"[\n  1\n]"`}},
		devCase{"null indent is the default", "/v1/dev/data/json/format", `{"text":"[1]","indent":null}`, 200, "", "", []string{`"formatted":"[\n  1\n]"`}},
		devCase{"sort keys", "/v1/dev/data/json/format", `{"text":"{\"b\":1,\"a\":{\"d\":1,\"c\":2},\"b\":3}","sort_keys":true,"indent":0}`, 200, "", "", []string{`"minified":"{\"a\":{\"c\":2,\"d\":1},\"b\":1,\"b\":3}"`, `duplicate key \"b\"`}},
		devCase{"invalid JSON is data, not an error", "/v1/dev/data/json/format", `{"text":"{\"a\":1,}"}`, 200, "", "", []string{`"is_valid":false`, `"error":"line 1, column 8: expected a string for an object key, found '}'; trailing commas are not allowed"`, `"error_line":1`, `"error_column":8`}},
		devCase{"indent -1", "/v1/dev/data/json/format", `{"text":"1","indent":-1}`, 400, "INVALID_REQUEST", "indent", nil},
		devCase{"indent 9", "/v1/dev/data/json/format", `{"text":"1","indent":9}`, 400, "INVALID_REQUEST", "indent", nil},
		devCase{"indent not an integer", "/v1/dev/data/json/format", `{"text":"1","indent":2.5}`, 400, "INVALID_REQUEST", "", nil},
		devCase{"empty text", "/v1/dev/data/json/format", `{"text":""}`, 400, "INVALID_REQUEST", "text", nil},
		devCase{"missing text", "/v1/dev/data/json/format", `{}`, 400, "INVALID_REQUEST", "text", nil},
		devCase{"indentation that would multiply the size", "/v1/dev/data/json/format", `{"text":"[` + strings.Repeat(strings.Repeat("[", 998)+strings.Repeat("]", 998)+",", 100) + `1]","indent":8}`, 400, "INVALID_REQUEST", "indent", nil},
		devCase{"huge document", "/v1/dev/data/json/format", `{"text":` + jsonString(doc.String()) + `,"indent":8}`, 200, "", "", []string{`"is_valid":true`, `"type":"array"`}},
	)
	runDevCases(t, devHandler(t), cases)
}

func TestDevRegexExplainRoute(t *testing.T) {
	runDevCases(t, devHandler(t), []devCase{
		{"explain", "/v1/dev/regex/explain", `{"pattern":"^(?<y>\\d{4})+$"}`, 200, "", "", []string{
			`"token":"(?<y>","meaning":"start of capture group 1, named \"y\"","offset":1,"depth":0,"group":1`, `"explanation":"The pattern has`, `keeps only its last repetition`}},
		{"invalid pattern", "/v1/dev/regex/explain", `{"pattern":"ab(c"}`, 400, "INVALID_REQUEST", "pattern", nil},
		{"empty pattern", "/v1/dev/regex/explain", `{"pattern":""}`, 400, "INVALID_REQUEST", "pattern", nil},
		{"longest pattern", "/v1/dev/regex/explain", `{"pattern":"` + strings.Repeat("a", 10000) + `"}`, 200, "", "", []string{`"group_count":0`}},
		{"too long pattern", "/v1/dev/regex/explain", `{"pattern":"` + strings.Repeat("a", 10001) + `"}`, 400, "INVALID_REQUEST", "pattern", nil},
	})
	// The position is in the details.
	_, res := postDev(t, devHandler(t), "/v1/dev/regex/explain", `{"pattern":"ab)"}`)
	if res.Error == nil || len(res.Error.Details) != 1 || res.Error.Details[0].Issue != "at offset 2: unmatched ')'" {
		t.Errorf("error %+v", res.Error)
	}
}

func TestDevRegexGenerateRoute(t *testing.T) {
	runDevCases(t, devHandler(t), []devCase{
		{"catalog", "/v1/dev/regex/generate", `{"description":"UUID","flavor":"go"}`, 200, "", "", []string{`"pattern":"^[0-9A-Fa-f]{8}`, `"source":"catalog"`, `"should_match":false`}},
		{"default flavor pcre", "/v1/dev/regex/generate", `{"description":"semver"}`, 200, "", "", []string{`"flavor":"pcre"`, `"pattern":"\\A`}},
		{"no model", "/v1/dev/regex/generate", `{"description":"German postcodes"}`, 503, "SERVICE_UNAVAILABLE", "", nil},
		{"bad flavor", "/v1/dev/regex/generate", `{"description":"email","flavor":"posix"}`, 400, "INVALID_REQUEST", "flavor", nil},
		{"empty description", "/v1/dev/regex/generate", `{"description":""}`, 400, "INVALID_REQUEST", "description", nil},
		{"too long description", "/v1/dev/regex/generate", `{"description":"` + strings.Repeat("d", 1001) + `"}`, 400, "INVALID_REQUEST", "description", nil},
	})

	answer := `{"pattern":"^[0-9]{5}$","explanation":"Five digits.","test_cases":[{"string":"10115","should_match":true},{"string":"80331","should_match":true},{"string":"1011","should_match":false},{"string":"1011a","should_match":false}]}`
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: answer, PromptTokens: 200, CompletionTokens: 50})
	h := mustNew(t, withLLM(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1}, llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"}))
	status, res := postDev(t, h, "/v1/dev/regex/generate", `{"description":"German postcodes","flavor":"javascript"}`)
	if status != 200 || !bytes.Contains(res.Data, []byte(`"source":"model"`)) {
		t.Fatalf("status %d %s %+v", status, res.Data, res.Error)
	}
	if res.Meta["model"] != "gpt-4o-mini" || res.Meta["prompt_tokens"] != float64(200) || res.Meta["completion_tokens"] != float64(50) {
		t.Errorf("meta %+v", res.Meta)
	}
}

func TestDevStacktraceRoute(t *testing.T) {
	goTrace := "panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:9 +0x45\n"
	runDevCases(t, devHandler(t), []devCase{
		{"go panic", "/v1/dev/stacktrace", `{"stacktrace":` + jsonString(goTrace) + `}`, 200, "", "", []string{
			`"error_type":"runtime error: assignment to entry in nil map"`, `"root_cause":"panic: assignment to entry in nil map, raised in main.main (/app/main.go:9)"`, `"language":"go"`, `"documentation_links":["https://go.dev/ref/spec#Map_types"`}},
		{"not a trace", "/v1/dev/stacktrace", `{"stacktrace":"hello"}`, 200, "", "", []string{`"error_type":"unknown"`, `"confidence":0.1`}},
		{"framework", "/v1/dev/stacktrace", `{"stacktrace":"KeyError: 'x'","framework":"django","language":"python"}`, 200, "", "", []string{`"error_type":"KeyError"`}},
		{"empty", "/v1/dev/stacktrace", `{"stacktrace":""}`, 400, "INVALID_REQUEST", "stacktrace", nil},
		{"bad language", "/v1/dev/stacktrace", `{"stacktrace":"x","language":"cobol"}`, 400, "INVALID_REQUEST", "language", nil},
		{"huge", "/v1/dev/stacktrace", `{"stacktrace":` + jsonString(goTrace+strings.Repeat("\tmore\n", (bodyLimit-500)/8)) + `}`, 200, "", "", []string{`"truncated":true`, `"error_type":"runtime error: assignment to entry in nil map"`}},
	})

	// With a model, the suggestion is added and meta accounts for it.
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"suggestion":"Create the map in the constructor of Cache."}`, PromptTokens: 90, CompletionTokens: 12})
	h := mustNew(t, withLLM(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1}, llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"}))
	status, res := postDev(t, h, "/v1/dev/stacktrace", `{"stacktrace":`+jsonString(goTrace)+`}`)
	if status != 200 || !bytes.Contains(res.Data, []byte(`"ai_suggestion":"Create the map in the constructor of Cache."`)) ||
		!bytes.Contains(res.Data, []byte(`"error_type":"runtime error: assignment to entry in nil map"`)) {
		t.Fatalf("status %d %s", status, res.Data)
	}
	if res.Meta["model"] != "gpt-4o-mini" || res.Meta["prompt_tokens"] != float64(90) {
		t.Errorf("meta %+v", res.Meta)
	}
}

func TestDevReadmeRoute(t *testing.T) {
	items := make([]string, 100)
	for i := range items {
		items[i] = strings.Repeat("f", 1000)
	}
	many, _ := json.Marshal(items)
	runDevCases(t, devHandler(t), []devCase{
		{"full", "/v1/dev/readme", `{"repo_name":"quiver","description":"A *toolkit*.","language":"go","stack":["Go"],"features":["Hashes"],"install_commands":["go get x"],"usage_example":"x := 1","license":"Apache-2.0"}`, 200, "", "", []string{
			`"readme_md":"# quiver\n\n`, `A \\*toolkit\\*.`, "```go\\nx := 1\\n```", `license-Apache--2.0-blue`}},
		{"minimal, license MIT by default", "/v1/dev/readme", `{"repo_name":"r","description":"d"}`, 200, "", "", []string{`licensed under the MIT license`}},
		{"missing repo_name", "/v1/dev/readme", `{"description":"d"}`, 400, "INVALID_REQUEST", "repo_name", nil},
		{"missing description", "/v1/dev/readme", `{"repo_name":"r"}`, 400, "INVALID_REQUEST", "description", nil},
		{"100 features of 1000 characters", "/v1/dev/readme", `{"repo_name":"r","description":"d","features":` + string(many) + `}`, 200, "", "", []string{`## Features`}},
		{"101 features", "/v1/dev/readme", `{"repo_name":"r","description":"d","features":` + string(many[:len(many)-1]) + `,"x"]}`, 400, "INVALID_REQUEST", "features", nil},
		{"polish without a model", "/v1/dev/readme", `{"repo_name":"r","description":"d","polish":true}`, 503, "SERVICE_UNAVAILABLE", "", nil},
		{"usage too long", "/v1/dev/readme", `{"repo_name":"r","description":"d","usage_example":"` + strings.Repeat("u", 100001) + `"}`, 400, "INVALID_REQUEST", "usage_example", nil},
	})

	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"description":"A small tool.","features":["Fast."]}`, PromptTokens: 40, CompletionTokens: 9})
	h := mustNew(t, withLLM(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1}, llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"}))
	status, res := postDev(t, h, "/v1/dev/readme", `{"repo_name":"r","description":"tool, small","features":["fast"],"polish":true}`)
	if status != 200 || !bytes.Contains(res.Data, []byte(`A small tool.\n\n## Features\n\n- Fast.`)) || !bytes.Contains(res.Data, []byte(`"polished":true`)) {
		t.Fatalf("status %d %s", status, res.Data)
	}
	if res.Meta["model"] != "gpt-4o-mini" || res.Meta["completion_tokens"] != float64(9) {
		t.Errorf("meta %+v", res.Meta)
	}
}
