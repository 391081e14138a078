package main

import (
	"context"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/webcheck"
)

func TestWebcheckSetup(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{"127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	checker := func(env map[string]string, args ...string) (*webcheck.Checker, error) {
		f := &flags{FlagSet: flag.NewFlagSet("quiver", flag.ContinueOnError), getenv: func(k string) string { return env[k] }}
		f.SetOutput(io.Discard)
		apply := webcheckSetup(f)
		if err := f.Parse(args); err != nil {
			t.Fatal(err)
		}
		cfg := httpapi.Config{Resolver: r}
		err := apply(context.Background(), &cfg)
		return cfg.WebCheck, err
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
