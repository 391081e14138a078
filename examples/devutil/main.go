// Command devutil runs Quiver's developer utilities from the command line
// and prints each result as JSON. The input is the argument, or standard
// input when there is none (or it is "-"). Without a command, it runs
// every operation once on a sample input and prints one line for each.
//
//	go run ./examples/devutil
//	go run ./examples/devutil hash -algorithms sha256,keccak-256 'hello'
//	go run ./examples/devutil base64 'héllo'
//	go run ./examples/devutil base64 -d 'aMOpbGxv'
//	echo '{"b":1,"a":[1e400]}' | go run ./examples/devutil json -indent 4 -sort
//	go run ./examples/devutil explain '^(?<year>\d{4})-(\d{2})$'
//	go run ./examples/devutil regex -flavor go 'UUID'
//	go run ./examples/devutil stacktrace < crash.log
//	go run ./examples/devutil readme -lang go -license Apache-2.0 myrepo 'What it does'
//
// Everything works offline: regex generation answers from the built-in
// catalog, as the server does without a language model.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/quiverkit/quiver/devutil"
)

func main() {
	if err := run(context.Background(), os.Stdout, os.Stdin, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "devutil:", err)
		os.Exit(1)
	}
}

const usage = "usage: devutil [hash|base64|json|explain|regex|stacktrace|readme [flags] [input]]"

func run(ctx context.Context, out io.Writer, in io.Reader, args []string) error {
	if len(args) == 0 {
		return tour(ctx, out)
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var result any
	var err error
	switch args[0] {
	case "hash":
		algos := fs.String("algorithms", "", "comma-separated algorithms (default md5,sha1,sha256,sha512)")
		enc := fs.String("encoding", "hex", "hex, base64 or base64url")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		req := devutil.HashRequest{Encoding: *enc}
		if *algos != "" {
			req.Algorithms = strings.Split(*algos, ",")
		}
		if req.Value, err = input(fs.Args(), in); err != nil {
			return err
		}
		result, err = devutil.Hash(ctx, req)
	case "base64":
		decode := fs.Bool("d", false, "decode instead of encode")
		urlSafe := fs.Bool("url", false, "use the URL-safe alphabet")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		value, err := input(fs.Args(), in)
		if err != nil {
			return err
		}
		op := devutil.EncodeBase64
		if *decode {
			op = devutil.DecodeBase64
		}
		if result, err = op(ctx, devutil.Base64Request{Value: value, URLSafe: *urlSafe}); err != nil {
			return err
		}
	case "json":
		indent := fs.Int("indent", devutil.DefaultJSONIndent, "spaces per level, 0 to 8")
		sortKeys := fs.Bool("sort", false, "sort object keys recursively")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		text, err := input(fs.Args(), in)
		if err != nil {
			return err
		}
		result, err = devutil.FormatJSON(ctx, devutil.JSONFormatRequest{Text: text, Indent: indent, SortKeys: *sortKeys})
		if err != nil {
			return err
		}
	case "explain":
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		pattern, err := input(fs.Args(), in)
		if err != nil {
			return err
		}
		result, err = devutil.ExplainRegex(ctx, devutil.RegexExplainRequest{Pattern: strings.TrimRight(pattern, "\n")})
		if err != nil {
			return err
		}
	case "regex":
		flavor := fs.String("flavor", "pcre", "pcre, python, javascript, go, re2 or dotnet")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		desc, err := input(fs.Args(), in)
		if err != nil {
			return err
		}
		var g devutil.RegexGenerator // no model: the built-in catalog answers
		result, _, err = g.Generate(ctx, devutil.RegexGenerateRequest{Description: desc, Flavor: *flavor})
		if err != nil {
			return err
		}
	case "stacktrace":
		lang := fs.String("lang", "", "language; detected when empty")
		framework := fs.String("framework", "", "framework, for its documentation link")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		trace, err := input(fs.Args(), in)
		if err != nil {
			return err
		}
		result, err = devutil.AnalyzeStacktrace(ctx, devutil.StacktraceRequest{Stacktrace: trace, Language: *lang, Framework: *framework})
		if err != nil {
			return err
		}
	case "readme":
		lang := fs.String("lang", "", "main language")
		license := fs.String("license", "", "license (default MIT)")
		features := fs.String("features", "", "features, separated by ';'")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 2 {
			return errors.New("usage: devutil readme [flags] NAME DESCRIPTION")
		}
		req := devutil.ReadmeRequest{RepoName: fs.Arg(0), Description: fs.Arg(1), Language: *lang, License: *license}
		if *features != "" {
			req.Features = strings.Split(*features, ";")
		}
		res, err := devutil.GenerateReadme(ctx, req)
		if err != nil {
			return err
		}
		_, err = io.WriteString(out, res.ReadmeMD)
		return err
	default:
		return errors.New(usage)
	}
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(result)
}

// input returns the single argument, or standard input when there is
// none or it is "-".
func input(args []string, in io.Reader) (string, error) {
	switch {
	case len(args) > 1:
		return "", errors.New("give one input (quote it), or none to read standard input")
	case len(args) == 1 && args[0] != "-":
		return args[0], nil
	}
	b, err := io.ReadAll(io.LimitReader(in, 16<<20))
	return string(b), err
}

// tour runs every operation once on a sample input and prints one line
// for each, then the usage.
func tour(ctx context.Context, out io.Writer) error {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }

	h, err := devutil.Hash(ctx, devutil.HashRequest{Value: "hello", Algorithms: []string{"sha256"}})
	if err != nil {
		return err
	}
	add("hash        sha256(%q) = %s", "hello", h.Hashes["sha256"])

	b, err := devutil.EncodeBase64(ctx, devutil.Base64Request{Value: "héllo"})
	if err != nil {
		return err
	}
	d, err := devutil.DecodeBase64(ctx, devutil.Base64Request{Value: b.Output})
	if err != nil {
		return err
	}
	add("base64      %q encodes to %s, which decodes to %q", "héllo", b.Output, d.Output)

	j, err := devutil.FormatJSON(ctx, devutil.JSONFormatRequest{Text: `{"b": 1, "a": [1e400]}`, SortKeys: true})
	if err != nil {
		return err
	}
	add("json        %s minifies, keys sorted, to %s", `{"b": 1, "a": [1e400]}`, j.Minified)

	x, err := devutil.ExplainRegex(ctx, devutil.RegexExplainRequest{Pattern: `^(\d+)+$`})
	if err != nil {
		return err
	}
	add("explain     %s has %d tokens and %d warnings", `^(\d+)+$`, len(x.Breakdown), len(x.Warnings))

	var g devutil.RegexGenerator // no model: the built-in catalog answers
	r, _, err := g.Generate(ctx, devutil.RegexGenerateRequest{Description: "UUID", Flavor: devutil.FlavorGo})
	if err != nil {
		return err
	}
	add("regex       UUID in Go: %s", r.Pattern)

	st, err := devutil.AnalyzeStacktrace(ctx, devutil.StacktraceRequest{Stacktrace: sampleTrace})
	if err != nil {
		return err
	}
	add("stacktrace  %s: %s", st.Language, st.RootCause)

	md, err := devutil.GenerateReadme(ctx, devutil.ReadmeRequest{RepoName: "tool", Description: "Does things.", Language: "go"})
	if err != nil {
		return err
	}
	add("readme      %d lines of Markdown, starting %q", strings.Count(md.ReadmeMD, "\n"), md.ReadmeMD[:strings.IndexByte(md.ReadmeMD, '\n')])

	lines = append(lines, "", usage)
	_, err = io.WriteString(out, strings.Join(lines, "\n")+"\n")
	return err
}

const sampleTrace = `panic: runtime error: index out of range [3] with length 1

goroutine 1 [running]:
main.main()
	/app/main.go:7 +0x1d
`
