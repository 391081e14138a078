package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/secret"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// start runs the real server on a free loopback port and returns its base
// URL, its output, a function that stops it, and the channel that run's
// result arrives on.
func start(t *testing.T, args []string, getenv func(string) string) (string, *testutil.SyncBuffer, context.CancelFunc, <-chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &testutil.SyncBuffer{}
	result := make(chan error, 1)
	stopped := make(chan struct{})
	go func() {
		result <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), getenv, out)
		close(stopped)
	}()
	done := result
	t.Cleanup(func() {
		cancel()
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop")
		}
	})
	re := regexp.MustCompile(`listening on (http://\S+)`)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1], out, cancel, done
		}
		select {
		case err := <-done:
			t.Fatalf("run returned early: %v\n%s", err, out)
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("server did not start:\n%s", out)
	return "", nil, nil, nil
}

// TestGeneratedKeyCurlLine starts the server with no key configured and
// replays the curl line it prints.
func TestGeneratedKeyCurlLine(t *testing.T) {
	base, out, _, _ := start(t, nil, env(nil))
	m := regexp.MustCompile(`curl -s -X POST (\S+) -H 'X-Gateway-Key: (\S+)' -H 'X-Gateway-Host: (\S+)' -H 'Content-Type: application/json' -d '(.+)'`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no curl line in output:\n%s", out)
	}
	if !strings.HasPrefix(m[1], base) {
		t.Errorf("curl URL %s is not on %s", m[1], base)
	}
	req, _ := http.NewRequest("POST", m[1], strings.NewReader(m[4]))
	req.Header.Set("X-Gateway-Key", m[2])
	req.Header.Set("X-Gateway-Host", m[3])
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Success bool
		Data    struct{ Output string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || !body.Success || body.Data.Output != "aGVsbG8=" {
		t.Errorf("curl line answered %d %+v", resp.StatusCode, body)
	}
	// Beside the curl line, the docs page, which serves without a key.
	docs := regexp.MustCompile(`(?m)^or open (\S+) in a browser, enter the key and the host in Authorize`).FindStringSubmatch(out.String())
	if docs == nil || docs[1] != base+"/docs" {
		t.Fatalf("no docs line for %s/docs after the curl line:\n%s", base, out)
	}
	if code, ctype := docsPage(t, docs[1]); code != 200 || ctype != "text/html; charset=utf-8" {
		t.Errorf("GET %s: %d %q", docs[1], code, ctype)
	}
}

// docsPage fetches url and returns its status and Content-Type.
func docsPage(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Content-Type")
}

// TestDocsFlag checks the docs line with configured keys, and that
// -no-docs (QUIVER_NO_DOCS) turns the page off.
func TestDocsFlag(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
		want int
	}{
		{"served", nil, map[string]string{"QUIVER_API_KEYS": "alpha-key-0123456789"}, 200},
		{"flag", []string{"-no-docs"}, map[string]string{"QUIVER_API_KEYS": "alpha-key-0123456789"}, 404},
		{"environment", nil, map[string]string{"QUIVER_API_KEYS": "alpha-key-0123456789", "QUIVER_NO_DOCS": "true"}, 404},
		{"generated key", []string{"-no-docs"}, nil, 404},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base, out, _, _ := start(t, tt.args, env(tt.env))
			if code, _ := docsPage(t, base+"/docs"); code != tt.want {
				t.Errorf("GET /docs: %d, want %d", code, tt.want)
			}
			if printed := strings.Contains(out.String(), base+"/docs"); printed != (tt.want == 200) {
				t.Errorf("docs URL printed: %v, want %v:\n%s", printed, tt.want == 200, out)
			}
		})
	}
}

func TestConfiguredKeysFromEnvironment(t *testing.T) {
	base, out, _, _ := start(t, []string{"-hosts", "api.test"}, env(map[string]string{"QUIVER_API_KEYS": "alpha, beta", "QUIVER_LOG_FORMAT": "json"}))
	if strings.Contains(out.String(), "generated") {
		t.Error("a key was generated although keys are configured")
	}
	call := func(key, host string) int {
		req, _ := http.NewRequest("POST", base+"/v1/dev/data/base64/encode", strings.NewReader(`{"value":"x"}`))
		req.Header.Set("X-Gateway-Key", key)
		req.Header.Set("X-Gateway-Host", host)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tt := range []struct {
		key, host string
		want      int
	}{{"alpha", "api.test", 200}, {"beta", "api.test", 200}, {"gamma", "api.test", 401}, {"alpha", "other", 401}} {
		if got := call(tt.key, tt.host); got != tt.want {
			t.Errorf("key %s host %s: %d, want %d", tt.key, tt.host, got, tt.want)
		}
	}
	if !strings.Contains(out.String(), `"msg":"request"`) {
		t.Errorf("QUIVER_LOG_FORMAT=json not honoured:\n%s", out)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"unknown flag", []string{"-nope"}, nil},
		{"bad env twin", nil, map[string]string{"QUIVER_RATE_LIMIT": "fast"}},
		{"bad duration", nil, map[string]string{"QUIVER_READ_TIMEOUT": "soon"}},
		{"bad log format", []string{"-log-format", "xml"}, nil},
		{"stray argument", []string{"serve-now"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), tt.args, env(tt.env), io.Discard)
			var ue usageError
			if !errors.As(err, &ue) || exitCode(err) != 2 {
				t.Errorf("run = %v, want a usage error (exit 2)", err)
			}
		})
	}
}

// slowBody hands out its content only when released, keeping a request in
// flight.
type slowBody struct {
	release chan struct{}
	r       io.Reader
}

func (b *slowBody) Read(p []byte) (int, error) {
	<-b.release
	return b.r.Read(p)
}

// TestGracefulShutdown cancels the server while a request is in flight and
// checks that the request still completes and run returns cleanly.
func TestGracefulShutdown(t *testing.T) {
	base, out, stop, done := start(t, []string{"-api-keys", "k"}, env(nil))
	body := &slowBody{release: make(chan struct{}), r: strings.NewReader(`{"value":"in flight"}`)}
	req, _ := http.NewRequest("POST", base+"/v1/dev/data/base64/encode", body)
	req.ContentLength = int64(len(`{"value":"in flight"}`))
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "h")
	req.Header.Set("Content-Type", "application/json")
	type answer struct {
		status int
		err    error
	}
	res := make(chan answer, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			res <- answer{err: err}
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		res <- answer{status: resp.StatusCode}
	}()
	time.Sleep(100 * time.Millisecond) // the request is now held by the server
	stop()
	waitFor(t, out, "shutting down")
	select {
	case err := <-done:
		t.Fatalf("run returned before the request in flight finished: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(body.release)
	a := <-res
	if a.err != nil || a.status != 200 {
		t.Fatalf("in-flight request: status %d, err %v", a.status, a.err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run = %v, want nil after graceful shutdown", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not return after the last request")
	}
}

func waitFor(t *testing.T, out *testutil.SyncBuffer, text string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(out.String(), text) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("output never said %q:\n%s", text, out)
}

func TestHelp(t *testing.T) {
	var out testutil.SyncBuffer
	if err := run(context.Background(), []string{"-h"}, env(nil), &out); err != nil {
		t.Fatalf("run -h = %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	n := 0
	for sc.Scan() {
		if strings.Contains(sc.Text(), "(env QUIVER_") {
			n++
		}
	}
	if n < 12 {
		t.Errorf("help lists %d flags with environment twins, want at least 12:\n%s", n, out.String())
	}
}

// Credentials set in the environment are used but never shown as flag
// defaults by -help, of the server or of a command.
func TestHelpHidesSecrets(t *testing.T) {
	secrets := map[string]string{
		"QUIVER_MICROBLOG_API_KEY":       "mb-hunter2",
		"QUIVER_LLM_API_KEY":             "llm-hunter2",
		"QUIVER_PHOTOSOCIAL_GRAPH_TOKEN": "graph-hunter2",
		"QUIVER_PHOTOSOCIAL_APIFY_TOKEN": "apify-hunter2",
		"QUIVER_REDIS_URL":               "redis://:redis-hunter2@127.0.0.1:1/0",
		"QUIVER_SAFE_BROWSING_KEY":       "sb-hunter2",
		"QUIVER_SMTP_PROXY":              "socks5://probe:proxy-hunter2@127.0.0.1:1080",
	}
	var out testutil.SyncBuffer
	if err := run(context.Background(), []string{"-h"}, env(secrets), &out); err != nil {
		t.Fatalf("run -h = %v", err)
	}
	if strings.Contains(out.String(), "hunter2") {
		t.Errorf("server help shows a credential:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "-microblog-api-key") {
		t.Errorf("server help does not list -microblog-api-key:\n%s", out.String())
	}
	for _, args := range [][]string{{"microblog", "search", "--help"}, {"photosocial", "profile", "--help"}, {"content", "headlines", "--help"}} {
		var stdout, stderr bytes.Buffer
		runCommand(context.Background(), args, &cmdEnv{
			stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: env(secrets),
		})
		if all := stdout.String() + stderr.String(); strings.Contains(all, "hunter2") {
			t.Errorf("%v shows a credential:\n%s", args, all)
		}
	}

	// The environment still configures the flag.
	f := &flags{FlagSet: flag.NewFlagSet("x", flag.ContinueOnError), getenv: env(secrets)}
	var key secret.String
	bind(f, &key, "microblog-api-key", "", "key")
	if key != "mb-hunter2" {
		t.Errorf("from the environment: key = %q", key)
	}
	if err := f.Parse([]string{"-microblog-api-key", "cli"}); err != nil || key != "cli" {
		t.Errorf("from the command line: key = %q, %v", key, err)
	}
}
