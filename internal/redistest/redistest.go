// Package redistest runs a real redis-server for tests, on a free
// loopback port, stopped when the test ends.
//
// The binary comes from the system (Debian's redis-server package; CI
// installs it). When it is missing, [Start] skips the test with a message
// saying how to install it, except when the CI environment variable is
// set: there a missing server fails the test rather than skip it silently.
package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Server is a running redis-server.
type Server struct {
	// Addr is the server's "127.0.0.1:port".
	Addr string
	cmd  *exec.Cmd
}

// Start starts a redis-server with no persistence on a free loopback port
// and waits until it answers PING. It is stopped at the end of the test.
// args are more options of redis-server, e.g. "--maxmemory", "4mb".
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("redis-server is not installed; .ci/run installs it with apt-get install -y redis-server")
		}
		t.Skip("redis-server is not installed (apt-get install -y redis-server); skipping the test that needs a real Redis")
	}
	// A free port is found by listening on port 0 and closing; another
	// process may take it in between, so try a few times.
	var lastErr error
	for range 3 {
		s, err := start(t, bin, args)
		if err == nil {
			return s
		}
		lastErr = err
	}
	t.Fatalf("starting redis-server: %v", lastErr)
	return nil
}

func start(t testing.TB, bin string, args []string) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()

	cmd := exec.Command(bin, append([]string{
		"--port", strconv.Itoa(port),
		"--bind", "127.0.0.1",
		"--save", "",
		"--appendonly", "no",
		"--dir", t.TempDir(),
		"--loglevel", "warning",
	}, args...)...)
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), cmd: cmd}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGCONT) // in case the test paused it
		cmd.Process.Kill()
		<-exited
	})

	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			exited <- err // for the cleanup
			return nil, fmt.Errorf("redis-server exited: %v: %s", err, logs.String())
		default:
		}
		if ping(s.Addr) == nil {
			return s, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, errors.New("redis-server did not answer PING within 10s")
}

// ping sends PING in the inline protocol and expects +PONG.
func ping(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}

// Pause stops the server process (SIGSTOP): connections are still
// accepted by the kernel, but nothing is answered, as with a Redis that
// hangs. Resume undoes it.
func (s *Server) Pause(t testing.TB) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatalf("pausing redis-server: %v", err)
	}
}

// Resume continues a paused server.
func (s *Server) Resume(t testing.TB) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatalf("resuming redis-server: %v", err)
	}
}
