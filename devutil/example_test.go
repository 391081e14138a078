package devutil_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
)

func ExampleEncodeBase64() {
	res, _ := devutil.EncodeBase64(context.Background(), devutil.Base64Request{Value: "héllo?", URLSafe: true})
	fmt.Println(res.Output)
	// Output: aMOpbGxvPw==
}

func ExampleDecodeBase64() {
	res, _ := devutil.DecodeBase64(context.Background(), devutil.Base64Request{Value: "aGk_"})
	fmt.Println(res.IsValid, *res.Error)
	// Output: false invalid Base64: unexpected '_' at offset 3; it belongs to the URL-safe alphabet, set urlsafe to true
}

func ExampleHash() {
	res, _ := devutil.Hash(context.Background(), devutil.HashRequest{
		Value:      "abc",
		Algorithms: []string{"SHA-256", "keccak256", "crc32", "md4"},
	})
	// Each digest is keyed by the name asked for.
	fmt.Println(res.Hashes["SHA-256"])
	fmt.Println(res.Hashes["keccak256"])
	fmt.Println(res.Hashes["crc32"])
	fmt.Println(res.UnsupportedAlgorithms)
	// Output:
	// ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
	// 4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45
	// 352441c2
	// [md4]
}

func ExampleFormatJSON() {
	indent := 2
	res, _ := devutil.FormatJSON(context.Background(), devutil.JSONFormatRequest{
		Text:     `{"b": 1e400, "a": [12345678901234567890, -0.0], "b": null}`,
		Indent:   &indent,
		SortKeys: true,
	})
	fmt.Println(res.Formatted)
	fmt.Println(res.Minified)
	fmt.Println(res.Warnings)

	res, _ = devutil.FormatJSON(context.Background(), devutil.JSONFormatRequest{Text: "{\n  \"a\": 1,\n}"})
	fmt.Println(*res.Error)
	// Output:
	// {
	//   "a": [
	//     12345678901234567890,
	//     -0.0
	//   ],
	//   "b": 1e400,
	//   "b": null
	// }
	// {"a":[12345678901234567890,-0.0],"b":1e400,"b":null}
	// [duplicate key "b" at line 1, column 49 (first at line 1, column 2); both are kept, most parsers keep only the last]
	// line 3, column 1: expected a string for an object key, found '}'; trailing commas are not allowed
}

func ExampleExplainRegex() {
	res, _ := devutil.ExplainRegex(context.Background(), devutil.RegexExplainRequest{Pattern: `^(\w+)+@`})
	for _, t := range res.Breakdown {
		fmt.Printf("%-3s %s\n", t.Token, t.Meaning)
	}
	for _, w := range res.Warnings {
		fmt.Println("warning:", w[:strings.Index(w, ",")])
	}
	// Output:
	// ^   the start of the string (of a line in multiline mode (?m))
	// (   start of capture group 1
	// \w  a word character (letter, digit or _)
	// +   repeats the previous item one or more times (as many as possible, giving back as needed)
	// )   end of capture group 1
	// +   repeats the previous item one or more times (as many as possible, giving back as needed)
	// @   the character '@'
	// warning: capture group 1 is repeated by "+"
	// warning: nested quantifiers at offset 1: "(\\w+)+" repeats a group that itself contains a repeated item
}

func ExampleExplainRegex_invalid() {
	_, err := devutil.ExplainRegex(context.Background(), devutil.RegexExplainRequest{Pattern: `[a-z]+(\d`})
	var pe *devutil.PatternError
	if errors.As(err, &pe) {
		fmt.Println(pe.Offset, pe.Reason)
	}
	fmt.Println(errors.Is(err, &envelope.Error{Code: envelope.CodeInvalidRequest}))
	// Output:
	// 6 missing ')' to close this group
	// true
}

func ExampleAnalyzeStacktrace() {
	trace := `Traceback (most recent call last):
  File "/app/server.py", line 88, in handle
    user = load_user(request)
  File "/app/users.py", line 12, in load_user
    return USERS[request["user_id"]]
KeyError: 'user_id'`
	res, _ := devutil.AnalyzeStacktrace(context.Background(), devutil.StacktraceRequest{Stacktrace: trace})
	fmt.Println(res.Language, res.ErrorType, res.Confidence)
	fmt.Println(res.RootCause)
	fmt.Println(res.DocumentationLinks[0])
	// Output:
	// python KeyError 0.9
	// KeyError: 'user_id', raised in load_user (/app/users.py:12)
	// https://docs.python.org/3/library/exceptions.html#KeyError
}

func ExampleGenerateReadme() {
	res, _ := devutil.GenerateReadme(context.Background(), devutil.ReadmeRequest{
		RepoName:     "tiny",
		Description:  "Prints *hello*.",
		Language:     "go",
		UsageExample: "fmt.Println(\"```\")",
	})
	fmt.Print(res.ReadmeMD)
	// Output:
	// # tiny
	//
	// ![language: Go](https://img.shields.io/badge/language-Go-00ADD8) [![license: MIT](https://img.shields.io/badge/license-MIT-blue)](LICENSE)
	//
	// Prints \*hello\*.
	//
	// ## Installation
	//
	// ```sh
	// go mod download
	// go build ./...
	// ```
	//
	// ## Usage
	//
	// ````go
	// fmt.Println("```")
	// ````
	//
	// ## Contributing
	//
	// Contributions are welcome. Open an issue to discuss a change before sending a pull request, keep pull requests focused, and add tests for new behavior.
	//
	// ## License
	//
	// This project is licensed under the MIT license. See [LICENSE](LICENSE) for the full text.
}

func ExampleHashAlgorithms() {
	algs := devutil.HashAlgorithms()
	fmt.Println(len(algs), algs[:4])
	// Output: 26 [md5 sha1 sha224 sha256]
}

func ExampleCatalogNames() {
	fmt.Println(devutil.CatalogNames())
	// Output: [email url ipv4 ipv6 uuid iso-date time hex-color semver us-phone e164-phone slug credit-card]
}

// scriptedModel returns a model config whose client talks to a scripted
// OpenAI server on loopback that answers with answers in order, as
// gpt-4o-mini would. A program passes its own client instead, such as
// openai.New(openai.WithModel("gpt-4o-mini")). The caller closes the
// server.
func scriptedModel(answers ...string) (llm.Config, *llmtest.Server) {
	replies := make([]llmtest.Reply, len(answers))
	for i, a := range answers {
		replies[i] = llmtest.Reply{Content: a, PromptTokens: 400, CompletionTokens: 50}
	}
	srv, err := llmtest.New(llmtest.OpenAI, replies...)
	if err != nil {
		panic(err)
	}
	model, err := srv.Model("gpt-4o-mini")
	if err != nil {
		panic(err)
	}
	return llm.Config{Model: model, Name: "gpt-4o-mini"}, srv
}

// Without a model, only the built-in catalog answers.
func ExampleRegexGenerator_Generate() {
	var g devutil.RegexGenerator // the zero value: no model, like NewRegexGenerator(devutil.Config{})
	res, _, _ := g.Generate(context.Background(), devutil.RegexGenerateRequest{Description: "hex color", Flavor: "python"})
	fmt.Println(res.Pattern, res.Source)

	_, _, err := g.Generate(context.Background(), devutil.RegexGenerateRequest{Description: "German postcodes"})
	fmt.Println(envelope.From(err).Code)
	// Output:
	// \A#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})\Z catalog
	// SERVICE_UNAVAILABLE
}

// With a model, the model writes the pattern and its test cases; the
// pattern is compiled in its flavor and must pass every case, or the
// model is asked again.
func ExampleNewRegexGenerator() {
	cfg, srv := scriptedModel(`{"pattern":"^[0-9]{5}$","explanation":"Five digits.","test_cases":[` +
		`{"string":"10115","should_match":true},{"string":"80331","should_match":true},` +
		`{"string":"1011","should_match":false},{"string":"D-10115","should_match":false}]}`)
	defer srv.Close()

	g, err := devutil.NewRegexGenerator(devutil.Config{LLM: cfg, RegexMatchTimeout: 50 * time.Millisecond})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, meta, err := g.Generate(context.Background(), devutil.RegexGenerateRequest{Description: "German postcodes", Flavor: "go"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Pattern, res.Source, len(res.TestCases))
	fmt.Printf("%s %d+%d tokens $%.5f\n", meta.Model, meta.PromptTokens, meta.CompletionTokens, meta.CostUSD)
	// Output:
	// ^[0-9]{5}$ model 4
	// gpt-4o-mini 400+50 tokens $0.00009
}

// The model's advice goes to AISuggestion; every other field is the
// deterministic analysis.
func ExampleNewStacktraceAnalyzer() {
	cfg, srv := scriptedModel(`{"suggestion":"load_user reads request[\"user_id\"] before anything checks that the key is present; use request.get and answer 400 when it is missing."}`)
	defer srv.Close()

	a, err := devutil.NewStacktraceAnalyzer(devutil.Config{LLM: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, _, err := a.Analyze(context.Background(), devutil.StacktraceRequest{Stacktrace: `Traceback (most recent call last):
  File "/app/users.py", line 12, in load_user
    return USERS[request["user_id"]]
KeyError: 'user_id'`})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Language, res.ErrorType)
	fmt.Println(res.AISuggestion)
	// Output:
	// python KeyError
	// load_user reads request["user_id"] before anything checks that the key is present; use request.get and answer 400 when it is missing.
}

// When the model fails, the deterministic analysis is still returned,
// with the reason in AINote.
func ExampleStacktraceAnalyzer_Analyze() {
	srv, err := llmtest.New(llmtest.OpenAI, llmtest.Reply{Status: 503, Message: "overloaded"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	model, _ := srv.Model("gpt-4o-mini")

	a, _ := devutil.NewStacktraceAnalyzer(devutil.Config{LLM: llm.Config{Model: model, Name: "gpt-4o-mini"}})
	res, _, err := a.Analyze(context.Background(), devutil.StacktraceRequest{Stacktrace: "panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:5 +0x2f\nexit status 2"})
	fmt.Println(err)
	fmt.Println(res.Language, res.RootCause)
	fmt.Println(res.AINote)
	// Output:
	// <nil>
	// go panic: assignment to entry in nil map, raised in main.main (/app/main.go:5)
	// no suggestion: the language model provider failed (HTTP 503)
}

// With Polish, the model rewrites the description and the features; its
// text is escaped and laid out like the caller's.
func ExampleNewReadmeGenerator() {
	cfg, srv := scriptedModel(`{"description":"Tiny prints a greeting.","features":["Prints hello.","Has no dependencies."]}`)
	defer srv.Close()

	g, err := devutil.NewReadmeGenerator(devutil.Config{LLM: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, _, err := g.Generate(context.Background(), devutil.ReadmeRequest{
		RepoName:    "tiny",
		Description: "prints hello. thats it",
		Features:    []string{"hello", "no deps"},
		Polish:      true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Polished)
	fmt.Print(res.ReadmeMD[:strings.Index(res.ReadmeMD, "## Installation")])
	// Output:
	// true
	// # tiny
	//
	// [![license: MIT](https://img.shields.io/badge/license-MIT-blue)](LICENSE)
	//
	// Tiny prints a greeting.
	//
	// ## Features
	//
	// - Prints hello.
	// - Has no dependencies.
}

// Without Polish the model is not asked, and without a model Polish is
// SERVICE_UNAVAILABLE.
func ExampleReadmeGenerator_Generate() {
	var g devutil.ReadmeGenerator // the zero value: no model
	req := devutil.ReadmeRequest{RepoName: "tiny", Description: "Prints hello."}
	res, meta, err := g.Generate(context.Background(), req)
	fmt.Println(res.Polished, meta.Model == "", err)

	req.Polish = true
	_, _, err = g.Generate(context.Background(), req)
	fmt.Println(envelope.From(err).Code)
	// Output:
	// false true <nil>
	// SERVICE_UNAVAILABLE
}

func ExampleLanguages() {
	fmt.Println(devutil.Languages())
	// Output: [go python java kotlin javascript ruby dotnet php rust unknown]
}

func ExampleBase64Operations() {
	fmt.Println(devutil.Base64Operations())
	// Output: [encode decode]
}
