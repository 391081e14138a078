package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// server is a quiver run in process, for tests.
type server struct {
	base   string // "http://127.0.0.1:port"
	out    *syncBuffer
	cancel context.CancelFunc
	done   chan error
}

var listeningRE = regexp.MustCompile(`quiver listening on (http://\S+)`)

// startServer runs quiver with args and env on a free loopback port, and
// waits until it listens. stop ends it; the test fails if it is not
// stopped.
func startServer(t *testing.T, args []string, env map[string]string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{out: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	args = append([]string{"-addr", "127.0.0.1:0", "-api-keys", "k"}, args...)
	go func() { s.done <- run(ctx, args, func(k string) string { return env[k] }, s.out) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m := listeningRE.FindStringSubmatch(s.out.String()); m != nil {
			s.base = m[1]
			return s
		}
		select {
		case err := <-s.done:
			cancel()
			t.Fatalf("quiver exited before listening: %v\n%s", err, s.out)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("quiver did not listen within 10s:\n%s", s.out)
		}
	}
}

// stop shuts the server down as SIGTERM would and returns run's error.
func (s *server) stop(t *testing.T, within time.Duration) error {
	t.Helper()
	s.cancel()
	select {
	case err := <-s.done:
		return err
	case <-time.After(within):
		t.Fatalf("quiver did not stop within %v:\n%s", within, s.out)
		return nil
	}
}

// Bad operational settings are usage errors (exit status 2), found
// before anything listens.
func TestOperationsUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-metrics-addr", "127.0.0.1:0"}, // without -metrics
		{"-redis-url", "http://nope"},    // not a Redis URL
		{"-llm-cache-ttl", "1h"},         // without -redis-url
	} {
		err := run(t.Context(), args, func(string) string { return "" }, io.Discard)
		if exitCode(err) != 2 {
			t.Errorf("run %q = %v, want a usage error", args, err)
		}
	}
}

// A model that the price table does not name costs 0: the server says so
// at start-up, naming the model and the flag that prices it; a priced
// model starts without the warning.
func TestUnknownPriceWarning(t *testing.T) {
	for _, tt := range []struct {
		model string
		warn  bool
	}{
		{"llama3.2", true},
		{"gpt-4o-mini", false},
	} {
		s := startServer(t, []string{"-llm-provider", "ollama", "-llm-model", tt.model, "-llm-base-url", "http://127.0.0.1:9"}, nil)
		if err := s.stop(t, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		out := s.out.String()
		warned := regexp.MustCompile(`level=WARN msg=".*price is unknown.*-llm-prices.*" model=` + regexp.QuoteMeta(tt.model)).MatchString(out)
		if warned != tt.warn {
			t.Errorf("%s: warned %v, want %v:\n%s", tt.model, warned, tt.warn, out)
		}
	}
}
