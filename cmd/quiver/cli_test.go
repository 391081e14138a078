package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/quiverkit/quiver/email"
)

var (
	buildOnce sync.Once
	binDir    string
	binErr    error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// quiverBinary builds the real binary once for the tests that run it.
func quiverBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	buildOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "quiver-cli-test"); binErr != nil {
			return
		}
		if out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "quiver"), ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return filepath.Join(binDir, "quiver")
}

// runBinary runs the binary with args, stdin and only the environment
// env (no QUIVER_* from the developer's shell); stdout is a pipe, as in a
// script.
func runBinary(t *testing.T, bin string, env []string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin"}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), 0
}

// TestCLI runs the real binary, built for the test.
func TestCLI(t *testing.T) {
	bin := quiverBinary(t)
	quiver := func(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
		t.Helper()
		return runBinary(t, bin, nil, stdin, args...)
	}

	tests := []struct {
		name        string
		stdin       string
		args        []string
		code        int
		stdout      string // exact, when set
		contains    []string
		stderrHas   string
		emptyStdout bool
	}{
		{name: "encode piped is compact JSON", args: []string{"dev", "base64", "encode", "hello, world"},
			stdout: `{"input":"hello, world","output":"aGVsbG8sIHdvcmxk","operation":"encode","is_valid":true,"error":null}` + "\n"},
		{name: "encode reads stdin byte for byte", stdin: "hi\n", args: []string{"dev", "base64", "encode"},
			contains: []string{`"output":"aGkK"`}},
		{name: "decode", args: []string{"dev", "base64", "decode", "aGVsbG8sIHdvcmxk"},
			contains: []string{`"output":"hello, world"`, `"is_valid":true`}},
		{name: "flags after operands", args: []string{"dev", "base64", "encode", "a?b", "-urlsafe"},
			contains: []string{`"output":"YT9i"`}},
		{name: "invalid Base64 fails the check", args: []string{"dev", "base64", "decode", "a-b"}, code: 1,
			contains: []string{`"is_valid":false`, `URL-safe alphabet`}},
		{name: "table", args: []string{"dev", "base64", "decode", "-o", "table", "aGk="},
			stdout: "FIELD      VALUE\ninput      aGk=\noutput     hi\noperation  decode\nis_valid   true\nerror      -\n"},
		{name: "table of a failed check", args: []string{"dev", "base64", "decode", "-o", "table", "%%"}, code: 1,
			contains: []string{"is_valid   false", "error      invalid Base64: unexpected '%' at offset 0"}},
		{name: "operand after --", args: []string{"dev", "base64", "decode", "--", "-o"}, code: 1,
			contains: []string{`"input":"-o"`}},
		{name: "empty value is bad usage", args: []string{"dev", "base64", "encode", ""}, code: 2,
			stderrHas: "value: is required", emptyStdout: true},
		{name: "two operands", args: []string{"dev", "base64", "encode", "a", "b"}, code: 2,
			stderrHas: "want one value", emptyStdout: true},
		{name: "unknown flag", args: []string{"dev", "base64", "encode", "-nope", "a"}, code: 2,
			stderrHas: "flag provided but not defined: -nope", emptyStdout: true},
		{name: "unknown output", args: []string{"dev", "base64", "encode", "-o", "yaml", "a"}, code: 2,
			stderrHas: `-o "yaml": want json or table`, emptyStdout: true},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2,
			stderrHas: `unknown command "frobnicate"`, emptyStdout: true},
		{name: "unknown command in a group", args: []string{"dev", "rot13"}, code: 2,
			stderrHas: `unknown command "dev rot13"`, emptyStdout: true},
		{name: "group without command", args: []string{"dev"}, code: 2,
			stderrHas: "which command?", emptyStdout: true},
		{name: "group help", args: []string{"dev", "--help"},
			contains: []string{"dev base64 encode", "dev base64 decode"}},
		{name: "help", args: []string{"help"},
			contains: []string{"quiver [serve] [flags]", "dev base64 encode", "Server flags:", "-shutdown-timeout"}},
		{name: "-h lists commands and server flags", args: []string{"-h"},
			contains: []string{"dev base64 encode", "-addr", "QUIVER_ADDR"}},
		{name: "help COMMAND", args: []string{"help", "dev", "base64", "decode"},
			contains: []string{"Usage: quiver dev base64 decode", "Example:"}},
		{name: "serve help", args: []string{"serve", "-help"},
			contains: []string{"-addr", "QUIVER_METRICS_ADDR", "QUIVER_REDIS_URL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := quiver(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if tt.stdout != "" && stdout != tt.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, tt.stdout)
			}
			for _, want := range tt.contains {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if !strings.Contains(stderr, tt.stderrHas) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderrHas, stderr)
			}
			if tt.emptyStdout && stdout != "" {
				t.Errorf("stdout not empty on a usage error:\n%s", stdout)
			}
			if tt.code == 0 && tt.stdout == "" && len(tt.contains) == 0 {
				t.Error("test asserts nothing of stdout")
			}
		})
	}

	// Every command's --help shows its usage and an example, and exits 0.
	for _, c := range allCommands() {
		t.Run("help/"+c.name, func(t *testing.T) {
			args := append(strings.Fields(c.name), "--help")
			stdout, stderr, code := quiver(t, "", args...)
			if code != 0 {
				t.Errorf("exit status %d: %s", code, stderr)
			}
			for _, want := range []string{"Usage: quiver " + c.name, "Example:\n  quiver " + c.name, "Exit status:"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("help lacks %q:\n%s", want, stdout)
				}
			}
		})
	}
}

// On a terminal, JSON is indented for people.
func TestCLIPrettyOnTerminal(t *testing.T) {
	var out, errOut bytes.Buffer
	code := runCommand(context.Background(), []string{"dev", "base64", "encode", "hi"}, &cmdEnv{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" },
		stdoutTerminal: true,
	})
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, errOut.String())
	}
	want := "{\n  \"input\": \"hi\",\n  \"output\": \"aGk=\",\n  \"operation\": \"encode\",\n  \"is_valid\": true,\n  \"error\": null\n}\n"
	if out.String() != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestWriteTableList(t *testing.T) {
	type mx struct {
		Host string `json:"host"`
		Pref int    `json:"pref"`
	}
	type row struct {
		Email  string   `json:"email"`
		Valid  bool     `json:"valid"`
		MX     []mx     `json:"mx"`
		Tags   []string `json:"tags"`
		Reason *string  `json:"reason"`
	}
	why := "no MX\trecord"
	rows := []row{
		{Email: "a@example.com", Valid: true, MX: []mx{{"mx1.example.com", 10}}, Tags: []string{"role", "free"}},
		{Email: "b@example.org", Reason: &why},
	}
	var out bytes.Buffer
	if err := writeTable(&out, rows); err != nil {
		t.Fatal(err)
	}
	// Columns come in first-seen order; a null list is a column of its
	// own ("mx", "-"), and a tab inside a value is escaped.
	want := "" +
		"EMAIL          VALID  MX[0].HOST       MX[0].PREF  TAGS        REASON         MX\n" +
		"a@example.com  true   mx1.example.com  10          role, free  -              \n" +
		"b@example.org  false                               -           no MX\\trecord  -\n"
	if out.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", out.String(), want)
	}
}

// A table shows the items of a result that leads with its list, and any
// other result whole.
func TestListItems(t *testing.T) {
	type item struct{ A int }
	type list struct {
		Items   []item
		Summary struct{ N int }
	}
	type object struct {
		Name  string
		Chain []item
	}
	if got, ok := listItems(list{Items: []item{{1}}}).([]item); !ok || len(got) != 1 {
		t.Errorf("list result: %#v", listItems(list{Items: []item{{1}}}))
	}
	if _, ok := listItems(object{Name: "x"}).(object); !ok {
		t.Error("an object leading with a name is not shown whole")
	}
	if _, ok := listItems([]item{{1}}).([]item); !ok {
		t.Error("a list is not shown as is")
	}
}

func TestRowsDone(t *testing.T) {
	dir := t.TempDir()
	header := "email," + strings.Join(email.CSVResultHeader(), ",") + "\n"
	row := "a@example.com,true,,a@example.com,false,false,false,false,skipped,\n"
	for _, tc := range []struct {
		name, content string
		n             int
		err           string
	}{
		{"two rows", header + row + row, 2, ""},
		{"header only", header, 0, ""},
		{"partial last row", header + row + "b@exa", 0, "ends in the middle of a row"},
		{"not an output", "email\na@example.com\n", 0, "is not the output of verify-list"},
		{"another list", "name," + header + "x," + row, 0, "written for a list with other columns"},
		{"empty", "", 0, "is empty"},
	} {
		name := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
		if err := os.WriteFile(name, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		n, err := rowsDone(name, []string{"email"})
		if n != tc.n || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %d, %v; want %d, %q", tc.name, n, err, tc.n, tc.err)
		}
	}
}
