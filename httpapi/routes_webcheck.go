package httpapi

// webcheckRoutes returns the routes served by package webcheck.
func (s *server) webcheckRoutes() []route {
	return nil
}
