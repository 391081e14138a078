package main

import (
	"context"
	"flag"

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
	},
	{
		name:    "dev base64 decode",
		args:    "[BASE64]",
		summary: "Decode Base64 to UTF-8 text; exit status 1 when it does not decode.",
		help:    "Padded and unpadded input are accepted, line breaks ignored. Without BASE64, standard input is decoded.",
		example: `quiver dev base64 decode aGVsbG8sIHdvcmxk
			quiver dev base64 decode -urlsafe YT9i | jq -r .output`,
		setup: base64Command(devutil.DecodeBase64),
	},
}

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
