package apicheck

import (
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Users read the README, docs/, go doc, the OpenAPI document and error
// texts; none of them may send the reader to a document that is not in
// the repository. The route contract Quiver keeps was written in a
// specification that is not published with it, so a text that cites it
// ("spec 002", "section 2.1", "the specification", "spec §4") points
// nowhere: it must state the rule itself.
var (
	// specWord finds "spec", "specs" and "specification" as words.
	specWord = regexp.MustCompile(`(?i)\bspec(ification)?s?\b`)
	// sectionRef finds a section number: "section 2.1", "§4".
	sectionRef = regexp.MustCompile(`(?i)\bsection\s+\d|§\s*\d`)
	// namedDocument is a citation of a public document whose name comes
	// first: an RFC ("RFC 9309 section 2.2", "RFC 8461 §3.3"), the Go
	// language specification, the Exim specification. A section number
	// is also taken as an RFC's when "RFC" is in the 40 characters before
	// it (a comment may wrap between the two).
	namedDocument = regexp.MustCompile(`(?i)(RFC\s*\d+|Exim|\bGo)[\s,]*$`)
	// ofRFC follows a section number that names its RFC after it:
	// "section 2.2.3 of RFC 9309".
	ofRFC = regexp.MustCompile(`^[\d.]*\s+of\s+RFC\s*\d`)
	// grammarTerm is a word of an RFC's ABNF that contains "spec", or the
	// address of a published specification.
	grammarTerm = regexp.MustCompile(`(?i)\b(domain|addr)-spec\b|go\.dev/ref/spec|url\.spec\.whatwg\.org`)
)

// citations returns the places of text that cite an unpublished
// document, as "line: excerpt".
func citations(text string) []string {
	var out []string
	report := func(start, end int) {
		line := 1 + strings.Count(text[:start], "\n")
		from, to := max(0, start-40), min(len(text), end+40)
		out = append(out, fmt.Sprintf("%d: …%s…", line, strings.Join(strings.Fields(text[from:to]), " ")))
	}
	// The 40 characters before a match, as one line, decide whether it
	// names a public document.
	before := func(i int) string {
		return strings.Join(strings.Fields(text[max(0, i-40):i]), " ")
	}
	grammar := grammarTerm.FindAllStringIndex(text, -1)
	inGrammar := func(i int) bool {
		for _, g := range grammar {
			if g[0] <= i && i < g[1] {
				return true
			}
		}
		return false
	}
	for _, m := range specWord.FindAllStringIndex(text, -1) {
		if inGrammar(m[0]) || namedDocument.MatchString(before(m[0])) {
			continue
		}
		report(m[0], m[1])
	}
	for _, m := range sectionRef.FindAllStringIndex(text, -1) {
		if namedDocument.MatchString(before(m[0])) || strings.Contains(before(m[0]), "RFC") || ofRFC.MatchString(text[m[1]:]) {
			continue
		}
		report(m[0], m[1])
	}
	return out
}

// goText returns the comments and string literals of a Go file, each on
// the lines it occupies, with blanks elsewhere: the text a user may read
// through go doc, the OpenAPI document or an error.
func goText(src []byte) string {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	text := make([]byte, len(src))
	for i, b := range src {
		if b == '\n' {
			text[i] = '\n'
		} else {
			text[i] = ' '
		}
	}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.COMMENT || tok == token.STRING || tok == token.CHAR {
			off := file.Offset(pos)
			copy(text[off:], lit)
		}
	}
	return string(text)
}

// TestNoCitationOfUnpublishedDocuments fails when a Go comment or string,
// or a Markdown, JSON, JavaScript, HTML, CSS or shell file of the module
// cites a document that is not in the repository (see specWord and
// sectionRef). Vendored and generated data (the Swagger UI bundle, the
// domain lists) is skipped; the /docs page's own files are read.
func TestNoCitationOfUnpublishedDocuments(t *testing.T) {
	skipDirs := map[string]bool{
		"../../.git":          true,
		"../../email/data":    true, // generated lists
		"../../webcheck/data": true, // generated tables
	}
	// vendored is the Swagger UI that /docs serves, as its authors wrote
	// it (httpapi/docsui/NOTICE.md).
	vendored := func(path string) bool {
		return strings.HasPrefix(filepath.Base(path), "swagger-ui") && filepath.Dir(path) == filepath.FromSlash("../../httpapi/docsui")
	}
	self, err := filepath.Abs("citations_test.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipDirs[path] {
				return filepath.SkipDir
			}
			return nil
		}
		var text string
		switch filepath.Ext(path) {
		case ".go":
			if abs, _ := filepath.Abs(path); abs == self {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			text = goText(src)
		case ".md", ".json", ".js", ".html", ".css", ".sh":
			if vendored(path) {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			text = string(src)
		default:
			// Scripts without an extension (.ci/run) are read by
			// their #! line.
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if !strings.HasPrefix(string(src), "#!/") {
				return nil
			}
			text = string(src)
		}
		checked++
		for _, c := range citations(text) {
			t.Errorf("%s:%s: cites a document that is not in the repository; state the rule itself", strings.TrimPrefix(path, "../../"), c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d files; the walk is broken", checked)
	}
}

func TestCitations(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Bounds of spec 002, 4.2.", 1},
		{"the fields of section 2.1 of the specification", 2},
		{"An extension beyond the specification.", 1},
		{"as the spec requires it", 1},
		{"Decisions on what the spec leaves open", 1},
		{"MaxLimit bounds every limit parameter (spec §8).", 2},
		{"see section 2.2.3 of RFC 9309", 0},
		{"-sections 5 asks for five sections", 0},
		{"by the WHATWG URL Standard (https://url.spec.whatwg.org/)", 0},
		{"a Summary counts the results (section 2.2).", 1},
		{"robots.txt as RFC 9309 section 2.2 allows", 0},
		{"as RFC\n// 9309 section 2.2 allows", 0},
		{"no redirects (RFC 8461 §3.3)", 0},
		{"one addr-spec (local@domain), a domain-spec", 0},
		{"https://go.dev/ref/spec#Map_types", 0},
		{"the Exim specification, chapters", 0},
		{"the Go specification", 0},
		{"An extension beyond the contract.", 0},
	} {
		if got := citations(tc.text); len(got) != tc.want {
			t.Errorf("citations(%q) = %q, want %d", tc.text, got, tc.want)
		}
	}
}
