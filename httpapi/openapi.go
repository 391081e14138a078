package httpapi

import (
	"encoding/json"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/httpapi/internal/openapi"
	"github.com/quiverkit/quiver/mailauth"
)

// openAPI renders the OpenAPI 3.1 document of the routes. Schemas come
// from the Go types of each route's request and result, by reflection over
// their json tags, so the document cannot drift from the code: a named
// struct becomes a component schema, a pointer or a nil-able slice may be
// null, a field tagged omitempty is optional, and a field tagged
// openapi:"extension" is described as an extension beyond the
// contract.
func (s *server) openAPI(routes []route) []byte {
	g := &schemaGen{components: map[string]*openapi.Schema{}}
	paths := map[string]*openapi.PathItem{}
	for _, rt := range routes {
		item := paths[rt.path]
		if item == nil {
			item = &openapi.PathItem{}
			paths[rt.path] = item
		}
		item.Set(rt.method, g.operation(rt))
	}
	paths["/healthz"] = &openapi.PathItem{Get: &openapi.Operation{
		OperationID: "healthz",
		Summary:     "Liveness check; needs no credentials",
		Security:    []openapi.SecurityRequirement{},
		Responses: map[string]*openapi.Response{
			"200": envelopeResponse("The service is up", &openapi.Schema{Type: openapi.Types{"object"}, Properties: map[string]*openapi.Schema{
				"status": {Type: openapi.Types{"string"}, Const: "ok"},
			}}),
			// The body limit holds for every path, even one that takes no body.
			"413":     responseRef("PayloadTooLarge"),
			"default": responseRef("Error"),
		},
	}}
	var tags []openapi.Tag
	for _, t := range groups {
		tags = append(tags, openapi.Tag{Name: t.name, Description: t.description})
	}
	g.components["Error"] = errorSchema()
	g.components["ErrorEnvelope"] = errorEnvelopeSchema()
	g.components["Meta"] = metaSchema()
	doc := openapi.Document{
		OpenAPI: "3.1.0",
		Info: openapi.Info{
			Title:       "Quiver API",
			Version:     "1.0.0",
			Description: "Email verification, web and domain checks, developer utilities, content generation and social data. Every response is the envelope {success, data, error, meta}.",
			License:     openapi.License{Name: "MIT", Identifier: "MIT"},
		},
		// Relative: the operations are on the server that serves the
		// document, wherever that is.
		Servers: []openapi.Server{{URL: "/", Description: "the server that serves this document"}},
		Tags:    tags,
		Paths:   paths,
		// Every /v1 operation needs both headers (withGateway); /healthz
		// says it needs none.
		Security: []openapi.SecurityRequirement{{"gatewayKey": {}, "gatewayHost": {}}},
		Components: openapi.Components{
			Schemas:   g.components,
			Responses: g.sharedResponses(),
			SecuritySchemes: map[string]openapi.SecurityScheme{
				"gatewayKey": {Type: "apiKey", In: "header", Name: "X-Gateway-Key",
					Description: "One of the keys the server accepts (cmd/quiver prints the one it generates when none is configured). Required on every /v1 request."},
				"gatewayHost": {Type: "apiKey", In: "header", Name: "X-Gateway-Host",
					Description: "Host name of the addressed service: any non-empty name, or one of the configured hosts when the server restricts them. Required on every /v1 request."},
			},
		},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("httpapi: rendering the OpenAPI document: " + err.Error()) // only plain values and checked examples
	}
	return b
}

// operation describes rt.
func (g *schemaGen) operation(rt route) *openapi.Operation {
	op := &openapi.Operation{
		OperationID: operationID(rt),
		Summary:     rt.summary,
		Tags:        []string{rt.group},
		Description: rt.description,
		Responses:   g.routeResponses(rt),
	}
	if rt.query != nil {
		g.request = true
		op.Parameters = g.queryParameters(rt.query, rt.requestExample)
		g.request = false
	}
	op.Parameters = append(op.Parameters, pathParameters(rt.path)...)
	switch {
	case rt.form:
		props := map[string]*openapi.Schema{"file": {Type: openapi.Types{"string"}, ContentMediaType: "text/csv"}}
		for _, f := range rt.formFields {
			props[f] = &openapi.Schema{Type: openapi.Types{"boolean"}, Default: true}
		}
		op.RequestBody = requestBodyOf(rt, "multipart/form-data", &openapi.Schema{
			Type:       openapi.Types{"object"},
			Properties: props,
			Required:   []string{"file"},
		})
	case rt.body != nil:
		g.request = true
		op.RequestBody = requestBodyOf(rt, "application/json", g.schema(rt.body))
		g.request = false
	}
	return op
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
var pathExamples = map[string]string{"id": "3f2a9c0e5b7d41a8b6c2d9e0f1a2b3c4"}

// pathPatterns are the patterns of the path parameters, by name: a job ID
// is 32 lowercase hex digits.
var pathPatterns = map[string]string{"id": "^[0-9a-f]{32}$"}

// pathParameters documents the {name} segments of a path: strings,
// required, with their example.
func pathParameters(path string) []*openapi.Parameter {
	var params []*openapi.Parameter
	for _, seg := range strings.Split(path, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			name = strings.TrimSuffix(name, "}")
			p := &openapi.Parameter{
				Name: name, In: "path", Required: true,
				Schema: &openapi.Schema{Type: openapi.Types{"string"}, Pattern: pathPatterns[name]},
			}
			if ex, ok := pathExamples[name]; ok {
				p.Example = ex
			}
			params = append(params, p)
		}
	}
	return params
}

func (g *schemaGen) routeResponses(rt route) map[string]*openapi.Response {
	status := "200"
	if rt.status != 0 {
		status = strconv.Itoa(rt.status)
	}
	var ok *openapi.Response
	switch {
	case rt.csv != nil:
		ok = &openapi.Response{
			Description: "Success: the CSV, not the envelope",
			Content:     map[string]openapi.MediaType{"text/csv": {Schema: openapi.Typed("string")}},
		}
	default:
		ok = envelopeResponse("Success", g.schema(rt.response))
	}
	if rt.ai {
		ok.Description = "Success; meta carries model, prompt_tokens, completion_tokens and cost_usd"
	}
	out := map[string]*openapi.Response{status: ok, "default": responseRef("Error")}
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
		g.responses = map[string]*openapi.Response{}
	}
	g.responses[name] = errorResponse(description)
}

// sharedResponses are the shared responses of every route and those
// that only some use.
func (g *schemaGen) sharedResponses() map[string]*openapi.Response {
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
	{groupEmail, "Email lists: bulk validation of addresses (JSON or a CSV upload), disposable and role-account checks, and the mail health of domains (MX, SPF, DMARC). The /v1/email/bulk/jobs routes, bulk verification jobs of up to a million rows, are an extension beyond the contract."},
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

// requestBodyOf is the required body of rt in media, with its example.
func requestBodyOf(rt route, media string, s *openapi.Schema) *openapi.RequestBody {
	mt := openapi.MediaType{Schema: s}
	if rt.requestExample != "" {
		mt.Example = json.RawMessage(rt.requestExample)
	}
	return &openapi.RequestBody{Required: true, Content: map[string]openapi.MediaType{media: mt}}
}

// errorResponses are the shared responses of the error envelope.
func errorResponses() map[string]*openapi.Response {
	out := map[string]*openapi.Response{"Error": errorResponse("Any other failure (404, 415, 502, 504, 500...); error.code says why, see docs/http-api.md for the codes and statuses")}
	for _, e := range errorStatuses {
		r := errorResponse(e.description)
		if e.status == "429" || e.status == "503" {
			r.Headers["Retry-After"] = openapi.Header{Description: "seconds to wait before retrying", Schema: openapi.Typed("integer")}
		}
		out[e.name] = r
	}
	return out
}

func errorResponse(desc string) *openapi.Response {
	return &openapi.Response{
		Description: desc,
		Headers:     map[string]openapi.Header{"X-Request-Id": requestIDHeader()},
		Content:     map[string]openapi.MediaType{"application/json": {Schema: ref("ErrorEnvelope")}},
	}
}

func requestIDHeader() openapi.Header {
	return openapi.Header{Description: "the request ID, also in meta.request_id", Schema: openapi.Typed("string")}
}

func responseRef(name string) *openapi.Response {
	return &openapi.Response{Ref: "#/components/responses/" + name}
}

// errorEnvelopeSchema is the envelope of every failure.
func errorEnvelopeSchema() *openapi.Schema {
	return &openapi.Schema{
		Type:     openapi.Types{"object"},
		Required: []string{"success", "data", "error", "meta"},
		Properties: map[string]*openapi.Schema{
			"success": {Type: openapi.Types{"boolean"}, Const: false},
			"data":    openapi.Typed("null"),
			"error":   ref("Error"),
			"meta":    ref("Meta"),
		},
	}
}

func envelopeResponse(desc string, data *openapi.Schema) *openapi.Response {
	return &openapi.Response{
		Description: desc,
		Headers:     map[string]openapi.Header{"X-Request-Id": requestIDHeader()},
		Content: map[string]openapi.MediaType{"application/json": {Schema: &openapi.Schema{
			Type:     openapi.Types{"object"},
			Required: []string{"success", "data", "error", "meta"},
			Properties: map[string]*openapi.Schema{
				"success": openapi.Typed("boolean"),
				"data":    data,
				"error":   {OneOf: []*openapi.Schema{ref("Error"), openapi.Typed("null")}},
				"meta":    ref("Meta"),
			},
		}}},
	}
}

func errorSchema() *openapi.Schema {
	return &openapi.Schema{
		Type:     openapi.Types{"object"},
		Required: []string{"code", "message"},
		Properties: map[string]*openapi.Schema{
			"code":    {Type: openapi.Types{"string"}, Enum: openapi.Enum(envelope.Codes)},
			"message": openapi.Typed("string"),
			"details": {Type: openapi.Types{"array"}, Items: &openapi.Schema{
				Type:     openapi.Types{"object"},
				Required: []string{"field", "issue"},
				Properties: map[string]*openapi.Schema{
					"field": openapi.Typed("string"),
					"issue": openapi.Typed("string"),
				},
			}},
		},
	}
}

func metaSchema() *openapi.Schema {
	return &openapi.Schema{
		Type: openapi.Types{"object"},
		Properties: map[string]*openapi.Schema{
			"request_id":        {Type: openapi.Types{"string"}, Pattern: "^req_[0-9A-HJKMNP-TV-Z]{26}$"},
			"model":             openapi.Typed("string"),
			"prompt_tokens":     openapi.Typed("integer"),
			"completion_tokens": openapi.Typed("integer"),
			"cost_usd":          openapi.Typed("number"),
		},
	}
}

func ref(name string) *openapi.Schema {
	return &openapi.Schema{Ref: "#/components/schemas/" + name}
}

// schemaGen turns Go types into JSON Schema, collecting named structs as
// components.
type schemaGen struct {
	components map[string]*openapi.Schema
	// request is set while describing request bodies and parameters. Their
	// fields are required only when tagged openapi:"required", because
	// omitempty says nothing about what a caller must send.
	request bool
	// responses are the shared error responses of some routes only
	// (route.errors, and the 413 of a route with its own body limit).
	responses map[string]*openapi.Response
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	rawJSONType  = reflect.TypeFor[json.RawMessage]()
	durationType = reflect.TypeFor[time.Duration]()
	invalidName  = regexp.MustCompile(`[^A-Za-z0-9._-]+`)
)

// servedNames keeps the component names the document served before a
// type moved or was renamed: the schema of a type listed here is named
// as given, not after its package and name. Clients generated from the
// document keep their type names.
var servedNames = map[reflect.Type]string{
	// The record checks of domain health moved from email to mailauth,
	// whose parsed records took the Record suffix.
	reflect.TypeFor[mailauth.MTASTS]():          "email.MTASTS",
	reflect.TypeFor[mailauth.TLSRPT]():          "email.TLSRPT",
	reflect.TypeFor[mailauth.BIMI]():            "email.BIMI",
	reflect.TypeFor[mailauth.DKIM]():            "email.DKIM",
	reflect.TypeFor[mailauth.DKIMSelectorKey](): "email.DKIMSelectorKey",
	reflect.TypeFor[mailauth.DNSSEC]():          "email.DNSSEC",
	reflect.TypeFor[mailauth.TLSRPTRecord]():    "mailauth.TLSRPT",
	reflect.TypeFor[mailauth.BIMIRecord]():      "mailauth.BIMI",
}

// A fieldKey names a field of a struct type.
type fieldKey struct {
	owner reflect.Type
	name  string
}

// servedFieldTypes describes a field by another type of the same JSON
// shape, to keep the document served before a type moved. The findings
// of the record checks are mailauth.Problem values in Go; domain health
// converts them to email.Problem under the same codes, and the document
// keeps describing them as email.Problem, whose code list covers them.
var servedFieldTypes = map[fieldKey]reflect.Type{
	{reflect.TypeFor[mailauth.MTASTS](), "Problems"}: reflect.TypeFor[[]email.Problem](),
	{reflect.TypeFor[mailauth.TLSRPT](), "Problems"}: reflect.TypeFor[[]email.Problem](),
	{reflect.TypeFor[mailauth.BIMI](), "Problems"}:   reflect.TypeFor[[]email.Problem](),
	{reflect.TypeFor[mailauth.DKIM](), "Problems"}:   reflect.TypeFor[[]email.Problem](),
	{reflect.TypeFor[mailauth.DNSSEC](), "Problems"}: reflect.TypeFor[[]email.Problem](),
}

// componentName names a struct type's schema: "devutil.Base64Result",
// or its name in servedNames. Generic instantiations keep their
// argument's short name.
func componentName(t reflect.Type) string {
	if name, ok := servedNames[t]; ok {
		return name
	}
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
func (g *schemaGen) schema(t reflect.Type) *openapi.Schema {
	if t == nil {
		return &openapi.Schema{}
	}
	switch {
	case t == timeType:
		return &openapi.Schema{Type: openapi.Types{"string"}, Format: "date-time"}
	case t == rawJSONType:
		return &openapi.Schema{}
	case t == durationType:
		return &openapi.Schema{Type: openapi.Types{"integer"}, Description: "nanoseconds"}
	}
	if vals, ok := stringEnums[t]; ok {
		return &openapi.Schema{Type: openapi.Types{"string"}, Enum: openapi.Enum(vals)}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(g.schema(t.Elem()))
	case reflect.Bool:
		return openapi.Typed("boolean")
	case reflect.String:
		return openapi.Typed("string")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return openapi.Typed("integer")
	case reflect.Float32, reflect.Float64:
		return openapi.Typed("number")
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return &openapi.Schema{Type: openapi.Types{"string"}, ContentEncoding: "base64"}
		}
		return &openapi.Schema{Type: openapi.Types{"array"}, Items: g.schema(t.Elem())}
	case reflect.Map:
		return &openapi.Schema{Type: openapi.Types{"object"}, AdditionalProperties: g.schema(t.Elem())}
	case reflect.Struct:
		if t.Name() == "" {
			return g.structSchema(t)
		}
		name := componentName(t)
		if _, ok := g.components[name]; !ok {
			g.components[name] = &openapi.Schema{} // placeholder: breaks recursion
			g.components[name] = g.structSchema(t)
		}
		return ref(name)
	}
	return &openapi.Schema{} // interfaces: any JSON value
}

func (g *schemaGen) structSchema(t reflect.Type) *openapi.Schema {
	s := &openapi.Schema{Type: openapi.Types{"object"}, Properties: map[string]*openapi.Schema{}}
	g.addFields(t, s)
	slices.Sort(s.Required)
	return s
}

// addFields adds t's serialized fields to s, flattening embedded structs
// as encoding/json does.
func (g *schemaGen) addFields(t reflect.Type, s *openapi.Schema) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, hasTag := sf.Tag.Lookup("json")
		if sf.Anonymous && !hasTag {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				g.addFields(ft, s)
				continue
			}
		}
		name := jsonName(sf)
		if name == "" {
			continue
		}
		ft := sf.Type
		if u, ok := servedFieldTypes[fieldKey{t, sf.Name}]; ok {
			ft = u
		}
		fs := g.schema(ft)
		if strings.Contains(tag, ",string") {
			fs = openapi.Typed("string")
		}
		if sf.Tag.Get("openapi") == "extension" {
			fs = describe(fs, extensionNote)
		}
		s.Properties[name] = fs
		if g.isRequired(sf, tag) {
			s.Required = append(s.Required, name)
		}
	}
}

// extensionNote describes a field tagged openapi:"extension": one that
// Quiver adds beyond the contract.
const extensionNote = "Extension beyond the contract (see docs/extensions.md)."

// describe returns a copy of s with a description.
func describe(s *openapi.Schema, desc string) *openapi.Schema {
	out := *s
	out.Description = desc
	return &out
}

// isRequired reports whether a field must be present: in requests when
// tagged openapi:"required", in results unless omitted when empty.
func (g *schemaGen) isRequired(sf reflect.StructField, jsonTag string) bool {
	if g.request {
		return sf.Tag.Get("openapi") == "required"
	}
	return !strings.Contains(jsonTag, "omitempty") && !strings.Contains(jsonTag, "omitzero")
}

// nullable allows null besides what s allows: a schema of one type also
// takes the type null, any other is one of s and null.
func nullable(s *openapi.Schema) *openapi.Schema {
	if len(s.Type) == 1 {
		out := *s
		out.Type = openapi.Types{s.Type[0], "null"}
		if s.Enum != nil {
			// JSON Schema checks enum whatever type says: list null too.
			out.Enum = append(slices.Clone(s.Enum), nil)
		}
		return &out
	}
	return &openapi.Schema{OneOf: []*openapi.Schema{s, openapi.Typed("null")}}
}

// queryParameters describes the query parameters of a GET route, each
// with its value in the example query string, decoded as the route
// decodes it: typed as the parameter's schema wants.
func (g *schemaGen) queryParameters(t reflect.Type, example string) []*openapi.Parameter {
	examples, _ := url.ParseQuery(example) // TestRouteExamplesDecode
	var params []*openapi.Parameter
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
		p := &openapi.Parameter{Name: name, In: "query", Schema: g.schema(ft), Required: g.isRequired(sf, "")}
		if vals, ok := examples[name]; ok {
			v := reflect.New(ft).Elem()
			if setQueryField(v, vals) == "" {
				p.Example = v.Interface()
			}
		}
		if ft.Kind() == reflect.Slice {
			p.Style = "form"
			p.Explode = new(false)
		}
		params = append(params, p)
	}
	return params
}
