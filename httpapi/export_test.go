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
