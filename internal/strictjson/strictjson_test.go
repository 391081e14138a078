package strictjson_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/strictjson"
	"github.com/quiverkit/quiver/internal/textcut"
)

type inner struct {
	Flag bool `json:"flag"`
}

type request struct {
	Name   string   `json:"name"`
	Count  int      `json:"count"`
	Ratio  float64  `json:"ratio"`
	Tags   []string `json:"tags"`
	Inner  *inner   `json:"inner"`
	Weight *int     `json:"weight"`
}

func TestUnmarshal(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantField string // "" with wantRule "" means success
		wantRule  string
	}{
		{"ok", `{"name":"a","count":2,"tags":["x"],"inner":{"flag":true}}`, "", ""},
		{"null member is absent", `{"weight":null}`, "", ""},
		{"white space after", "{}\n\t ", "", ""},
		{"case folded name", `{"Name":"a"}`, "Name", "is not a known field"},
		{"ASCII case folded nested", `{"inner":{"FLAG":true}}`, "inner.FLAG", "is not a known field"},
		{"duplicate name", `{"name":"a","name":"b"}`, "name", "is given twice"},
		{"invalid UTF-8", "{\"name\":\"\xff\"}", "name", "must be valid UTF-8"},
		{"lone surrogate", `{"name":"\ud800"}`, "name", "lone surrogates"},
		{"unknown member", `{"nope":1}`, "nope", "is not a known field"},
		{"null in array", `{"tags":["a",null]}`, "tags[1]", "not null"},
		{"trailing data", `{} {}`, "", "unexpected data after the JSON value"},
		{"not an object", `[1]`, "", "must be a JSON object"},
		{"wrong type", `{"count":"2"}`, "count", "must be an integer, not string"},
		{"fraction for integer", `{"count":1.5}`, "count", "must be an integer, not 1.5"},
		{"integer overflow", `{"count":1e400}`, "count", "out of range"},
		{"truncated", `{"name":`, "", "unexpected end of input"},
		{"syntax error position", "{\n  \"name\": tru}", "", "line 2, column"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var req request
			err := strictjson.Unmarshal([]byte(tt.body), &req)
			if tt.wantRule == "" {
				if err != nil {
					t.Fatalf("Unmarshal(%q) = %v, want nil", tt.body, err)
				}
				return
			}
			var verr *envelope.ValidationError
			if !errors.As(err, &verr) || len(verr.Issues) != 1 {
				t.Fatalf("Unmarshal(%q) = %#v, want one validation issue", tt.body, err)
			}
			got := verr.Issues[0]
			if got.Field != tt.wantField || !strings.Contains(got.Issue, tt.wantRule) {
				t.Errorf("Unmarshal(%q) = field %q issue %q, want field %q issue containing %q", tt.body, got.Field, got.Issue, tt.wantField, tt.wantRule)
			}
		})
	}
}

func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`{"name":"a","tags":["b"]}`, `{"name":"a","name":"b"}`, "{\"name\":\"\xff\"}", `{"count":1e400}`, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req request
		err := strictjson.Unmarshal(body, &req)
		if err == nil {
			return
		}
		var verr *envelope.ValidationError
		if !errors.As(err, &verr) || len(verr.Issues) == 0 {
			t.Fatalf("Unmarshal(%q) = %T %v, want a validation error", body, err, err)
		}
		for _, is := range verr.Issues {
			if len(is.Field) > 4*textcut.MaxExcerpt+64 || len(is.Issue) > 1024 {
				t.Fatalf("issue too long for %q: %+v", body, is)
			}
		}
	})
}

func ExampleUnmarshal() {
	var req struct {
		Name string `json:"name"`
	}
	err := strictjson.Unmarshal([]byte(`{"name":"a","name":"b"}`), &req)
	fmt.Println(err)
	// Output:
	// invalid request: name: is given twice: each member name must appear once in an object
}

// TestDescribe: an encoding/json type error reads in JSON's words, with
// its path and without Go's names, and still unwraps to itself.
func TestDescribe(t *testing.T) {
	type Embedded struct {
		Name string `json:"name"`
	}
	var v struct {
		Embedded
		Data struct {
			Count int `json:"count"`
		} `json:"data"`
		On bool `json:"on"`
	}
	tests := []struct{ body, want string }{
		{`{"data":{"count":"7"}}`, "at data.count: a JSON string where an integer belongs"},
		{`{"name":7}`, "at name: a JSON number where a string belongs"},
		{`{"on":[]}`, "at on: a JSON array where a boolean belongs"},
		{`[1]`, "a JSON array where an object belongs"},
		{`{"data":{"count":-5.5}}`, "at data.count: a JSON number where an integer belongs"},
	}
	for _, tt := range tests {
		err := strictjson.Describe(json.Unmarshal([]byte(tt.body), &v))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.body, err, tt.want)
		}
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Errorf("%s: errors.As finds no *json.UnmarshalTypeError", tt.body)
		}
	}
	syntax := json.Unmarshal([]byte(`{`), &v)
	if strictjson.Describe(syntax) != syntax || strictjson.Describe(nil) != nil {
		t.Error("Describe changed an error that is not a type error")
	}
}
