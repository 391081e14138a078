// Command quiver serves the Quiver API, and runs its operations from the
// command line.
//
//	go run ./cmd/quiver
//
// serves on 127.0.0.1:8080;
//
//	quiver dev base64 encode 'hello, world'
//
// calls the operation directly, with no server, and prints its result:
// pretty JSON on a terminal, compact JSON when piped, a table with
// -o table. "quiver help" lists the commands; --help on any of them shows
// its flags and an example. Exit status: 0 success, 1 the check failed,
// 2 bad usage.
//
// There is a command for every operation, in groups: email (validate,
// verify-list, domain-health, disposable, role), web (dns, ssl, robots,
// sitemap, cors, safety, parse-url), dev, content, microblog and
// photosocial. Their flags are the request's fields (tweet_limit is
// -tweet-limit), -request FILE reads a whole JSON request, and the
// services are configured by the same flags and QUIVER_* variables as the
// server (-dns-servers, QUIVER_LLM_PROVIDER, QUIVER_MICROBLOG_PROVIDER...).
//
//	quiver email verify-list contacts.csv -o results.csv
//
// streams a CSV list of any size, keeping its order, with a progress bar
// on a terminal; Ctrl-C writes the rows done and stops.
//
//	quiver email job submit -server http://quiver:8080 -wait contacts.csv
//
// uploads a list to a server as a bulk job (an extension beyond the
// contract: /v1/email/bulk/jobs), which the workers (-workers) of
// every instance sharing -redis-url check; status, results and cancel
// follow it, with the key in QUIVER_API_KEY.
//
// When serving, every flag has an environment twin, named in
// its usage (-addr and QUIVER_ADDR, ...); a flag given on the command line
// wins over its twin. docs/operations.md lists them all, by service. With no API key configured, quiver generates one,
// prints it with a ready-to-paste curl command, and accepts it for the life
// of the process.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if args := os.Args[1:]; isCommand(args) { // quiver COMMAND ...: see cli.go
		code := runCommand(ctx, args, &cmdEnv{
			stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv,
			stdoutTerminal: isTerminal(os.Stdout), stderrTerminal: isTerminal(os.Stderr),
		})
		stop()
		os.Exit(code)
	}
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quiver:", err)
		os.Exit(exitCode(err))
	}
}

// exitCode is 2 for usage errors and 1 for everything else.
func exitCode(err error) int {
	if _, ok := err.(usageError); ok {
		return 2
	}
	return 1
}

// usageError marks a mistake in the command line or the environment.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }
