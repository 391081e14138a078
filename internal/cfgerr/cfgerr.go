// Package cfgerr builds the errors of configurations that cannot work,
// so that each says its package's sentinel once and then every broken
// rule, also for a configuration held in another's (an llm.Config in a
// content.Config): "content: invalid configuration: LLM.Timeout must be
// 0 (no bound) or positive, not -1s". The error wraps the sentinel of
// each package involved, so errors.Is finds any of them.
package cfgerr

import (
	"errors"
	"fmt"
	"strings"
)

// List collects the problems of one configuration. Each problem starts
// with the name of its field ("Timeout must be ..."), so that a
// configuration that holds this one can prefix it with its own field.
// The zero List is not usable: set Sentinel.
type List struct {
	// Sentinel is the package's ErrInvalidConfig: the error's text starts
	// with it, and errors.Is finds it.
	Sentinel error

	problems  []string
	sentinels []error // of nested configurations
}

// Add records a problem, formatted as by fmt.Sprintf.
func (l *List) Add(format string, args ...any) {
	l.problems = append(l.problems, fmt.Sprintf(format, args...))
}

// Nest records the problems of err, the error of a nested configuration
// held in field (say "LLM"): each of its problems is prefixed with
// "field.", and the List's error wraps err's sentinels too. An err that
// this package did not build is recorded as "field: " and its text. A nil
// err records nothing.
func (l *List) Nest(field string, err error) {
	if err == nil {
		return
	}
	var in *invalid
	if !errors.As(err, &in) {
		l.problems = append(l.problems, field+": "+err.Error())
		l.sentinels = append(l.sentinels, err)
		return
	}
	for _, p := range in.problems {
		l.problems = append(l.problems, field+"."+p)
	}
	l.sentinels = append(l.sentinels, in.sentinels...)
}

// Err returns the error of the problems recorded, nil when there are
// none. It reads "<sentinel>: problem; problem".
func (l *List) Err() error {
	if len(l.problems) == 0 {
		return nil
	}
	return &invalid{sentinels: append([]error{l.Sentinel}, l.sentinels...), problems: l.problems}
}

// New returns the error of sentinel for problems, each starting with its
// field; nil when there are none.
func New(sentinel error, problems ...string) error {
	return (&List{Sentinel: sentinel, problems: problems}).Err()
}

// Wrap returns err, the error of a nested configuration held in field,
// as an error of the package whose sentinel is given; see [List.Nest]. A
// nil err is nil.
func Wrap(sentinel error, field string, err error) error {
	l := List{Sentinel: sentinel}
	l.Nest(field, err)
	return l.Err()
}

// invalid is the error of a List.
type invalid struct {
	sentinels []error // the package's first
	problems  []string
}

func (e *invalid) Error() string {
	return e.sentinels[0].Error() + ": " + strings.Join(e.problems, "; ")
}

func (e *invalid) Unwrap() []error { return e.sentinels }

// Fields returns the field of each problem of err, an error of a List
// (found with errors.As), in order: the path a problem starts with
// ("LLM.Timeout", "Keys[0]"), without its index. It is nil when err holds
// no such error.
func Fields(err error) []string {
	var in *invalid
	if !errors.As(err, &in) {
		return nil
	}
	out := make([]string, 0, len(in.problems))
	for _, p := range in.problems {
		f, _, _ := strings.Cut(p, " ")
		f = strings.TrimSuffix(f, ":")
		if i := strings.IndexByte(f, '['); i >= 0 {
			f = f[:i]
		}
		out = append(out, f)
	}
	return out
}
