// Package cfgerr builds the errors of constructors whose configuration
// holds another package's settings: the error wraps the constructor's own
// sentinel and the cause's, so that errors.Is finds either, and its text
// says the cause once.
package cfgerr

// Wrap returns err, an error of a nested configuration (say an invalid
// llm.Config, wrapping llm.ErrInvalidConfig), as an error of the package
// named pkg: it also wraps sentinel (the package's ErrInvalidConfig), and
// reads "pkg: " followed by err's text. A nil err is nil.
func Wrap(pkg string, sentinel, err error) error {
	if err == nil {
		return nil
	}
	return &wrapped{pkg: pkg, sentinel: sentinel, err: err}
}

type wrapped struct {
	pkg           string
	sentinel, err error
}

func (w *wrapped) Error() string   { return w.pkg + ": " + w.err.Error() }
func (w *wrapped) Unwrap() []error { return []error{w.sentinel, w.err} }
