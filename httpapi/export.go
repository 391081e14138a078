package httpapi

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
