package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/quiverkit/quiver/envelope"
)

// The command line: "quiver" alone, or with flags only, serves (see run);
// "quiver GROUP COMMAND [flags] [operands]" calls a library operation
// directly, with no server, and prints its result.
//
// Exit codes: 0 success, 1 the check failed (an invalid address, Base64
// that does not decode) or the operation could not be done, 2 bad usage.

// command is one subcommand. Each service declares its commands in a
// table in its own file (cli_dev.go, ...) listed in commandTables.
type command struct {
	// name is the words after "quiver": "dev base64 encode".
	name string
	// args is the synopsis of the operands: "[TEXT]", "ADDR...".
	args string
	// summary is one line saying what the command does.
	summary string
	// help, when set, is a paragraph after the summary: defaults, input.
	help string
	// example is shown by --help: one or more shell lines.
	example string
	// setup registers the command's own flags and returns the function
	// that runs it once they are parsed. A command that writes its own
	// output (a file) registers its own -o; the others get the common
	// -o json|table.
	setup func(fs *flag.FlagSet) runFunc
	// services are the setups of the services the command needs: their
	// flags (with the same environment twins as the server's) are the
	// command's too, and env.svc builds the services from them.
	services []setup
	// table, when set, picks what -o table shows of the result. Default:
	// listItems.
	table func(result any) any
	// raw, when set, gives -r: print only this text of the result (the
	// formatted document, the decoded value), as it is, for pipes.
	raw *rawOutput
}

// rawOutput is the text a command prints with -r.
type rawOutput struct {
	// what names it in -r's usage: "the formatted JSON".
	what string
	// text returns it from the result, or why there is none (a failed
	// check), which goes to standard error.
	text func(result any) (string, error)
}

// runFunc runs a command with its operands. It returns the result to
// print (nil: nothing), whether the check passed (false: exit 1), and an
// error: a usageError or an INVALID_REQUEST exits 2, any other 1.
type runFunc func(ctx context.Context, env *cmdEnv, args []string) (result any, passed bool, err error)

// commandTables lists every service's commands; a service adds its table
// here.
var commandTables = [][]command{
	devCommands,
	devOpCommands,
	emailCommands,
	jobCommands,
	microblogCommands,
	photosocialCommands,
	contentCommands,
	webCommands,
}

// cmdEnv is the process as a command sees it.
type cmdEnv struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// stdoutTerminal and stderrTerminal say whether they are terminals:
	// pretty JSON and progress bars are for people.
	stdoutTerminal, stderrTerminal bool
	// svc builds the services the command runs, from the command's
	// service flags and their environment twins (see command.services).
	svc *services
}

// isCommand reports whether args name a subcommand (or ask for the
// top-level help) rather than serve.
func isCommand(args []string) bool {
	return len(args) > 0 && (!strings.HasPrefix(args[0], "-") || isHelpFlag(args[0]))
}

func isHelpFlag(s string) bool { return s == "-h" || s == "-help" || s == "--help" }

// isTerminal reports whether f is a character device, as a terminal is.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// runCommand runs the subcommand that args name and returns the exit code.
func runCommand(ctx context.Context, args []string, env *cmdEnv) int {
	if args[0] == "serve" {
		if err := run(ctx, args[1:], env.getenv, env.stdout); err != nil {
			fmt.Fprintln(env.stderr, "quiver:", err)
			return exitCode(err)
		}
		return 0
	}
	if args[0] == "help" || isHelpFlag(args[0]) {
		if len(args) == 1 {
			printCommands(env.stdout, "", allCommands())
			fmt.Fprint(env.stdout, "\nServer flags:\n")
			run(ctx, []string{"-help"}, env.getenv, env.stdout)
			return 0
		}
		args = append(args[1:], "--help")
	}

	cmds := allCommands()
	cmd, n := findCommand(cmds, args)
	if cmd == nil {
		prefix := strings.Join(args[:n], " ")
		matching := commandsUnder(cmds, prefix)
		rest := args[n:]
		if len(matching) > 0 && (len(rest) == 0 || isHelpFlag(rest[0])) {
			if len(rest) > 0 {
				printCommands(env.stdout, prefix, matching)
				return 0
			}
			fmt.Fprintf(env.stderr, "quiver %s: which command?\n", prefix)
			printCommands(env.stderr, prefix, matching)
			return 2
		}
		what := strings.TrimSpace(prefix + " " + strings.Join(rest[:min(1, len(rest))], " "))
		fmt.Fprintf(env.stderr, "quiver: unknown command %q\n", what)
		if n > 0 {
			printCommands(env.stderr, prefix, matching)
		} else {
			fmt.Fprintln(env.stderr, "Run 'quiver help' for the list of commands.")
		}
		return 2
	}
	return cmd.execute(ctx, env, args[n:])
}

// allCommands returns every command, sorted by name.
func allCommands() []command {
	all := slices.Concat(commandTables...)
	slices.SortFunc(all, func(a, b command) int { return strings.Compare(a.name, b.name) })
	return all
}

// findCommand returns the command whose name is the longest prefix of
// args, with the number of words it took; with none, nil and the number
// of leading words that are a prefix of some command's name.
func findCommand(cmds []command, args []string) (*command, int) {
	var best *command
	n := 0
	for i := range cmds {
		words := strings.Fields(cmds[i].name)
		if len(words) <= len(args) && slices.Equal(words, args[:len(words)]) && (best == nil || len(words) > n) {
			best, n = &cmds[i], len(words)
		}
	}
	if best != nil {
		return best, n
	}
	for k := min(len(args), 8); k > 0; k-- {
		if len(commandsUnder(cmds, strings.Join(args[:k], " "))) > 0 {
			return nil, k
		}
	}
	return nil, 0
}

// commandsUnder returns the commands whose name starts with the words of
// prefix ("" for all).
func commandsUnder(cmds []command, prefix string) []command {
	var out []command
	for _, c := range cmds {
		if prefix == "" || c.name == prefix || strings.HasPrefix(c.name, prefix+" ") {
			out = append(out, c)
		}
	}
	return out
}

func printCommands(w io.Writer, prefix string, cmds []command) {
	if prefix == "" {
		fmt.Fprint(w, "Usage:\n  quiver [serve] [flags]            serve the HTTP API (see 'quiver serve --help')\n  quiver COMMAND [flags] [args]     run one operation, with no server\n\nCommands:\n")
	} else {
		fmt.Fprintf(w, "Commands of 'quiver %s':\n", prefix)
	}
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.name))
	}
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'quiver COMMAND --help' for a command's flags and an example.\n")
}

// execute parses the command's flags and operands, runs it, prints its
// result and returns the exit code.
func (c *command) execute(ctx context.Context, env *cmdEnv, args []string) int {
	fs := flag.NewFlagSet("quiver "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &flags{FlagSet: fs, getenv: env.getenv}
	var cfg config
	for _, s := range c.services {
		s(f, &cfg)
	}
	runIt := c.setup(fs)
	format := "json"
	commonOutput := fs.Lookup("o") == nil
	if commonOutput {
		fs.StringVar(&format, "o", format, "output: json (pretty on a terminal, compact when piped) or table")
	}
	raw := false
	if c.raw != nil {
		fs.BoolVar(&raw, "r", false, "print only "+c.raw.what+", as raw text")
	}
	operands, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.printHelp(env.stdout, fs)
		return 0
	}
	if err == nil && commonOutput && format != "json" && format != "table" {
		err = fmt.Errorf("-o %q: want json or table", format)
	}
	if err == nil {
		err = errors.Join(f.errs...)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "quiver %s: %v\nUsage: quiver %s [flags] %s\nRun 'quiver %s --help' for more.\n", c.name, err, c.name, c.args, c.name)
		return 2
	}
	env.svc = newServices(ctx, &cfg, nil)
	defer env.svc.Close()

	result, passed, err := runIt(ctx, env, operands)
	if err != nil {
		fmt.Fprintf(env.stderr, "quiver %s: %v\n", c.name, err)
		if envelope.ErrorCode(err) == envelope.CodeServiceUnavailable {
			for _, h := range unconfigured(f, &cfg) {
				fmt.Fprintf(env.stderr, "quiver %s: %s is not set; docs/operations.md lists its settings\n", c.name, flagName(h))
			}
		}
		var ue usageError
		if errors.As(err, &ue) || envelope.ErrorCode(err) == envelope.CodeInvalidRequest {
			return 2
		}
		return 1
	}
	if result != nil && raw {
		text, err := c.raw.text(result)
		if err == nil {
			_, err = fmt.Fprintln(env.stdout, text)
		}
		if err != nil {
			fmt.Fprintf(env.stderr, "quiver %s: %v\n", c.name, err)
			return 1
		}
	} else if result != nil {
		if format == "table" {
			pick := c.table
			if pick == nil {
				pick = listItems
			}
			result = pick(result)
		}
		if err := writeResult(env, format, result); err != nil {
			fmt.Fprintf(env.stderr, "quiver %s: writing the result: %v\n", c.name, err)
			return 1
		}
	}
	if !passed {
		return 1
	}
	return 0
}

// listItems is what a table shows of a result: the items of a list result
// (a struct whose first field is a list of objects: results, tweets,
// media, variants...), one row each, else the result itself. The rest of
// a list result (a summary, a cursor) is in the JSON output. A result
// that leads with something else (a certificate with its chain, a
// pattern with its test cases) is shown whole, as FIELD/VALUE rows.
func listItems(result any) any {
	v := reflect.ValueOf(result)
	if v.Kind() != reflect.Struct || v.NumField() == 0 || !v.Type().Field(0).IsExported() {
		return result
	}
	if f := v.Field(0); f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct {
		return f.Interface()
	}
	return result
}

// parseInterspersed parses flags wherever they are among the operands, as
// people type them ("quiver dev base64 encode hi -o table"); "--" ends the
// flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(operands, rest...), nil
		}
		if len(rest) == 0 {
			return operands, nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

func (c *command) printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: quiver %s [flags] %s\n\n%s\n", c.name, c.args, c.summary)
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", c.help)
	}
	fmt.Fprint(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprint(w, "\nExample:\n")
	for line := range strings.SplitSeq(strings.TrimSpace(c.example), "\n") {
		fmt.Fprintf(w, "  %s\n", strings.TrimSpace(line))
	}
	fmt.Fprint(w, "\nExit status: 0 success, 1 the check failed or could not be done, 2 bad usage.\n")
}

// writeResult prints v as JSON (indented on a terminal, one line when
// piped) or as a table.
func writeResult(env *cmdEnv, format string, v any) error {
	if format == "table" {
		return writeTable(env.stdout, v)
	}
	enc := json.NewEncoder(env.stdout)
	enc.SetEscapeHTML(false)
	if env.stdoutTerminal {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}

// operandOrStdin returns the single operand, or all of standard input
// when there is none.
func operandOrStdin(env *cmdEnv, args []string, what string) (string, error) {
	switch len(args) {
	case 0:
		b, err := io.ReadAll(env.stdin)
		if err != nil {
			return "", fmt.Errorf("reading standard input: %w", err)
		}
		return string(b), nil
	case 1:
		return args[0], nil
	}
	return "", usageError{fmt.Errorf("want one %s, or none to read standard input; got %d arguments (quote a value with spaces)", what, len(args))}
}

// unconfigured returns the flags of f that choose a service (a model, a
// data provider) and are not set in cfg: the packages' SERVICE_UNAVAILABLE
// messages say what to configure in their own terms, and a command adds
// which of its flags does it.
func unconfigured(f *flags, cfg *config) []string {
	var out []string
	for _, c := range []struct {
		name string
		set  bool
	}{
		{"llm-provider", cfg.LLM.provider != ""},
		{"microblog-provider", cfg.Microblog.Provider != ""},
		{"photosocial-provider", cfg.Photosocial.Provider != ""},
	} {
		if !c.set && f.Lookup(c.name) != nil {
			out = append(out, c.name)
		}
	}
	return out
}
