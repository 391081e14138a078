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
	var codes []int
	for i := range 4 {
		req, _ := http.NewRequest("GET", s.base+"/v1/microblog/profile?username=x", nil)
		req.Header.Set("X-Gateway-Key", fmt.Sprint("wrong", i))
		req.Header.Set("X-Gateway-Host", "h")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
	}
	if fmt.Sprint(codes) != "[401 401 429 429]" {
		t.Errorf("statuses %v with -auth-failure-burst 2", codes)
	}
}
