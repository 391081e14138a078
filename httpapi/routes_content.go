package httpapi

import "github.com/quiverkit/quiver/content"

// contentRoutes returns the routes served by package content.
func (s *server) contentRoutes() ([]route, error) {
	g := s.cfg.Content
	if g == nil {
		g = new(content.Generator) // no model, as content.New(content.Config{})
	}
	return []route{
		postAI(groupContent, "/v1/content/summarize", "Summarize a text", g.Summarize),
		postAI(groupContent, "/v1/content/rewrite", "Rewrite a text in another tone", g.Rewrite),
		postAI(groupContent, "/v1/content/meta-tags", "Write SEO meta tags for a page", g.MetaTags),
		postAI(groupContent, "/v1/content/blog/outline", "Outline a blog post", g.BlogOutline),
		postAI(groupContent, "/v1/content/product-description", "Write a product description", g.ProductDescription),
		postAI(groupContent, "/v1/content/social-caption", "Write social media captions", g.SocialCaption),
		postAI(groupContent, "/v1/content/headlines", "Write headline variants", g.Headlines),
		postAI(groupContent, "/v1/content/faq", "Write a FAQ from a text", g.FAQ),
	}, nil
}
