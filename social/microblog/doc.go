// Package microblog returns normalized public microblog data through
// pluggable providers, and analyses it deterministically.
//
//	p, err := microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{APIKey: key})
//	...
//	mb, err := microblog.New(microblog.Config{Provider: p})
//	...
//	list, err := mb.UserTweets(ctx, microblog.UserTweetsRequest{Username: "@golang"})
//
// Every provider is built the same way, so a local export is a drop-in
// replacement: microblog.NewFile(microblog.FileConfig{Paths: []string{"tweets.jsonl"}}).
//
// # Providers
//
// A [Provider] fetches the data: [TwitterAPIIO] (header X-API-Key),
// [XAPI] (X API v2, bearer token) or [File] (a local JSON Lines export, for
// offline analysis), built by [NewTwitterAPIIO], [NewXAPI] and [NewFile]
// from a config struct; the credential is a secret.String, kept out of
// errors and shown as "[redacted]" by fmt, log/slog and encoding/json. Each names
// itself in data_source. Package microblogtest serves loopback replays of
// twitterapi.io and the X API for tests and examples. Provider failures
// are *envelope.Error values: an unknown user or tweet is NOT_FOUND (404),
// a provider's rate limit RATE_LIMIT_EXCEEDED (429) with the provider's
// Retry-After (60 s when the provider does not say), a cursor the provider
// refuses INVALID_REQUEST (400) naming cursor, any other failure UPSTREAM_ERROR (502), a timeout
// UPSTREAM_TIMEOUT (504); a [Client] without a provider answers
// SERVICE_UNAVAILABLE (503) saying how to configure one. Responses are
// bounded ([DefaultMaxResponseBytes], 4 MiB) and timed out
// ([DefaultTimeout], 15 s) unless the provider's config says otherwise.
//
// # Normalization
//
// Every tweet is a [Tweet]: created_at in the form
// "Wed Oct 10 20:19:24 +0000 2018" (UTC; converted from ISO 8601 where the
// provider sends it), metrics as numbers (0 when absent), url
// https://x.com/<username>/status/<id>, author, data_source, and as_of (the
// fetch time, RFC 3339). Lists are [TweetList]s; page_info passes the
// provider's cursor through. A provider's has_next_page is believed only
// with a non-empty cursor and a non-empty page, so a provider claiming more
// pages with nothing left ends the pagination.
//
// # Parameters
//
//   - username: with or without "@"; 1 to 15 letters, digits or "_".
//   - limit: 1..20; 0 (or absent) means the default, 20; above 20 or
//     below 0 is INVALID_REQUEST. Providers
//     page on their own (twitterapi.io: about 20 a page; X API: 5 or 10
//     minimum): the page is trimmed to limit and page_info.next_cursor is
//     the provider's next page, so tweets beyond limit in the provider's
//     page are skipped.
//   - tweet_limit (profile insights): 1..100, default 20; reply_limit
//     (conversation insights): 1..100, default 40. Both are gathered over
//     up to 10 provider pages.
//   - type: latest (default) or top. sort: relevance (default; the
//     provider's order), latest (newest first) or likes (most liked
//     first; applied to each page).
//   - include_replies: false by default; replies are then excluded even
//     if a provider returns them.
//   - search/insights takes the parameters of search (cursor included).
//   - brand/mentions searches BrandQuery(brand, keywords,
//     exclude_keywords), e.g. `acme (refund OR support) -job`, then keeps
//     the tweets that mention the brand as a word, @handle or #hashtag,
//     contain one keyword (when given) and no excluded one; keywords are
//     a []string in Go (one term an element, no commas) and a
//     comma-separated query parameter over HTTP, at most 20 each.
//
// # Threads
//
// [Client.Thread] starts at the root of the tweet's conversation and
// follows the author's replies to themselves ([ThreadChain]): replies to
// others are left out, a branch follows the earliest self-reply, a gap
// (missing parent) continues with the earliest later self-reply whose
// parent is missing. Format json returns the tweets; text adds "n/N text"
// blocks; markdown adds a quoted document linking each tweet. The cursor is
// an offset into the thread ("t20").
//
// # Analysis
//
// The analyses are pure functions over []Tweet: no I/O, deterministic, ties
// broken by value or ID. Their formulas:
//
//   - engagement = likes + replies + retweets + quotes (views are reach,
//     not engagement); total_engagement is the sum, average_engagement
//     the mean, rounded to 4 decimals.
//   - sentiment: VADER's approach (Quiver's own sentiment engine) on the
//     text with URLs and @mentions removed and "#" dropped from hashtags;
//     label positive when compound >= 0.05, negative when <= -0.05, else
//     neutral ([social.LabelOf]). The aggregate is a [social.Sentiment]
//     (label, mean_compound, counts per label) with the per-tweet scores.
//     Ranked values are [social.Count]s.
//   - top_hashtags, top_mentions: the 10 most frequent, lower case, ties
//     alphabetical. top_authors: the 10 authors with most tweets, then
//     most engagement. common_terms: the 10 most frequent words of at least
//     three letters, URLs, mentions, hashtags, numbers and English stop
//     words removed. top_tweets: the 5 with most engagement.
//   - brand mentions: a complaint is a mention whose label is negative, or
//     that carries a complaint cue ("refund", "not working", "still
//     waiting", ...) with compound < 0.5; praise is a mention that is not a
//     complaint and carries a praise cue ("love", "thank you",
//     "recommend", ...) with compound >= -0.05, or is positive and asks no
//     question. Both are ranked by
//     engagement, then by how negative (positive) they are.
//     top_accounts: as top_authors. notable_mentions: the 5 with the
//     highest reach × engagement, where reach is the author's followers
//     when known, else the tweet's views, and at least 1; mentions with no
//     engagement are not notable.
//   - profile insights: average_likes, average_replies,
//     average_retweets, average_engagement per tweet; engagement_score =
//     average_engagement / followers × 100 (engagement rate in percent,
//     null when followers are unknown or 0); best_performing_tweets: the 5
//     with most engagement; common_topics: the 10 most frequent terms,
//     hashtags counted as their word; posting_style: tweets_per_day = dated
//     tweets / max(1, days from oldest to newest); active_hours_utc: the
//     up to 3 busiest hours (UTC) of hourly_distribution; average_length
//     in characters; the shares (0..1, of the sample) of replies to
//     others, tweets with links, with media, with "?", and of
//     self-replies (threads).
//   - conversation insights: the replies sampled (reply_limit, in the
//     sort order); top_questions: replies containing "?", by likes;
//     top_objections: replies that are negative, or carry an objection cue
//     ("disagree", "not true", "actually", ...) with compound < 0.3, by
//     engagement; notable_replies: by reach × engagement as above;
//     controversy_score = 0.6 × balance × polarity + 0.4 × ratio, where
//     polarity is the share of replies that are positive or negative,
//     balance = 1 − |pos − neg| / (pos + neg) (0 without polar replies),
//     and ratio = min(1, replies / (likes + 1)) of the original tweet (its
//     reply_count, or the number sampled when that is 0). The score is 0
//     for a one-sided or quiet conversation and approaches 1 for an evenly
//     split, heavily polarized one whose replies outnumber its likes.
package microblog
