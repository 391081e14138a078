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
		get(groupPhotosocial, p+"/profile", "Profile of a photo-sharing account", c.Profile),
		get(groupPhotosocial, p+"/posts", "Recent posts of an account", c.Posts),
		get(groupPhotosocial, p+"/reels", "Recent reels of an account", c.Reels),
		get(groupPhotosocial, p+"/media", "One post or reel by shortcode or media ID", c.Media),
		get(groupPhotosocial, p+"/comments", "Comments of a post or reel", c.Comments),
		get(groupPhotosocial, p+"/hashtag/search", "Public media of a hashtag", c.HashtagSearch),
		get(groupPhotosocial, p+"/search", "Search profiles or hashtags", c.Search),
		postAI(groupPhotosocial, p+"/ai/profile-insights", "AI insights on a profile and its posts", c.ProfileInsights),
		postAI(groupPhotosocial, p+"/ai/comment-insights", "AI insights on the comments of a post", c.CommentInsights),
	}, nil
}
