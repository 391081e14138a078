package testutil

import (
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
)

// SOCKS5 is a SOCKS5 proxy on loopback (RFC 1928, CONNECT only), with
// the username/password method of RFC 1929 when User is set. It records
// the local address of every connection it opens on a client's behalf,
// so that a test can tell the proxy's connections from direct ones.
type SOCKS5 struct {
	// Addr is the proxy's "127.0.0.1:port".
	Addr string

	user, pass string
	ln         net.Listener

	mu       sync.Mutex
	outbound []string // local addresses of the proxied connections
	targets  []string // the addresses clients asked for
	refused  int      // clients whose credentials were refused
	open     map[net.Conn]bool
	wg       sync.WaitGroup
}

// NewSOCKS5 starts a proxy for the test tb that requires user and pass
// when user is not empty; it is closed when the test ends.
func NewSOCKS5(tb testing.TB, user, pass string) *SOCKS5 {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p := &SOCKS5{Addr: ln.Addr().String(), user: user, pass: pass, ln: ln, open: map[net.Conn]bool{}}
	p.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Go(func() { p.serve(c) })
		}
	})
	tb.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		for c := range p.open {
			c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

// Outbound returns the local addresses ("127.0.0.1:port") of the
// connections the proxy opened for its clients, in order.
func (p *SOCKS5) Outbound() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.outbound...)
}

// Targets returns the addresses clients asked the proxy to connect to.
func (p *SOCKS5) Targets() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.targets...)
}

// Refused returns how many clients were refused for their credentials.
func (p *SOCKS5) Refused() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refused
}

// track records c as open until the returned function is called.
func (p *SOCKS5) track(c net.Conn) func() {
	p.mu.Lock()
	p.open[c] = true
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		delete(p.open, c)
		p.mu.Unlock()
		c.Close()
	}
}

func (p *SOCKS5) serve(c net.Conn) {
	defer p.track(c)()
	// Greeting: version, methods.
	var hdr [2]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil || hdr[0] != 5 {
		return
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(c, methods); err != nil {
		return
	}
	want := byte(0x00)
	if p.user != "" {
		want = 0x02
	}
	offered := false
	for _, m := range methods {
		offered = offered || m == want
	}
	if !offered {
		c.Write([]byte{5, 0xff})
		return
	}
	c.Write([]byte{5, want})
	if want == 0x02 && !p.authenticate(c) {
		return
	}
	// Request: version, CONNECT, reserved, address.
	var req [4]byte
	if _, err := io.ReadFull(c, req[:]); err != nil || req[1] != 1 {
		return
	}
	var host string
	switch req[3] {
	case 1, 4:
		b := make([]byte, map[byte]int{1: 4, 4: 16}[req[3]])
		if _, err := io.ReadFull(c, b); err != nil {
			return
		}
		host = net.IP(b).String()
	case 3:
		var n [1]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return
		}
		b := make([]byte, n[0])
		if _, err := io.ReadFull(c, b); err != nil {
			return
		}
		host = string(b)
	default:
		return
	}
	var port [2]byte
	if _, err := io.ReadFull(c, port[:]); err != nil {
		return
	}
	target := net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(port[:]))))
	p.mu.Lock()
	p.targets = append(p.targets, target)
	p.mu.Unlock()
	up, err := net.Dial("tcp", target)
	if err != nil {
		c.Write([]byte{5, 5, 0, 1, 0, 0, 0, 0, 0, 0}) // connection refused
		return
	}
	defer p.track(up)()
	p.mu.Lock()
	p.outbound = append(p.outbound, up.LocalAddr().String())
	p.mu.Unlock()
	bound := up.LocalAddr().(*net.TCPAddr)
	reply := append([]byte{5, 0, 0, 1}, bound.IP.To4()...)
	reply = binary.BigEndian.AppendUint16(reply, uint16(bound.Port))
	if _, err := c.Write(reply); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); up.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
	go func() { io.Copy(c, up); c.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
	<-done
	<-done
}

// authenticate runs RFC 1929: version 1, user, password; it answers
// status 0 for the right pair and 1 otherwise.
func (p *SOCKS5) authenticate(c net.Conn) bool {
	read := func() (string, bool) {
		var n [1]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return "", false
		}
		b := make([]byte, n[0])
		_, err := io.ReadFull(c, b)
		return string(b), err == nil
	}
	var ver [1]byte
	if _, err := io.ReadFull(c, ver[:]); err != nil || ver[0] != 1 {
		return false
	}
	user, ok1 := read()
	pass, ok2 := read()
	if !ok1 || !ok2 || user != p.user || pass != p.pass {
		p.mu.Lock()
		p.refused++
		p.mu.Unlock()
		c.Write([]byte{1, 1})
		return false
	}
	_, err := c.Write([]byte{1, 0})
	return err == nil
}
