package httpapi

import (
	"io"
	"net/http"

	"github.com/quiverkit/quiver/internal/metrics"
	"github.com/quiverkit/quiver/llm"
)

// NewReporting is [New], calling report with the route pattern and the
// Go error of every operation that fails, before it is answered: the
// error as Go callers of the packages read it, for tests of its text.
func NewReporting(cfg Config, report func(pattern string, err error)) (*Handler, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s := newServer(cfg)
	m, err := metrics.New(cfg.Metrics)
	if err != nil {
		return nil, err
	}
	s.metrics = m
	routes, err := s.routes()
	if err != nil {
		return nil, err
	}
	for i, rt := range routes {
		pattern := rt.pattern()
		if op := rt.op; op != nil {
			routes[i].op = func(r *http.Request) (any, *llm.Usage, error) {
				data, ai, err := op(r)
				if err != nil {
					report(pattern, err)
				}
				return data, ai, err
			}
		}
		if csv := rt.csv; csv != nil {
			routes[i].csv = func(w io.Writer, r *http.Request) error {
				err := csv(w, r)
				if err != nil {
					report(pattern, err)
				}
				return err
			}
		}
	}
	return &Handler{h: s.handler(routes)}, nil
}

// Routes returns the "METHOD /path" pattern of every route in the table,
// in table order. It is what the OpenAPI document and the mux are built
// from.
func Routes() []string {
	s := newServer(Config{})
	routes, _ := s.routes() // a service that cannot be built still has its routes
	var out []string
	for _, rt := range routes {
		out = append(out, rt.pattern())
	}
	return out
}

// bytes returns the answer in one slice.
func (a *answerBuffer) bytes() []byte {
	var b []byte
	for _, c := range a.chunks {
		b = append(b, *c...)
	}
	return b
}

// inFlight returns the weight in flight.
func (a *admission) inFlight() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.used
}
