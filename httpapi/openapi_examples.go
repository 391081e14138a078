package httpapi

// requestExamples are the request bodies that the OpenAPI document gives
// each POST route, by route pattern, and that the /docs page fills in for
// the visitor. Each must be valid against its route's schema (kin-openapi
// and Redocly check it) and is answered 200, or 503 where the route's
// provider or model is not configured (TestOpenAPIExamplesAreServed); a
// POST route without one fails TestOpenAPIDocument. The example of a
// multipart route is the object of its form fields.
var requestExamples = map[string]string{
	// dev
	"POST /v1/dev/data/base64/encode": `{"value":"hello","urlsafe":false}`,
	"POST /v1/dev/data/base64/decode": `{"value":"aGVsbG8=","urlsafe":false}`,
	"POST /v1/dev/data/hash":          `{"value":"hello","algorithms":["sha256","md5"],"encoding":"hex"}`,
	"POST /v1/dev/data/json/format":   `{"text":"{\"b\":[1,2],\"a\":{\"x\":true}}","indent":2,"sort_keys":true}`,
	"POST /v1/dev/data/url/parse":     `{"url":"https://user@example.com:8443/docs/a/../guide?lang=en&page=2#install"}`,
	"POST /v1/dev/email/validate":     `{"email":"ana.torres@example.com","check_smtp":false}`,
	"POST /v1/dev/regex/explain":      `{"pattern":"^(?<year>\\d{4})-(\\d{2})-(\\d{2})$"}`,
	"POST /v1/dev/regex/generate":     `{"description":"a semantic version number such as 1.4.2","flavor":"python"}`,
	"POST /v1/dev/stacktrace": `{"stacktrace":"Traceback (most recent call last):\n  File \"app.py\", line 12, in <module>\n    total = prices[\"apple\"] * qty\nKeyError: 'apple'",` +
		`"language":"python"}`,
	"POST /v1/dev/readme": `{"repo_name":"tidy-csv","description":"A command-line tool that cleans and normalizes CSV files.",` +
		`"language":"Go","features":["detects delimiters","trims whitespace","dedupes rows"],` +
		`"install_commands":["go install example.com/tidy-csv@latest"],"usage_example":"tidy-csv -in data.csv -out clean.csv","license":"MIT"}`,

	// email
	"POST /v1/email/bulk/validate":      `{"emails":["ana.torres@example.com","info@example.com","someone@mailinator.com","not-an-address"],"check_mx":false}`,
	"POST /v1/email/bulk/validate-csv":  `{"file":"email\nana.torres@example.com\ninfo@example.com\nsomeone@mailinator.com\n"}`,
	"POST /v1/email/bulk/jobs":          `{"file":"name,email\nAna,ana.torres@example.com\nBo,info@example.com\n"}`,
	"POST /v1/email/disposable/check":   `{"emails":["someone@mailinator.com","ana.torres@example.com"]}`,
	"POST /v1/email/role-account/check": `{"emails":["support@example.com","ana.torres@example.com"]}`,
	"POST /v1/email/domain/health":      `{"domains":["example.com"]}`,
	"POST /v1/utility/email/validate":   `{"email":"ana.torres@example.com","check_smtp":false}`,

	// utility
	"POST /v1/utility/ssl/check":        `{"domain":"example.com","port":443}`,
	"POST /v1/utility/dns/analyze":      `{"domain":"example.com"}`,
	"POST /v1/utility/robots/analyze":   `{"url":"https://example.com/"}`,
	"POST /v1/utility/sitemap/validate": `{"url":"https://example.com/sitemap.xml"}`,
	"POST /v1/utility/url/safety":       `{"url":"https://example.com/welcome"}`,
	"POST /v1/utility/cors/check":       `{"url":"https://example.com/api","origin":"https://app.example.org"}`,

	// content
	"POST /v1/content/summarize": `{"text":"Rooftop beekeeping has grown in many cities over the last decade. Urban hives benefit from the varied forage of parks and gardens. ` +
		`Critics worry that honeybees compete with wild bees for the same flowers. Beekeepers answer that careful siting and more planting can keep both thriving.","max_words":40,"format":"paragraph"}`,
	"POST /v1/content/meta-tags": `{"page_content":"Rooftop beekeeping has grown in many cities. Urban hives benefit from the varied forage of parks and gardens, and beekeepers share ` +
		`what they learn about siting hives and planting for wild bees.","page_url":"https://example.com/rooftop-bees","target_keyword":"rooftop beekeeping"}`,
	"POST /v1/content/faq": `{"source_text":"Our store ships to every country in the European Union within five working days. Returns are free for 30 days. ` +
		`Gift cards never expire and can be used online or in our shops.","count":3}`,
	"POST /v1/content/headlines":      `{"topic":"rooftop beekeeping","audience":"city dwellers","goal":"clicks","count":5}`,
	"POST /v1/content/blog/outline":   `{"topic":"starting a rooftop beehive","audience":"beginners","tone":"friendly","sections":5,"target_keyword":"rooftop beekeeping"}`,
	"POST /v1/content/rewrite":        `{"text":"We regret to inform you that your order has been delayed due to unforeseen circumstances.","tone":"friendly","preserve_meaning":true}`,
	"POST /v1/content/social-caption": `{"content":"We opened a second bakery in the old town, with a wood-fired oven.","platform":"linkedin","tone":"warm","include_hashtags":true,"variants":2}`,
	"POST /v1/content/product-description": `{"product_name":"Trail 20 backpack","product_details":"20 litres, 640 g, recycled nylon, padded laptop sleeve, ` +
		`rain cover included.","audience":"day hikers","length":"short"}`,

	// photosocial
	"POST /v1/photosocial/ai/profile-insights": `{"username":"sample.bakery","media_limit":12,"analysis_goal":"grow reach with reels"}`,
	"POST /v1/photosocial/ai/comment-insights": `{"shortcode":"C-9VcYrWAAR","comment_limit":50,"analysis_focus":"questions about opening hours"}`,
}

// queryExamples are the query parameters that the OpenAPI document gives
// each GET route, by route pattern and parameter, typed as the parameter's
// schema wants. They name the sample data of microblog.NewFile
// (examples/microblog/data) and photosocial.Sample, and are answered 200
// by those providers (TestOpenAPIExamplesAreServed); a GET route without
// one fails TestOpenAPIForClients.
var queryExamples = map[string]map[string]any{
	"GET /v1/microblog/profile":                     {"username": "ana_dev"},
	"GET /v1/microblog/profile/insights":            {"username": "ana_dev"},
	"GET /v1/microblog/user-tweets":                 {"username": "ana_dev", "limit": 5},
	"GET /v1/microblog/tweet":                       {"tweet_id": "1002"},
	"GET /v1/microblog/thread":                      {"tweet_id": "1002", "format": "markdown"},
	"GET /v1/microblog/replies":                     {"tweet_id": "1001"},
	"GET /v1/microblog/tweet/conversation-insights": {"tweet_id": "1001"},
	"GET /v1/microblog/search":                      {"query": "postgres"},
	"GET /v1/microblog/search/insights":             {"query": "queue"},
	"GET /v1/microblog/brand/mentions":              {"brand": "acme cloud", "keywords": []string{"refund", "support"}},
	"GET /v1/photosocial/profile":                   {"username": "sample.bakery"},
	"GET /v1/photosocial/posts":                     {"username": "sample.bakery", "limit": 3},
	"GET /v1/photosocial/reels":                     {"username": "sample.bakery"},
	"GET /v1/photosocial/media":                     {"shortcode": "C-9VcYrWAAR"},
	"GET /v1/photosocial/comments":                  {"shortcode": "C-9VcYrWAAR"},
	"GET /v1/photosocial/search":                    {"query": "sample"},
	"GET /v1/photosocial/hashtag/search":            {"hashtag": "coffee"},
}
