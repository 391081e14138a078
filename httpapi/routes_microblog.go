package httpapi

// microblogRoutes returns the routes served by package microblog.
func (s *server) microblogRoutes() []route {
	return nil
}
