package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/secret"
)

// flags is a FlagSet whose every flag has an environment twin: the twin,
// when set, replaces the flag's default, and the command line wins over
// both. Values of twins that do not parse are collected in errs.
type flags struct {
	*flag.FlagSet
	getenv func(string) string
	errs   []error
}

// twin returns the environment variable of the flag name: QUIVER_ and
// the name in upper case, with _ for -.
func twin(name string) string {
	return "QUIVER_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// flagName is how an error names the flag name: with its twin.
func flagName(name string) string {
	return fmt.Sprintf("-%s (%s)", name, twin(name))
}

// flagValue are the types of the settings that bind binds: a []string
// is comma-separated, and -help does not show the twin's value of a
// secret.String.
type flagValue interface {
	string | []string | int | int64 | float64 | bool | time.Duration | secret.String
}

// bind is the one way a setting becomes a flag: it registers the flag
// name, whose value goes to *p, with def as its default, and its
// environment twin (see twin), which replaces def when set. A twin set
// to the empty string counts as unset: it cannot clear a non-empty
// default (give the flag "" instead).
//
// Command-local flags (the -server, -host and output flags of the
// client commands) are not settings of a service: they are registered
// with the flag package directly, and have no twin unless the command
// documents one.
func bind[T flagValue](f *flags, p *T, name string, def T, usage string) {
	env := twin(name)
	usage = fmt.Sprintf("%s (env %s)", usage, env)
	*p = def
	v := f.getenv(env)
	set := v != ""
	bad := func(what string) { f.errs = append(f.errs, fmt.Errorf("%s=%q: not %s", env, v, what)) }
	switch p := any(p).(type) {
	case *string:
		if set {
			*p = v
		}
		f.StringVar(p, name, *p, usage)
	case *secret.String:
		if set {
			*p = secret.String(v)
		}
		f.Func(name, usage, func(s string) error { *p = secret.String(s); return nil })
	case *[]string:
		if set {
			*p = splitList(v)
		}
		f.Func(name, usage, func(s string) error { *p = splitList(s); return nil })
	case *int:
		if n, err := strconv.Atoi(v); set && err != nil {
			bad("an integer")
		} else if set {
			*p = n
		}
		f.IntVar(p, name, *p, usage)
	case *int64:
		if n, err := strconv.ParseInt(v, 10, 64); set && err != nil {
			bad("an integer")
		} else if set {
			*p = n
		}
		f.Int64Var(p, name, *p, usage)
	case *float64:
		if n, err := strconv.ParseFloat(v, 64); set && err != nil {
			bad("a number")
		} else if set {
			*p = n
		}
		f.Float64Var(p, name, *p, usage)
	case *bool:
		if b, err := strconv.ParseBool(v); set && err != nil {
			bad("a boolean")
		} else if set {
			*p = b
		}
		f.BoolVar(p, name, *p, usage)
	case *time.Duration:
		if d, err := time.ParseDuration(v); set && err != nil {
			bad("a duration")
		} else if set {
			*p = d
		}
		f.DurationVar(p, name, *p, usage)
	}
}

func splitList(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
