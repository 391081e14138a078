package httpapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"reflect"

	"github.com/quiverkit/quiver/llm"
)

// Groups, in the order the OpenAPI document lists them.
const (
	groupPhotosocial = "photosocial"
	groupMicroblog   = "microblog"
	groupEmail       = "email"
	groupUtility     = "utility"
	groupDev         = "dev"
	groupContent     = "content"
)

// operation is what a route does once the request has passed the gateway:
// it returns the data of the envelope, the model usage when a model
// answered, or an error that [envelope.From] classifies.
type operation func(r *http.Request) (data any, ai *llm.Usage, err error)

// A route is one row of the route table. The table drives the mux, the
// decoding, the admission control and the OpenAPI document, so they never
// disagree: a row holds all that is known of its route (its method and
// path, its documentation, its request example and its weight), and
// adding a route is adding its row.
//
// The OpenAPI schemas come from the request and result types by
// reflection over their json tags. A request field that callers must send
// carries the tag openapi:"required"; result fields are required unless
// tagged omitempty.
type route struct {
	method  string // "GET", "POST" or "DELETE"
	path    string // "/v1/...", with {name} for path parameters
	group   string // one of the group constants
	summary string // one line for the OpenAPI document
	// description is the OpenAPI operation's longer text: how the route
	// reads its input, and the extensions beyond the contract.
	description string
	status      int // the status of success; 0 means 200
	// requestExample is the example request that the OpenAPI document
	// gives the route and the /docs page fills in: the JSON body of a
	// POST route (for a multipart upload, the object of its form
	// fields), the query string of a GET route, decoded as the route
	// decodes it. Every route but those with only path parameters has
	// one (TestRouteExamplesDecode); it is valid against the route's
	// schema and answered 200, or 503 where the route's provider or
	// model is not configured (TestOpenAPIExamplesAreServed).
	requestExample string
	// weight is how admission control charges a request of the route;
	// the zero kind is lightKind.
	weight routeKind

	body       reflect.Type // JSON body type; nil when the route takes none
	query      reflect.Type // query parameter struct; nil when none
	form       bool         // multipart/form-data upload instead of JSON
	formFields []string     // the optional boolean fields of the upload, before its file
	maxBody    int64        // the body limit of the route; 0 means Config.MaxBodyBytes
	response   reflect.Type // type of envelope.data
	ai         bool         // meta carries model, tokens and cost
	// errors are the error statuses the route documents besides the
	// shared ones (errorStatuses), each a shared response by its name.
	errors map[string]routeError

	op operation
	// csv, instead of op, streams a text/csv answer to w; an error
	// before the first byte is answered as the envelope's.
	csv func(w io.Writer, r *http.Request) error
	// download marks a csv route that streams stored data rather than
	// computing it: it is bounded by Config.SlowWriteTimeout on every
	// write and ends when the client goes, but not by
	// Config.RequestTimeout, so that a large result can be fetched over a
	// slow link.
	download bool
	// upload marks a route whose body may take long to arrive (a job's
	// CSV): it is not bounded by Config.RequestTimeout, and each read of
	// its body pushes the connection's read deadline by
	// Config.SlowWriteTimeout and its write deadline past that, so that a
	// steady upload over a slow link gets its answer while one that stops
	// does not hold the connection.
	upload bool
}

// routeError is an error response that some routes document: the name
// of its shared response and its description.
type routeError struct{ name, description string }

// pattern is the ServeMux pattern of the route.
func (rt route) pattern() string { return rt.method + " " + rt.path }

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// describe returns rt with its OpenAPI description set.
func (rt route) describe(d string) route {
	rt.description = d
	return rt
}

// example returns rt with its request example: see route.requestExample.
func (rt route) example(request string) route {
	rt.requestExample = request
	return rt
}

// weigh returns rt charged as a route of kind k.
func (rt route) weigh(k routeKind) route {
	rt.weight = k
	return rt
}

// kind is how admission control charges a request of rt.
func (rt route) kind() routeKind {
	if rt.weight == (routeKind{}) {
		return lightKind
	}
	return rt.weight
}

// post is a route whose JSON body decodes into Req and whose result is
// the envelope's data.
func post[Req, Res any](group, path, summary string, fn func(context.Context, Req) (Res, error)) route {
	return route{
		method: http.MethodPost, path: path, group: group, summary: summary,
		body: typeOf[Req](), response: typeOf[Res](),
		op: func(r *http.Request) (any, *llm.Usage, error) {
			var req Req
			if err := decodeJSON(r, &req); err != nil {
				return nil, nil, err
			}
			res, err := fn(r.Context(), req)
			return res, nil, err
		},
	}
}

// postAI is [post] for operations answered by a language model: their AI
// metadata goes into the envelope's meta, also when the call fails after
// the model was asked.
func postAI[Req, Res any](group, path, summary string, fn func(context.Context, Req) (Res, llm.Usage, error)) route {
	return route{
		method: http.MethodPost, path: path, group: group, summary: summary,
		body: typeOf[Req](), response: typeOf[Res](), ai: true,
		op: func(r *http.Request) (any, *llm.Usage, error) {
			var req Req
			if err := decodeJSON(r, &req); err != nil {
				return nil, nil, err
			}
			res, ai, err := fn(r.Context(), req)
			if ai == (llm.Usage{}) {
				return res, nil, err
			}
			return res, &ai, err
		},
	}
}

// get is a route whose query parameters decode into Req; see decodeQuery
// for the supported field types.
func get[Req, Res any](group, path, summary string, fn func(context.Context, Req) (Res, error)) route {
	return route{
		method: http.MethodGet, path: path, group: group, summary: summary,
		query: typeOf[Req](), response: typeOf[Res](),
		op: func(r *http.Request) (any, *llm.Usage, error) {
			var req Req
			if err := decodeQuery(r, &req); err != nil {
				return nil, nil, err
			}
			res, err := fn(r.Context(), req)
			return res, nil, err
		},
	}
}

// routes is the route table: every route the handler serves, by group.
// Each group's rows live in the file of the package that implements them.
//
// Every route is returned even when a service cannot be built from the
// configuration (its routes then answer 503); the error says which could
// not, for New to refuse the configuration.
func (s *server) routes() ([]route, error) {
	var rs []route
	var errs []error
	for _, group := range []func() ([]route, error){
		s.photosocialRoutes,
		s.microblogRoutes,
		s.emailRoutes,
		func() ([]route, error) { return s.jobsRoutes(), nil },
		s.webcheckRoutes,
		s.devutilRoutes,
		s.contentRoutes,
	} {
		r, err := group()
		rs = append(rs, r...)
		errs = append(errs, err)
	}
	return rs, errors.Join(errs...)
}
