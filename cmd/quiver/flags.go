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
	// deps are filled by run before the setups' apply functions run;
	// nil for commands.
	deps *deps
}

func (f *flags) env(name, envName string) (string, bool) {
	v := f.getenv(envName)
	return v, v != ""
}

func (f *flags) usage(usage, envName string) string {
	return fmt.Sprintf("%s (env %s)", usage, envName)
}

// String defines a string flag.
func (f *flags) String(p *string, name, envName, def, usage string) {
	if v, ok := f.env(name, envName); ok {
		def = v
	}
	f.StringVar(p, name, def, f.usage(usage, envName))
}

// Secret defines a flag holding a credential. Unlike String, the value
// its environment twin gives is not shown by -help as the default.
func (f *flags) Secret(p *secret.String, name, envName, usage string) {
	v, _ := f.env(name, envName)
	*p = secret.String(v)
	f.Func(name, f.usage(usage, envName), func(s string) error {
		*p = secret.String(s)
		return nil
	})
}

// Strings defines a comma-separated list flag.
func (f *flags) Strings(p *[]string, name, envName string, def []string, usage string) {
	if v, ok := f.env(name, envName); ok {
		def = splitList(v)
	}
	*p = def
	f.Func(name, f.usage(usage, envName), func(s string) error {
		*p = splitList(s)
		return nil
	})
}

// Int defines an integer flag.
func (f *flags) Int(p *int, name, envName string, def int, usage string) {
	if v, ok := f.env(name, envName); ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			f.errs = append(f.errs, fmt.Errorf("%s=%q: not an integer", envName, v))
		} else {
			def = n
		}
	}
	f.IntVar(p, name, def, f.usage(usage, envName))
}

// Int64 defines a 64-bit integer flag.
func (f *flags) Int64(p *int64, name, envName string, def int64, usage string) {
	if v, ok := f.env(name, envName); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			f.errs = append(f.errs, fmt.Errorf("%s=%q: not an integer", envName, v))
		} else {
			def = n
		}
	}
	f.Int64Var(p, name, def, f.usage(usage, envName))
}

// Float defines a float flag.
func (f *flags) Float(p *float64, name, envName string, def float64, usage string) {
	if v, ok := f.env(name, envName); ok {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			f.errs = append(f.errs, fmt.Errorf("%s=%q: not a number", envName, v))
		} else {
			def = n
		}
	}
	f.Float64Var(p, name, def, f.usage(usage, envName))
}

// Bool defines a boolean flag.
func (f *flags) Bool(p *bool, name, envName string, def bool, usage string) {
	if v, ok := f.env(name, envName); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			f.errs = append(f.errs, fmt.Errorf("%s=%q: not a boolean", envName, v))
		} else {
			def = b
		}
	}
	f.BoolVar(p, name, def, f.usage(usage, envName))
}

// Duration defines a duration flag ("30s", "2m").
func (f *flags) Duration(p *time.Duration, name, envName string, def time.Duration, usage string) {
	if v, ok := f.env(name, envName); ok {
		d, err := time.ParseDuration(v)
		if err != nil {
			f.errs = append(f.errs, fmt.Errorf("%s=%q: not a duration", envName, v))
		} else {
			def = d
		}
	}
	f.DurationVar(p, name, def, f.usage(usage, envName))
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
