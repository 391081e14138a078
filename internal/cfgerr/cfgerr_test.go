package cfgerr_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/quiverkit/quiver/internal/cfgerr"
)

func TestList(t *testing.T) {
	own, nested := errors.New("pkg: invalid configuration"), errors.New("llm: invalid configuration")
	inner := cfgerr.New(nested, "Timeout must be positive, not -1s", "MaxAttempts must be positive, not -1")
	l := cfgerr.List{Sentinel: own}
	l.Add("Keys is empty")
	l.Nest("LLM", inner)
	l.Nest("Other", nil)
	err := l.Err()
	if !errors.Is(err, own) || !errors.Is(err, nested) {
		t.Errorf("%v wraps neither or one of the sentinels", err)
	}
	want := "pkg: invalid configuration: Keys is empty; LLM.Timeout must be positive, not -1s; LLM.MaxAttempts must be positive, not -1"
	if got := err.Error(); got != want {
		t.Errorf("Error() = %q\n\twant %q", got, want)
	}
	if (&cfgerr.List{Sentinel: own}).Err() != nil || cfgerr.New(own) != nil || cfgerr.Wrap(own, "LLM", nil) != nil {
		t.Error("no problem is not nil")
	}
}

func TestWrap(t *testing.T) {
	own, nested := errors.New("pkg: invalid configuration"), errors.New("llm: invalid configuration")
	err := cfgerr.Wrap(own, "LLM", cfgerr.New(nested, "Timeout must be positive, not -1s"))
	if !errors.Is(err, own) || !errors.Is(err, nested) {
		t.Errorf("%v wraps neither or one of the sentinels", err)
	}
	if got, want := err.Error(), "pkg: invalid configuration: LLM.Timeout must be positive, not -1s"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	// An error that cfgerr did not build keeps its text and is wrapped.
	foreign := errors.New("proxy URL has no host")
	err = cfgerr.Wrap(own, "SMTP.Proxy", foreign)
	if !errors.Is(err, own) || !errors.Is(err, foreign) {
		t.Errorf("%v wraps neither or one of the errors", err)
	}
	if got, want := err.Error(), "pkg: invalid configuration: SMTP.Proxy: proxy URL has no host"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestFields(t *testing.T) {
	own := errors.New("pkg: invalid configuration")
	l := cfgerr.List{Sentinel: own}
	l.Add("Keys[1] is empty")
	l.Nest("LLM", cfgerr.New(errors.New("llm: invalid configuration"), "Timeout must be positive"))
	l.Nest("SMTP.Proxy", errors.New("proxy URL has no host"))
	err := fmt.Errorf("wrapped: %w", l.Err())
	if got, want := cfgerr.Fields(err), []string{"Keys", "LLM.Timeout", "SMTP.Proxy"}; !slices.Equal(got, want) {
		t.Errorf("Fields = %q, want %q", got, want)
	}
	if got := cfgerr.Fields(errors.New("Keys is empty")); got != nil {
		t.Errorf("Fields of an error cfgerr did not build = %q, want nil", got)
	}
}
