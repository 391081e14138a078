package webcheck

import (
	"errors"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/envelope"
)

func assertWarning(t *testing.T, warnings []string, want string) {
	t.Helper()
	for _, w := range warnings {
		if strings.Contains(w, want) {
			return
		}
	}
	t.Errorf("no warning contains %q; warnings: %q", want, warnings)
}

// assertInvalid checks that err is an INVALID_REQUEST whose text contains
// want.
func assertInvalid(t *testing.T, err error, want string) {
	t.Helper()
	var ve *envelope.ValidationError
	var ee *envelope.Error
	switch {
	case err == nil:
		t.Fatalf("err = nil; want INVALID_REQUEST %q", want)
	case errors.As(err, &ve):
	case errors.As(err, &ee) && ee.Code == envelope.CodeInvalidRequest:
	default:
		t.Fatalf("err = %v (%T); want INVALID_REQUEST", err, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v; want it to mention %q", err, want)
	}
}
