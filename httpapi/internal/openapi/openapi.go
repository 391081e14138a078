// Package openapi holds the parts of an OpenAPI 3.1 document that package
// httpapi writes, as plain Go values that encoding/json renders.
//
// The fields of each type are in the order of their JSON names, so that
// the document lists its keys sorted, as an encoded map does: the encoding
// is canonical, and stays so when a field is added in its place. Optional
// keys carry omitempty; omitzero marks a key that is written whenever it
// is set, even empty (the empty security of /healthz, the empty properties
// of a struct without fields).
package openapi

import (
	"encoding/json"
	"net/http"
)

// Document is the OpenAPI document.
type Document struct {
	Components Components `json:"components"`
	Info       Info       `json:"info"`
	OpenAPI    string     `json:"openapi"`
	// Paths are the operations, by path.
	Paths map[string]*PathItem `json:"paths"`
	// Security is what every operation needs unless it says otherwise.
	Security []SecurityRequirement `json:"security"`
	Servers  []Server              `json:"servers"`
	Tags     []Tag                 `json:"tags"`
}

// Info is the document's title, version, description and license.
type Info struct {
	Description string  `json:"description"`
	License     License `json:"license"`
	Title       string  `json:"title"`
	Version     string  `json:"version"`
}

// License names the license of the API by its SPDX identifier.
type License struct {
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
}

// Server is one server that serves the operations.
type Server struct {
	Description string `json:"description"`
	URL         string `json:"url"`
}

// Tag is a group of operations.
type Tag struct {
	Description string `json:"description"`
	Name        string `json:"name"`
}

// SecurityRequirement names the security schemes that must all hold, each
// with its (empty) scopes.
type SecurityRequirement map[string][]string

// SecurityScheme is an API key in a header.
type SecurityScheme struct {
	Description string `json:"description"`
	In          string `json:"in"`
	Name        string `json:"name"`
	Type        string `json:"type"`
}

// Components are the shared responses, schemas and security schemes,
// by name.
type Components struct {
	Responses       map[string]*Response      `json:"responses"`
	Schemas         map[string]*Schema        `json:"schemas"`
	SecuritySchemes map[string]SecurityScheme `json:"securitySchemes"`
}

// PathItem holds the operations of one path, by method.
type PathItem struct {
	Delete *Operation `json:"delete,omitempty"`
	Get    *Operation `json:"get,omitempty"`
	Post   *Operation `json:"post,omitempty"`
}

// Set sets the operation of an HTTP method: GET, POST or DELETE.
func (p *PathItem) Set(method string, op *Operation) {
	switch method {
	case http.MethodGet:
		p.Get = op
	case http.MethodPost:
		p.Post = op
	case http.MethodDelete:
		p.Delete = op
	default:
		panic("openapi: no field for method " + method)
	}
}

// Operation is one route in the document.
type Operation struct {
	Description string       `json:"description,omitempty"`
	OperationID string       `json:"operationId"`
	Parameters  []*Parameter `json:"parameters,omitempty"`
	RequestBody *RequestBody `json:"requestBody,omitempty"`
	// Responses are the answers, by status ("200", "default").
	Responses map[string]*Response `json:"responses"`
	// Security, when set, replaces the document's: empty, the operation
	// needs no credentials.
	Security []SecurityRequirement `json:"security,omitzero"`
	Summary  string                `json:"summary"`
	Tags     []string              `json:"tags,omitempty"`
}

// Parameter is a query or path parameter.
type Parameter struct {
	Example  any     `json:"example,omitempty"`
	Explode  *bool   `json:"explode,omitempty"`
	In       string  `json:"in"` // "query" or "path"
	Name     string  `json:"name"`
	Required bool    `json:"required,omitempty"`
	Schema   *Schema `json:"schema"`
	Style    string  `json:"style,omitempty"`
}

// RequestBody is the body of an operation, by media type.
type RequestBody struct {
	Content  map[string]MediaType `json:"content"`
	Required bool                 `json:"required"`
}

// MediaType is the schema of a body in one media type, with its example.
type MediaType struct {
	Example json.RawMessage `json:"example,omitempty"`
	Schema  *Schema         `json:"schema"`
}

// Response is an answer of an operation, or a reference to a shared one.
type Response struct {
	Ref         string               `json:"$ref,omitempty"`
	Content     map[string]MediaType `json:"content,omitempty"`
	Description string               `json:"description,omitempty"`
	Headers     map[string]Header    `json:"headers,omitempty"`
}

// Header is a response header.
type Header struct {
	Description string  `json:"description"`
	Schema      *Schema `json:"schema"`
}

// Schema is a JSON Schema (2020-12), as far as the document uses it. The
// zero schema allows any value.
type Schema struct {
	Ref                  string             `json:"$ref,omitempty"`
	AdditionalProperties *Schema            `json:"additionalProperties,omitempty"`
	Const                any                `json:"const,omitempty"`
	ContentEncoding      string             `json:"contentEncoding,omitempty"`
	ContentMediaType     string             `json:"contentMediaType,omitempty"`
	Default              any                `json:"default,omitempty"`
	Description          string             `json:"description,omitempty"`
	Enum                 []any              `json:"enum,omitempty"`
	Format               string             `json:"format,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	OneOf                []*Schema          `json:"oneOf,omitempty"`
	Pattern              string             `json:"pattern,omitempty"`
	Properties           map[string]*Schema `json:"properties,omitzero"`
	Required             []string           `json:"required,omitempty"`
	Type                 Types              `json:"type,omitempty"`
}

// Types is the type keyword: one type name, or several (a type and
// "null").
type Types []string

// MarshalJSON writes one type as a string, several as an array.
func (t Types) MarshalJSON() ([]byte, error) {
	if len(t) == 1 {
		return json.Marshal(t[0])
	}
	return json.Marshal([]string(t))
}

// Typed returns the schema of one JSON type.
func Typed(name string) *Schema { return &Schema{Type: Types{name}} }

// Enum returns the values of a string type as the values of an enum.
func Enum[S ~string](vals []S) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}
