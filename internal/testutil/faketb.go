package testutil

import (
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"testing"
)

// FakeTB is a testing.TB that records what a helper asks of a test, for
// the tests of helpers that take one (the test servers' Start): the
// failures it reports (Error, Errorf, Fatal, Fatalf) and the cleanups it
// registers. Any other method panics: its embedded TB is nil. Call the
// helper through [FakeTB.Run], so that Fatal ends the helper only, as it
// ends a test.
type FakeTB struct {
	testing.TB

	mu       sync.Mutex
	failures []string
	cleanups []func()
}

// Helper does nothing.
func (f *FakeTB) Helper() {}

// Error records a failure.
func (f *FakeTB) Error(args ...any) { f.fail(fmt.Sprint(args...)) }

// Errorf records a failure.
func (f *FakeTB) Errorf(format string, args ...any) { f.fail(fmt.Sprintf(format, args...)) }

// Fatal records a failure and ends the goroutine, as testing.T's does.
func (f *FakeTB) Fatal(args ...any) {
	f.fail(fmt.Sprint(args...))
	runtime.Goexit()
}

// Fatalf records a failure and ends the goroutine, as testing.T's does.
func (f *FakeTB) Fatalf(format string, args ...any) {
	f.fail(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func (f *FakeTB) fail(msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failures = append(f.failures, msg)
}

// Cleanup records fn, to be run by [FakeTB.RunCleanups].
func (f *FakeTB) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}

// Run calls fn with f in a goroutine of its own and waits for it, as the
// testing package runs a test. It reports whether fn returned (false when
// it called Fatal or Fatalf).
func (f *FakeTB) Run(fn func(testing.TB)) (returned bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
		returned = true
	}()
	<-done
	return returned
}

// RunCleanups runs the recorded cleanups, last first, as a test's end
// does, and forgets them.
func (f *FakeTB) RunCleanups() {
	f.mu.Lock()
	fns := f.cleanups
	f.cleanups = nil
	f.mu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
}

// Failures returns the failures recorded so far.
func (f *FakeTB) Failures() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.failures...)
}

// Cleanups returns how many cleanups are recorded and not yet run.
func (f *FakeTB) Cleanups() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.cleanups)
}

// CheckStart checks a test server's Start function, which start calls
// and returns the URL of: with a FakeTB, it reports no failure and
// registers one cleanup, and the server answers HTTP at the URL until
// that cleanup runs.
func CheckStart(t *testing.T, start func(testing.TB) (url string)) {
	t.Helper()
	tb := &FakeTB{}
	var url string
	tb.Run(func(tb testing.TB) { url = start(tb) })
	if len(tb.Failures()) != 0 || tb.Cleanups() != 1 {
		t.Fatalf("failures %q, %d cleanups; want none and one", tb.Failures(), tb.Cleanups())
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("the started server does not answer: %v", err)
	}
	resp.Body.Close()
	tb.RunCleanups()
	if resp, err := http.Get(url); err == nil {
		resp.Body.Close()
		t.Error("the server answered after the test's cleanup")
	}
}
