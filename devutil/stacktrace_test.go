package devutil_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
)

func analyze(t testing.TB, req devutil.StacktraceRequest) devutil.StacktraceResult {
	t.Helper()
	res, err := devutil.AnalyzeStacktrace(context.Background(), req)
	if err != nil {
		t.Fatalf("AnalyzeStacktrace: %v", err)
	}
	return res
}

func TestAnalyzeStacktraceFixtures(t *testing.T) {
	tests := []struct {
		file, lang, errType, rootCause, fix, doc string
		chain                                    int
	}{
		{"go_nilmap.txt", "go", "runtime error: assignment to entry in nil map", "main.(*Cache).Put (/home/dev/app/cache.go:14)", "make(map[K]V)", "https://go.dev/ref/spec#Map_types", 0},
		{"go_index.txt", "go", "runtime error: index out of range", "github.com/acme/shop/internal/cart.(*Cart).Item (/src/shop/internal/cart/cart.go:42)", "Check the length", "https://go.dev/ref/spec#Index_expressions", 0},
		{"go_nilptr_lib.txt", "go", "runtime error: invalid memory address or nil pointer dereference", "example.com/billing/store.(*Store).Close (/srv/billing/store/store.go:57)", "nil pointer", "https://go.dev/doc/faq#nil_error", 0},
		{"go_deadlock.txt", "go", "fatal error: all goroutines are asleep - deadlock!", "main.main (/tmp/sandbox/prog.go:5)", "unbuffered channel", "https://go.dev/doc/effective_go#channels", 0},
		{"python_keyerror.txt", "python", "KeyError", "load_user (/app/users.py:12)", "d.get(key, default)", "https://docs.python.org/3/library/exceptions.html#KeyError", 0},
		{"python_chained.txt", "python", "RuntimeError", "the underlying error KeyError: 'PORT', raised in read_port (/srv/api/config.py:20)", "d.get(key, default)", "https://docs.python.org/3/library/exceptions.html#KeyError", 2},
		{"java_npe.txt", "java", "java.lang.IllegalStateException", "the underlying error java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null, raised in com.acme.orders.OrderMapper.toName (OrderMapper.java:27)", "null reference", "https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/lang/NullPointerException.html", 2},
		{"kotlin_lateinit.txt", "kotlin", "kotlin.UninitializedPropertyAccessException", "com.example.app.UserService.getRepo (UserService.kt:8)", "lateinit", "https://kotlinlang.org/docs/properties.html#late-initialized-properties-and-variables", 0},
		{"node_undefined.txt", "javascript", "TypeError", "renderName (/home/dev/web/src/render.js:14)", "optional chaining", "https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Errors/Cant_access_property", 0},
		{"node_econnrefused.txt", "javascript", "Error", "no frame of application code", "127.0.0.1", "https://nodejs.org/api/errors.html#common-system-errors", 0},
		{"ruby_nomethod.txt", "ruby", "NoMethodError", "total (/app/app/models/invoice.rb:23)", "safe navigation", "https://docs.ruby-lang.org/en/master/NoMethodError.html", 0},
		{"dotnet_nullref.txt", "dotnet", "System.InvalidOperationException", "the underlying error System.NullReferenceException: Object reference not set to an instance of an object., raised in Reports.ReportBuilder.Title (/src/Reports/ReportBuilder.cs:31)", "nullable reference types", "https://learn.microsoft.com/en-us/dotnet/api/system.nullreferenceexception", 2},
		{"php_member_null.txt", "php", "Error", "{raise} (/var/www/app/src/Controller/UserController.php:27)", "nullsafe", "https://www.php.net/manual/en/language.oop5.basic.php#language.oop5.basic.nullsafe", 0},
		{"rust_unwrap.txt", "rust", "panic: unwrap on None", "myapp::config::load (./src/config.rs:17)", "if let", "https://doc.rust-lang.org/std/option/enum.Option.html#method.unwrap", 0},
		{"rust_old_index.txt", "rust", "panic: index out of bounds", "(panic location) (src/main.rs:3)", "get(i)", "https://doc.rust-lang.org/std/primitive.slice.html#method.get", 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "stacktraces", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, lang := range []string{"", tt.lang} { // detected, then given
				res := analyze(t, devutil.StacktraceRequest{Stacktrace: string(raw), Language: lang})
				if string(res.Language) != tt.lang {
					t.Errorf("language(%q) = %q, want %q", lang, res.Language, tt.lang)
				}
				if res.ErrorType != tt.errType {
					t.Errorf("error_type = %q, want %q", res.ErrorType, tt.errType)
				}
				if !strings.Contains(res.RootCause, tt.rootCause) {
					t.Errorf("root_cause = %q, want it to contain %q", res.RootCause, tt.rootCause)
				}
				if !strings.Contains(res.FixSuggestion, tt.fix) {
					t.Errorf("fix_suggestion = %q, want it to contain %q", res.FixSuggestion, tt.fix)
				}
				if !contains(res.DocumentationLinks, tt.doc) {
					t.Errorf("documentation_links = %q, want %q", res.DocumentationLinks, tt.doc)
				}
				if len(res.Chain) != tt.chain {
					t.Errorf("chain = %q, want %d errors", res.Chain, tt.chain)
				}
				if res.Confidence < 0.5 {
					t.Errorf("confidence = %v", res.Confidence)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestAnalyzeStacktraceMessagesOnly(t *testing.T) {
	tests := []struct{ in, lang, errType string }{
		{"KeyError: 'id'", "python", "KeyError"},
		{"TypeError: Cannot read properties of null (reading 'x')", "javascript", "TypeError"},
		{"dial tcp 127.0.0.1:6379: connect: connection refused", "unknown", "connection refused"},
	}
	for _, tt := range tests {
		res := analyze(t, devutil.StacktraceRequest{Stacktrace: tt.in})
		if res.ErrorType != tt.errType || string(res.Language) != tt.lang || res.FixSuggestion == "" || len(res.DocumentationLinks) == 0 {
			t.Errorf("%q: got %+v", tt.in, res)
		}
	}
}

func TestAnalyzeStacktraceUnknown(t *testing.T) {
	res := analyze(t, devutil.StacktraceRequest{Stacktrace: "the quick brown fox\njumps over the lazy dog"})
	if res.ErrorType != "unknown" || res.Language != "unknown" || res.Confidence > 0.2 || res.RootCause == "" {
		t.Errorf("got %+v", res)
	}
	if res.DocumentationLinks == nil || res.Frames == nil {
		t.Error("nil slices")
	}
}

func TestAnalyzeStacktraceFramework(t *testing.T) {
	raw, _ := os.ReadFile(filepath.Join("testdata", "stacktraces", "python_keyerror.txt"))
	res := analyze(t, devutil.StacktraceRequest{Stacktrace: string(raw), Framework: "Django"})
	if !contains(res.DocumentationLinks, "https://docs.djangoproject.com/en/stable/ref/exceptions/") {
		t.Errorf("links = %q", res.DocumentationLinks)
	}
}

func TestAnalyzeStacktraceInvalid(t *testing.T) {
	for _, req := range []devutil.StacktraceRequest{{Stacktrace: ""}, {Stacktrace: " \n\t"}, {Stacktrace: "x", Language: "cobol"}} {
		_, err := devutil.AnalyzeStacktrace(context.Background(), req)
		var v *envelope.ValidationError
		if !errors.As(err, &v) {
			t.Errorf("%+v: err = %v", req, err)
		}
	}
}

func TestAnalyzeStacktraceHuge(t *testing.T) {
	raw, _ := os.ReadFile(filepath.Join("testdata", "stacktraces", "java_npe.txt"))
	frame := "\tat com.acme.Deep.recurse(Deep.java:10)\n"
	huge := string(raw) + strings.Repeat(frame, 100_000) + strings.Repeat("x", 1<<20)
	res := analyze(t, devutil.StacktraceRequest{Stacktrace: huge})
	if !res.Truncated || res.ErrorType != "java.lang.IllegalStateException" || len(res.Frames) > 200 {
		t.Errorf("truncated %v type %q frames %d", res.Truncated, res.ErrorType, len(res.Frames))
	}
	long := analyze(t, devutil.StacktraceRequest{Stacktrace: strings.Repeat("é", 1<<20)})
	if long.ErrorType != "unknown" {
		t.Errorf("one long line: %q", long.ErrorType)
	}
}

func FuzzAnalyzeStacktrace(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "stacktraces", "*.txt"))
	for _, file := range files {
		raw, _ := os.ReadFile(file)
		f.Add(string(raw), "")
	}
	f.Add("panic: x\n\ngoroutine 1 [running]:\nmain.main()\n", "go")
	f.Fuzz(func(t *testing.T, trace, lang string) {
		res, err := devutil.AnalyzeStacktrace(context.Background(), devutil.StacktraceRequest{Stacktrace: trace, Language: lang})
		if err != nil {
			var v *envelope.ValidationError
			if !errors.As(err, &v) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		if res.ErrorType == "" || res.RootCause == "" || res.FixSuggestion == "" || res.Language == "" {
			t.Fatalf("empty field in %+v", res)
		}
		if res.Confidence <= 0 || res.Confidence > 1 || res.DocumentationLinks == nil || res.Frames == nil {
			t.Fatalf("bad result %+v", res)
		}
	})
}

func BenchmarkAnalyzeStacktrace(b *testing.B) {
	raw, _ := os.ReadFile(filepath.Join("testdata", "stacktraces", "java_npe.txt"))
	req := devutil.StacktraceRequest{Stacktrace: string(raw)}
	for b.Loop() {
		if _, err := devutil.AnalyzeStacktrace(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAnalyzeStacktraceCutsAtCharacters checks that the message of an
// unknown input, bounded in bytes, is not cut inside a character.
func TestAnalyzeStacktraceCutsAtCharacters(t *testing.T) {
	for pad := 497; pad <= 500; pad++ {
		res := analyze(t, devutil.StacktraceRequest{Stacktrace: strings.Repeat("a", pad) + "€ is not a trace"})
		if res.ErrorType != "unknown" || !utf8.ValidString(res.ErrorMessage) || len(res.ErrorMessage) > 500 || len(res.ErrorMessage) < 497 {
			t.Errorf("pad %d: error type %q, message of %d bytes ending in %q", pad, res.ErrorType, len(res.ErrorMessage), res.ErrorMessage[max(0, len(res.ErrorMessage)-4):])
		}
	}
}

// TestAnalyzeStacktraceLongPython: a Python traceback longer than the
// bound names its exception on its last line, and its innermost frames
// come last: both are kept.
func TestAnalyzeStacktraceLongPython(t *testing.T) {
	var b strings.Builder
	b.WriteString("Traceback (most recent call last):\n")
	for i := range 4000 {
		fmt.Fprintf(&b, "  File \"/app/deep.py\", line %d, in recurse_%d\n    return recurse(n - 1)\n", i+1, i)
	}
	b.WriteString("  File \"/app/users.py\", line 12, in load_user\n    return USERS[user_id]\n")
	b.WriteString("KeyError: 'id'\n")
	res := analyze(t, devutil.StacktraceRequest{Stacktrace: b.String()})
	if !res.Truncated || res.Language != "python" || res.ErrorType != "KeyError" || res.ErrorMessage != "'id'" {
		t.Errorf("truncated %v, language %q, error %q %q; want python's KeyError 'id'", res.Truncated, res.Language, res.ErrorType, res.ErrorMessage)
	}
	if len(res.Frames) == 0 || res.Frames[0].Function != "load_user" || len(res.Frames) > 200 {
		t.Fatalf("%d frames, want at most 200, the innermost (load_user) first: %+v", len(res.Frames), res.Frames[:min(len(res.Frames), 2)])
	}
	if want := "load_user (/app/users.py:12)"; !strings.Contains(res.RootCause, want) {
		t.Errorf("root_cause = %q, want it to name %s", res.RootCause, want)
	}
	if res.Frames[1].Function != "recurse_3999" {
		t.Errorf("second frame %q, want recurse_3999", res.Frames[1].Function)
	}
}

// TestAnalyzeStacktraceBound: the bound counts lines, a final line
// break ending the last one.
func TestAnalyzeStacktraceBound(t *testing.T) {
	line := "KeyError: 'x'\n"
	for _, tt := range []struct {
		lines     int
		truncated bool
	}{{devutil.MaxStacktraceLines, false}, {devutil.MaxStacktraceLines + 1, true}} {
		res := analyze(t, devutil.StacktraceRequest{Stacktrace: strings.Repeat(line, tt.lines)})
		if res.Truncated != tt.truncated || res.ErrorType != "KeyError" {
			t.Errorf("%d lines: truncated %v, error type %q; want %v, KeyError", tt.lines, res.Truncated, res.ErrorType, tt.truncated)
		}
	}
}

// TestAnalyzeStacktraceSaysEachPartOnce: over every stack trace of
// testdata, the root cause and the chain name each part of an error once.
// A Go panic's type is the start of its message, and the root cause of
// "panic: runtime error: invalid memory address or nil pointer
// dereference" once read "runtime error: … dereference: runtime error:
// … dereference, raised in …" (issue 22).
func TestAnalyzeStacktraceSaysEachPartOnce(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "stacktraces", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no stack traces: %v", err)
	}
	want := map[string]string{
		"go_nilptr_lib.txt":  "runtime error: invalid memory address or nil pointer dereference, raised in ",
		"go_index.txt":       "runtime error: index out of range [5] with length 3, raised in ",
		"go_deadlock.txt":    "fatal error: all goroutines are asleep - deadlock!, raised in ",
		"rust_old_index.txt": "panic: index out of bounds: the len is 3 but the index is 7, raised in ",
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			res := analyze(t, devutil.StacktraceRequest{Stacktrace: string(raw)})
			texts := append([]string{res.RootCause}, res.Chain...)
			for _, text := range texts {
				what, _, _ := strings.Cut(text, ", raised in ")
				what, _, _ = strings.Cut(what, "; ")
				what = strings.TrimPrefix(what, "the underlying error ")
				parts := strings.Split(what, ": ")
				for i, p := range parts {
					for _, later := range parts[i+1:] {
						if strings.HasPrefix(later, p) {
							t.Errorf("%q says %q twice", text, p)
						}
					}
				}
			}
			if w, ok := want[filepath.Base(f)]; ok && !strings.HasPrefix(res.RootCause, w) {
				t.Errorf("root_cause = %q, want it to start with %q", res.RootCause, w)
			}
		})
	}
}
