package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The abuse limits have flags with QUIVER_* twins, and a short key is
// named in the start-up log without showing it.
func TestAbuseFlags(t *testing.T) {
	if err := run(t.Context(), []string{"-trusted-proxies", "10.0.0.0/8,not-an-ip"}, func(string) string { return "" }, io.Discard); exitCode(err) != 2 {
		t.Errorf("a bad -trusted-proxies: %v, want a usage error", err)
	}
	if err := run(t.Context(), nil, func(k string) string { return map[string]string{"QUIVER_AUTH_FAILURE_BURST": "many"}[k] }, io.Discard); exitCode(err) != 2 {
		t.Errorf("a bad QUIVER_AUTH_FAILURE_BURST: %v, want a usage error", err)
	}
	s := startServer(t, []string{"-auth-failure-burst", "2"}, map[string]string{
		"QUIVER_AUTH_FAILURE_RATE": "0.001", "QUIVER_MEMORY_BUDGET": "100000000", "GOMEMLIMIT": "off",
	})
	defer s.stop(t, 10*time.Second)
	if out := s.out.String(); !strings.Contains(out, "gateway key is too short") || strings.Contains(out, "Go memory limit") {
		t.Errorf("start-up log:\n%s", out)
	}
	codes := wrongKeys(t, s.base, 4, func(int, *http.Request) {})
	if fmt.Sprint(codes) != "[401 401 429 429]" {
		t.Errorf("statuses %v with -auth-failure-burst 2", codes)
	}
}

// The /48 limit and the table's cap have flags with QUIVER_* twins: the
// /64s of one IPv6 /48 behind a trusted proxy share the /48's burst.
func TestAuthFailurePrefixFlags(t *testing.T) {
	if err := run(t.Context(), []string{"-auth-failure-max-addresses", "-1"}, func(string) string { return "" }, io.Discard); exitCode(err) != 2 {
		t.Errorf("a negative -auth-failure-max-addresses: %v, want a usage error", err)
	}
	s := startServer(t, []string{"-trusted-proxies", "127.0.0.1", "-auth-failure-prefix-burst", "2"}, map[string]string{
		"QUIVER_AUTH_FAILURE_PREFIX_RATE": "0.001", "QUIVER_AUTH_FAILURE_MAX_ADDRESSES": "1000", "GOMEMLIMIT": "off",
	})
	defer s.stop(t, 10*time.Second)
	codes := wrongKeys(t, s.base, 4, func(i int, r *http.Request) {
		r.Header.Set("X-Forwarded-For", fmt.Sprintf("2001:db8:1:%x::1", i)) // each its own /64
	})
	if fmt.Sprint(codes) != "[401 401 429 429]" {
		t.Errorf("statuses %v from 4 /64s of one /48 with -auth-failure-prefix-burst 2", codes)
	}
}

// wrongKeys sends n requests with wrong keys to the server at base, each
// changed by edit, and returns their statuses.
func wrongKeys(t *testing.T, base string, n int, edit func(i int, r *http.Request)) []int {
	t.Helper()
	var codes []int
	for i := range n {
		req, _ := http.NewRequest("GET", base+"/v1/microblog/profile?username=x", nil)
		req.Header.Set("X-Gateway-Key", fmt.Sprint("wrong", i))
		req.Header.Set("X-Gateway-Host", "h")
		edit(i, req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
	}
	return codes
}
