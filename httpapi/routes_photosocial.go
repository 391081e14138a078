package httpapi

import "github.com/quiverkit/quiver/social/photosocial"

// photosocialRoutes returns the routes served by package photosocial.
func (s *server) photosocialRoutes() ([]route, error) {
	c := s.cfg.Photosocial
	if c == nil {
		c = new(photosocial.Client) // no provider nor model: 503 saying how to configure them
	}
	const p = "/v1/photosocial"
	return []route{
		get(groupPhotosocial, p+"/profile", "Profile of a photo-sharing account", c.Profile).
			example("username=sample.bakery"),
		get(groupPhotosocial, p+"/posts", "Recent posts of an account", c.Posts).
			example("username=sample.bakery&limit=3"),
		get(groupPhotosocial, p+"/reels", "Recent reels of an account", c.Reels).
			example("username=sample.bakery"),
		get(groupPhotosocial, p+"/media", "One post or reel by shortcode or media ID", c.Media).
			example("shortcode=C-9VcYrWAAR"),
		get(groupPhotosocial, p+"/comments", "Comments of a post or reel", c.Comments).
			example("shortcode=C-9VcYrWAAR"),
		get(groupPhotosocial, p+"/hashtag/search", "Public media of a hashtag", c.HashtagSearch).
			example("hashtag=coffee"),
		get(groupPhotosocial, p+"/search", "Search profiles or hashtags", c.Search).
			example("query=sample"),
		postAI(groupPhotosocial, p+"/ai/profile-insights", "AI insights on a profile and its posts", c.ProfileInsights).
			example(`{"username":"sample.bakery","media_limit":12,"analysis_goal":"grow reach with reels"}`),
		postAI(groupPhotosocial, p+"/ai/comment-insights", "AI insights on the comments of a post", c.CommentInsights).
			example(`{"shortcode":"C-9VcYrWAAR","comment_limit":50,"analysis_focus":"questions about opening hours"}`),
	}, nil
}
