package httpapi

// Routes returns the "METHOD /path" pattern of every route in the table,
// in table order. It is what the OpenAPI document and the mux are built
// from.
func Routes() []string {
	s := newServer(Config{})
	var out []string
	for _, rt := range s.routes() {
		out = append(out, rt.pattern())
	}
	return out
}
