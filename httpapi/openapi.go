package httpapi

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
)

// openAPI renders the OpenAPI 3.1 document of the routes. Schemas come
// from the Go types of each route's request and result, by reflection over
// their json tags, so the document cannot drift from the code: a named
// struct becomes a component schema, a pointer or a nil-able slice may be
// null, a field tagged omitempty is optional, and a field tagged
// openapi:"extension" is described as an extension beyond the
// specification.
func (s *server) openAPI(routes []route) []byte {
	g := &schemaGen{components: map[string]any{}}
	paths := map[string]map[string]any{}
	for _, rt := range routes {
		op := map[string]any{
			"operationId": operationID(rt),
			"summary":     rt.summary,
			"tags":        []string{rt.group},
			"responses":   g.routeResponses(rt),
		}
		if rt.description != "" {
			op["description"] = rt.description
		}
		if rt.query != nil {
			g.request = true
			op["parameters"] = g.queryParameters(rt.query, queryExamples[rt.pattern()])
			g.request = false
		}
		if params := pathParameters(rt.path); len(params) > 0 {
			prev, _ := op["parameters"].([]any)
			op["parameters"] = append(prev, params...)
		}
		switch {
		case rt.form:
			props := map[string]any{"file": map[string]any{"type": "string", "contentMediaType": "text/csv"}}
			for _, f := range rt.formFields {
				props[f] = map[string]any{"type": "boolean", "default": true}
			}
			op["requestBody"] = requestBody(rt, "multipart/form-data", map[string]any{
				"type":       "object",
				"properties": props,
				"required":   []string{"file"},
			})
		case rt.body != nil:
			g.request = true
			op["requestBody"] = requestBody(rt, "application/json", g.schema(rt.body))
			g.request = false
		}
		if paths[rt.path] == nil {
			paths[rt.path] = map[string]any{}
		}
		paths[rt.path][strings.ToLower(rt.method)] = op
	}
	paths["/healthz"] = map[string]any{"get": map[string]any{
		"operationId": "healthz",
		"summary":     "Liveness check; needs no credentials",
		"security":    []any{},
		"responses": map[string]any{
			"200": envelopeResponse("The service is up", map[string]any{"type": "object", "properties": map[string]any{"status": map[string]any{"type": "string", "const": "ok"}}}),
			// The body limit holds for every path, even one that takes no body.
			"413":     responseRef("PayloadTooLarge"),
			"default": responseRef("Error"),
		},
	}}
	var tags []map[string]string
	for _, t := range groups {
		tags = append(tags, map[string]string{"name": t.name, "description": t.description})
	}
	g.components["Error"] = errorSchema()
	g.components["ErrorEnvelope"] = errorEnvelopeSchema()
	g.components["Meta"] = metaSchema()
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":       "Quiver API",
			"version":     "1.0.0",
			"description": "Email verification, web and domain checks, developer utilities, content generation and social data. Every response is the envelope {success, data, error, meta}.",
			"license":     map[string]any{"name": "MIT", "identifier": "MIT"},
		},
		// Relative: the operations are on the server that serves the
		// document, wherever that is.
		"servers": []any{map[string]any{"url": "/", "description": "the server that serves this document"}},
		"tags":    tags,
		"paths":   paths,
		// Every /v1 operation needs both headers (withGateway); /healthz
		// says it needs none.
		"security": []any{map[string]any{"gatewayKey": []string{}, "gatewayHost": []string{}}},
		"components": map[string]any{
			"schemas":   g.components,
			"responses": g.sharedResponses(),
			"securitySchemes": map[string]any{
				"gatewayKey": map[string]any{"type": "apiKey", "in": "header", "name": "X-Gateway-Key",
					"description": "One of the keys the server accepts (cmd/quiver prints the one it generates when none is configured). Required on every /v1 request."},
				"gatewayHost": map[string]any{"type": "apiKey", "in": "header", "name": "X-Gateway-Host",
					"description": "Host name of the addressed service: any non-empty name, or one of the configured hosts when the server restricts them. Required on every /v1 request."},
			},
		},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("httpapi: rendering the OpenAPI document: " + err.Error()) // only maps of plain values
	}
	return b
}

// operationID derives a stable camel-case ID from the method and path:
// "POST /v1/dev/data/base64/encode" becomes "postDevDataBase64Encode".
func operationID(rt route) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(rt.method))
	for _, seg := range strings.FieldsFunc(strings.TrimPrefix(rt.path, "/v1"), func(r rune) bool { return r == '/' || r == '-' || r == '_' }) {
		// A path parameter reads "By<Name>": the ID stays URL-safe,
		// as generators and linters want it.
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			seg = "by" + strings.ToUpper(name[:1]) + strings.TrimSuffix(name[1:], "}")
		}
		b.WriteString(strings.ToUpper(seg[:1]) + seg[1:])
	}
	return b.String()
}

// pathExamples are the examples of the path parameters, by name.
var pathExamples = map[string]any{"id": "3f2a9c0e5b7d41a8b6c2d9e0f1a2b3c4"}

// pathPatterns are the patterns of the path parameters, by name: a job ID
// is 32 lowercase hex digits.
var pathPatterns = map[string]string{"id": "^[0-9a-f]{32}$"}

// pathParameters documents the {name} segments of a path: strings,
// required, with their example.
func pathParameters(path string) []any {
	var params []any
	for _, seg := range strings.Split(path, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			name = strings.TrimSuffix(name, "}")
			params = append(params, map[string]any{
				"name": name, "in": "path", "required": true,
				"schema": map[string]any{"type": "string"}, "example": pathExamples[name],
			})
			if p, ok := pathPatterns[name]; ok {
				params[len(params)-1].(map[string]any)["schema"].(map[string]any)["pattern"] = p
			}
		}
	}
	return params
}

func (g *schemaGen) routeResponses(rt route) map[string]any {
	status := "200"
	if rt.status != 0 {
		status = strconv.Itoa(rt.status)
	}
	var ok map[string]any
	switch {
	case rt.csv != nil:
		ok = map[string]any{
			"description": "Success: the CSV, not the envelope",
			"content":     map[string]any{"text/csv": map[string]any{"schema": map[string]any{"type": "string"}}},
		}
	default:
		ok = envelopeResponse("Success", g.schema(rt.response))
	}
	if rt.ai {
		ok["description"] = "Success; meta carries model, prompt_tokens, completion_tokens and cost_usd"
	}
	out := map[string]any{status: ok, "default": responseRef("Error")}
	for _, e := range errorStatuses {
		out[e.status] = responseRef(e.name)
	}
	if rt.maxBody != 0 {
		name := "PayloadTooLarge_" + operationID(rt)
		g.addResponse(name, "PAYLOAD_TOO_LARGE: the request body is larger than this route's own limit, "+
			strconv.FormatInt(rt.maxBody, 10)+" bytes as configured when this document was served")
		out["413"] = responseRef(name)
	}
	for code, e := range rt.errors {
		g.addResponse(e.name, e.description)
		out[code] = responseRef(e.name)
	}
	return out
}

// addResponse adds a shared error response that some routes use.
func (g *schemaGen) addResponse(name, description string) {
	if g.responses == nil {
		g.responses = map[string]any{}
	}
	g.responses[name] = errorResponse(description)
}

// sharedResponses are the shared responses of every route and those
// that only some use.
func (g *schemaGen) sharedResponses() map[string]any {
	out := errorResponses()
	for name, r := range g.responses {
		out[name] = r
	}
	return out
}

// groups are the tags of the document, in its order.
var groups = []struct{ name, description string }{
	{groupPhotosocial, "Public data of the photo-sharing network: profiles, posts, reels, media, comments, hashtag and general search, and insights on a profile or a post's comments from a language model. Needs a provider (503 without one)."},
	{groupMicroblog, "Public data of the microblogging network: profiles, posts, threads, replies, search and brand mentions, and insights on them. Needs a provider (503 without one)."},
	{groupEmail, "Email lists: bulk validation of addresses (JSON or a CSV upload), disposable and role-account checks, and the mail health of domains (MX, SPF, DMARC). The /v1/email/bulk/jobs routes, bulk verification jobs of up to a million rows, are an extension beyond the specification."},
	{groupUtility, "Web and domain checks: TLS certificate, DNS records, robots.txt, sitemap, URL safety and CORS policy; and the validation of one email address."},
	{groupDev, "Developer utilities: Base64, hashes, JSON formatting, URL parsing, email validation, regular expressions explained or generated, stack traces explained, READMEs written."},
	{groupContent, "Text written by a language model: summaries, meta tags, FAQs, headlines, blog outlines, rewrites, social captions and product descriptions. Summaries and meta tags fall back to extraction without a model; the others answer 503."},
}

// errorStatuses are the failures every operation documents besides
// "default", each a shared response of the error envelope.
var errorStatuses = []struct{ status, name, description string }{
	{"400", "InvalidRequest", "INVALID_REQUEST: the body or a parameter breaks a rule; error.details names the field and the rule"},
	{"401", "Unauthorized", "UNAUTHORIZED: X-Gateway-Key or X-Gateway-Host is missing, repeated or not accepted"},
	{"413", "PayloadTooLarge", "PAYLOAD_TOO_LARGE: the request body is larger than the server's limit (1 MiB unless configured)"},
	{"429", "TooManyRequests", "RATE_LIMIT_EXCEEDED: the key's rate or memory share, or the failed authentications of the client's address or IPv6 /48, are used up, or the answer is too large for the key's memory share (it is charged as it is built, and not sent); Retry-After says when to come back"},
	{"503", "Unavailable", "SERVICE_UNAVAILABLE: the route's provider or model is not configured, or the server is full, also for an answer that its memory budget cannot hold beside the work in flight (then with Retry-After)"},
}

// requestBody is the required body of rt in mediaType, with its example.
func requestBody(rt route, mediaType string, schema any) map[string]any {
	mt := map[string]any{"schema": schema}
	if ex, ok := requestExamples[rt.pattern()]; ok {
		mt["example"] = json.RawMessage(ex)
	}
	return map[string]any{"required": true, "content": map[string]any{mediaType: mt}}
}

// errorResponses are the shared responses of the error envelope.
func errorResponses() map[string]any {
	out := map[string]any{"Error": errorResponse("Any other failure (404, 415, 502, 504, 500...); error.code says why, see the README for the codes and statuses")}
	for _, e := range errorStatuses {
		r := errorResponse(e.description)
		if e.status == "429" || e.status == "503" {
			r["headers"].(map[string]any)["Retry-After"] = map[string]any{"description": "seconds to wait before retrying", "schema": map[string]any{"type": "integer"}}
		}
		out[e.name] = r
	}
	return out
}

func errorResponse(desc string) map[string]any {
	return map[string]any{
		"description": desc,
		"headers":     map[string]any{"X-Request-Id": requestIDHeader()},
		"content":     map[string]any{"application/json": map[string]any{"schema": ref("ErrorEnvelope")}},
	}
}

func requestIDHeader() map[string]any {
	return map[string]any{"description": "the request ID, also in meta.request_id", "schema": map[string]any{"type": "string"}}
}

func responseRef(name string) map[string]any {
	return map[string]any{"$ref": "#/components/responses/" + name}
}

// errorEnvelopeSchema is the envelope of every failure.
func errorEnvelopeSchema() map[string]any {
	return map[string]any{
		"type":     "object",
		"required": []string{"success", "data", "error", "meta"},
		"properties": map[string]any{
			"success": map[string]any{"type": "boolean", "const": false},
			"data":    map[string]any{"type": "null"},
			"error":   ref("Error"),
			"meta":    ref("Meta"),
		},
	}
}

func envelopeResponse(desc string, data any) map[string]any {
	return map[string]any{
		"description": desc,
		"headers":     map[string]any{"X-Request-Id": requestIDHeader()},
		"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
			"type":     "object",
			"required": []string{"success", "data", "error", "meta"},
			"properties": map[string]any{
				"success": map[string]any{"type": "boolean"},
				"data":    data,
				"error":   map[string]any{"oneOf": []any{ref("Error"), map[string]any{"type": "null"}}},
				"meta":    ref("Meta"),
			},
		}}},
	}
}

func errorSchema() map[string]any {
	codes := make([]string, len(envelope.Codes))
	for i, c := range envelope.Codes {
		codes[i] = string(c)
	}
	return map[string]any{
		"type":     "object",
		"required": []string{"code", "message"},
		"properties": map[string]any{
			"code":    map[string]any{"type": "string", "enum": codes},
			"message": map[string]any{"type": "string"},
			"details": map[string]any{"type": "array", "items": map[string]any{
				"type":     "object",
				"required": []string{"field", "issue"},
				"properties": map[string]any{
					"field": map[string]any{"type": "string"},
					"issue": map[string]any{"type": "string"},
				},
			}},
		},
	}
}

func metaSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"request_id":        map[string]any{"type": "string", "pattern": "^req_[0-9A-HJKMNP-TV-Z]{26}$"},
			"model":             map[string]any{"type": "string"},
			"prompt_tokens":     map[string]any{"type": "integer"},
			"completion_tokens": map[string]any{"type": "integer"},
			"cost_usd":          map[string]any{"type": "number"},
		},
	}
}

func ref(name string) map[string]any {
	return map[string]any{"$ref": "#/components/schemas/" + name}
}

// schemaGen turns Go types into JSON Schema, collecting named structs as
// components.
type schemaGen struct {
	components map[string]any
	// request is set while describing request bodies and parameters. Their
	// fields are required only when tagged openapi:"required", because
	// omitempty says nothing about what a caller must send.
	request bool
	// responses are the shared error responses of some routes only
	// (route.errors, and the 413 of a route with its own body limit).
	responses map[string]any
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	rawJSONType  = reflect.TypeFor[json.RawMessage]()
	durationType = reflect.TypeFor[time.Duration]()
	invalidName  = regexp.MustCompile(`[^A-Za-z0-9._-]+`)
)

// componentName names a struct type's schema: "devutil.Base64Result".
// Generic instantiations keep their argument's short name.
func componentName(t reflect.Type) string {
	name := t.Name()
	if i := strings.IndexByte(name, '['); i >= 0 {
		args := name[i+1 : len(name)-1]
		var short []string
		for a := range strings.SplitSeq(args, ",") {
			short = append(short, a[strings.LastIndexByte(a, '/')+1:])
		}
		name = name[:i] + "_" + strings.Join(short, "_")
	}
	pkg := t.PkgPath()
	pkg = pkg[strings.LastIndexByte(pkg, '/')+1:]
	return invalidName.ReplaceAllString(pkg+"."+name, "_")
}

// schema returns the schema of t.
func (g *schemaGen) schema(t reflect.Type) map[string]any {
	if t == nil {
		return map[string]any{}
	}
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t == rawJSONType:
		return map[string]any{}
	case t == durationType:
		return map[string]any{"type": "integer", "description": "nanoseconds"}
	}
	if vals, ok := stringEnums[t]; ok {
		return map[string]any{"type": "string", "enum": vals}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(g.schema(t.Elem()))
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "contentEncoding": "base64"}
		}
		return map[string]any{"type": "array", "items": g.schema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem())}
	case reflect.Struct:
		if t.Name() == "" {
			return g.structSchema(t)
		}
		name := componentName(t)
		if _, ok := g.components[name]; !ok {
			g.components[name] = map[string]any{} // placeholder: breaks recursion
			g.components[name] = g.structSchema(t)
		}
		return ref(name)
	}
	return map[string]any{} // interfaces: any JSON value
}

func (g *schemaGen) structSchema(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	g.addFields(t, props, &required)
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		slices.Sort(required)
		s["required"] = required
	}
	return s
}

// addFields adds t's serialized fields, flattening embedded structs as
// encoding/json does.
func (g *schemaGen) addFields(t reflect.Type, props map[string]any, required *[]string) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, hasTag := sf.Tag.Lookup("json")
		if sf.Anonymous && !hasTag {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				g.addFields(ft, props, required)
				continue
			}
		}
		name := jsonName(sf)
		if name == "" {
			continue
		}
		fs := g.schema(sf.Type)
		if strings.Contains(tag, ",string") {
			fs = map[string]any{"type": "string"}
		}
		if sf.Tag.Get("openapi") == "extension" {
			fs = describe(fs, extensionNote)
		}
		props[name] = fs
		if g.isRequired(sf, tag) {
			*required = append(*required, name)
		}
	}
}

// extensionNote describes a field tagged openapi:"extension": one that
// Quiver adds beyond the specification.
const extensionNote = "Extension beyond the specification (see the README)."

// describe returns a copy of s with a description.
func describe(s map[string]any, desc string) map[string]any {
	out := make(map[string]any, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	out["description"] = desc
	return out
}

// isRequired reports whether a field must be present: in requests when
// tagged openapi:"required", in results unless omitted when empty.
func (g *schemaGen) isRequired(sf reflect.StructField, jsonTag string) bool {
	if g.request {
		return sf.Tag.Get("openapi") == "required"
	}
	return !strings.Contains(jsonTag, "omitempty") && !strings.Contains(jsonTag, "omitzero")
}

// nullable allows null besides what s allows.
func nullable(s map[string]any) map[string]any {
	if typ, ok := s["type"].(string); ok && len(s) <= 3 {
		out := make(map[string]any, len(s))
		for k, v := range s {
			out[k] = v
		}
		out["type"] = []string{typ, "null"}
		if vals, ok := s["enum"].([]string); ok {
			out["enum"] = nullableEnum(vals)
		}
		return out
	}
	return map[string]any{"oneOf": []any{s, map[string]any{"type": "null"}}}
}

// queryParameters describes the query parameters of a GET route, with
// the example values given.
func (g *schemaGen) queryParameters(t reflect.Type, examples map[string]any) []any {
	var params []any
	for i := range t.NumField() {
		sf := t.Field(i)
		name := jsonName(sf)
		if name == "" {
			continue
		}
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		p := map[string]any{"name": name, "in": "query", "schema": g.schema(ft)}
		if g.isRequired(sf, "") {
			p["required"] = true
		}
		if ft.Kind() == reflect.Slice {
			p["style"] = "form"
			p["explode"] = false
		}
		if ex, ok := examples[name]; ok {
			p["example"] = ex
		}
		params = append(params, p)
	}
	return params
}
