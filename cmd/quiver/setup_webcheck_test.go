package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/webcheck"
)

func TestWebcheckSetup(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	checker := func(env map[string]string, args ...string) (*webcheck.Checker, error) {
		s, err := parseServices(t, webServices, env, append(args, "-dns-servers", "127.0.0.1:1")...)
		if err != nil {
			t.Fatal(err)
		}
		return s.WebCheck()
	}

	c, err := checker(map[string]string{"QUIVER_ALLOW_LOOPBACK": "true"}, "-fetch-timeout", "2s", "-safe-browsing-key", "k")
	if err != nil || c == nil {
		t.Fatalf("checker %v, err %v", c, err)
	}
	if _, err := c.CheckCORS(context.Background(), webcheck.CORSRequest{URL: srv.URL}); err != nil {
		t.Errorf("with -allow-loopback: %v", err)
	}

	c, err = checker(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CheckCORS(context.Background(), webcheck.CORSRequest{URL: srv.URL})
	if e, ok := err.(*envelope.Error); !ok || e.Code != envelope.CodeInvalidRequest {
		t.Errorf("default refuses loopback: err = %v", err)
	}

	if _, err := checker(nil, "-fetch-timeout", "0s"); err == nil {
		t.Error("a zero fetch timeout was accepted")
	}
}
