package httpapi

import "github.com/quiverkit/quiver/content"

// contentRoutes returns the routes served by package content.
func (s *server) contentRoutes() ([]route, error) {
	g := s.cfg.Content
	if g == nil {
		g = new(content.Generator) // no model, as content.New(content.Config{})
	}
	return []route{
		postAI(groupContent, "/v1/content/summarize", "Summarize a text", g.Summarize).
			example(`{"text":"Rooftop beekeeping has grown in many cities over the last decade. Urban hives benefit from the varied forage of parks and gardens. ` +
				`Critics worry that honeybees compete with wild bees for the same flowers. Beekeepers answer that careful siting and more planting can keep both thriving.","max_words":40,"format":"paragraph"}`),
		postAI(groupContent, "/v1/content/rewrite", "Rewrite a text in another tone", g.Rewrite).
			example(`{"text":"We regret to inform you that your order has been delayed due to unforeseen circumstances.","tone":"friendly","preserve_meaning":true}`),
		postAI(groupContent, "/v1/content/meta-tags", "Write SEO meta tags for a page", g.MetaTags).
			example(`{"page_content":"Rooftop beekeeping has grown in many cities. Urban hives benefit from the varied forage of parks and gardens, and beekeepers share ` +
				`what they learn about siting hives and planting for wild bees.","page_url":"https://example.com/rooftop-bees","target_keyword":"rooftop beekeeping"}`),
		postAI(groupContent, "/v1/content/blog/outline", "Outline a blog post", g.BlogOutline).
			example(`{"topic":"starting a rooftop beehive","audience":"beginners","tone":"friendly","sections":5,"target_keyword":"rooftop beekeeping"}`),
		postAI(groupContent, "/v1/content/product-description", "Write a product description", g.ProductDescription).
			example(`{"product_name":"Trail 20 backpack","product_details":"20 litres, 640 g, recycled nylon, padded laptop sleeve, ` +
				`rain cover included.","audience":"day hikers","length":"short"}`),
		postAI(groupContent, "/v1/content/social-caption", "Write social media captions", g.SocialCaption).
			example(`{"content":"We opened a second bakery in the old town, with a wood-fired oven.","platform":"linkedin","tone":"warm","include_hashtags":true,"variants":2}`),
		postAI(groupContent, "/v1/content/headlines", "Write headline variants", g.Headlines).
			example(`{"topic":"rooftop beekeeping","audience":"city dwellers","goal":"clicks","count":5}`),
		postAI(groupContent, "/v1/content/faq", "Write a FAQ from a text", g.FAQ).
			example(`{"source_text":"Our store ships to every country in the European Union within five working days. Returns are free for 30 days. ` +
				`Gift cards never expire and can be used online or in our shops.","count":3}`),
	}, nil
}
