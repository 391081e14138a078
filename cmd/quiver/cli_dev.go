package main

import (
	"context"
	"errors"
	"flag"
	"strings"

	"github.com/quiverkit/quiver/devutil"
)

// devCommands are the commands of package devutil: quiver dev ...
var devCommands = []command{
	{
		name:    "dev base64 encode",
		args:    "[TEXT]",
		summary: "Encode text to Base64.",
		help:    "TEXT is encoded as given; without it, standard input is encoded byte for byte (a trailing newline included, as base64(1) does).",
		example: `quiver dev base64 encode 'hello, world'
			printf 'a?b' | quiver dev base64 encode -urlsafe -o table`,
		setup: base64Command(devutil.EncodeBase64),
		raw:   base64Raw,
	},
	{
		name:    "dev base64 decode",
		args:    "[BASE64]",
		summary: "Decode Base64 to UTF-8 text; exit status 1 when it does not decode.",
		help:    "Padded and unpadded input are accepted, line breaks ignored. Without BASE64, standard input is decoded.",
		example: `quiver dev base64 decode aGVsbG8sIHdvcmxk
			quiver dev base64 decode -urlsafe YT9i | jq -r .output`,
		setup: base64Command(devutil.DecodeBase64),
		raw:   base64Raw,
	},
}

var base64Raw = &rawOutput{what: "the output", text: func(r any) (string, error) {
	res := r.(devutil.Base64Result)
	if res.Error != nil {
		return "", errors.New(*res.Error)
	}
	return res.Output, nil
}}

// base64Command is the setup of both Base64 commands.
func base64Command(op func(context.Context, devutil.Base64Request) (devutil.Base64Result, error)) func(*flag.FlagSet) runFunc {
	return func(fs *flag.FlagSet) runFunc {
		var req devutil.Base64Request
		fs.BoolVar(&req.URLSafe, "urlsafe", false, "use the URL-safe alphabet (- and _ instead of + and /)")
		return func(ctx context.Context, env *cmdEnv, args []string) (any, bool, error) {
			v, err := operandOrStdin(env, args, "value")
			if err != nil {
				return nil, false, err
			}
			req.Value = v
			res, err := op(ctx, req)
			if err != nil {
				return nil, false, err
			}
			return res, res.IsValid, nil
		}
	}
}

// devOpCommands are the other commands of package devutil.
var devOpCommands = []command{
	op(opSpec{
		command: command{
			name: "dev hash", args: "[TEXT]",
			summary: "Hash text with one or more algorithms (HMAC with -hmac-key); exit status 1 when an algorithm is not supported.",
			help:    "Without TEXT, standard input is hashed byte for byte, as sha256sum does. Algorithms: " + strings.Join(devutil.HashAlgorithms(), ", ") + ".",
			example: `quiver dev hash -a sha256,blake2b-256 < file
				quiver dev hash -a sha1 -encoding base64 'hello' -o table`,
		},
		operand: "value", stdin: true, rawStdin: true, short: map[string]string{"a": "algorithms"},
	}, func(ctx context.Context, _ *cmdEnv, req devutil.HashRequest) (any, bool, error) {
		res, err := devutil.Hash(ctx, req)
		if err != nil {
			return nil, false, err
		}
		return res, len(res.UnsupportedAlgorithms) == 0, nil
	}),
	op(opSpec{
		command: command{
			name: "dev json", args: "[TEXT]",
			summary: "Validate, format and minify JSON; exit status 1 when it is not valid.",
			help:    "Without TEXT, standard input is read.",
			example: `quiver dev json < file.json
				quiver dev json -r -indent 4 -sort-keys '{"b":1,"a":[1,2]}'`,
			raw: &rawOutput{what: "the formatted JSON", text: func(r any) (string, error) {
				res := r.(devutil.JSONFormatResult)
				if res.Error != nil {
					return "", errors.New(*res.Error)
				}
				return res.Formatted, nil
			}},
		},
		operand: "text", stdin: true,
	}, func(ctx context.Context, _ *cmdEnv, req devutil.JSONFormatRequest) (any, bool, error) {
		res, err := devutil.FormatJSON(ctx, req)
		if err != nil {
			return nil, false, err
		}
		return res, res.IsValid, nil
	}),
	op(opSpec{
		command: command{
			name: "dev regex explain", args: "PATTERN",
			summary: "Explain a regular expression token by token.",
			example: `quiver dev regex explain '^(\d{3})-\d{4}$' -o table`,
			table:   func(r any) any { return r.(devutil.RegexExplainResult).Breakdown },
		},
		operand: "pattern",
	}, func(ctx context.Context, _ *cmdEnv, req devutil.RegexExplainRequest) (any, bool, error) {
		return done(devutil.ExplainRegex(ctx, req))
	}),
	op(opSpec{
		command: command{
			name: "dev regex generate", args: "DESCRIPTION...",
			summary:  "Generate a regular expression from a description (the language model, else the built-in catalog).",
			example:  `quiver dev regex generate an ISO 8601 date -flavor go`,
			services: []setup{contentSetup, devutilSetup},
		},
		operand: "description",
	}, func(ctx context.Context, env *cmdEnv, req devutil.RegexGenerateRequest) (any, bool, error) {
		g, err := env.svc.Regex()
		if err != nil {
			return nil, false, err
		}
		res, ai, err := g.Generate(ctx, req)
		return doneAI(env, res, ai, err)
	}),
	op(opSpec{
		command: command{
			name: "dev stacktrace", args: "[STACKTRACE]",
			summary: "Analyze a stack trace: error type, root cause, fix.",
			help:    "Without STACKTRACE, standard input is read.",
			example: `quiver dev stacktrace -language python < crash.log
				go test ./... 2>&1 | quiver dev stacktrace -language go`,
			services: []setup{contentSetup, devutilSetup},
		},
		operand: "stacktrace", stdin: true,
	}, func(ctx context.Context, env *cmdEnv, req devutil.StacktraceRequest) (any, bool, error) {
		a, err := env.svc.Stacktrace()
		if err != nil {
			return nil, false, err
		}
		res, ai, err := a.Analyze(ctx, req)
		return doneAI(env, res, ai, err)
	}),
	op(opSpec{
		command: command{
			name: "dev readme", args: "REPO_NAME",
			summary:  "Draft a README from repository metadata.",
			example:  `quiver dev readme quiver -description "Email, web and social checks for Go" -language Go -features "CLI,HTTP API" -r > README.md`,
			raw:      &rawOutput{what: "the Markdown", text: func(r any) (string, error) { return r.(devutil.ReadmeResult).ReadmeMD, nil }},
			services: []setup{contentSetup, devutilSetup},
		},
		operand: "repo_name",
	}, func(ctx context.Context, env *cmdEnv, req devutil.ReadmeRequest) (any, bool, error) {
		g, err := env.svc.Readme()
		if err != nil {
			return nil, false, err
		}
		res, ai, err := g.Generate(ctx, req)
		return doneAI(env, res, ai, err)
	}),
}
