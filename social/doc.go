// Package social is the home of Quiver's social-data services and of the
// few types both of them share: the sentiment of a set of texts
// ([Sentiment], [Label]) and a ranked value with its frequency ([Count]).
// Each network has its own package:
//
//   - [github.com/quiverkit/quiver/social/microblog]: public microblog data
//     (profiles, a user's tweets, search, tweets, replies, threads) through
//     pluggable providers (twitterapi.io, the X API v2, local JSON Lines
//     exports), normalized to one Tweet shape, and four deterministic
//     analyses: search insights, brand mentions, profile insights and
//     conversation insights.
//   - [github.com/quiverkit/quiver/social/photosocial]: public
//     photo-sharing data (profiles, posts, reels, media, comments, hashtag
//     and profile search) through an upstream provider, and AI insights on
//     a profile or on comments.
//
// Both services take their data from third-party providers configured by
// the operator, share one upstream plumbing (timeouts, size bounds, one
// mapping of provider failures to error codes: 404 NOT_FOUND, 429
// RATE_LIMIT_EXCEEDED with Retry-After, 502 UPSTREAM_ERROR, 504
// UPSTREAM_TIMEOUT, 503 SERVICE_UNAVAILABLE when no provider is
// configured) and one sentiment engine. Provider keys never appear in
// errors or logs.
package social
