// Package photosocial returns normalized public data of a photo-sharing
// network (profiles, posts, reels, media, comments, hashtag media and
// search) through pluggable upstream providers, and grounded AI insights
// on a profile or on the comments of a post.
//
// A [Client] serves the operations over a [Provider]:
//
//	c, err := photosocial.New(photosocial.Config{Provider: photosocial.Sample()})
//	...
//	posts, err := c.Posts(ctx, photosocial.PostsRequest{Username: "@sample.bakery", Limit: 12})
//
// # Providers
//
// Three adapters implement Provider, each naming itself in the source field:
//
//   - [Graph] ("instagram_graph", [NewGraph]): the Instagram Graph API. Business
//     discovery serves the profiles and media of business and creator
//     accounts; hashtags go through ig_hashtag_search, then top_media or
//     recent_media. It cannot serve personal or private accounts (they are
//     NOT_FOUND), media by shortcode, nor media or comments of other
//     accounts: those answer SERVICE_UNAVAILABLE wrapping [ErrUnsupported],
//     with a message saying what it cannot do. Reels are told apart by
//     media_product_type. Requests name GraphConfig.APIVersion (default
//     [DefaultGraphAPIVersion]). Business discovery is asked for
//     thumbnail_url, a Public field since v18.0, so videos and reels have
//     their thumbnail; should the version refuse it (before v18.0), or
//     refuse the optional fields (username, children), the media are
//     asked again without them and the list's notes say so. Throttling (codes 4, 17, 32, 613,
//     80002) is RATE_LIMIT_EXCEEDED with the wait the Graph API gives in
//     X-Business-Use-Case-Usage or X-App-Usage
//     (estimated_time_to_regain_access).
//   - [Apify] ("apify", [NewApify]): the Apify Instagram scraper actor:
//     profiles and media through run-sync-get-dataset-items; posts, reels,
//     comments, hashtag media and search through one actor run per query,
//     whose dataset is read page by page. Reels are told apart by
//     productType "clips".
//   - [File] ("file", [NewFile]): local JSON Lines exports, for offline use.
//     [Sample] serves a bundled SAMPLE dataset of fictional
//     accounts.
//
// Upstream failures map to the envelope codes of package envelope: an
// unknown account or media is 404 NOT_FOUND, a provider rate limit 429
// RATE_LIMIT_EXCEEDED with the provider's Retry-After (60 s when the
// provider does not say when to retry), a failure 502
// UPSTREAM_ERROR, a timeout 504 UPSTREAM_TIMEOUT, and a Client without a
// provider 503 SERVICE_UNAVAILABLE saying how to configure one. Responses
// are size-bounded (8 MiB by default) and tokens travel in headers only,
// never in URLs, errors, fmt, log/slog or encoding/json output. Package
// photosocialtest serves loopback replays of the Graph API and Apify for
// tests and examples.
//
// # Rules
//
//   - username works with or without a leading @, and is lower-cased; it is
//     1 to 30 letters, digits, periods and underscores.
//   - limit is 1 to 100 ([MaxLimit]); 0 or absent means 12
//     ([DefaultLimit], one page of a profile grid); above 100 is 400.
//   - cursor passes through: next_cursor of a page is the cursor of the
//     next. The Graph API's cursors are its own, followed for reels and
//     comments by a dot and how many items of that page were already
//     returned (a page of comments with their replies may hold more than
//     the limit; none is skipped), and one the Graph API refuses is 400
//     naming cursor; the file provider uses
//     offsets ("file:24"); the Apify provider's carry the dataset of the
//     query's run and an offset in it, sealed with AES-GCM and bound to
//     the query ("apify.<base64url>"), so that a cursor neither shows the
//     dataset's ID nor can be turned to another dataset.
//   - media and comments take shortcode or media_id; shortcode is preferred
//     when both are given, and may be a post, reel or tv URL. A shortcode
//     is the media ID in Instagram's base64 alphabet: see
//     [ShortcodeToMediaID] and [MediaIDToShortcode].
//   - reels are the media of type reel; where a provider cannot tell them
//     apart, notes say so.
//   - search type is profile (default), hashtag or place; place is 400
//     INVALID_REQUEST saying that the upstream provider does not support
//     place search. hashtag/search takes sort top (default) or recent.
//
// # Objects
//
// The JSON shapes are stable: every field is always present, lists are []
// rather than null, and absent numbers are 0. A profile has exactly the
// contract's fields:
//
//	{"id":"5500000001","username":"sample.bakery","full_name":"Sample Bakery",
//	 "is_verified":true,"followers_count":48210,"following_count":312,
//	 "media_count":14,"source":"file","fetched_at":"2025-10-21T12:00:00Z"}
//
// A media object ([Media]):
//
//	{"id":"3440001975308642263","shortcode":"C-9V5IU6efX","type":"carousel",
//	 "url":"https://www.instagram.com/p/C-9V5IU6efX/","caption":"...",
//	 "hashtags":["bakery"],"mentions":[],"like_count":2230,"comment_count":141,
//	 "view_count":0,"taken_at":"2025-10-13T18:53:20Z",
//	 "owner":{"id":"5500000001","username":"sample.bakery","is_verified":true},
//	 "display_url":"...","thumbnail_url":"","video_url":"",
//	 "children":[{"id":"...","type":"image","display_url":"...","video_url":""}],
//	 "location":null,"source":"file","fetched_at":"..."}
//
// type is image, video, carousel or reel; taken_at is RFC 3339 in UTC,
// converted from unix seconds or ISO 8601. A video whose file the provider
// withholds (the Graph API omits media_url for copyrighted audio) has an
// empty video_url and its thumbnail as display_url.
//
// A comment ([Comment]): {"id","text","created_at","owner":{"id",
// "username","is_verified"},"like_count","reply_count","parent_id"};
// parent_id is "" for top-level comments, and replies follow their parent.
// limit counts replies too. The Graph API pages by top-level comment, so
// replies that do not fit in the limit of a page are not returned.
//
// A search result ([SearchResult]) is {"type":"profile","profile":{"id",
// "username","full_name","is_verified","followers_count",
// "profile_pic_url"},"hashtag":null} or {"type":"hashtag","profile":null,
// "hashtag":{"id","name","media_count"}}.
//
// Lists ([MediaList], [CommentList], [SearchResults]) carry the items,
// page_info {has_next_page, next_cursor}, result_count, source and
// fetched_at; media lists add notes explaining an empty or partial page
// (a private profile has no public media: an empty list and a note, not
// an error).
//
// # AI insights
//
// [Client.ProfileInsights] and [Client.CommentInsights] compute the facts
// in Go first ([ComputeProfileFacts], [ComputeCommentFacts]), hand them to
// the model configured by [Config].LLM (JSON asked for, validated, retried
// once with the violations shown, usage and cost accounted), and return
// these fields (each method's doc gives the model's answer contract):
//
//   - profile insights: content_themes [{name, description, evidence_ids}],
//     posting_patterns (the computed cadence plus the model's summary),
//     engagement_drivers, strengths and opportunities [{title, detail,
//     evidence_ids}], evidence, confidence, limitations; plus the profile
//     and the facts;
//   - comment insights: aggregate_sentiment (the computed counts and mean
//     compound score plus the model's summary), recurring_topics,
//     questions [{comment_id, text}], objections, moderation_flags
//     [{comment_id, rule, excerpt, reason, source}], evidence, confidence,
//     limitations; plus the media and the facts.
//
// Profile facts: posting cadence (posts per week, median hours between
// posts, busiest UTC weekdays and hours), likes, comments and engagement
// (likes + comments) per post, engagement rate (per post, per follower),
// engagement by media type, hashtag use and the engagement of each tag,
// caption-length statistics (short is under 100 characters), and the best
// and worst three posts. Comment facts: sentiment per comment with the
// VADER-style engine shared with microblog (labels at ±0.05 compound, [social.Label]),
// questions by syntax (a "?" or a sentence opening with an interrogative
// or auxiliary word), repeated two- and three-word phrases, and the
// moderation flags of [ModerationRules].
//
// Grounding: evidence items quote real input: the model names an ID and a
// reason, and the excerpt is taken from the data. IDs that are not in the
// input are dropped everywhere (evidence, evidence_ids, model flags), and
// limitations says which. confidence must be within 0 to 1 (an answer
// outside is retried) and is capped at 0.5 when fewer than 5 items were
// analysed. Moderation flags come from the documented rule list; the model
// may only add flags under the same rules, marked source "model". Each
// list the model writes keeps its first 6 items, and each text it writes
// its first 600 characters, marked "…" when cut.
//
// Answer contracts list the JSON fields the model answers, one a line,
// with their type and the rules checked. Types: string; number;
// []string (an array of strings); []{a, b} (an array of objects with the
// fields a and b). A field outside the contract is refused.
//
// Request fields: username (required), media_limit (1 to 50, default 12),
// analysis_goal (optional free text, at most 500 characters); shortcode
// (required; a URL is accepted), comment_limit (1 to 100, default 50),
// analysis_focus (optional, at most 500 characters). Without a model the
// insight operations answer 503 saying how to configure one.
package photosocial
