package devutil_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
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
		Algorithms: []string{"SHA-256", "sha_256", "keccak-256", "crc32", "md4"},
	})
	fmt.Println(res.Hashes["sha256"])
	fmt.Println(res.Hashes["keccak-256"])
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

func ExampleRegexGenerator_Generate() {
	g := devutil.NewRegexGenerator(nil) // no model: the built-in catalog answers
	res, _, _ := g.Generate(context.Background(), devutil.RegexGenerateRequest{Description: "hex color", Flavor: "python"})
	fmt.Println(res.Pattern, res.Source)

	_, _, err := g.Generate(context.Background(), devutil.RegexGenerateRequest{Description: "German postcodes"})
	fmt.Println(err != nil)
	// Output:
	// \A#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})\Z catalog
	// true
}
