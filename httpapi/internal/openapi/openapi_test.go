package openapi

import (
	"encoding/json"
	"testing"
)

// TestEncoding pins the rules the types' tags carry: one type is a
// string and several an array, a set but empty security or properties is
// written while an unset one is not, a false const or explode is written,
// an enum keeps its order and may hold null, and keys come out sorted.
func TestEncoding(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"zero schema", &Schema{}, `{}`},
		{"one type", Typed("string"), `{"type":"string"}`},
		{"type and null", &Schema{Type: Types{"string", "null"}}, `{"type":["string","null"]}`},
		{"false const", &Schema{Type: Types{"boolean"}, Const: false}, `{"const":false,"type":"boolean"}`},
		{"empty properties", &Schema{Type: Types{"object"}, Properties: map[string]*Schema{}}, `{"properties":{},"type":"object"}`},
		{"sorted keys", &Schema{Ref: "#/x", Description: "d", AdditionalProperties: &Schema{}}, `{"$ref":"#/x","additionalProperties":{},"description":"d"}`},
		{"no security", &Operation{OperationID: "o", Summary: "s"}, `{"operationId":"o","responses":null,"summary":"s"}`},
		{"empty security", &Operation{OperationID: "o", Summary: "s", Security: []SecurityRequirement{}}, `{"operationId":"o","responses":null,"security":[],"summary":"s"}`},
		{"explode false", &Parameter{Name: "k", In: "query", Explode: new(false), Style: "form", Schema: Typed("array")},
			`{"explode":false,"in":"query","name":"k","schema":{"type":"array"},"style":"form"}`},
		{"enum", &Schema{Type: Types{"string"}, Enum: Enum([]string{"b", "a"})}, `{"enum":["b","a"],"type":"string"}`},
		{"enum with null", &Schema{Type: Types{"string", "null"}, Enum: []any{"a", nil}}, `{"enum":["a",null],"type":["string","null"]}`},
		{"raw example", MediaType{Example: json.RawMessage(`{"b":1,"a":2}`), Schema: &Schema{}}, `{"example":{"b":1,"a":2},"schema":{}}`},
	} {
		got, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if string(got) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestPathItemSet(t *testing.T) {
	var p PathItem
	get, post, del := &Operation{OperationID: "g"}, &Operation{OperationID: "p"}, &Operation{OperationID: "d"}
	p.Set("GET", get)
	p.Set("POST", post)
	p.Set("DELETE", del)
	if p.Get != get || p.Post != post || p.Delete != del {
		t.Errorf("Set put the operations at get %v, post %v, delete %v", p.Get, p.Post, p.Delete)
	}
	defer func() {
		if recover() == nil {
			t.Error("Set of PATCH did not panic")
		}
	}()
	p.Set("PATCH", get)
}
