package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// slowRequest starts a base64 request whose body is only half sent, so
// that it is in flight until finish is called.
func slowRequest(t *testing.T, base string) (conn net.Conn, finish func()) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	body := `{"value":"slow"}`
	fmt.Fprintf(conn, "POST /v1/dev/data/base64/encode HTTP/1.1\r\nHost: x\r\nX-Gateway-Key: k\r\nX-Gateway-Host: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:5])
	time.Sleep(100 * time.Millisecond) // let the server read the headers and start the handler
	return conn, func() { io.WriteString(conn, body[5:]) }
}

// A graceful shutdown lets a slow request in flight finish, then stops.
func TestShutdownWaitsForSlowRequest(t *testing.T) {
	defer checkLeaks(t)
	s := startServer(t, nil, nil)
	conn, finish := slowRequest(t, s.base)

	s.cancel() // SIGTERM
	select {
	case err := <-s.done:
		t.Fatalf("quiver stopped with a request in flight: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	finish()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the response of the slow request: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.Contains(string(b), `"output":"c2xvdw=="`) {
		t.Errorf("slow request: status %d, body %s", res.StatusCode, b)
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("run after a graceful shutdown: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("quiver did not stop after its last request ended")
	}
}

// A request still in flight when the shutdown timeout expires is cut off:
// quiver stops within the timeout, reports it, and leaves nothing running.
func TestShutdownTimeoutCutsSlowRequest(t *testing.T) {
	defer checkLeaks(t)
	const timeout = 300 * time.Millisecond
	s := startServer(t, []string{"-shutdown-timeout", timeout.String()}, nil)
	conn, _ := slowRequest(t, s.base)

	start := time.Now()
	err := s.stop(t, 5*time.Second)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "shutdown") {
		t.Errorf("run = %v, want a shutdown error", err)
	}
	if took < timeout || took > timeout+time.Second {
		t.Errorf("shutdown took %v, want about %v", took, timeout)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := conn.Read(make([]byte, 1)); err == nil {
		t.Errorf("the cut-off connection is still open (read %d bytes)", n)
	}
}
