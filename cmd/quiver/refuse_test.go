package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/internal/cfgerr"
)

// Every setting of serve that cannot work stops it with an error that
// names the flag to change and its twin, also when the package
// that refuses it (httpapi, email/jobs, a provider) names only its own
// Config field.
func TestServeSettingsRefuseWhatCannotWork(t *testing.T) {
	graph := []string{"-photosocial-provider", "graph", "-photosocial-graph-token", "t", "-photosocial-graph-user-id", "1"}
	apify := []string{"-photosocial-provider", "apify", "-photosocial-apify-token", "t"}
	for _, tc := range []struct {
		args []string
		flag string // the flag the error names
	}{
		{[]string{"-burst", "-1"}, "burst"},
		{[]string{"-rate-limit", "NaN"}, "rate-limit"},
		{[]string{"-max-body", "-5"}, "max-body"},
		{[]string{"-auth-failure-prefix-rate", "NaN"}, "auth-failure-prefix-rate"},
		{[]string{"-auth-failure-max-addresses", "-1"}, "auth-failure-max-addresses"},
		{[]string{"-trusted-proxies", "not-an-address"}, "trusted-proxies"},
		{[]string{"-job-ttl", "-1s"}, "job-ttl"},
		{[]string{"-job-max-rows", "-3"}, "job-max-rows"},
		{[]string{"-job-store-retry", "-1s"}, "job-store-retry"},
		{[]string{"-job-max-memory", "-5"}, "job-max-memory"},
		{[]string{"-job-claim-idle", "-1s"}, "job-claim-idle"},
		{[]string{"-job-key-jobs", "0"}, "job-key-jobs"},
		{[]string{"-workers", "-1"}, "workers"},
		{[]string{"-redis-url", "nope://x"}, "redis-url"},
		{[]string{"-metrics-addr", "127.0.0.1:0"}, "metrics-addr"},
		{[]string{"-llm-cache-ttl", "1m"}, "llm-cache-ttl"},
		{[]string{"-llm-provider", "bogus"}, "llm-provider"},
		{[]string{"-llm-prices", "nope"}, "llm-prices"},
		{[]string{"-llm-model", "m"}, "llm-model"},
		{[]string{"-microblog-provider", "bogus"}, "microblog-provider"},
		{[]string{"-microblog-provider", "twitterapi"}, "microblog-provider"},
		{[]string{"-photosocial-provider", "bogus"}, "photosocial-provider"},
		{append(graph, "-photosocial-graph-base-url", "https://graph.facebook.com/v21.0"), "photosocial-graph-base-url"},
		{append(graph, "-photosocial-graph-api-version", "25"), "photosocial-graph-api-version"},
		{append(apify, "-photosocial-apify-timeout", "400s"), "photosocial-apify-timeout"},
		{append(apify, "-photosocial-apify-run-items", "5000"), "photosocial-apify-run-items"},
		{[]string{"-smtp-port", "70000"}, "smtp-port"},
		// No silent fallbacks.
		{[]string{"-heavy-slots", "-1"}, "heavy-slots"},
		{[]string{"-request-timeout", "500s", "-write-timeout", "120s"}, "request-timeout"},
		{[]string{"-llm-provider", "openai"}, "llm-api-key"},
		{[]string{"-llm-provider", "anthropic", "-llm-base-url", "http://127.0.0.1:9"}, "llm-api-key"},
		{[]string{"-microblog-api-key", "k"}, "microblog-provider"},
		{[]string{"-microblog-file", "export.jsonl"}, "microblog-provider"},
		{[]string{"-photosocial-sample"}, "photosocial-provider"},
		{[]string{"-photosocial-graph-token", "t"}, "photosocial-provider"},
		{[]string{"-dnsbl-zones", "not a zone"}, "dnsbl-zones"},
	} {
		args := append([]string{"-addr", "127.0.0.1:0", "-api-keys", "k", "-dns-servers", "127.0.0.1"}, tc.args...)
		// A setting let through serves until ctx ends, then err is nil.
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		err := run(ctx, args, func(string) string { return "" }, io.Discard)
		cancel()
		if err == nil || !strings.Contains(err.Error(), flagName(tc.flag)) {
			t.Errorf("%q: err = %v; want it to name %s", tc.args, err, flagName(tc.flag))
		}
	}
}

// flagsErr finds the fields of an error by its type, not by its text: a
// field named only in a problem's prose is not blamed.
func TestFlagsErrByField(t *testing.T) {
	err := cfgerr.New(email.ErrInvalidConfig, "SMTP.Port: over 65535; the MTA-STS fetch uses its own port, see: MTASTS.Port")
	got := flagsErr("Email", "email settings", fmt.Errorf("wrapped: %w", err)).Error()
	if want := flagName("smtp-port") + ": wrapped: "; !strings.HasPrefix(got, want) {
		t.Errorf("err = %s; want it to start with %s", got, want)
	}
	if !errors.Is(flagsErr("Email", "email settings", err), email.ErrInvalidConfig) {
		t.Error("the error no longer wraps email.ErrInvalidConfig")
	}
}

// Unset, -dns-timeout and -dns-attempts leave the resolver its defaults:
// those of /etc/resolv.conf when -dns-servers is not set.
func TestDNSDefaultsAreTheResolvers(t *testing.T) {
	st, err := parseServe(nil, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if dc := st.services.DNS; dc.Timeout != 0 || dc.Attempts != 0 {
		t.Errorf("resolver.Config Timeout %v, Attempts %d; want 0 and 0, the resolver's defaults", dc.Timeout, dc.Attempts)
	}
}
