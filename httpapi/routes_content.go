package httpapi

import "github.com/quiverkit/quiver/content"

// contentRoutes returns the routes served by package content.
func (s *server) contentRoutes() []route {
	g, err := s.cfg.ContentGenerator()
	if err != nil {
		s.log.Error("content routes unavailable", "err", err)
	}
	if lc := s.cfg.LLMConfig(); lc.Enabled() && !lc.PriceKnown() {
		s.log.Warn("the language model has no price: every AI route reports a cost of 0; set its name (LLMSettings.Model) or its price (LLMSettings.Prices)",
			"model", lc.ModelName())
	}
	return []route{
		postAI(groupContent, "/v1/content/summarize", "Summarize a text", built(g, err, (*content.Generator).Summarize)),
		postAI(groupContent, "/v1/content/rewrite", "Rewrite a text in another tone", built(g, err, (*content.Generator).Rewrite)),
		postAI(groupContent, "/v1/content/meta-tags", "Write SEO meta tags for a page", built(g, err, (*content.Generator).MetaTags)),
		postAI(groupContent, "/v1/content/blog/outline", "Outline a blog post", built(g, err, (*content.Generator).BlogOutline)),
		postAI(groupContent, "/v1/content/product-description", "Write a product description", built(g, err, (*content.Generator).ProductDescription)),
		postAI(groupContent, "/v1/content/social-caption", "Write social media captions", built(g, err, (*content.Generator).SocialCaption)),
		postAI(groupContent, "/v1/content/headlines", "Write headline variants", built(g, err, (*content.Generator).Headlines)),
		postAI(groupContent, "/v1/content/faq", "Write a FAQ from a text", built(g, err, (*content.Generator).FAQ)),
	}
}
