package cfgerr_test

import (
	"errors"
	"testing"

	"github.com/quiverkit/quiver/internal/cfgerr"
)

func TestWrap(t *testing.T) {
	own, nested := errors.New("pkg: invalid configuration"), errors.New("llm: invalid configuration")
	cause := errors.Join(nested) // any error wrapping the nested sentinel
	err := cfgerr.Wrap("pkg", own, cause)
	if !errors.Is(err, own) || !errors.Is(err, nested) {
		t.Errorf("%v wraps neither or one of the sentinels", err)
	}
	if got, want := err.Error(), "pkg: llm: invalid configuration"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if cfgerr.Wrap("pkg", own, nil) != nil {
		t.Error("Wrap of nil is not nil")
	}
}
