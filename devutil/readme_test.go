package devutil_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
)

func readme(t testing.TB, req devutil.ReadmeRequest) string {
	t.Helper()
	res, err := devutil.GenerateReadme(context.Background(), req)
	if err != nil {
		t.Fatalf("GenerateReadme: %v", err)
	}
	return res.ReadmeMD
}

// headings parses md as CommonMark and returns its headings as "## text".
func headings(t *testing.T, md string) []string {
	t.Helper()
	src := []byte(md)
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	var out []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			var b strings.Builder
			for i := 0; i < h.Lines().Len(); i++ {
				seg := h.Lines().At(i)
				b.Write(seg.Value(src))
			}
			out = append(out, strings.Repeat("#", h.Level)+" "+b.String())
		}
		return ast.WalkContinue, nil
	})
	return out
}

// renderHTML renders md as CommonMark HTML.
func renderHTML(t *testing.T, md string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := goldmark.Convert([]byte(md), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// htmlText escapes text the way goldmark writes text nodes.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

func TestGenerateReadmeStructure(t *testing.T) {
	md := readme(t, devutil.ReadmeRequest{
		RepoName:        "quiver",
		Description:     "A toolkit for backend teams.",
		Language:        "Go",
		Stack:           []string{"Go", "Redis"},
		Features:        []string{"Email checks", "Web checks"},
		InstallCommands: []string{"go get github.com/quiverkit/quiver"},
		UsageExample:    "res, err := devutil.Hash(ctx, req)",
	})
	want := []string{"# quiver", "## Features", "## Installation", "## Usage", "## Tech Stack", "## Contributing", "## License"}
	if diff := cmp.Diff(want, headings(t, md)); diff != "" {
		t.Errorf("headings (-want +got):\n%s\n%s", diff, md)
	}
	html := renderHTML(t, md)
	for _, frag := range []string{
		`<img src="https://img.shields.io/badge/language-Go-00ADD8" alt="language: Go">`,
		`<a href="LICENSE"><img src="https://img.shields.io/badge/license-MIT-blue" alt="license: MIT"></a>`,
		"<li>Email checks</li>",
		"<pre><code class=\"language-sh\">go get github.com/quiverkit/quiver\n</code></pre>",
		"<pre><code class=\"language-go\">res, err := devutil.Hash(ctx, req)\n</code></pre>",
		"This project is licensed under the MIT license.",
	} {
		if !strings.Contains(html, frag) {
			t.Errorf("HTML lacks %q:\n%s", frag, html)
		}
	}
	// Deterministic.
	if again := readme(t, devutil.ReadmeRequest{RepoName: "quiver", Description: "A toolkit for backend teams.", Language: "Go", Stack: []string{"Go", "Redis"}, Features: []string{"Email checks", "Web checks"}, InstallCommands: []string{"go get github.com/quiverkit/quiver"}, UsageExample: "res, err := devutil.Hash(ctx, req)"}); again != md {
		t.Error("output differs between runs")
	}
}

func TestGenerateReadmeMinimal(t *testing.T) {
	md := readme(t, devutil.ReadmeRequest{RepoName: "x", Description: "y"})
	if diff := cmp.Diff([]string{"# x", "## Installation", "## Contributing", "## License"}, headings(t, md)); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
	if !strings.Contains(md, "license-MIT-blue") {
		t.Errorf("default license missing:\n%s", md)
	}
}

func TestGenerateReadmeDefaultInstall(t *testing.T) {
	for lang, cmd := range map[string]string{"python": "pip install -r requirements.txt", "TypeScript": "npm install", "rust": "cargo build --release", "golang": "go build ./...", "C#": "dotnet build"} {
		md := readme(t, devutil.ReadmeRequest{RepoName: "p", Description: "d", Language: lang})
		if !strings.Contains(md, cmd) {
			t.Errorf("%s: install lacks %q:\n%s", lang, cmd, md)
		}
	}
}

func TestGenerateReadmeEscapes(t *testing.T) {
	hostile := []string{
		"*bold* _it_ `code` [link](http://x) ![img](y) <script>alert(1)</script> &amp; | ~~s~~ \\n",
		"# not a heading",
		"- not a list",
		"1. not a list",
		"> not a quote",
		"---",
		"===",
		"<https://autolink.example>",
	}
	for _, s := range hostile {
		md := readme(t, devutil.ReadmeRequest{RepoName: s, Description: s, Features: []string{s}, License: s})
		src := []byte(md)
		doc := goldmark.New().Parser().Parse(text.NewReader(src))
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			switch n.Kind() {
			case ast.KindEmphasis, ast.KindCodeSpan, ast.KindRawHTML, ast.KindHTMLBlock, ast.KindAutoLink, ast.KindBlockquote, ast.KindThematicBreak:
				t.Errorf("%q produced a %s node:\n%s", s, n.Kind(), md)
			}
			return ast.WalkContinue, nil
		})
		html := renderHTML(t, md)
		for _, frag := range []string{"<h1>" + htmlText(s) + "</h1>", "<p>" + htmlText(s) + "</p>", "<li>" + htmlText(s) + "</li>", "under the " + htmlText(s) + " license"} {
			if !strings.Contains(html, frag) {
				t.Errorf("%q does not render literally; want %q in\n%s", s, frag, html)
			}
		}
	}
}

func TestGenerateReadmeFencing(t *testing.T) {
	for _, code := range []string{
		"fmt.Println(\"```\")",
		"````\nnested\n````",
		"a ` b `` c ``````` d",
		"```go\nx\n```",
		"    indented\n\ttabbed",
	} {
		md := readme(t, devutil.ReadmeRequest{RepoName: "r", Description: "d", Language: "go", UsageExample: code})
		src := []byte(md)
		doc := goldmark.New().Parser().Parse(text.NewReader(src))
		var blocks []string
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if fc, ok := n.(*ast.FencedCodeBlock); ok && entering {
				var b strings.Builder
				for i := 0; i < fc.Lines().Len(); i++ {
					seg := fc.Lines().At(i)
					b.Write(seg.Value(src))
				}
				blocks = append(blocks, b.String())
			}
			return ast.WalkContinue, nil
		})
		if len(blocks) != 2 || blocks[1] != code+"\n" {
			t.Errorf("code %q came back as %q from\n%s", code, blocks, md)
		}
		if h := headings(t, md); len(h) != 5 {
			t.Errorf("code %q broke the headings: %q", code, h)
		}
	}
}

func TestGenerateReadmeInvalid(t *testing.T) {
	tests := []struct {
		req   devutil.ReadmeRequest
		field string
	}{
		{devutil.ReadmeRequest{Description: "d"}, "repo_name"},
		{devutil.ReadmeRequest{RepoName: "  ", Description: "d"}, "repo_name"},
		{devutil.ReadmeRequest{RepoName: "r"}, "description"},
		{devutil.ReadmeRequest{RepoName: strings.Repeat("r", devutil.MaxReadmeNameLength+1), Description: "d"}, "repo_name"},
		{devutil.ReadmeRequest{RepoName: "r", Description: "d", Features: make([]string, devutil.MaxReadmeItems+1)}, "features"},
		{devutil.ReadmeRequest{RepoName: "r", Description: "d", Stack: []string{strings.Repeat("s", devutil.MaxReadmeItemLength+1)}}, "stack[0]"},
		{devutil.ReadmeRequest{RepoName: "r", Description: "d", UsageExample: strings.Repeat("u", devutil.MaxReadmeUsageLength+1)}, "usage_example"},
	}
	for _, tt := range tests {
		_, err := devutil.GenerateReadme(context.Background(), tt.req)
		var v *envelope.ValidationError
		if !errors.As(err, &v) || v.Issues[0].Field != tt.field {
			t.Errorf("err = %v, want a ValidationError on %s", err, tt.field)
		}
	}
}
