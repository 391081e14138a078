package httpapi

// photosocialRoutes returns the routes served by package photosocial.
func (s *server) photosocialRoutes() []route {
	return nil
}
