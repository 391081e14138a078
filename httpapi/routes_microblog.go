package httpapi

import "github.com/quiverkit/quiver/social/microblog"

// microblogRoutes returns the routes served by package microblog.
func (s *server) microblogRoutes() ([]route, error) {
	mb := s.cfg.Microblog
	if mb == nil {
		mb = new(microblog.Client) // no provider: 503 saying how to configure one
	}
	return []route{
		get(groupMicroblog, "/v1/microblog/profile", "Profile of a user", mb.Profile).
			example("username=ana_dev"),
		get(groupMicroblog, "/v1/microblog/user-tweets", "Latest tweets of a user", mb.UserTweets).
			example("username=ana_dev&limit=5"),
		get(groupMicroblog, "/v1/microblog/search", "Search tweets", mb.Search).
			example("query=postgres"),
		get(groupMicroblog, "/v1/microblog/search/insights", "Search tweets and analyse engagement, sentiment and topics", mb.SearchInsights).
			example("query=queue"),
		get(groupMicroblog, "/v1/microblog/brand/mentions", "Mentions of a brand with complaints, praise and notable accounts", mb.BrandMentions).describe(
			"keywords and exclude_keywords are comma-separated terms (keywords=refund,support), at most 20 each, each 1 to 100 characters; a term may hold spaces. A mention must contain one keyword, when given, and no excluded one.").
			example("brand=acme+cloud&keywords=refund,support"),
		get(groupMicroblog, "/v1/microblog/profile/insights", "Profile, recent tweets and posting insights", mb.ProfileInsights).
			example("username=ana_dev"),
		get(groupMicroblog, "/v1/microblog/tweet", "One tweet", mb.Tweet).
			example("tweet_id=1002"),
		get(groupMicroblog, "/v1/microblog/replies", "Replies to a tweet", mb.Replies).
			example("tweet_id=1001"),
		get(groupMicroblog, "/v1/microblog/tweet/conversation-insights", "A tweet, sampled replies and conversation insights", mb.ConversationInsights).
			example("tweet_id=1001"),
		get(groupMicroblog, "/v1/microblog/thread", "The author's thread as tweets, text or Markdown", mb.Thread).
			example("tweet_id=1002&format=markdown"),
	}, nil
}
