package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// cliCase is one run of the real binary and what it must print.
type cliCase struct {
	name      string
	stdin     string
	args      []string
	code      int
	contains  []string // in stdout
	stderrHas string
	lines     int // when set, the number of stdout lines (1: compact JSON); -1: none
}

func runCLICases(t *testing.T, env []string, cases []cliCase) {
	t.Helper()
	bin := quiverBinary(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runBinary(t, bin, env, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			for _, want := range tc.contains {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if !strings.Contains(stderr, tc.stderrHas) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderrHas, stderr)
			}
			if tc.lines > 0 && strings.Count(stdout, "\n") != tc.lines {
				t.Errorf("stdout has %d lines, want %d:\n%s", strings.Count(stdout, "\n"), tc.lines, stdout)
			}
			if (tc.code == 2 || tc.lines < 0) && stdout != "" {
				t.Errorf("stdout not empty on a usage error:\n%s", stdout)
			}
			if tc.code != 2 && len(tc.contains) == 0 && tc.lines == 0 {
				t.Error("the case asserts nothing of stdout")
			}
		})
	}
}

const cliZone = `
$ORIGIN test.
$TTL 300
@              SOA ns hostmaster 1 3600 600 86400 60
mx             MX 10 mail.mx.test.
mail.mx        A 192.0.2.10
mx             TXT "v=spf1 mx -all"
_dmarc.mx      TXT "v=DMARC1; p=reject; rua=mailto:d@mx.test"
nullmx         MX 0 .
$ORIGIN 2.0.192.in-addr.arpa.
10             PTR mail.mx.test.
`

func TestCLIEmail(t *testing.T) {
	dns := resolvertest.Start(t, resolvertest.Config{Zone: cliZone})
	env := []string{"QUIVER_DNS_SERVERS=" + dns.Addr, "QUIVER_DNS_TIMEOUT=1s"}
	dir := t.TempDir()
	list := filepath.Join(dir, "list.csv")
	if err := os.WriteFile(list, []byte("name,email\nAna,ana@mx.test\nBob,bob@nullmx.test\nInfo,info@mx.test\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(dir, "results.csv")
	runCLICases(t, env, []cliCase{
		{name: "validate valid is compact JSON, exit 0", args: []string{"email", "validate", "ana@MX.test"},
			contains: []string{`"is_valid":true`, `"email":"ana@mx.test"`, `"status":"mx"`, `"hosts":["mail.mx.test"]`}, lines: 1},
		{name: "validate one invalid exits 1", args: []string{"email", "validate", "ana@mx.test", "bob@nullmx.test"}, code: 1,
			contains: []string{`[{"input"`, `"reason":"null_mx"`}, lines: 1},
		{name: "validate table", args: []string{"email", "validate", "-o", "table", "ana@mx.test", "not-an-address"}, code: 1,
			contains: []string{"IS_VALID  EMAIL", "true      ana@mx.test", "false     -", "missing_at"}, lines: 3},
		{name: "validate reads stdin", stdin: "ana@mx.test\n\ninfo@mx.test\n", args: []string{"email", "validate", "-no-mx"},
			contains: []string{`"email":"ana@mx.test"`, `"is_role_account":true`, `"mx":null`}},
		{name: "validate nothing is bad usage", args: []string{"email", "validate"}, code: 2, stderrHas: "no address"},
		{name: "bad service flag is bad usage", args: []string{"email", "validate", "-dns-timeout", "soon", "a@mx.test"}, code: 2,
			stderrHas: "invalid value"},
		{name: "domain-health ready", args: []string{"email", "domain-health", "mx.test"},
			contains: []string{`"verdict":"ready"`}, lines: 1},
		{name: "domain-health not ready exits 1, table of the domains", args: []string{"email", "domain-health", "-o", "table", "mx.test", "nullmx.test"}, code: 1,
			contains: []string{"DOMAIN", "mx.test ", "ready", "not_ready"}},
		{name: "domain-health without a domain is INVALID_REQUEST", args: []string{"email", "domain-health"}, code: 2,
			stderrHas: "domains: is required"},
		{name: "disposable found exits 1", args: []string{"email", "disposable", "x@mailinator.com", "ana@mx.test"}, code: 1,
			contains: []string{`"matched":1`}},
		{name: "disposable none exits 0, table", args: []string{"email", "disposable", "ana@mx.test", "-o", "table"},
			contains: []string{"INPUT", "IS_DISPOSABLE", "ana@mx.test"}, lines: 2},
		{name: "role found exits 1", args: []string{"email", "role", "info@mx.test"}, code: 1,
			contains: []string{`"role":"info"`}},
		{name: "role none exits 0", args: []string{"email", "role", "ana@mx.test"},
			contains: []string{`"is_role_account":false`}},
		{name: "verify-list to a file prints the counts", args: []string{"email", "verify-list", list, "-o", results},
			contains: []string{`"rows":3`, `"valid":2`, `"invalid":1`, `"role_accounts":1`, `"interrupted":false`}, lines: 1},
		{name: "verify-list to stdout", args: []string{"email", "verify-list", list},
			contains: []string{"name,email,is_valid,reason", "Bob,bob@nullmx.test,false,null_mx"}, lines: 4,
			stderrHas: "3 rows: 2 valid, 1 invalid"},
		{name: "verify-list from stdin", stdin: "email\nx@mx.test\n", args: []string{"email", "verify-list", "-no-mx", "-"},
			contains: []string{"email,is_valid", "x@mx.test,true,,x@mx.test"}, lines: 2},
		{name: "verify-list keeps a quoted CR", stdin: "email,note\r\nx@mx.test,\"line1\r\nline2\"\r\n", args: []string{"email", "verify-list", "-no-mx", "-"},
			contains: []string{"email,note,is_valid", "x@mx.test,\"line1\r\nline2\",true,,x@mx.test"}, lines: 3},
		{name: "verify-list unknown column", args: []string{"email", "verify-list", "-column", "mail", list}, code: 2,
			stderrHas: `no column is headed "mail"`},
		{name: "verify-list missing file", args: []string{"email", "verify-list", filepath.Join(dir, "none.csv")}, code: 1,
			stderrHas: "no such file", lines: -1},
		{name: "verify-list without a file", args: []string{"email", "verify-list"}, code: 2, stderrHas: "want one FILE.csv"},
		{name: "verify-list -resume to stdout", args: []string{"email", "verify-list", list, "-resume"}, code: 2, stderrHas: "-resume needs"},
		{name: "verify-list -resume of another file", args: []string{"email", "verify-list", list, "-o", list + ".x", "-resume"}, code: 1,
			stderrHas: "no such file", lines: -1},
		{name: "verify-list onto itself", args: []string{"email", "verify-list", list, "-o", list}, code: 2, stderrHas: "is the input file"},
	})
	b, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	if want := "name,email,is_valid,reason,normalized_email,is_disposable,is_role_account,is_free_provider,has_mx_records,mx_status,did_you_mean,reachability,reachability_reasons\n" +
		"Ana,ana@mx.test,true,,ana@mx.test,false,false,false,true,mx,,unknown,not_probed\n" +
		"Bob,bob@nullmx.test,false,null_mx,,false,false,false,false,null_mx,,invalid,null_mx\n" +
		"Info,info@mx.test,true,,info@mx.test,false,true,false,true,mx,,risky,role_account;not_probed\n"; string(b) != want {
		t.Errorf("results.csv:\n%s\nwant:\n%s", b, want)
	}
}

// TestCLIVerifyList100k streams 100,000 rows over 1,000 domains through
// the real binary against a loopback DNS server, and checks every row
// comes back in order with its result.
func TestCLIVerifyList100k(t *testing.T) {
	const rows, domains = 100_000, 1000
	var zone strings.Builder
	zone.WriteString("$ORIGIN test.\n$TTL 300\n@ SOA ns hostmaster 1 3600 600 86400 60\n")
	for d := range domains {
		if d%10 != 9 { // every tenth domain does not exist
			fmt.Fprintf(&zone, "d%d MX 10 mail.d%d.test.\n", d, d)
		}
	}
	dns := resolvertest.Start(t, resolvertest.Config{Zone: zone.String()})
	dir := t.TempDir()
	in, out := filepath.Join(dir, "list.csv"), filepath.Join(dir, "results.csv")
	var b bytes.Buffer
	b.WriteString("id,email\n")
	for i := range rows {
		fmt.Fprintf(&b, "%d,user%d@d%d.test\n", i, i, i%domains)
	}
	if err := os.WriteFile(in, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	bin := quiverBinary(t)
	start := time.Now()
	stdout, stderr, code := runBinary(t, bin, []string{"QUIVER_DNS_SERVERS=" + dns.Addr}, "",
		"email", "verify-list", in, "-o", out)
	elapsed := time.Since(start)
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	var sum verifyListSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("summary %q: %v", stdout, err)
	}
	if sum.Rows != rows || sum.Invalid != rows/10 || sum.Valid != rows-rows/10 || sum.Interrupted {
		t.Errorf("summary = %+v", sum)
	}
	t.Logf("%d rows in %v (binary start to exit): %.0f rows/s; the binary reports %.0f rows/s; %d DNS queries",
		rows, elapsed.Round(time.Millisecond), rows/elapsed.Seconds(), sum.RowsPerSecond, dns.Queries())
	if q := dns.Queries(); q > 2*domains {
		t.Errorf("%d DNS queries for %d domains: the cache is not shared", q, domains)
	}

	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(f))
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		rec, err := r.Read()
		if err != nil {
			if i != rows {
				t.Fatalf("%d rows read, want %d (%v)", i, rows, err)
			}
			break
		}
		wantValid, wantStatus := "true", "mx"
		if i%domains%10 == 9 {
			wantValid, wantStatus = "false", "nxdomain"
		}
		if rec[0] != fmt.Sprint(i) || rec[2] != wantValid || rec[9] != wantStatus {
			t.Fatalf("row %d = %q, want id %d, is_valid %s, mx_status %s", i+1, rec, i, wantValid, wantStatus)
		}
	}
}

// TestCLIVerifyListInterrupt: Ctrl-C (SIGINT) writes the rows done, in
// order, and the binary stops cleanly at once; -resume then completes the
// file.
func TestCLIVerifyListInterrupt(t *testing.T) {
	const rows = 20_000
	dns := resolvertest.Start(t, resolvertest.Config{Zone: "$ORIGIN test.\n@ 300 SOA ns hostmaster 1 3600 600 86400 60\n", Delay: 5 * time.Millisecond})
	dir := t.TempDir()
	in, out := filepath.Join(dir, "list.csv"), filepath.Join(dir, "results.csv")
	var b bytes.Buffer
	b.WriteString("email\n")
	for i := range rows { // every row its own domain: 5ms each, 64 at a time
		fmt.Fprintf(&b, "u@d%d.test\n", i)
	}
	if err := os.WriteFile(in, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(quiverBinary(t), "email", "verify-list", in, "-o", out)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "QUIVER_DNS_SERVERS=" + dns.Addr}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once the first rows are on disk (written every 1,024 rows).
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if fi, err := os.Stat(out); err == nil && fi.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no row written in 20s")
		}
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if d := time.Since(sent); d > 3*time.Second {
		t.Errorf("took %v to stop after SIGINT", d)
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1\nstderr: %s", err, stderr.String())
	}
	var sum verifyListSummary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("summary %q: %v", stdout.String(), err)
	}
	if !sum.Interrupted || sum.Rows == 0 || sum.Rows >= rows {
		t.Fatalf("summary = %+v, want an interrupted run with some rows", sum)
	}
	if !strings.Contains(stderr.String(), fmt.Sprintf("interrupted: the first %d rows are written", sum.Rows)) {
		t.Errorf("stderr: %s", stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != sum.Rows+1 {
		t.Fatalf("%d records in the file, want %d rows and the header", len(recs), sum.Rows)
	}
	for i, rec := range recs[1:] {
		if rec[0] != fmt.Sprintf("u@d%d.test", i) || rec[1] != "false" || rec[8] != "nxdomain" {
			t.Fatalf("row %d = %q", i+1, rec)
		}
	}
	t.Logf("SIGINT after %d of %d rows; stopped in %v", sum.Rows, rows, time.Since(sent).Round(time.Millisecond))

	stdout2, stderr2, code := runBinary(t, quiverBinary(t), []string{"QUIVER_DNS_SERVERS=" + dns.Addr}, "",
		"email", "verify-list", in, "-o", out, "-resume")
	if code != 0 || !strings.Contains(stderr2, fmt.Sprintf("resuming after the %d rows", sum.Rows)) ||
		!strings.Contains(stdout2, fmt.Sprintf(`"rows":%d,`, rows-sum.Rows)) {
		t.Fatalf("-resume: exit %d\nstdout: %s\nstderr: %s", code, stdout2, stderr2)
	}
	f2, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	recs, err = csv.NewReader(f2).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != rows+1 {
		t.Fatalf("%d records after -resume, want %d rows and the header", len(recs), rows)
	}
	for i, rec := range recs[1:] {
		if rec[0] != fmt.Sprintf("u@d%d.test", i) || rec[8] != "nxdomain" {
			t.Fatalf("row %d after -resume = %q", i+1, rec)
		}
	}
}

func TestCLIMicroblog(t *testing.T) {
	env := []string{"QUIVER_MICROBLOG_PROVIDER=file", "QUIVER_MICROBLOG_FILE=../../examples/microblog/data/sample.jsonl"}
	runCLICases(t, env, []cliCase{
		{name: "profile", args: []string{"microblog", "profile", "ana_dev"},
			contains: []string{`"username":"ana_dev"`}, lines: 1},
		{name: "profile table", args: []string{"microblog", "profile", "-o", "table", "ana_dev"},
			contains: []string{"FIELD", "username", "ana_dev"}},
		{name: "user-tweets with a flag", args: []string{"microblog", "user-tweets", "ana_dev", "-limit", "2"},
			contains: []string{`"tweets":[`}},
		{name: "unknown user fails", args: []string{"microblog", "profile", "nobody_here"}, code: 1,
			stderrHas: "NOT_FOUND", lines: -1},
		{name: "bad limit is INVALID_REQUEST", args: []string{"microblog", "user-tweets", "ana_dev", "-limit", "500"}, code: 2,
			stderrHas: "limit"},
		{name: "flag type is checked", args: []string{"microblog", "user-tweets", "ana_dev", "-limit", "many"}, code: 2,
			stderrHas: "want an integer"},
		{name: "request from stdin", stdin: `{"username":"ana_dev"}`, args: []string{"microblog", "profile", "-request", "-"},
			contains: []string{`"username":"ana_dev"`}},
		{name: "flags override the request file", stdin: `{"username":"ana_dev","limit":1}`,
			args: []string{"microblog", "user-tweets", "-request", "-", "-limit", "2"}, contains: []string{`"result_count":2`}},
		{name: "the request file alone", stdin: `{"username":"ana_dev","limit":1}`,
			args: []string{"microblog", "user-tweets", "-request", "-"}, contains: []string{`"result_count":1`}},
		{name: "request with an unknown field", stdin: `{"user":"ana_dev"}`, args: []string{"microblog", "profile", "-request", "-"}, code: 2,
			stderrHas: "user: is not a known field"},
		// -request reads as strictly as the HTTP API: these were accepted
		// by encoding/json (case folding, last duplicate wins).
		{name: "request with a miscased field", stdin: `{"Username":"ana_dev"}`, args: []string{"microblog", "profile", "-request", "-"}, code: 2,
			stderrHas: "Username: is not a known field"},
		{name: "request with a duplicate field", stdin: `{"username":"nobody","username":"ana_dev"}`, args: []string{"microblog", "profile", "-request", "-"}, code: 2,
			stderrHas: "username: is given twice"},
		{name: "request with invalid UTF-8", stdin: "{\"username\":\"ana\xff\"}", args: []string{"microblog", "profile", "-request", "-"}, code: 2,
			stderrHas: "username: must be valid UTF-8"},
	})
	// Without a provider the operation cannot be done: exit 1.
	runCLICases(t, nil, []cliCase{
		{name: "no provider", args: []string{"microblog", "search", "golang"}, code: 1, stderrHas: "-microblog-provider (QUIVER_MICROBLOG_PROVIDER) is not set",
			lines: -1},
	})
}

func TestCLIPhotosocial(t *testing.T) {
	env := []string{"QUIVER_PHOTOSOCIAL_PROVIDER=file", "QUIVER_PHOTOSOCIAL_SAMPLE=true"}
	runCLICases(t, env, []cliCase{
		{name: "profile", args: []string{"photosocial", "profile", "sample.bakery"},
			contains: []string{`"username":"sample.bakery"`}, lines: 1},
		{name: "posts table", args: []string{"photosocial", "posts", "sample.bakery", "-limit", "2", "-o", "table"},
			contains: []string{"ID  ", "SHORTCODE", "OWNER.USERNAME", "sample.bakery"}, lines: 3},
		{name: "place search is INVALID_REQUEST", args: []string{"photosocial", "search", "bakery", "-type", "place"}, code: 2,
			stderrHas: "does not support place search"},
		{name: "insights without a model fail", args: []string{"photosocial", "insights", "comments", "C-9VcYrWAAR"}, code: 1,
			stderrHas: "-llm-provider (QUIVER_LLM_PROVIDER) is not set", lines: -1},
	})
	runCLICases(t, []string{"QUIVER_PHOTOSOCIAL_PROVIDER=graph"}, []cliCase{
		{name: "provider misconfigured is bad usage", args: []string{"photosocial", "profile", "x"}, code: 2,
			stderrHas: "QUIVER_PHOTOSOCIAL_GRAPH_TOKEN"},
	})
}

func TestCLIContent(t *testing.T) {
	runCLICases(t, nil, []cliCase{
		{name: "too short is INVALID_REQUEST", args: []string{"content", "summarize", "hello"}, code: 2,
			stderrHas: "text: must be at least"},
		{name: "summarize from stdin, without a model: extractive", stdin: "A long enough text to be summarized by the model, surely.",
			args: []string{"content", "summarize"}, contains: []string{`"summary":"A long enough text`}, lines: 1,
			stderrHas: "model quiver-extractive"},
		{name: "summarize -r", args: []string{"content", "summarize", "-r", "A long enough text to be summarized by the model, surely."},
			contains: []string{"A long enough text to be summarized by the model, surely.\n"}, lines: 1},
		{name: "table", args: []string{"content", "summarize", "-o", "table", "A long enough text to be summarized by the model, surely."},
			contains: []string{"FIELD", "summary "}},
		{name: "without a model the operation fails", args: []string{"content", "headlines", "remote", "work"}, code: 1,
			stderrHas: "SERVICE_UNAVAILABLE", lines: -1},
	})
}

func TestCLIWeb(t *testing.T) {
	dns := resolvertest.Start(t, resolvertest.Config{Zone: cliZone})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nSitemap: http://"+r.Host+"/sitemap.xml\n")
			return
		}
		http.NotFound(w, r)
	}))
	defer site.Close()
	tlsSite := httptest.NewTLSServer(http.NotFoundHandler()) // its certificate is not trusted
	defer tlsSite.Close()
	env := []string{"QUIVER_DNS_SERVERS=" + dns.Addr, "QUIVER_ALLOW_LOOPBACK=true"}
	runCLICases(t, env, []cliCase{
		{name: "dns", args: []string{"web", "dns", "mx.test"},
			contains: []string{`"domain":"mx.test"`, "mail.mx.test", "v=spf1 mx -all"}, lines: 1},
		{name: "dns table", args: []string{"web", "dns", "-o", "table", "mx.test"},
			contains: []string{"FIELD", "mail.mx.test"}},
		{name: "robots", args: []string{"web", "robots", site.URL},
			contains: []string{`"exists":true`, "/private/"}, lines: 1},
		{name: "ssl of an untrusted certificate exits 1", args: []string{"web", "ssl", strings.TrimPrefix(tlsSite.URL, "https://")}, code: 1,
			contains: []string{`"is_valid":false`}},
		{name: "parse-url", args: []string{"web", "parse-url", "HTTPS://Example.COM:443/a/../b"},
			contains: []string{`"normalized_url":"https://example.com/b"`}},
		{name: "parse-url of nothing is INVALID_REQUEST", args: []string{"web", "parse-url"}, code: 2, stderrHas: "url"},
	})
}

func TestCLIDev(t *testing.T) {
	runCLICases(t, nil, []cliCase{
		{name: "hash stdin byte for byte", stdin: "hello\n", args: []string{"dev", "hash", "-a", "sha256,blake2b-256"},
			contains: []string{`"sha256":"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"`, `"blake2b-256":`}, lines: 1},
		{name: "hash table", args: []string{"dev", "hash", "-a", "md5", "-o", "table", "hello"},
			contains: []string{"hashes.md5", "5d41402abc4b2a76b9719d911017c592"}},
		{name: "hash unknown algorithm exits 1", args: []string{"dev", "hash", "-a", "sha256,nope", "x"}, code: 1,
			contains: []string{`"unsupported_algorithms":["nope"]`, `"sha256":`}},
		{name: "json valid", stdin: `{"b":1,"a":2}`, args: []string{"dev", "json", "-sort-keys"},
			contains: []string{`"is_valid":true`, `"minified":"{\"a\":2,\"b\":1}"`}, lines: 1},
		{name: "json invalid exits 1", args: []string{"dev", "json", "{bad"}, code: 1, contains: []string{`"is_valid":false`, `"error_line":1`}},
		{name: "json -r prints the document", args: []string{"dev", "json", "-r", "-sort-keys", `{"b":1,"a":2}`},
			contains: []string{"{\n  \"a\": 2,\n  \"b\": 1\n}\n"}, lines: 4},
		{name: "json -r of invalid JSON: the error on stderr", args: []string{"dev", "json", "-r", "{bad"}, code: 1,
			stderrHas: "line 1, column 2", lines: -1},
		{name: "base64 decode -r", args: []string{"dev", "base64", "decode", "-r", "aGVsbG8="}, contains: []string{"hello\n"}, lines: 1},
		{name: "regex explain table", args: []string{"dev", "regex", "explain", "-o", "table", `^\d{3}$`},
			contains: []string{"TOKEN", `\d`, "{3}"}},
		{name: "regex generate from the catalog without a model", args: []string{"dev", "regex", "generate", "an", "email", "address"},
			contains: []string{`"source":"catalog"`}},
		{name: "stacktrace from stdin", stdin: "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/x.go:5 +0x1d\n",
			args: []string{"dev", "stacktrace"}, contains: []string{`"error_type":"runtime error: index out of range"`}},
		{name: "readme", args: []string{"dev", "readme", "quiver", "-description", "Checks for Go"},
			contains: []string{`"readme_md":"# quiver`}},
		{name: "readme without description is INVALID_REQUEST", args: []string{"dev", "readme", "quiver"}, code: 2,
			stderrHas: "description"},
	})
}

// With a model configured by the server's variables, the content commands
// call it (the real OpenAI client against a loopback server speaking its
// protocol) and report its usage on standard error.
func TestCLIContentWithModel(t *testing.T) {
	s := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"variants":[{"headline":"Remote work that works","angle":"how-to","predicted_ctr_score":0.4},` +
		`{"headline":"Five habits of remote teams","angle":"listicle","predicted_ctr_score":0.6},` +
		`{"headline":"Why your remote team is slow","angle":"question","predicted_ctr_score":0.5}]}`,
		PromptTokens: 120, CompletionTokens: 60}, llmtest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "7"})
	env := []string{"QUIVER_LLM_PROVIDER=openai", "QUIVER_LLM_MODEL=gpt-4o-mini", "QUIVER_LLM_BASE_URL=" + s.BaseURL(),
		"QUIVER_LLM_API_KEY=" + llmtest.TestKey}
	runCLICases(t, env, []cliCase{
		{name: "headlines table", args: []string{"content", "headlines", "remote", "work", "-count", "3", "-o", "table"},
			contains: []string{"HEADLINE", "Five habits of remote teams", "listicle"}, lines: 4,
			stderrHas: "model gpt-4o-mini: 120 prompt + 60 completion tokens"},
		{name: "rate limited upstream fails", args: []string{"content", "headlines", "remote", "work"}, code: 1,
			stderrHas: "RATE_LIMIT_EXCEEDED", lines: -1},
	})
	if reqs := s.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[0].Body), "remote work") {
		t.Errorf("the model got %d requests: %v", len(reqs), reqs)
	}
}

// On a terminal, verify-list draws a progress bar on standard error with
// the rows per second and the time left; piped, it draws none.
func TestVerifyListProgressBar(t *testing.T) {
	defer checkLeaks(t) // the bar's goroutine ends with the command
	list := filepath.Join(t.TempDir(), "list.csv")
	var b strings.Builder
	b.WriteString("email\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "u%d@example.com\n", i)
	}
	if err := os.WriteFile(list, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, terminal := range []bool{true, false} {
		var stdout, stderr bytes.Buffer
		code := runCommand(t.Context(), []string{"email", "verify-list", "-no-mx", list}, &cmdEnv{
			stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" },
			stderrTerminal: terminal,
		})
		if code != 0 {
			t.Fatalf("exit status %d: %s", code, stderr.String())
		}
		bar := regexp.MustCompile(`\r\[#{30}\] 100%  2000 rows  \d+ rows/s  ETA 0s\x1b\[K\n`)
		if got := bar.MatchString(stderr.String()); got != terminal {
			t.Errorf("terminal %v: progress bar drawn %v:\n%q", terminal, got, stderr.String())
		}
		if !strings.Contains(stderr.String(), "2000 rows: 2000 valid") || strings.Count(stdout.String(), "\n") != 2001 {
			t.Errorf("terminal %v: stderr %q, %d lines out", terminal, stderr.String(), strings.Count(stdout.String(), "\n"))
		}
	}
}
