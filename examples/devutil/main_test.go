package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		want  []string
	}{
		{[]string{"hash", "-algorithms", "sha256,SHA-256,md4", "abc"}, "", []string{`"sha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`, `"md4"`}},
		{[]string{"base64", "héllo?"}, "", []string{`"output": "aMOpbGxvPw=="`}},
		{[]string{"base64", "-d", "-url", "-"}, "aMOpbGxvPw", []string{`"output": "héllo?"`, `"is_valid": true`}},
		{[]string{"base64", "-d", "a*b"}, "", []string{`"is_valid": false`, `offset 1`}},
		{[]string{"json", "-indent", "0", "-sort"}, `{"b":1,"a":[1e400]}`, []string{`"formatted": "{\n\"a\": [\n1e400\n],\n\"b\": 1\n}"`, `"is_valid": true`}},
		{[]string{"explain", `^(\d+)+$`}, "", []string{`"token": "\\d"`, "nested quantifiers"}},
		{[]string{"regex", "-flavor", "go", "UUID"}, "", []string{`"pattern": "^[0-9A-Fa-f]{8}-`, `"source": "catalog"`}},
		{[]string{"stacktrace", "-"}, "panic: runtime error: index out of range [3] with length 1\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:7 +0x1d\n", []string{`"error_type": "runtime error: index out of range"`, `main.main (/app/main.go:7)`}},
		{[]string{"readme", "-lang", "go", "-features", "fast;small", "tool", "Does *things*."}, "", []string{"# tool\n", "Does \\*things\\*.", "- fast\n- small\n"}},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := run(context.Background(), &out, strings.NewReader(tt.stdin), tt.args); err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%q: output lacks %q:\n%s", tt.args, w, out.String())
			}
		}
	}
}

// TestTour checks that devutil without a command runs every operation
// and exits successfully.
func TestTour(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, strings.NewReader(""), nil); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"sha256(\"hello\") = 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
		"base64      \"héllo\" encodes to aMOpbGxv, which decodes to \"héllo\"",
		`{"a":[1e400],"b":1}`,
		"has 7 tokens and 2 warnings",
		"regex       UUID in Go: ^[0-9A-Fa-f]{8}-",
		"stacktrace  go: ",
		"main.main (/app/main.go:7)",
		`starting "# tool"`,
		usage,
	} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("tour lacks %q:\n%s", w, out.String())
		}
	}
}

func TestRunErrors(t *testing.T) {
	for _, args := range [][]string{{"nope"}, {"json", "-indent", "9", "1"}, {"explain", "a)"}, {"regex", "German postcodes"}, {"readme", "only-name"}, {"hash", "a", "b"}} {
		if err := run(context.Background(), &bytes.Buffer{}, strings.NewReader(""), args); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
