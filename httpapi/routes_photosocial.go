package httpapi

import (
	"github.com/quiverkit/quiver/social/photosocial"
)

// photosocialRoutes returns the routes served by package photosocial.
func (s *server) photosocialRoutes() []route {
	ai, err := photosocial.New(photosocial.Config{Provider: s.cfg.PhotosocialProvider, LLM: s.cfg.LLMConfig()})
	if err != nil {
		s.log.Error("photo-sharing insight routes unavailable", "err", err)
	}
	// Without a model New cannot fail: the data routes are served whatever
	// the model settings.
	c, _ := photosocial.New(photosocial.Config{Provider: s.cfg.PhotosocialProvider})
	const p = "/v1/photosocial"
	return []route{
		get(groupPhotosocial, p+"/profile", "Profile of a photo-sharing account", c.Profile),
		get(groupPhotosocial, p+"/posts", "Recent posts of an account", c.Posts),
		get(groupPhotosocial, p+"/reels", "Recent reels of an account", c.Reels),
		get(groupPhotosocial, p+"/media", "One post or reel by shortcode or media ID", c.Media),
		get(groupPhotosocial, p+"/comments", "Comments of a post or reel", c.Comments),
		get(groupPhotosocial, p+"/hashtag/search", "Public media of a hashtag", c.HashtagSearch),
		get(groupPhotosocial, p+"/search", "Search profiles or hashtags", c.Search),
		postAI(groupPhotosocial, p+"/ai/profile-insights", "AI insights on a profile and its posts", built(ai, err, (*photosocial.Client).ProfileInsights)),
		postAI(groupPhotosocial, p+"/ai/comment-insights", "AI insights on the comments of a post", built(ai, err, (*photosocial.Client).CommentInsights)),
	}
}
