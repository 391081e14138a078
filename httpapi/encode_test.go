package httpapi

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
)

type encodeInner struct {
	A int `json:"a,omitempty"`
}

type encodeTricky struct {
	encodeInner
	S     string            `json:"s"`
	Omit  string            `json:"omit,omitempty"`
	Ptr   *int              `json:"ptr"`
	Nil   []string          `json:"nil"`
	Empty []string          `json:"empty"`
	M     map[string]int    `json:"m"`
	IntK  map[int]string    `json:"int_k"`
	B     []byte            `json:"b"`
	Raw   json.RawMessage   `json:"raw"`
	T     time.Time         `json:"t"`
	F     []float64         `json:"f"`
	Any   any               `json:"any"`
	Str   int               `json:"str,string"`
	Err   *envelope.Error   `json:"err,omitempty"`
	Dur   time.Duration     `json:"dur"`
	Arr   [2]byte           `json:"arr"`
	Iface map[string]any    `json:"iface"`
	NilM  map[string]string `json:"nil_m"`
	skip  int
}

// TestEncodeJSONMatchesEncodingJSON: the streaming encoder of the answers
// writes what encoding/json's Encoder with SetEscapeHTML(false) does, byte
// for byte, so that the wire does not change with it; but for one
// spelling: a byte of invalid UTF-8 becomes U+FFFD in both, written as
// the character rather than the escape \ufffd (the same JSON string, in
// half the bytes).
func TestEncodeJSONMatchesEncodingJSON(t *testing.T) {
	seven := 7
	values := []any{
		nil, 1, "x", []int(nil), map[string]any(nil),
		"<a href='x'>&amp;</a> \u2028\u2029 \x01\x7f \xff\xfe invalid, é 日本",
		encodeTricky{
			encodeInner: encodeInner{A: 3}, S: "a\"b\\c\n\t", Ptr: &seven, Empty: []string{},
			M: map[string]int{"z": 1, "a": 2, "é": 3}, IntK: map[int]string{10: "x", 2: "y"},
			B: []byte{0, 1, 2, 250}, Raw: json.RawMessage(`{ "b" : [1, 2 ] ,"a":"<>"}`),
			T:   time.Date(2024, 1, 2, 3, 4, 5, 600, time.FixedZone("x", 3600)),
			F:   []float64{0, -0.0, 0.1, 1e21, 1e-7, 123456789, math.MaxFloat64, 5e-324},
			Any: []any{1.5, "s", nil, true, map[string]any{"k": []any{}}}, Str: 42,
			Err: &envelope.Error{Code: envelope.CodeInvalidRequest, Message: "m", Details: []envelope.FieldIssue{{Field: "f", Issue: "i"}}},
			Dur: time.Second, Arr: [2]byte{1, 2}, Iface: map[string]any{"b": 1, "a": []int{}}, skip: 1,
		},
		envelope.Success(map[string]any{"results": []encodeTricky{{}, {S: strings.Repeat("long ", 5000)}}}, envelope.Meta{RequestID: "req_1", Usage: &llm.Usage{Model: "m", PromptTokens: 1}}),
	}
	for i, v := range values {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		var got answerBuffer
		got.reset(nil)
		if err := encodeJSON(&got, v); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if !bytes.Equal(got.bytes(), bytes.ReplaceAll(want.Bytes(), []byte(`\ufffd`), []byte("\ufffd"))) {
			t.Errorf("%d:\ngot  %.600s\nwant %.600s", i, got.bytes(), want.Bytes())
		}
	}
	// What encoding/json cannot encode fails here too.
	var got answerBuffer
	got.reset(nil)
	if err := encodeJSON(&got, map[string]float64{"x": math.NaN()}); err == nil {
		t.Error("NaN encoded")
	}
}
