// Command quiver serves the Quiver API.
//
//	go run ./cmd/quiver
//
// serves on 127.0.0.1:8080. Every flag has an environment twin, named in
// its usage (-addr and QUIVER_ADDR, ...); a flag given on the command line
// wins over its twin. With no API key configured, quiver generates one,
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
