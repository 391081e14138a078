package devutil

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/quiverkit/quiver/envelope"
)

// Bounds of a [ReadmeRequest], in characters.
const (
	MaxReadmeNameLength    = 100 // GitHub's limit for repository names
	MaxReadmeTextLength    = 10000
	MaxReadmeItems         = 100
	MaxReadmeItemLength    = 1000
	MaxReadmeUsageLength   = 100000
	DefaultReadmeLicense   = "MIT"
	maxReadmeLicenseLength = 100
)

// ReadmeRequest is the request of [GenerateReadme].
type ReadmeRequest struct {
	// RepoName is the project's name, used as the title. Required.
	RepoName string `json:"repo_name" openapi:"required"`
	// Description says what the project does. Required.
	Description string `json:"description" openapi:"required"`
	// Language is the main programming language; it picks the badge, the
	// default install commands and the code block's language.
	Language string `json:"language,omitempty"`
	// Stack lists the technologies used.
	Stack []string `json:"stack,omitempty"`
	// Features lists what the project offers.
	Features []string `json:"features,omitempty"`
	// InstallCommands are shell commands, one per item. When empty, the
	// language's usual commands are used.
	InstallCommands []string `json:"install_commands,omitempty"`
	// UsageExample is code shown verbatim in the Usage section.
	UsageExample string `json:"usage_example,omitempty"`
	// License is the license's name or SPDX identifier. Default MIT.
	License string `json:"license,omitempty"`
	// Polish asks the language model to rewrite the description and the
	// features in clear, concise prose before the README is drafted
	// ([ReadmeGenerator]). The structure stays deterministic and the
	// model's text is escaped like the caller's. Without a model, a
	// request with Polish is SERVICE_UNAVAILABLE.
	Polish bool `json:"polish,omitempty"`
}

// ReadmeResult is the result of [GenerateReadme].
type ReadmeResult struct {
	// ReadmeMD is the README as CommonMark.
	ReadmeMD string `json:"readme_md"`
	// Polished reports that a language model rewrote the description and
	// features.
	Polished bool `json:"polished"`
}

// readmeLanguage is what GenerateReadme knows about a language.
type readmeLanguage struct {
	name    string   // display name
	fence   string   // info string of code blocks
	color   string   // badge color
	install []string // usual install commands
}

var readmeLanguages = map[string]readmeLanguage{
	"go":         {"Go", "go", "00ADD8", []string{"go mod download", "go build ./..."}},
	"python":     {"Python", "python", "3776AB", []string{"python -m venv .venv", ". .venv/bin/activate", "pip install -r requirements.txt"}},
	"javascript": {"JavaScript", "javascript", "F7DF1E", []string{"npm install"}},
	"typescript": {"TypeScript", "typescript", "3178C6", []string{"npm install", "npm run build"}},
	"java":       {"Java", "java", "B07219", []string{"mvn package"}},
	"kotlin":     {"Kotlin", "kotlin", "7F52FF", []string{"./gradlew build"}},
	"rust":       {"Rust", "rust", "DEA584", []string{"cargo build --release"}},
	"ruby":       {"Ruby", "ruby", "CC342D", []string{"bundle install"}},
	"php":        {"PHP", "php", "777BB4", []string{"composer install"}},
	"csharp":     {"C#", "csharp", "512BD4", []string{"dotnet restore", "dotnet build"}},
	"swift":      {"Swift", "swift", "F05138", []string{"swift build"}},
	"elixir":     {"Elixir", "elixir", "4B275F", []string{"mix deps.get", "mix compile"}},
	"dart":       {"Dart", "dart", "0175C2", []string{"dart pub get"}},
	"c":          {"C", "c", "555555", []string{"cmake -B build", "cmake --build build"}},
	"cpp":        {"C++", "cpp", "F34B7D", []string{"cmake -B build", "cmake --build build"}},
	"scala":      {"Scala", "scala", "DC322F", []string{"sbt compile"}},
	"haskell":    {"Haskell", "haskell", "5D4F85", []string{"cabal build"}},
	"shell":      {"Shell", "sh", "89E051", nil},
}

var readmeLanguageAliases = map[string]string{
	"golang": "go", "py": "python", "python3": "python", "js": "javascript", "node": "javascript", "nodejs": "javascript",
	"node.js": "javascript", "ts": "typescript", "rs": "rust", "rb": "ruby", "c#": "csharp", "cs": "csharp", ".net": "csharp",
	"dotnet": "csharp", "c++": "cpp", "cxx": "cpp", "bash": "shell", "sh": "shell", "kt": "kotlin",
}

// GenerateReadme drafts a README from repository metadata. The output
// is deterministic CommonMark: the same request gives the same bytes.
// Everything the caller supplies is escaped so that it renders as the
// literal text it is, never as Markdown or HTML; the usage example goes
// in a fenced code block whose fence is longer than any backtick run in
// it. Sections without content (features, usage, tech stack) are left
// out rather than filled with placeholders.
//
// GenerateReadme itself uses no model: a request with Polish set is
// SERVICE_UNAVAILABLE; use a [ReadmeGenerator] for that.
func GenerateReadme(_ context.Context, req ReadmeRequest) (ReadmeResult, error) {
	if err := validateReadme(req); err != nil {
		return ReadmeResult{}, err
	}
	if req.Polish {
		return ReadmeResult{}, errNoModel("polish asks a language model to rewrite the text, and")
	}
	return renderReadme(req), nil
}

// renderReadme drafts the README of a valid request.
func renderReadme(req ReadmeRequest) ReadmeResult {
	license := strings.TrimSpace(req.License)
	if license == "" {
		license = DefaultReadmeLicense
	}
	langKey := strings.ToLower(strings.TrimSpace(req.Language))
	if a, ok := readmeLanguageAliases[langKey]; ok {
		langKey = a
	}
	lang, known := readmeLanguages[langKey]
	if !known && strings.TrimSpace(req.Language) != "" {
		lang = readmeLanguage{name: singleLine(req.Language), color: "555555"}
	}

	var b strings.Builder
	b.WriteString("# " + escapeMarkdown(singleLine(req.RepoName)) + "\n\n")
	var badges []string
	if lang.name != "" {
		badges = append(badges, badge("language", lang.name, lang.color, ""))
	}
	badges = append(badges, badge("license", license, "blue", "LICENSE"))
	b.WriteString(strings.Join(badges, " ") + "\n\n")
	writeParagraphs(&b, req.Description)

	if items := nonEmpty(req.Features); len(items) > 0 {
		b.WriteString("## Features\n\n")
		writeList(&b, items)
	}

	b.WriteString("## Installation\n\n")
	install := nonEmpty(req.InstallCommands)
	if len(install) == 0 {
		install = lang.install
	}
	if len(install) > 0 {
		cmds := make([]string, len(install))
		for i, c := range install {
			cmds[i] = singleLine(c)
		}
		writeCodeBlock(&b, "sh", strings.Join(cmds, "\n"))
	} else {
		b.WriteString("Clone the repository and build it with the usual tools of its language.\n\n")
	}

	if strings.TrimSpace(req.UsageExample) != "" {
		b.WriteString("## Usage\n\n")
		writeCodeBlock(&b, lang.fence, strings.Trim(req.UsageExample, "\r\n"))
	}

	if items := nonEmpty(req.Stack); len(items) > 0 {
		b.WriteString("## Tech Stack\n\n")
		writeList(&b, items)
	}

	b.WriteString("## Contributing\n\n")
	b.WriteString("Contributions are welcome. Open an issue to discuss a change before sending a pull request, keep pull requests focused, and add tests for new behavior.\n\n")
	b.WriteString("## License\n\n")
	fmt.Fprintf(&b, "This project is licensed under the %s license. See [LICENSE](LICENSE) for the full text.\n", escapeMarkdown(singleLine(license)))
	return ReadmeResult{ReadmeMD: b.String()}
}

func validateReadme(req ReadmeRequest) error {
	var v envelope.ValidationError
	checkText := func(field, s string, required bool, max int) {
		switch n := utf8.RuneCountInString(s); {
		case required && strings.TrimSpace(s) == "":
			v.Add(field, "is required")
		case n > max:
			v.Addf(field, "must be at most %d characters, got %d", max, n)
		}
	}
	checkText("repo_name", req.RepoName, true, MaxReadmeNameLength)
	checkText("description", req.Description, true, MaxReadmeTextLength)
	checkText("language", req.Language, false, maxReadmeLicenseLength)
	checkText("usage_example", req.UsageExample, false, MaxReadmeUsageLength)
	checkText("license", req.License, false, maxReadmeLicenseLength)
	for field, items := range map[string][]string{"stack": req.Stack, "features": req.Features, "install_commands": req.InstallCommands} {
		if len(items) > MaxReadmeItems {
			v.Addf(field, "must have at most %d items, got %d", MaxReadmeItems, len(items))
			continue
		}
		for i, s := range items {
			checkText(fmt.Sprintf("%s[%d]", field, i), s, false, MaxReadmeItemLength)
		}
	}
	return v.Err()
}

func nonEmpty(items []string) []string {
	var out []string
	for _, s := range items {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// singleLine folds whitespace runs, line breaks included, into single
// spaces.
func singleLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func writeList(b *strings.Builder, items []string) {
	for _, s := range items {
		b.WriteString("- " + escapeMarkdown(singleLine(s)) + "\n")
	}
	b.WriteString("\n")
}

// writeParagraphs writes text as paragraphs: blank lines separate them,
// single line breaks are kept as soft breaks.
func writeParagraphs(b *strings.Builder, text string) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	for _, para := range strings.Split(text, "\n\n") {
		var lines []string
		for _, line := range strings.Split(para, "\n") {
			if line = singleLine(line); line != "" {
				lines = append(lines, escapeMarkdown(line))
			}
		}
		if len(lines) > 0 {
			b.WriteString(strings.Join(lines, "\n") + "\n\n")
		}
	}
}

// writeCodeBlock writes a fenced code block whose fence is longer than
// any run of backticks in code, so that code can never close it.
func writeCodeBlock(b *strings.Builder, info, code string) {
	longest, run := 0, 0
	for i := 0; i < len(code); i++ {
		if code[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	b.WriteString(fence + info + "\n")
	b.WriteString(strings.ReplaceAll(code, "\r\n", "\n"))
	b.WriteString("\n" + fence + "\n\n")
}

// escapeMarkdown escapes a single line of text so that CommonMark renders
// it literally: characters that start inline constructs (emphasis, code,
// links, images, autolinks, raw HTML, entities) are backslash-escaped
// everywhere, and characters that start a block (heading, list, quote,
// thematic break) are escaped at the start of the line.
func escapeMarkdown(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '&', '!', '|', '~', '#':
			b.WriteByte('\\')
		case '-', '+', '=':
			if i == 0 {
				b.WriteByte('\\')
			}
		case '.', ')':
			// "1." and "1)" at the start of a line begin an ordered list.
			if isOrderedListMarker(s[:i]) {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isOrderedListMarker(prefix string) bool {
	if prefix == "" || len(prefix) > 9 {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if prefix[i] < '0' || prefix[i] > '9' {
			return false
		}
	}
	return true
}

// badge returns a shields.io badge image, linked when link is set.
func badge(label, message, color, link string) string {
	img := fmt.Sprintf("![%s: %s](https://img.shields.io/badge/%s-%s-%s)",
		escapeMarkdown(label), escapeMarkdown(singleLine(message)), shieldsEscape(label), shieldsEscape(singleLine(message)), color)
	if link != "" {
		return "[" + img + "](" + link + ")"
	}
	return img
}

// shieldsEscape escapes text for a shields.io static badge path: dashes
// and underscores are doubled (single ones are separators and spaces),
// and the rest is path-escaped.
func shieldsEscape(s string) string {
	s = strings.ReplaceAll(s, "-", "--")
	s = strings.ReplaceAll(s, "_", "__")
	s = strings.ReplaceAll(s, " ", "_")
	return url.PathEscape(s)
}
