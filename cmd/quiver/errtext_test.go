package main

import (
	"bytes"
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/resolver/resolvertest"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog/microblogtest"
	"github.com/quiverkit/quiver/social/photosocial/photosocialtest"
)

// TestCLIErrorsSayTheirCauseOnce runs every command, and the server, with
// operands, peers and settings that fail in each way that can be provoked
// on loopback, and checks each "quiver ...:" line they print: it says its
// cause once, names no internal package, and says its code once.
func TestCLIErrorsSayTheirCauseOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("cmd/quiver: the error-text harness runs every command many times")
	}
	dns := resolvertest.Start(t, resolvertest.Config{Zone: "$ORIGIN test.\n@ 60 SOA ns hostmaster 1 3600 600 86400 60\nloop 60 A 127.0.0.1\n", ServFail: []string{"servfail.test"}, Refused: []string{"refused.test"}})
	// No replies: every call fails, and the test does not fail on the
	// server's Err as Start's cleanup would.
	model, err := llmtest.New(llmtest.OpenAI)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(model.Close)
	mb := microblogtest.StartTwitterAPIIO(t, "mb-key")
	mb.Respond("/", http.StatusInternalServerError, nil, "oops")
	graph := photosocialtest.StartGraph(t, "graph-token")
	graph.Respond("/", http.StatusNotFound, nil, `{"error":{"message":"Unsupported get request","code":100}}`)
	jm, err := jobs.New(jobs.Config{MaxRows: 5})
	if err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.New(httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Jobs: jm})
	if err != nil {
		t.Fatal(err)
	}
	api := httptest.NewServer(h)
	t.Cleanup(api.Close)
	badCSV := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(badCSV, []byte("name\nana\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	peers := map[string]string{
		"QUIVER_DNS_SERVERS": dns.Addr, "QUIVER_DNS_TIMEOUT": "1s",
		"QUIVER_LLM_PROVIDER": "openai", "QUIVER_LLM_MODEL": "gpt-4o-mini", "QUIVER_LLM_BASE_URL": model.BaseURL(),
		"QUIVER_LLM_API_KEY":        llmtest.TestKey,
		"QUIVER_MICROBLOG_PROVIDER": "twitterapi", "QUIVER_MICROBLOG_API_KEY": "mb-key", "QUIVER_MICROBLOG_BASE_URL": mb.URL,
		"QUIVER_PHOTOSOCIAL_PROVIDER": "graph", "QUIVER_PHOTOSOCIAL_GRAPH_TOKEN": "graph-token",
		"QUIVER_PHOTOSOCIAL_GRAPH_USER_ID": photosocialtest.GraphUserID, "QUIVER_PHOTOSOCIAL_GRAPH_BASE_URL": graph.URL,
		"QUIVER_SERVER": api.URL, "QUIVER_API_KEY": "k",
	}
	with := func(kv ...string) map[string]string {
		env := maps.Clone(peers)
		for i := 0; i < len(kv); i += 2 {
			env[kv[i]] = kv[i+1]
		}
		return env
	}
	// Settings that cannot work, each alone.
	badSettings := []map[string]string{
		with("QUIVER_LLM_PROVIDER", "nope"),
		with("QUIVER_LLM_TIMEOUT", "-1s"),
		with("QUIVER_LLM_MAX_ATTEMPTS", "-1"),
		with("QUIVER_DNS_SERVERS", "127.0.0.1:99999"),
		with("QUIVER_DNS_UDP_SIZE", "7"),
		with("QUIVER_MICROBLOG_PROVIDER", "file", "QUIVER_MICROBLOG_FILE", "no-such-file.jsonl"),
		with("QUIVER_MICROBLOG_PROVIDER", "twitterapi", "QUIVER_MICROBLOG_API_KEY", ""),
		with("QUIVER_PHOTOSOCIAL_GRAPH_TOKEN", ""),
		with("QUIVER_SMTP_PORT", "70000"),
		with("QUIVER_SMTP_PROXY", "http://user:secret@proxy.test"),
		with("QUIVER_DNSBL_ZONES", "not a zone"),
		with("QUIVER_MTA_STS_ROOTS", "no-such-roots.pem"),
		with("QUIVER_REGEX_MATCH_TIMEOUT", "-1s"),
		with("QUIVER_TRUSTED_PROXIES", "nope"),
		with("QUIVER_SERVER", "ftp://x"),
	}

	lines := map[string][]string{} // printed line -> the runs that printed it
	runs := 0
	try := func(env map[string]string, stdin string, args ...string) {
		runs++
		for range 4 {
			model.Push(llmtest.Reply{Content: `{"unexpected":true}`})
		}
		var stdout, stderr bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		runCommand(ctx, args, &cmdEnv{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr,
			getenv: func(k string) string { return env[k] }})
		for _, line := range strings.Split(stderr.String(), "\n") {
			if strings.HasPrefix(line, "quiver") && len(lines[line]) < 3 {
				lines[line] = append(lines[line], strings.Join(args, " "))
			}
		}
	}
	operands := [][]string{nil, {""}, {"("}, {"http://127.0.0.1/"}, {"loop.test"}, {"servfail.test"}, {"refused.test"},
		{"a@servfail.test"}, {"nope"}, {badCSV}}
	for _, c := range allCommands() {
		for _, ops := range operands {
			try(peers, "(", append(strings.Fields(c.name), ops...)...)
		}
	}
	for _, env := range badSettings {
		for _, args := range [][]string{
			{"dev", "regex", "generate", "a zebra"}, {"web", "dns", "example.test"}, {"content", "headlines", "remote work"},
			{"microblog", "profile", "ana_dev"}, {"photosocial", "profile", "natgeo"}, {"email", "validate", "a@b.test"},
			{"email", "job", "status", "nope"},
		} {
			try(env, "", args...)
		}
		// The server refuses the settings before it listens.
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		// A server that starts anyway is stopped when ctx ends.
		err := run(ctx, []string{"-addr", "127.0.0.1:0"}, func(k string) string { return env[k] }, &out)
		cancel()
		if err != nil {
			line := "quiver: " + err.Error()
			lines[line] = append(lines[line], "serve")
		}
	}

	t.Logf("%d runs printed %d distinct lines", runs, len(lines))
	for _, line := range slices.Sorted(maps.Keys(lines)) {
		where := strings.Join(lines[line], " | ")
		t.Log(line)
		for _, p := range testutil.ErrorTextProblems(line, testutil.GoCaller) {
			t.Errorf("%s: %q\n\tfrom %s", p, line, where)
		}
		if strings.Contains(line, "secret") {
			t.Errorf("shows a credential: %q", line)
		}
	}
}
