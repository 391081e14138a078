package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docNameOwners are the names the documents may write that are no flag
// of quiver nor a twin: each with the file that reads it, so that an
// entry goes stale as soon as its owner drops the name.
var docNameOwners = map[string]string{
	// The client commands (quiver email job ...): the server they call.
	"QUIVER_API_KEY": "cli_jobs.go",
	"QUIVER_SERVER":  "cli_jobs.go",
	"QUIVER_HOST":    "cli_jobs.go",
	// Switches of the module's tests.
	"QUIVER_LONG":            "../../email/jobs/instances_test.go",
	"QUIVER_REQUIRE_BROWSER": "../../tests/browsertest/docs_test.go",
	// Flags of other programs than quiver.
	"-dns":           "../../examples/email/main.go",
	"-domain-health": "../../examples/email/main.go",
	"-mod":           "../../.ci/run", // go vet -mod=mod, for tests/consumer
}

// docFlags returns the flags of quiver -h and those of each command,
// by command name ("" for the server), from the help each prints.
func docFlags(t *testing.T) map[string][]string {
	t.Helper()
	flagLine := regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)
	names := func(help string) []string {
		var out []string
		for _, m := range flagLine.FindAllStringSubmatch(help, -1) {
			out = append(out, m[1])
		}
		return append(out, "h", "help")
	}
	var help bytes.Buffer
	if err := run(t.Context(), []string{"-h"}, func(string) string { return "" }, &help); err != nil {
		t.Fatal(err)
	}
	all := map[string][]string{"": names(help.String())}
	for _, c := range allCommands() {
		var out, errs bytes.Buffer
		env := &cmdEnv{stdin: strings.NewReader(""), stdout: &out, stderr: &errs, getenv: func(string) string { return "" }}
		if code := runCommand(context.Background(), append(strings.Fields(c.name), "--help"), env); code != 0 {
			t.Fatalf("quiver %s --help: exit %d: %s", c.name, code, errs.String())
		}
		all[c.name] = names(out.String())
	}
	if len(all[""]) < 100 || len(all) < 20 {
		t.Fatalf("found %d server flags and %d commands; the help format changed?", len(all[""]), len(all)-1)
	}
	return all
}

// docPages are the documents whose names TestDocNames checks.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, pages...)
}

var (
	codeSpan   = regexp.MustCompile("`([^`\n]+)`")
	twinName   = regexp.MustCompile(`QUIVER_[A-Z0-9_]*`)
	quiverLine = regexp.MustCompile(`(?:^|[\s(])(?:\S*/cmd/)?quiver((?:\s+[^|;&<>#\s]+)*)`)
)

// TestDocNames keeps the names README.md and docs/*.md write true: every
// QUIVER_* name is a flag's twin, every code span that starts with a
// -flag names a flag of quiver or of one of its commands, and every flag
// of a quiver command line (in a code span or a code block) is one of
// that command's. The names of docNameOwners are the exceptions.
func TestDocNames(t *testing.T) {
	flagsOf := docFlags(t)
	twins := map[string]bool{}
	anyFlag := map[string]bool{}
	for _, names := range flagsOf {
		for _, n := range names {
			anyFlag[n] = true
		}
	}
	for _, n := range flagsOf[""] {
		twins[twin(n)] = true
	}
	for name, owner := range docNameOwners {
		src, err := os.ReadFile(owner)
		if err != nil {
			t.Fatal(err)
		}
		if word := strings.TrimPrefix(name, "-"); !bytes.Contains(src, []byte(`"`+word+`"`)) && !bytes.Contains(src, []byte(name+"=")) {
			t.Errorf("docNameOwners: %s no longer reads %s; drop it from the list", owner, name)
		}
	}
	known := func(name string) bool {
		if _, ok := docNameOwners[name]; ok {
			return true
		}
		if w, ok := strings.CutPrefix(name, "-"); ok {
			return anyFlag[w]
		}
		if strings.HasSuffix(name, "_") { // a prefix: QUIVER_, QUIVER_DNS_*
			for tw := range twins {
				if strings.HasPrefix(tw, name) {
					return true
				}
			}
			return false
		}
		return twins[name]
	}
	checked := 0
	for _, page := range docPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(page, "../../")
		text := string(data)
		at := func(i int) int { return strings.Count(text[:i], "\n") + 1 }

		for _, m := range twinName.FindAllStringIndex(text, -1) {
			checked++
			if name := text[m[0]:m[1]]; !known(name) {
				t.Errorf("%s:%d: %s is no flag's twin", rel, at(m[0]), name)
			}
		}
		for _, m := range codeSpan.FindAllStringSubmatchIndex(text, -1) {
			span := text[m[2]:m[3]]
			first, _, _ := strings.Cut(span, " ")
			first, _, _ = strings.Cut(first, "=")
			if len(first) > 1 && first[0] == '-' && first[1] >= 'a' && first[1] <= 'z' {
				checked++
				if !known(first) {
					t.Errorf("%s:%d: `%s` names no flag of quiver nor of its commands", rel, at(m[0]), span)
				}
			}
		}
		for _, line := range commandLines(text) {
			checkQuiverLine(t, rel, line, flagsOf, &checked)
		}
	}
	if checked < 200 {
		t.Errorf("checked %d names in README.md and docs/*.md; the extraction is broken", checked)
	}
}

// commandLines returns the lines of text's code blocks (with their
// continuation lines joined) and its code spans.
func commandLines(text string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	inBlock, cont := false, ""
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			continue
		}
		if l, ok := strings.CutSuffix(line, `\`); ok {
			cont += l + " "
			continue
		}
		out = append(out, cont+line)
		cont = ""
	}
	return out
}

// checkQuiverLine checks the flags that follow quiver (or go run
// ./cmd/quiver) in line against those of the command the words name.
func checkQuiverLine(t *testing.T, page, line string, flagsOf map[string][]string, checked *int) {
	t.Helper()
	for _, m := range quiverLine.FindAllStringSubmatch(line, -1) {
		words := strings.Fields(m[1])
		cmd, n := "", 0
		for name := range flagsOf {
			w := strings.Fields(name)
			if name != "" && len(w) > n && len(w) <= len(words) && slices.Equal(w, words[:len(w)]) {
				cmd, n = name, len(w)
			}
		}
		if n == 0 && len(words) > 0 && !strings.HasPrefix(words[0], "-") && words[0] != "serve" {
			continue // prose ("quiver help"), or a command the help check covers
		}
		for _, w := range words[n:] {
			name, _, _ := strings.Cut(w, "=")
			if len(name) < 2 || name[0] != '-' || name == "--help" || name[1] < 'a' || name[1] > 'z' {
				continue
			}
			*checked++
			if _, other := docNameOwners[name]; !other && !slices.Contains(flagsOf[cmd], name[1:]) {
				t.Errorf("%s: %q: quiver %s has no flag %s", page, strings.TrimSpace(line), cmd, name)
			}
		}
	}
}
