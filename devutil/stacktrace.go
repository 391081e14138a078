package devutil

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
)

// Bounds of [AnalyzeStacktrace]: the analysis reads at most this many
// lines (the first and the last half of them), each cut to this many
// bytes, so its work is bounded whatever the input.
const (
	MaxStacktraceLines    = 5000
	maxStacktraceLineLen  = 2000
	maxFramesPerException = 200
	maxChainedExceptions  = 20
	maxDetectLines        = 300
	maxDetectLineLen      = 500
)

// A Language is the language of a stack trace, by its canonical name.
type Language string

// Languages [AnalyzeStacktrace] recognizes.
const (
	LangGo         Language = "go"
	LangPython     Language = "python"
	LangJava       Language = "java"
	LangKotlin     Language = "kotlin"
	LangJavaScript Language = "javascript"
	LangRuby       Language = "ruby"
	LangDotNet     Language = "dotnet"
	LangPHP        Language = "php"
	LangRust       Language = "rust"
	// LangUnknown: the language was not given and could not be detected.
	LangUnknown Language = "unknown"
)

// Languages returns the languages of [StacktraceResult.Language], unknown
// last.
func Languages() []Language {
	return []Language{LangGo, LangPython, LangJava, LangKotlin, LangJavaScript, LangRuby, LangDotNet, LangPHP, LangRust, LangUnknown}
}

// StacktraceRequest is the request of [AnalyzeStacktrace].
type StacktraceRequest struct {
	// Stacktrace is the raw stack trace or error message. Required.
	Stacktrace string `json:"stacktrace" openapi:"required"`
	// Language is the language the trace comes from, case-insensitively:
	// go (or golang), python (py, python3), java, kotlin (kt), javascript
	// (js, node, nodejs, node.js, typescript, ts), ruby (rb), dotnet
	// (.net, csharp, c#, cs, fsharp, f#, vb.net), php or rust (rs).
	// Detected when empty. The result names it by its canonical name, the
	// first of each group.
	Language string `json:"language,omitempty"`
	// Framework is the framework in use (django, spring, express, rails,
	// aspnet, laravel, ...), used to add its documentation. Optional.
	Framework string `json:"framework,omitempty"`
}

// StacktraceResult is the result of [AnalyzeStacktrace].
type StacktraceResult struct {
	// ErrorType is the error's type as its language names it
	// (KeyError, java.lang.NullPointerException, TypeError; for Go and
	// Rust panics, the runtime error's kind), or "unknown".
	ErrorType string `json:"error_type"`
	// ErrorMessage is the error's message as printed.
	ErrorMessage string `json:"error_message"`
	// RootCause names the underlying error (the innermost of a chain) and
	// the innermost frame of application code, as opposed to library or
	// runtime frames, where it was raised.
	RootCause string `json:"root_cause"`
	// FixSuggestion says how errors of this kind are usually fixed.
	FixSuggestion string `json:"fix_suggestion"`
	// DocumentationLinks point to the official documentation of the
	// error. Never null.
	DocumentationLinks []string `json:"documentation_links"`
	// Language is the canonical name of the language given or detected
	// (go, python, java, kotlin, javascript, ruby, dotnet, php, rust), or
	// "unknown": asked for "js", it is "javascript".
	Language Language `json:"language"`
	// Confidence, from 0 to 1, says how sure the analysis is: high when
	// the trace parsed and the error is in the knowledge base, low for
	// input that is not a recognizable stack trace.
	Confidence float64 `json:"confidence"`
	// Frames are the parsed frames of the root-cause error, innermost
	// first. Never null.
	Frames []StackFrame `json:"frames"`
	// Chain lists the errors of a chained trace ("Caused by:", Python's
	// "During handling...", .NET inner exceptions), outermost first.
	Chain []string `json:"chain,omitempty"`
	// Truncated reports that the input was longer than the analysis
	// reads (MaxStacktraceLines lines): it read the first and the last
	// MaxStacktraceLines/2 lines.
	Truncated bool `json:"truncated,omitempty"`
	// AISuggestion is advice specific to this trace, written by the
	// language model when one is configured ([StacktraceAnalyzer]). It
	// adds to FixSuggestion; no other field comes from the model.
	AISuggestion string `json:"ai_suggestion,omitempty"`
	// AINote says why AISuggestion is missing although a model is
	// configured; after a model's rate limit it ends with the wait, as in
	// "(retry after 30s)".
	AINote string `json:"ai_note,omitempty"`
}

// StackFrame is one frame of a stack trace.
type StackFrame struct {
	// Function is the function or method, as printed.
	Function string `json:"function"`
	// File is the source file, as printed.
	File string `json:"file,omitempty"`
	// Line is the line number; 0 when not printed.
	Line int `json:"line,omitempty"`
	// Application reports whether the frame is application code rather
	// than the standard library, the runtime or a dependency.
	Application bool `json:"application"`
}

// exception is one error of a (possibly chained) trace.
type exception struct {
	typ, msg string
	frames   []StackFrame // innermost first
}

// AnalyzeStacktrace analyzes a stack trace deterministically: it detects
// the language, parses the error and its frames, finds the innermost
// frame of application code, and looks the error up in a knowledge base
// of common errors. Input that is not a stack trace gets ErrorType
// "unknown" and a low confidence, not an error.
func AnalyzeStacktrace(_ context.Context, req StacktraceRequest) (StacktraceResult, error) {
	if strings.TrimSpace(req.Stacktrace) == "" {
		return StacktraceResult{}, envelope.Invalid("stacktrace", "is required")
	}
	var lang Language
	if req.Language != "" {
		lang = normalizeLanguage(req.Language)
		if lang == "" {
			return StacktraceResult{}, envelope.Invalidf("language", "must be one of go, python, java, kotlin, javascript, ruby, dotnet, php, rust (or empty to detect it); got %q", textcut.Cut(req.Language, 40))
		}
	}
	lines, truncated := splitTraceLines(req.Stacktrace)
	confidence := 0.9
	if lang == "" {
		var score int
		lang, score = detectLanguage(lines)
		if score < 3 {
			confidence = 0.6
		}
	}
	var chain []exception
	if lang != "" {
		chain = parsers[lang](lines)
	}
	res := StacktraceResult{Language: lang, Truncated: truncated, DocumentationLinks: []string{}, Frames: []StackFrame{}}
	if lang == "" {
		res.Language = LangUnknown
	}
	if len(chain) == 0 || chain[0].typ == "" && chain[0].msg == "" {
		// Not a trace we can parse: the knowledge base may still know the
		// message.
		msg := firstNonEmpty(lines)
		if e := lookupError(lang, "", msg); e != nil {
			res.ErrorType, res.ErrorMessage = e.typeName(msg), msg
			res.FixSuggestion, res.DocumentationLinks = e.fix, slices.Clone(e.docs)
			res.RootCause = "the error message matches a known error, but no stack frames were found: " + msg
			res.Confidence = 0.5
			if res.Language == LangUnknown && e.lang != "" {
				res.Language = e.lang
			}
			return res, nil
		}
		res.ErrorType = "unknown"
		res.ErrorMessage = textcut.Cut(msg, 500)
		res.RootCause = "the input does not look like a stack trace or an error message this analyzer knows; include the full trace, with the error line and the frames"
		res.FixSuggestion = "Paste the complete output: the error type and message line and every frame below it. Set language if the trace is from an unusual runtime."
		res.Confidence = 0.1
		return res, nil
	}
	outer, root := chain[0], chain[len(chain)-1]
	res.ErrorType, res.ErrorMessage = outer.typ, outer.msg
	if len(chain) > 1 {
		for _, e := range chain {
			res.Chain = append(res.Chain, e.describe())
		}
	}
	res.Frames = root.frames
	if res.Frames == nil {
		res.Frames = []StackFrame{}
	}
	res.RootCause = describeRootCause(root, len(chain) > 1)
	kb := lookupError(lang, root.typ, root.msg)
	if kb == nil && len(chain) > 1 {
		kb = lookupError(lang, outer.typ, outer.msg)
	}
	if kb != nil {
		if res.ErrorType == "" || res.ErrorType == "panic" {
			res.ErrorType = kb.errType
		}
		res.FixSuggestion = kb.fix
		res.DocumentationLinks = slices.Clone(kb.docs)
	} else {
		confidence -= 0.2
		res.FixSuggestion = fmt.Sprintf("This %s error is not in the knowledge base. Start at the innermost application frame named in root_cause: check the values it receives, and read the error message literally.", langTitle[lang])
		res.DocumentationLinks = append(res.DocumentationLinks, langDocs[lang])
	}
	if len(root.frames) == 0 {
		confidence -= 0.2
	}
	if link := frameworkDocs[strings.ToLower(strings.TrimSpace(req.Framework))]; link != "" {
		res.DocumentationLinks = append(res.DocumentationLinks, link)
	}
	res.Confidence = float64(int(confidence*100+0.5)) / 100
	return res, nil
}

func firstNonEmpty(lines []string) string {
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// describe is the error's type and message as one text, saying each
// part once. A Go runtime panic's type is the start of its message
// ("runtime error: index out of range" of "runtime error: index out of
// range [5] with length 3"), a fatal error's type ends with it ("fatal
// error: all goroutines are asleep - deadlock!"), and an old Rust panic's
// type is its classification followed by the message's start ("panic:
// index out of bounds" of "index out of bounds: the len is 3 ..."); the
// text then is the longer one, or the classification and the message.
func (e exception) describe() string {
	typ, msg := e.typ, e.msg
	switch {
	case msg == "":
		return typ
	case typ == "", strings.HasPrefix(msg, typ):
		return msg
	case strings.HasSuffix(typ, msg):
		return typ
	}
	if label, rest, ok := strings.Cut(typ, ": "); ok && strings.HasPrefix(msg, rest) {
		return label + ": " + msg
	}
	return typ + ": " + msg
}

func describeRootCause(root exception, chained bool) string {
	what := root.describe()
	if chained {
		what = "the underlying error " + what
	}
	for _, f := range root.frames {
		if f.Application {
			return fmt.Sprintf("%s, raised in %s", what, describeFrame(f))
		}
	}
	if len(root.frames) > 0 {
		return fmt.Sprintf("%s, raised in %s; no frame of application code was found, so the call came from a library or the runtime", what, describeFrame(root.frames[0]))
	}
	return what + "; the trace has no frames"
}

func describeFrame(f StackFrame) string {
	s := f.Function
	if f.File != "" {
		loc := f.File
		if f.Line > 0 {
			loc += ":" + strconv.Itoa(f.Line)
		}
		if s == "" {
			return loc
		}
		s += " (" + loc + ")"
	}
	return s
}

// splitTraceLines splits the input into lines of bounded length. Of an
// input longer than MaxStacktraceLines lines it keeps the first and the
// last MaxStacktraceLines/2, with a line saying how many were left out
// between them: a trace's error is named at its head (Go, Java) or at
// its tail (Python), and the head and the tail frames matter most.
func splitTraceLines(s string) ([]string, bool) {
	const half = MaxStacktraceLines / 2
	s = strings.TrimSuffix(s, "\n")
	n := strings.Count(s, "\n") + 1
	if n <= MaxStacktraceLines {
		return boundLines(strings.Split(s, "\n")), false
	}
	headEnd := 0
	for range half {
		headEnd += strings.IndexByte(s[headEnd:], '\n') + 1
	}
	tailStart := len(s)
	for range half {
		tailStart = strings.LastIndexByte(s[:tailStart], '\n')
	}
	lines := strings.Split(s[:headEnd-1], "\n")
	lines = append(lines, fmt.Sprintf("... %d lines omitted ...", n-2*half))
	lines = append(lines, strings.Split(s[tailStart+1:], "\n")...)
	return boundLines(lines), true
}

// boundLines drops the carriage return ending each line and cuts lines
// to maxStacktraceLineLen bytes.
func boundLines(lines []string) []string {
	for i, l := range lines {
		lines[i] = textcut.Cut(strings.TrimSuffix(l, "\r"), maxStacktraceLineLen)
	}
	return lines
}

// languageNames maps each name StacktraceRequest.Language accepts, in
// lower case, to the language's canonical name.
var languageNames = map[string]Language{
	"go": LangGo, "golang": LangGo,
	"python": LangPython, "py": LangPython, "python3": LangPython,
	"java":   LangJava,
	"kotlin": LangKotlin, "kt": LangKotlin,
	"javascript": LangJavaScript, "js": LangJavaScript, "node": LangJavaScript, "nodejs": LangJavaScript,
	"node.js": LangJavaScript, "typescript": LangJavaScript, "ts": LangJavaScript,
	"ruby": LangRuby, "rb": LangRuby,
	"dotnet": LangDotNet, ".net": LangDotNet, "csharp": LangDotNet, "c#": LangDotNet, "cs": LangDotNet,
	"fsharp": LangDotNet, "f#": LangDotNet, "vb.net": LangDotNet,
	"php":  LangPHP,
	"rust": LangRust, "rs": LangRust,
}

// normalizeLanguage returns the canonical name of l, or "".
func normalizeLanguage(l string) Language {
	return languageNames[strings.ToLower(strings.TrimSpace(l))]
}

var langTitle = map[Language]string{
	LangGo: "Go", LangPython: "Python", LangJava: "Java", LangKotlin: "Kotlin", LangJavaScript: "JavaScript",
	LangRuby: "Ruby", LangDotNet: ".NET", LangPHP: "PHP", LangRust: "Rust",
}

var langDocs = map[Language]string{
	LangGo:         "https://go.dev/ref/spec#Run_time_panics",
	LangPython:     "https://docs.python.org/3/library/exceptions.html",
	LangJava:       "https://docs.oracle.com/javase/tutorial/essential/exceptions/",
	LangKotlin:     "https://kotlinlang.org/docs/exceptions.html",
	LangJavaScript: "https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Errors",
	LangRuby:       "https://docs.ruby-lang.org/en/master/Exception.html",
	LangDotNet:     "https://learn.microsoft.com/en-us/dotnet/standard/exceptions/",
	LangPHP:        "https://www.php.net/manual/en/language.errors.php",
	LangRust:       "https://doc.rust-lang.org/book/ch09-00-error-handling.html",
}

var frameworkDocs = map[string]string{
	"django":     "https://docs.djangoproject.com/en/stable/ref/exceptions/",
	"flask":      "https://flask.palletsprojects.com/en/stable/errorhandling/",
	"fastapi":    "https://fastapi.tiangolo.com/tutorial/handling-errors/",
	"spring":     "https://docs.spring.io/spring-framework/reference/web/webmvc/mvc-controller/ann-exceptionhandler.html",
	"express":    "https://expressjs.com/en/guide/error-handling.html",
	"react":      "https://react.dev/reference/react/Component#catching-rendering-errors-with-an-error-boundary",
	"next.js":    "https://nextjs.org/docs/app/building-your-application/routing/error-handling",
	"nextjs":     "https://nextjs.org/docs/app/building-your-application/routing/error-handling",
	"rails":      "https://guides.rubyonrails.org/debugging_rails_applications.html",
	"aspnet":     "https://learn.microsoft.com/en-us/aspnet/core/fundamentals/error-handling",
	"asp.net":    "https://learn.microsoft.com/en-us/aspnet/core/fundamentals/error-handling",
	"laravel":    "https://laravel.com/docs/errors",
	"symfony":    "https://symfony.com/doc/current/controller/error_pages.html",
	"gin":        "https://gin-gonic.com/docs/",
	"actix":      "https://actix.rs/docs/errors/",
	"tokio":      "https://docs.rs/tokio/latest/tokio/",
	"ktor":       "https://ktor.io/docs/server-status-pages.html",
	"android":    "https://developer.android.com/topic/performance/vitals/crash",
	"hibernate":  "https://docs.jboss.org/hibernate/orm/current/userguide/html_single/Hibernate_User_Guide.html",
	"sqlalchemy": "https://docs.sqlalchemy.org/en/20/errors.html",
}

// Signatures for language detection, each worth its weight.
var langSignatures = []struct {
	lang   Language
	re     *regexp.Regexp
	weight int
}{
	{LangGo, regexp.MustCompile(`^(panic: |fatal error: )`), 3},
	{LangGo, regexp.MustCompile(`^goroutine \d+ \[[^\]]+\]:`), 4},
	{LangGo, regexp.MustCompile(`^\s+\S+\.go:\d+( \+0x[0-9a-f]+)?$`), 2},
	{LangPython, regexp.MustCompile(`^Traceback \(most recent call last\):`), 5},
	{LangPython, regexp.MustCompile(`^\s+File "[^"]+", line \d+`), 3},
	{LangJava, regexp.MustCompile(`^\s+at [\w$.<>/]+\([\w$]+\.java:\d+\)`), 3},
	{LangJava, regexp.MustCompile(`^(Exception in thread "[^"]*" )?(java|javax|jakarta)\.[\w.$]+(Exception|Error)`), 3},
	{LangJava, regexp.MustCompile(`^Caused by: [\w.$]+`), 1},
	{LangKotlin, regexp.MustCompile(`^\s+at [\w$.<>/]+\([\w$]+\.kt:\d+\)`), 4},
	{LangKotlin, regexp.MustCompile(`kotlin\.[\w.]+(Exception|Error)`), 2},
	{LangJavaScript, regexp.MustCompile(`^\s+at (.+ \()?(file://|node:|/|[A-Za-z]:\\|webpack:|https?://|internal/)?[^()]*\.?(m?js|cjs|jsx|tsx?|vue|svelte)?:\d+:\d+\)?$`), 2},
	{LangJavaScript, regexp.MustCompile(`^(Uncaught )?(TypeError|ReferenceError|SyntaxError|RangeError|EvalError|URIError|AggregateError): `), 2},
	{LangJavaScript, regexp.MustCompile(`node:internal|node_modules/|ECONNREFUSED|ERR_[A-Z_]+`), 2},
	{LangRuby, regexp.MustCompile(`\.rb:\d+:in [` + "`" + `']`), 4},
	{LangRuby, regexp.MustCompile(`\((NoMethodError|NameError|ArgumentError|RuntimeError|LoadError|TypeError|KeyError|ZeroDivisionError|ActiveRecord::\w+)\)$`), 3},
	{LangDotNet, regexp.MustCompile(`^\s+at [\w.<>` + "`" + `\[\],]+\(.*\)( in .+:line \d+)?$`), 1},
	{LangDotNet, regexp.MustCompile(` in .+:line \d+$`), 4},
	{LangDotNet, regexp.MustCompile(`^(Unhandled exception\. )?(System|Microsoft)\.[\w.]+Exception`), 4},
	{LangDotNet, regexp.MustCompile(`--- End of inner exception stack trace ---| ---> `), 3},
	{LangPHP, regexp.MustCompile(`PHP (Fatal error|Warning|Notice|Parse error)|^(Fatal error|Warning|Notice|Parse error): `), 4},
	{LangPHP, regexp.MustCompile(`^#\d+ .*\.php\(\d+\): |\.php:\d+$| in \S+\.php on line \d+`), 4},
	{LangRust, regexp.MustCompile(`^thread '[^']*' panicked at `), 6},
	{LangRust, regexp.MustCompile(`^\s+at \S+\.rs:\d+:\d+$|RUST_BACKTRACE`), 3},
}

// detectLanguage scores the languages by their signatures and returns
// the best, or "" when none scored.
func detectLanguage(lines []string) (Language, int) {
	scores := map[Language]int{}
	// The signatures show in the first lines of any trace: reading a
	// bounded prefix keeps detection fast on huge inputs.
	if len(lines) > maxDetectLines {
		lines = lines[:maxDetectLines]
	}
	for _, line := range lines {
		if len(line) > maxDetectLineLen {
			line = line[:maxDetectLineLen]
		}
		for _, s := range langSignatures {
			if s.re.MatchString(line) {
				scores[s.lang] += s.weight
			}
		}
	}
	best, bestScore := Language(""), 0
	for _, l := range []Language{LangGo, LangPython, LangJava, LangKotlin, LangJavaScript, LangRuby, LangDotNet, LangPHP, LangRust} {
		if scores[l] > bestScore {
			best, bestScore = l, scores[l]
		}
	}
	// Kotlin traces print java.* frames too: any .kt frame makes it Kotlin.
	if best == LangJava && scores[LangKotlin] >= 4 {
		best = LangKotlin
	}
	return best, bestScore
}

var parsers = map[Language]func([]string) []exception{
	LangGo:         parseGoTrace,
	LangPython:     parsePythonTrace,
	LangJava:       parseJVMTrace,
	LangKotlin:     parseJVMTrace,
	LangJavaScript: parseJSTrace,
	LangRuby:       parseRubyTrace,
	LangDotNet:     parseDotNetTrace,
	LangPHP:        parsePHPTrace,
	LangRust:       parseRustTrace,
}

func addFrame(e *exception, f StackFrame) {
	if len(e.frames) < maxFramesPerException {
		e.frames = append(e.frames, f)
	}
}

// --- Go ---

var (
	goPanic     = regexp.MustCompile(`^(panic|fatal error): (.*)$`)
	goFileLine  = regexp.MustCompile(`^\s+(\S+\.(?:go|s)):(\d+)`)
	goGoroutine = regexp.MustCompile(`^goroutine \d+ \[`)
	goKinds     = regexp.MustCompile(`^runtime error: ([a-z ]+?)(?: \[| \(|$|:)`)
	goRecovered = regexp.MustCompile(` \[recovered(, repanicked)?\]$`)
)

func parseGoTrace(lines []string) []exception {
	var e exception
	inGoroutine, doneGoroutine := false, false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := goPanic.FindStringSubmatch(line); m != nil && e.msg == "" {
			msg := goRecovered.ReplaceAllString(m[2], "")
			e.msg = msg
			e.typ = m[1]
			if k := goKinds.FindStringSubmatch(msg); k != nil {
				e.typ = "runtime error: " + k[1]
			} else if m[1] == "fatal error" {
				e.typ = "fatal error: " + msg
			}
			continue
		}
		if goGoroutine.MatchString(line) {
			if inGoroutine {
				doneGoroutine = true // only the first (panicking) goroutine
			}
			inGoroutine = true
			continue
		}
		if !inGoroutine || doneGoroutine || i+1 >= len(lines) {
			continue
		}
		if fl := goFileLine.FindStringSubmatch(lines[i+1]); fl != nil && !strings.HasPrefix(line, "\t") {
			fn := line
			if j := strings.LastIndexByte(fn, '('); j > 0 {
				fn = fn[:j]
			}
			fn = strings.TrimPrefix(fn, "created by ")
			n, _ := strconv.Atoi(fl[2])
			addFrame(&e, StackFrame{Function: fn, File: fl[1], Line: n, Application: goAppFrame(fn, fl[1])})
			i++
		}
	}
	if e.msg == "" && len(e.frames) == 0 {
		return nil
	}
	return []exception{e}
}

func goAppFrame(fn, file string) bool {
	if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "panic(") || strings.HasPrefix(fn, "testing.") {
		return false
	}
	for _, lib := range []string{"/go/src/", "/pkg/mod/", "/vendor/", "/usr/local/go/", "/usr/lib/go", "/goroot/", "$GOROOT/"} {
		if strings.Contains(file, lib) {
			return false
		}
	}
	// A standard library package has no dot in its first path element.
	if i := strings.IndexAny(fn, "./"); i > 0 && fn[i] == '.' && !strings.HasPrefix(fn, "main.") {
		first := fn[:i]
		if stdlibPackage(first) {
			return false
		}
	}
	return true
}

func stdlibPackage(p string) bool {
	switch p {
	case "net", "http", "io", "os", "fmt", "sync", "encoding", "reflect", "strings", "strconv", "bufio", "context", "errors", "sort", "time", "crypto", "database", "syscall", "internal":
		return true
	}
	return false
}

// --- Python ---

var (
	pyFrame     = regexp.MustCompile(`^\s+File "([^"]+)", line (\d+)(?:, in (.+))?`)
	pyException = regexp.MustCompile(`^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Iteration|Fault|NotFound|DoesNotExist)|[A-Z][\w.]*)(?:: (.*))?$`)
	pyChain     = regexp.MustCompile(`^(During handling of the above exception|The above exception was the direct cause)`)
)

func parsePythonTrace(lines []string) []exception {
	var chain []exception
	var cur exception
	inTrace := false
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "Traceback (most recent call last)"):
			inTrace = true
			cur = exception{}
		case pyChain.MatchString(line):
			inTrace = false
		case inTrace:
			if m := pyFrame.FindStringSubmatch(line); m != nil {
				n, _ := strconv.Atoi(m[2])
				cur.frames = append(cur.frames, StackFrame{Function: m[3], File: m[1], Line: n, Application: pyAppFrame(m[1])})
				continue
			}
			if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") || line == "" {
				continue
			}
			if m := pyException.FindStringSubmatch(line); m != nil {
				cur.typ, cur.msg = m[1], m[2]
				// Python prints the innermost frame last: keep the
				// innermost frames, innermost first.
				cur.frames = cur.frames[max(0, len(cur.frames)-maxFramesPerException):]
				slices.Reverse(cur.frames)
				if len(chain) < maxChainedExceptions {
					chain = append(chain, cur)
				}
				inTrace = false
			}
		}
	}
	if len(chain) == 0 {
		// A bare "KeyError: 'x'" line.
		for _, line := range lines {
			if m := pyException.FindStringSubmatch(strings.TrimSpace(line)); m != nil && m[2] != "" {
				return []exception{{typ: m[1], msg: m[2]}}
			}
		}
		return nil
	}
	// Python prints the original exception first and the one finally
	// raised last: outermost first means reversing.
	slices.Reverse(chain)
	return chain
}

func pyAppFrame(file string) bool {
	for _, lib := range []string{"site-packages", "dist-packages", "/lib/python", "\\lib\\", "<frozen", "<string>", "/usr/lib/", "importlib"} {
		if strings.Contains(file, lib) {
			return false
		}
	}
	return true
}

// --- Java and Kotlin ---

var (
	jvmFrame     = regexp.MustCompile(`^\s+at (?:[\w.$-]+/)?([\w$.<>]+)\(([^:)]*)(?::(\d+))?\)`)
	jvmException = regexp.MustCompile(`^(?:Exception in thread "[^"]*" |Caused by: |Suppressed: )?([\w$]+(?:\.[\w$]+)+|[A-Z][\w$]*(?:Exception|Error))(?:: (.*))?$`)
)

func parseJVMTrace(lines []string) []exception {
	var chain []exception
	for _, raw := range lines {
		line := strings.TrimSpace(raw)
		if m := jvmFrame.FindStringSubmatch(raw); m != nil {
			if len(chain) > 0 {
				n, _ := strconv.Atoi(m[3])
				addFrame(&chain[len(chain)-1], StackFrame{Function: m[1], File: m[2], Line: n, Application: jvmAppFrame(m[1])})
			}
			continue
		}
		if strings.HasPrefix(line, "Suppressed:") || strings.HasPrefix(line, "...") {
			continue
		}
		if m := jvmException.FindStringSubmatch(line); m != nil && (len(chain) == 0 || strings.HasPrefix(line, "Caused by: ")) {
			if len(chain) < maxChainedExceptions {
				chain = append(chain, exception{typ: m[1], msg: m[2]})
			}
		}
	}
	return chain
}

var jvmLibraryPrefixes = []string{
	"java.", "javax.", "jakarta.", "sun.", "com.sun.", "jdk.", "kotlin.", "kotlinx.", "scala.",
	"org.springframework.", "org.apache.", "org.hibernate.", "com.google.", "io.netty.", "org.junit.",
	"com.fasterxml.", "org.eclipse.", "io.micronaut.", "io.quarkus.", "reactor.", "io.reactivex.",
	"okhttp3.", "retrofit2.", "android.", "androidx.", "com.android.", "dalvik.", "org.gradle.", "org.slf4j.", "ch.qos.",
}

func jvmAppFrame(fn string) bool {
	for _, p := range jvmLibraryPrefixes {
		if strings.HasPrefix(fn, p) {
			return false
		}
	}
	return true
}

// --- JavaScript and Node ---

var (
	jsFrame     = regexp.MustCompile(`^\s+at (?:(async )?(.+?) \()?(.+?):(\d+):(\d+)\)?(?:\s*\{)?$`)
	jsException = regexp.MustCompile(`^(?:Uncaught )?([A-Z][\w$]*(?:Error|Exception)|Error \[[A-Z_]+\]|[A-Z][\w$]*)(?: \[[A-Z_]+\])?: (.*)$`)
)

func parseJSTrace(lines []string) []exception {
	var e exception
	for _, line := range lines {
		if m := jsFrame.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[4])
			fn := m[2]
			if fn == "" {
				fn = "<anonymous>"
			}
			addFrame(&e, StackFrame{Function: fn, File: m[3], Line: n, Application: jsAppFrame(m[3])})
			continue
		}
		if e.typ == "" {
			if m := jsException.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				e.typ, e.msg = m[1], m[2]
			}
		}
	}
	if e.typ == "" && len(e.frames) == 0 {
		return nil
	}
	return []exception{e}
}

func jsAppFrame(file string) bool {
	for _, lib := range []string{"node_modules", "node:", "internal/", "<anonymous>", "webpack/bootstrap", "native"} {
		if strings.Contains(file, lib) {
			return false
		}
	}
	return true
}

// --- Ruby ---

var (
	rubyFirst = regexp.MustCompile("^(\\S+?):(\\d+):in [`']([^']*)': (.*) \\(([\\w:]+)\\)$")
	rubyFrame = regexp.MustCompile("^\\s*(?:from )?(\\S+?):(\\d+):in [`']([^']*)'")
	rubyBare  = regexp.MustCompile(`^(.*) \(([A-Z][\w:]*)\)$`)
)

func parseRubyTrace(lines []string) []exception {
	var e exception
	for _, line := range lines {
		if !strings.Contains(line, ":in ") {
			if m := rubyBare.FindStringSubmatch(strings.TrimSpace(line)); m != nil && e.typ == "" {
				e.typ, e.msg = m[2], m[1]
			}
			continue
		}
		if m := rubyFirst.FindStringSubmatch(line); m != nil && e.typ == "" {
			n, _ := strconv.Atoi(m[2])
			e.typ, e.msg = m[5], m[4]
			addFrame(&e, StackFrame{Function: m[3], File: m[1], Line: n, Application: rubyAppFrame(m[1])})
			continue
		}
		if m := rubyFrame.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			addFrame(&e, StackFrame{Function: m[3], File: m[1], Line: n, Application: rubyAppFrame(m[1])})
			continue
		}
		if m := rubyBare.FindStringSubmatch(strings.TrimSpace(line)); m != nil && e.typ == "" {
			e.typ, e.msg = m[2], m[1]
		}
	}
	if e.typ == "" && len(e.frames) == 0 {
		return nil
	}
	return []exception{e}
}

func rubyAppFrame(file string) bool {
	for _, lib := range []string{"/gems/", "/ruby/", "/rubygems", "<internal:", "/vendor/bundle/"} {
		if strings.Contains(file, lib) {
			return false
		}
	}
	return true
}

// --- .NET ---

var (
	dotnetFrame     = regexp.MustCompile(`^\s+at (.+?)(?:\((.*?)\))?(?: in (.+):line (\d+))?$`)
	dotnetException = regexp.MustCompile(`^(?:Unhandled exception\. |Unhandled Exception: )?([\w.]+(?:Exception|Error))(?:: (.*?))?(?: ---> (.*))?$`)
)

func parseDotNetTrace(lines []string) []exception {
	var chain []exception
	for _, raw := range lines {
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "--- End of") {
			continue
		}
		if m := dotnetFrame.FindStringSubmatch(raw); m != nil && strings.HasPrefix(line, "at ") {
			if len(chain) > 0 {
				n, _ := strconv.Atoi(m[4])
				// Inner exceptions print their frames first, so frames
				// before "--- End of inner exception" belong to the
				// innermost exception.
				addFrame(&chain[len(chain)-1], StackFrame{Function: m[1], File: m[3], Line: n, Application: dotnetAppFrame(m[1])})
			}
			continue
		}
		if len(chain) > 0 {
			continue
		}
		// "Outer: msg ---> Inner: msg ---> Innermost: msg" on one line.
		for rest := line; rest != "" && len(chain) < maxChainedExceptions; {
			m := dotnetException.FindStringSubmatch(rest)
			if m == nil {
				break
			}
			chain = append(chain, exception{typ: m[1], msg: m[2]})
			rest = m[3]
		}
	}
	return chain
}

func dotnetAppFrame(fn string) bool {
	for _, p := range []string{"System.", "Microsoft.", "Newtonsoft.", "Npgsql.", "MySql.", "Xunit.", "NUnit.", "Castle.", "Polly."} {
		if strings.HasPrefix(fn, p) {
			return false
		}
	}
	return true
}

// --- PHP ---

var (
	phpFatal = regexp.MustCompile(`^(?:PHP )?(?:Fatal error|Warning|Notice|Deprecated|Parse error):\s+(?:Uncaught )?(?:([\w\\]*(?:Exception|Error)): )?(.*?)(?: in (\S+?)(?::(\d+)| on line (\d+)))?$`)
	phpFrame = regexp.MustCompile(`^#\d+ (?:(\S+?)\((\d+)\): )?(.+)$`)
	phpBare  = regexp.MustCompile(`^(?:PHP )?(?:Uncaught )?([\w\\]*(?:Exception|Error)): (.*?)(?: in (\S+?):(\d+))?$`)
)

func parsePHPTrace(lines []string) []exception {
	var e exception
	for _, raw := range lines {
		line := strings.TrimSpace(raw)
		if e.msg == "" {
			m := phpFatal.FindStringSubmatch(line)
			if m == nil {
				if b := phpBare.FindStringSubmatch(line); b != nil {
					m = []string{b[0], b[1], b[2], b[3], b[4], ""}
				}
			}
			if m != nil {
				e.typ, e.msg = m[1], m[2]
				if e.typ == "" {
					e.typ = phpLevel(line)
				}
				file, ln := m[3], m[4]
				if ln == "" {
					ln = m[5]
				}
				if file != "" {
					n, _ := strconv.Atoi(ln)
					addFrame(&e, StackFrame{Function: "{raise}", File: file, Line: n, Application: phpAppFrame(file)})
				}
				continue
			}
		}
		if m := phpFrame.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			if m[3] == "{main}" {
				continue
			}
			addFrame(&e, StackFrame{Function: m[3], File: m[1], Line: n, Application: m[1] != "" && phpAppFrame(m[1])})
		}
	}
	if e.msg == "" && len(e.frames) == 0 {
		return nil
	}
	return []exception{e}
}

func phpLevel(line string) string {
	for _, l := range []string{"Fatal error", "Parse error", "Warning", "Notice", "Deprecated"} {
		if strings.Contains(line, l) {
			return l
		}
	}
	return "Error"
}

func phpAppFrame(file string) bool {
	return !strings.Contains(file, "/vendor/") && !strings.Contains(file, "[internal function]")
}

// --- Rust ---

var (
	rustPanicNew = regexp.MustCompile(`^thread '([^']*)' panicked at (\S+?):(\d+):\d+:$`)
	rustPanicOld = regexp.MustCompile(`^thread '([^']*)' panicked at '(.*)', (\S+?):(\d+):\d+$`)
	rustFrameFn  = regexp.MustCompile(`^\s+\d+: (.+?)(?:::h[0-9a-f]{16})?$`)
	rustFrameAt  = regexp.MustCompile(`^\s+at (\S+?):(\d+)(?::\d+)?$`)
)

func parseRustTrace(lines []string) []exception {
	var e exception
	var panicFile string
	var panicLine int
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if e.typ == "" {
			if m := rustPanicNew.FindStringSubmatch(line); m != nil {
				e.typ = "panic"
				panicFile = m[2]
				panicLine, _ = strconv.Atoi(m[3])
				if i+1 < len(lines) {
					e.msg = lines[i+1]
					i++
				}
				continue
			}
			if m := rustPanicOld.FindStringSubmatch(line); m != nil {
				e.typ, e.msg, panicFile = "panic", m[2], m[3]
				panicLine, _ = strconv.Atoi(m[4])
				continue
			}
		}
		if m := rustFrameFn.FindStringSubmatch(line); m != nil {
			f := StackFrame{Function: m[1]}
			if i+1 < len(lines) {
				if at := rustFrameAt.FindStringSubmatch(lines[i+1]); at != nil {
					f.File = at[1]
					f.Line, _ = strconv.Atoi(at[2])
					i++
				}
			}
			f.Application = rustAppFrame(f.Function, f.File)
			addFrame(&e, f)
		}
	}
	if e.typ == "" {
		return nil
	}
	if !slices.ContainsFunc(e.frames, func(f StackFrame) bool { return f.Application }) && panicFile != "" {
		// Without RUST_BACKTRACE the panic location is the only frame.
		e.frames = append([]StackFrame{{Function: "(panic location)", File: panicFile, Line: panicLine, Application: rustAppFrame("", panicFile)}}, e.frames...)
	}
	e.typ = rustPanicKind(e.msg)
	return []exception{e}
}

func rustPanicKind(msg string) string {
	switch {
	case strings.Contains(msg, "`Option::unwrap()` on a `None` value"):
		return "panic: unwrap on None"
	case strings.Contains(msg, "`Result::unwrap()` on an `Err` value"):
		return "panic: unwrap on Err"
	case strings.HasPrefix(msg, "index out of bounds"):
		return "panic: index out of bounds"
	case strings.HasPrefix(msg, "attempt to") && strings.Contains(msg, "overflow"):
		return "panic: arithmetic overflow"
	case strings.HasPrefix(msg, "attempt to divide by zero"):
		return "panic: divide by zero"
	case strings.HasPrefix(msg, "already borrowed"), strings.HasPrefix(msg, "already mutably borrowed"):
		return "panic: RefCell already borrowed"
	}
	return "panic"
}

func rustAppFrame(fn, file string) bool {
	for _, lib := range []string{"/rustc/", ".cargo/registry", ".cargo/git", "/library/std/", "/library/core/", "/library/alloc/"} {
		if strings.Contains(file, lib) {
			return false
		}
	}
	for _, p := range []string{"std::", "core::", "alloc::", "rust_begin_unwind", "tokio::", "__rust", "<alloc::", "<core::", "<std::", "_start", "__libc", "main"} {
		if strings.HasPrefix(fn, p) && !(p == "main" && fn != "main") {
			return false
		}
	}
	return fn != "" || file != ""
}
