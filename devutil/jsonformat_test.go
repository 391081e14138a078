package devutil_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
)

func intp(n int) *int { return &n }

func formatJSON(t testing.TB, text string, indent int, sortKeys bool) devutil.JSONFormatResult {
	t.Helper()
	res, err := devutil.FormatJSON(context.Background(), devutil.JSONFormatRequest{Text: text, Indent: &indent, SortKeys: sortKeys})
	if err != nil {
		t.Fatalf("FormatJSON(%q): %v", text, err)
	}
	return res
}

func TestFormatJSONIndents(t *testing.T) {
	const in = ` {"a" : [1, 2, {}], "b":{"c":[]}, "d": "x"} `
	for indent := 0; indent <= devutil.MaxJSONIndent; indent++ {
		t.Run(fmt.Sprint(indent), func(t *testing.T) {
			got := formatJSON(t, in, indent, false)
			var want bytes.Buffer
			if err := json.Indent(&want, []byte(strings.TrimSpace(in)), "", strings.Repeat(" ", indent)); err != nil {
				t.Fatal(err)
			}
			if got.Formatted != want.String() {
				t.Errorf("formatted =\n%s\nwant\n%s", got.Formatted, want.String())
			}
			if got.Minified != `{"a":[1,2,{}],"b":{"c":[]},"d":"x"}` {
				t.Errorf("minified = %s", got.Minified)
			}
		})
	}
	t.Run("0 means one value per line", func(t *testing.T) {
		got := formatJSON(t, `{"a":[1,2]}`, 0, false)
		if want := "{\n\"a\": [\n1,\n2\n]\n}"; got.Formatted != want {
			t.Errorf("formatted = %q, want %q", got.Formatted, want)
		}
	})
	t.Run("default is 2", func(t *testing.T) {
		res, err := devutil.FormatJSON(context.Background(), devutil.JSONFormatRequest{Text: `[1]`})
		if err != nil || res.Formatted != "[\n  1\n]" {
			t.Errorf("FormatJSON = %q, %v", res.Formatted, err)
		}
	})
}

func TestFormatJSONValues(t *testing.T) {
	tests := []struct {
		in, typ, mini string
	}{
		{`{}`, "object", `{}`},
		{`[]`, "array", `[]`},
		{` "x" `, "string", `"x"`},
		{`""`, "string", `""`},
		{`0`, "number", `0`},
		{`true`, "boolean", `true`},
		{`false`, "boolean", `false`},
		{`null`, "null", `null`},
		// Numbers stay exactly as written.
		{`[1e400, 12345678901234567890, -0.0, 1.50, 1E+2, -0]`, "array", `[1e400,12345678901234567890,-0.0,1.50,1E+2,-0]`},
		// Strings keep their escapes.
		{`["\u00e9\n\/\"\\", "é", "\ud83d\ude00", "\ud800"]`, "array", `["\u00e9\n\/\"\\","é","\ud83d\ude00","\ud800"]`},
		{"\t[\r\n1 ]\n", "array", `[1]`},
	}
	for _, tt := range tests {
		res := formatJSON(t, tt.in, 2, false)
		if !res.IsValid || res.Type != tt.typ || res.Minified != tt.mini || res.Error != nil {
			t.Errorf("FormatJSON(%q) = valid %v type %q minified %q error %v; want type %q minified %q",
				tt.in, res.IsValid, res.Type, res.Minified, res.Error, tt.typ, tt.mini)
		}
	}
}

func TestFormatJSONErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{" ", "line 1, column 2: expected a JSON value, found end of input"},
		{"{\n  \"a\": 1,\n  \"b\": 2 \"c\": 3}", `line 3, column 10: expected ',' or '}' after object value, found '"'`},
		{`{"a":1,}`, `line 1, column 8: expected a string for an object key, found '}'; trailing commas are not allowed`},
		{`[1,]`, `line 1, column 4: expected a value (object, array, string, number, true, false or null), found ']'; trailing commas are not allowed`},
		{`['a']`, `line 1, column 2: expected a value (object, array, string, number, true, false or null), found '\''; strings are quoted with " in JSON, not '`},
		{`{a:1}`, `line 1, column 2: expected a string for an object key, found 'a'; object keys must be quoted`},
		{"[1, // one\n2]", `line 1, column 5: expected a value (object, array, string, number, true, false or null), found '/'; JSON has no comments`},
		{`/* c */ 1`, `line 1, column 1: expected a value (object, array, string, number, true, false or null), found '/'; JSON has no comments`},
		{`[NaN]`, `line 1, column 2: expected a value (object, array, string, number, true, false or null), found 'N'; NaN, Infinity and a leading + are not JSON numbers`},
		{`[+1]`, `line 1, column 2: expected a value (object, array, string, number, true, false or null), found '+'; NaN, Infinity and a leading + are not JSON numbers`},
		{`[.5]`, `line 1, column 2: expected a value (object, array, string, number, true, false or null), found '.'; a number needs a digit before its '.'`},
		{`01`, `line 1, column 2: expected '.', 'e' or the end of the number after a leading 0 (leading zeros are not allowed)`},
		{`1.`, `line 1, column 3: expected a digit after the decimal point, found end of input`},
		{`1e`, `line 1, column 3: expected a digit in the exponent, found end of input`},
		{`-`, `line 1, column 2: expected a digit after '-', found end of input`},
		{`0x10`, `line 1, column 2: expected end of input after the top-level value, found 'x'`},
		{`tru`, `line 1, column 4: expected 'e' (in the literal true), found end of input`},
		{`nul1`, `line 1, column 4: expected 'l' (in the literal null), found '1'`},
		{`"abc`, `line 1, column 1: expected '"' to close the string starting here, found end of input`},
		{"\"a\tb\"", `line 1, column 3: expected a character in the string, found the control character U+0009; escape it (\n, \t, \u0009)`},
		{`"\x"`, `line 1, column 2: expected one of \" \\ \/ \b \f \n \r \t \uXXXX, found \'x'`},
		{`"\u12g4"`, `line 1, column 2: expected four hex digits after \u`},
		{"\"\xff\"", `line 1, column 2: expected UTF-8 text in the string, found the invalid byte 0xff`},
		{"\xef\xbb\xbf{}", `line 1, column 1: expected a JSON value, found a byte order mark (RFC 8259 forbids it)`},
		{`{"a" 1}`, `line 1, column 6: expected ':' after object key, found '1'`},
		{`[1 2]`, `line 1, column 4: expected ',' or ']' after array element, found '2'`},
		{`{} {}`, `line 1, column 4: expected end of input after the top-level value, found '{'`},
		{`["é", x]`, `line 1, column 7: expected a value (object, array, string, number, true, false or null), found 'x'`},
		{strings.Repeat("[", devutil.MaxJSONDepth+1), fmt.Sprintf("line 1, column %d: nesting is deeper than %d levels", devutil.MaxJSONDepth+1, devutil.MaxJSONDepth)},
	}
	for _, tt := range tests {
		res := formatJSON(t, tt.in, 2, false)
		if res.IsValid || res.Error == nil || *res.Error != tt.want {
			got := "<nil>"
			if res.Error != nil {
				got = *res.Error
			}
			t.Errorf("FormatJSON(%q).Error =\n  %s\nwant\n  %s", tt.in, got, tt.want)
		}
		if res.Formatted != "" || res.Minified != "" || res.Type != "" {
			t.Errorf("FormatJSON(%q) gave output for invalid input", tt.in)
		}
	}
}

func TestFormatJSONDepthLimit(t *testing.T) {
	ok := strings.Repeat("[", devutil.MaxJSONDepth) + strings.Repeat("]", devutil.MaxJSONDepth)
	if res := formatJSON(t, ok, 1, false); !res.IsValid {
		t.Errorf("depth %d: %v", devutil.MaxJSONDepth, *res.Error)
	}
	deep := strings.Repeat(`{"a":`, 1<<16) // far deeper than the limit, no crash
	if res := formatJSON(t, deep, 1, true); res.IsValid {
		t.Error("deep input reported valid")
	}
}

func TestFormatJSONSortKeys(t *testing.T) {
	in := `{"b":{"z":1,"y":[{"d":1,"c":2}]},"a":null,"\u0041":0,"b":2}`
	res := formatJSON(t, in, 2, true)
	// "\u0041" is "A", which sorts before "a"; the two "b" keep their order.
	want := `{"\u0041":0,"a":null,"b":{"y":[{"c":2,"d":1}],"z":1},"b":2}`
	if res.Minified != want {
		t.Errorf("minified = %s, want %s", res.Minified, want)
	}
	var indented bytes.Buffer
	_ = json.Indent(&indented, []byte(want), "", "  ")
	if res.Formatted != indented.String() {
		t.Errorf("formatted = %s, want %s", res.Formatted, indented.String())
	}
	if len(res.Warnings) != 1 {
		t.Errorf("warnings = %q, want the duplicate b", res.Warnings)
	}
}

func TestFormatJSONDuplicateKeys(t *testing.T) {
	res := formatJSON(t, "{\"a\":1,\n\"\\u0061\":2, \"b\": {\"a\": 3}}", 2, false)
	want := []string{`duplicate key "a" at line 2, column 1 (first at line 1, column 2); both are kept, most parsers keep only the last`}
	if diff := cmp.Diff(want, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if res.Minified != `{"a":1,"\u0061":2,"b":{"a":3}}` {
		t.Errorf("minified = %s", res.Minified)
	}
	// Many keys switch to a map; duplicates are still found.
	var b strings.Builder
	b.WriteString("{")
	for i := range 40 {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	b.WriteString(`"k3":0,"k39":0}`)
	if res := formatJSON(t, b.String(), 0, false); len(res.Warnings) != 2 {
		t.Errorf("warnings = %q, want 2", res.Warnings)
	}
	// Warnings are bounded.
	b.Reset()
	b.WriteString("[")
	for i := range 150 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"x":1,"x":2}`)
	}
	b.WriteString("]")
	res = formatJSON(t, b.String(), 0, false)
	if len(res.Warnings) != 101 || res.Warnings[100] != "50 more warnings not shown" {
		t.Errorf("got %d warnings, last %q", len(res.Warnings), res.Warnings[len(res.Warnings)-1])
	}
}

func TestFormatJSONInvalidRequest(t *testing.T) {
	for _, req := range []devutil.JSONFormatRequest{
		{Text: ""},
		{Text: "1", Indent: intp(-1)},
		{Text: "1", Indent: intp(9)},
	} {
		_, err := devutil.FormatJSON(context.Background(), req)
		var v *envelope.ValidationError
		if !errors.As(err, &v) {
			t.Errorf("FormatJSON(%+v) err = %v, want ValidationError", req, err)
		}
	}
}

// FuzzFormatJSON checks validity against encoding/json.Valid, the outputs
// against encoding/json.Indent and Compact, and that formatting is
// idempotent.
func FuzzFormatJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}],"c":"\u00e9"}`, `[1e400,-0.0]`, `{"a":1,"a":2}`, `[1,]`, `"\ud800"`, `{"a" 1}`, "\"\xff\"", `[[[[]]]]`, `{"b":1,"a":{"d":[],"c":{}}}`} {
		f.Add(s, 2, false)
	}
	f.Fuzz(func(t *testing.T, text string, indent int, sortKeys bool) {
		if text == "" {
			return
		}
		indent = ((indent % 9) + 9) % 9
		res := formatJSON(t, text, indent, sortKeys)
		stdValid := json.Valid([]byte(text))
		if res.IsValid && !stdValid {
			t.Fatalf("valid here, invalid for encoding/json: %q", text)
		}
		if !res.IsValid {
			if res.Error == nil {
				t.Fatal("invalid without an error")
			}
			// encoding/json accepts invalid UTF-8 and deeper nesting.
			if stdValid && utf8.ValidString(text) && !strings.Contains(*res.Error, "nesting") {
				t.Fatalf("invalid here (%s), valid for encoding/json: %q", *res.Error, text)
			}
			return
		}
		if sortKeys {
			checkSorted(t, text, indent, res)
		} else {
			var ind, com bytes.Buffer
			_ = json.Indent(&ind, []byte(strings.Trim(text, " \t\r\n")), "", strings.Repeat(" ", indent))
			_ = json.Compact(&com, []byte(text))
			if res.Formatted != ind.String() || res.Minified != com.String() {
				t.Fatalf("outputs differ from encoding/json for %q:\n%q\n%q", text, res.Formatted, res.Minified)
			}
		}
		again := formatJSON(t, res.Formatted, indent, sortKeys)
		if !again.IsValid || again.Formatted != res.Formatted || again.Minified != res.Minified || again.Type != res.Type {
			t.Fatalf("not idempotent for %q", text)
		}
	})
}

// bigJSON returns a document of about n bytes: an array of records with
// strings, numbers, nested objects and arrays.
func bigJSON(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	b.WriteString("[")
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"user %d \u00e9","score":%g,"active":%t,"tags":["a","b\n",null],"address":{"city":"Z\u00fcrich","zip":"80%02d","geo":[%f,%f]}}`,
			i, r.IntN(1e6), r.Float64()*1e3, i%2 == 0, r.IntN(100), r.Float64(), r.Float64())
	}
	b.WriteString("]")
	return b.Bytes()
}

// The benchmarks of FormatJSON, unsorted and with sort_keys, against
// encoding/json's Indent and Compact, on documents of 10 MB and 1 MB.
func BenchmarkFormatJSON10MB(b *testing.B) { benchmarkFormatJSON(b, 10<<20) }

func BenchmarkFormatJSON1MB(b *testing.B) { benchmarkFormatJSON(b, 1<<20) }

func benchmarkFormatJSON(b *testing.B, size int) {
	doc := bigJSON(size)
	text := string(doc)
	for _, sortKeys := range []bool{false, true} {
		name := "quiver"
		if sortKeys {
			name = "quiver_sort_keys"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			indent := 2
			for b.Loop() {
				res, _ := devutil.FormatJSON(context.Background(), devutil.JSONFormatRequest{Text: text, Indent: &indent, SortKeys: sortKeys})
				if !res.IsValid {
					b.Fatal(*res.Error)
				}
			}
		})
	}
	b.Run("encoding_json_Indent", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			if err := json.Indent(&buf, doc, "", "  "); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding_json_Indent_and_Compact", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		var buf, buf2 bytes.Buffer
		for b.Loop() {
			buf.Reset()
			buf2.Reset()
			if err := json.Indent(&buf, doc, "", "  "); err != nil {
				b.Fatal(err)
			}
			if err := json.Compact(&buf2, doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestFormatJSONOutputBound: deep nesting multiplies the indentation, so
// a small input could format to gigabytes; the output is bounded.
func TestFormatJSONOutputBound(t *testing.T) {
	nested := strings.Repeat("[", devutil.MaxJSONDepth-1) + strings.Repeat("]", devutil.MaxJSONDepth-1)
	doc := "[" + strings.Repeat(nested+",", 100) + "1]" // 200 KB, ~800 MB at indent 8
	small := "[" + nested + "," + nested + "]"          // 4 KB, ~16 MB at indent 8
	for _, sortKeys := range []bool{false, true} {
		_, err := devutil.FormatJSON(context.Background(), devutil.JSONFormatRequest{Text: small, Indent: intp(8), SortKeys: sortKeys})
		var v *envelope.ValidationError
		if !errors.As(err, &v) || v.Issues[0].Field != "indent" {
			t.Errorf("sort %v, 4 KB: err = %v, want a ValidationError on indent", sortKeys, err)
		}
		if res := formatJSON(t, small, 0, sortKeys); !res.IsValid {
			t.Errorf("sort %v, 4 KB at indent 0: %v", sortKeys, *res.Error)
		}
	}
	for _, sortKeys := range []bool{false, true} {
		_, err := devutil.FormatJSON(context.Background(), devutil.JSONFormatRequest{Text: doc, Indent: intp(8), SortKeys: sortKeys})
		var v *envelope.ValidationError
		if !errors.As(err, &v) || v.Issues[0].Field != "indent" {
			t.Errorf("sort %v: err = %v, want a ValidationError on indent", sortKeys, err)
		}
		// Without indentation the same document formats.
		if res := formatJSON(t, doc, 0, sortKeys); !res.IsValid {
			t.Errorf("sort %v, indent 0: %v", sortKeys, *res.Error)
		}
	}
}

// checkSorted checks a sort_keys result of a valid text against
// encoding/json: the same value (the last of duplicate keys winning, as
// the order of equal keys is kept), every object's keys in order, and
// the formatted output the indentation of the minified one.
func checkSorted(t testing.TB, text string, indent int, res devutil.JSONFormatResult) {
	t.Helper()
	if got, want := decodeNumbers(t, res.Minified), decodeNumbers(t, text); !reflect.DeepEqual(got, want) {
		t.Fatalf("sorted %q is %v, not the value of %q", res.Minified, got, text)
	}
	var ind bytes.Buffer
	_ = json.Indent(&ind, []byte(res.Minified), "", strings.Repeat(" ", indent))
	if res.Formatted != ind.String() {
		t.Fatalf("formatted %q is not the minified %q indented", res.Formatted, res.Minified)
	}
	// Each object's keys, unescaped, never decrease.
	dec := json.NewDecoder(strings.NewReader(res.Minified))
	dec.UseNumber()
	type open struct {
		object  bool
		lastKey *string
		isKey   bool // the next token of an object is a key
	}
	var stack []*open
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("minified %q: %v", res.Minified, err)
		}
		var top *open
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.isKey {
			if d, ok := tok.(json.Delim); !ok || d != '}' {
				key := tok.(string)
				if top.lastKey != nil && key < *top.lastKey {
					t.Fatalf("key %q after %q in %q", key, *top.lastKey, res.Minified)
				}
				top.lastKey, top.isKey = &key, false
				continue
			}
		}
		if top != nil && top.object {
			top.isKey = true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &open{object: true, isKey: true})
		case json.Delim('['):
			stack = append(stack, &open{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].isKey = true
			}
		}
	}
}

// decodeNumbers decodes a valid text, keeping numbers as written.
func decodeNumbers(t testing.TB, text string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %q: %v", text, err)
	}
	return v
}

// randomJSON writes a random value of nesting at most depth, with keys
// out of order, escaped, duplicated and empty.
func randomJSON(r *rand.Rand, b *strings.Builder, depth int) {
	keys := []string{`"b"`, `"a"`, `""`, `"\u0061"`, `"é"`, `"\ud83d\ude00"`, `"\ud800"`, `"a\"b"`, `"zz"`, `"A"`, `"\\"`}
	switch k := r.IntN(6); {
	case depth > 0 && k < 2:
		b.WriteString("{ ")
		for i := range r.IntN(8) {
			if i > 0 {
				b.WriteString(" ,\n")
			}
			b.WriteString(keys[r.IntN(len(keys))])
			b.WriteString(" : ")
			randomJSON(r, b, depth-1)
		}
		b.WriteString("}")
	case depth > 0 && k < 4:
		b.WriteString("[")
		for i := range r.IntN(5) {
			if i > 0 {
				b.WriteString(",")
			}
			randomJSON(r, b, depth-1)
		}
		b.WriteString(" ]")
	default:
		b.WriteString([]string{`1`, `-0.5e+3`, `"s\"}"`, `true`, `null`, `"x\\"`, `12345678901234567890`}[r.IntN(7)])
	}
}

// TestFormatJSONSortKeysRandom checks sort_keys on random documents.
func TestFormatJSONSortKeysRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var b strings.Builder
		randomJSON(r, &b, 4)
		indent := r.IntN(devutil.MaxJSONIndent + 1)
		res := formatJSON(t, b.String(), indent, true)
		if !res.IsValid {
			t.Fatalf("%q: %s", b.String(), *res.Error)
		}
		checkSorted(t, b.String(), indent, res)
	}
}

// TestFormatJSONSortKeysMemory: sorting keys costs about what formatting
// does. For records, beyond its output it allocates at most the input's
// size, in a few dozen blocks, so at most 4 times the input at indent 2;
// it used to build a node per value (17 times the input, 214,053
// allocations for 1 MB).
func TestFormatJSONSortKeysMemory(t *testing.T) {
	var nested strings.Builder
	for i := range 8 {
		fmt.Fprintf(&nested, `{"z%d":[{"b":1,"a":{"d":"x","c":[1,{"y":0,"x":1}]}}],"a":null,"next":`, i)
	}
	nested.WriteString(`0` + strings.Repeat("}", 8))
	for name, text := range map[string]string{
		"records": string(bigJSON(1 << 20)),
		"nested":  "[" + strings.Repeat(nested.String()+",", 1500) + "0]",
		"tiny":    "[" + strings.Repeat(`{},{"a":[]},{"b":0,"a":{}},`, 40000) + "0]",
	} {
		for _, indent := range []int{2, 8} {
			if indent == 8 && name != "records" {
				continue // past the output bound
			}
			t.Run(fmt.Sprint(name, "/", indent), func(t *testing.T) {
				req := devutil.JSONFormatRequest{Text: text, Indent: &indent, SortKeys: true}
				allocs := testing.AllocsPerRun(3, func() {
					if res, err := devutil.FormatJSON(context.Background(), req); err != nil || !res.IsValid {
						t.Fatalf("FormatJSON: %v %v", err, res.Error)
					}
				})
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				res, err := devutil.FormatJSON(context.Background(), req)
				runtime.ReadMemStats(&after)
				if err != nil || !res.IsValid {
					t.Fatalf("FormatJSON: %v %v", err, res.Error)
				}
				in, out, total := uint64(len(text)), uint64(len(res.Formatted)+len(res.Minified)), after.TotalAlloc-before.TotalAlloc
				t.Logf("%d bytes in: %d bytes out, %d allocated in %.0f allocations", in, out, total, allocs)
				// What is recorded of the objects costs at most 16 bytes
				// per object and 8 per member: less than 3 times the input
				// for the tiniest ones.
				if over := total - out; name == "records" && over > in || over > 3*in {
					t.Errorf("sorting %d bytes allocated %d bytes, %d more than its output", in, total, over)
				}
				if name == "records" && indent == 2 && total > 4*in {
					t.Errorf("sorting %d bytes at indent 2 allocated %d bytes, more than 4 times the input", in, total)
				}
				if allocs > 1000 {
					t.Errorf("sorting %d bytes took %.0f allocations, want fewer than 1000", in, allocs)
				}
			})
		}
	}
}

// TestFormatJSONInvalidPastOutputBound: a text that is not JSON is
// reported invalid, and where, even when its formatting would pass the
// output bound before the error is reached (a fuzzing finding).
func TestFormatJSONInvalidPastOutputBound(t *testing.T) {
	text := strings.Repeat("[", devutil.MaxJSONDepth) + "0    "
	for _, sortKeys := range []bool{false, true} {
		res := formatJSON(t, text, 4, sortKeys)
		want := fmt.Sprintf("line 1, column %d: expected ',' or ']' after array element, found end of input", len(text)+1)
		if res.IsValid || res.Error == nil || *res.Error != want {
			t.Errorf("sort %v: valid %v, error %v; want %q", sortKeys, res.IsValid, res.Error, want)
		}
	}
}
