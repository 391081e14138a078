package httpapi

// emailRoutes returns the routes served by package email.
func (s *server) emailRoutes() []route {
	return nil
}
