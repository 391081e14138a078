package httpapi

// contentRoutes returns the routes served by package content.
func (s *server) contentRoutes() []route {
	return nil
}
