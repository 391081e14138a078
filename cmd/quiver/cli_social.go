package main

import (
	"context"
	"strings"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/photosocial"
)

// microblogCommands are the commands of package microblog: quiver
// microblog ..., with the provider chosen by the same flags and
// environment as the server's (QUIVER_MICROBLOG_PROVIDER, ...).
var microblogCommands = []command{
	microblogOp("profile", "USERNAME", "Profile of a user.", "username",
		`quiver microblog profile jack
			QUIVER_MICROBLOG_PROVIDER=file QUIVER_MICROBLOG_FILE=examples/microblog/data/sample.jsonl quiver microblog profile ana_dev -o table`,
		(*microblog.Client).Profile),
	microblogOp("user-tweets", "USERNAME", "Latest tweets of a user.", "username",
		`quiver microblog user-tweets jack -limit 5 -o table`, (*microblog.Client).UserTweets),
	microblogOp("search", "QUERY...", "Search tweets.", "query",
		`quiver microblog search golang generics -type latest -limit 10`, (*microblog.Client).Search),
	microblogOp("search insights", "QUERY...", "Search tweets and analyse engagement, sentiment and topics.", "query",
		`quiver microblog search insights "coffee shop" -limit 20`, (*microblog.Client).SearchInsights),
	microblogOp("brand mentions", "BRAND", "Mentions of a brand with complaints, praise and notable accounts.", "brand",
		`quiver microblog brand mentions acme -keywords support,refund`, (*microblog.Client).BrandMentions),
	microblogOp("profile insights", "USERNAME", "Profile, recent tweets and posting insights.", "username",
		`quiver microblog profile insights jack -tweet-limit 50`, (*microblog.Client).ProfileInsights),
	microblogOp("tweet", "TWEET_ID", "One tweet.", "tweet_id",
		`quiver microblog tweet 1460323737035677698`, (*microblog.Client).Tweet),
	microblogOp("replies", "TWEET_ID", "Replies to a tweet.", "tweet_id",
		`quiver microblog replies 1460323737035677698 -limit 20 -o table`, (*microblog.Client).Replies),
	microblogOp("conversation insights", "TWEET_ID", "A tweet, sampled replies and conversation insights.", "tweet_id",
		`quiver microblog conversation insights 1460323737035677698`, (*microblog.Client).ConversationInsights),
	microblogOp("thread", "TWEET_ID", "The author's thread as tweets, text or Markdown.", "tweet_id",
		`quiver microblog thread 1460323737035677698 -format markdown | jq -r .markdown`, (*microblog.Client).Thread),
}

func microblogOp[Req, Res any](name, args, summary, operand, example string, fn func(*microblog.Client, context.Context, Req) (Res, error)) command {
	return op(opSpec{
		command: command{name: "microblog " + name, args: args, summary: summary, example: example, services: []setup{microblogSetup}},
		operand: operand,
	}, func(ctx context.Context, env *cmdEnv, req Req) (any, bool, error) {
		mb, err := env.svc.Microblog()
		if err != nil {
			return nil, false, err
		}
		return done(fn(mb, ctx, req))
	})
}

// photosocialCommands are the commands of package photosocial: quiver
// photosocial ..., with the provider chosen by the same flags and
// environment as the server's (QUIVER_PHOTOSOCIAL_PROVIDER, ...).
var photosocialCommands = []command{
	photosocialOp("profile", "USERNAME", "Profile of a photo-sharing account.", "username",
		`quiver photosocial profile natgeo
			QUIVER_PHOTOSOCIAL_PROVIDER=file QUIVER_PHOTOSOCIAL_SAMPLE=true quiver photosocial profile sample.bakery`,
		(*photosocial.Client).Profile),
	photosocialOp("posts", "USERNAME", "Recent posts of an account.", "username",
		`quiver photosocial posts natgeo -limit 5 -o table`, (*photosocial.Client).Posts),
	photosocialOp("reels", "USERNAME", "Recent reels of an account.", "username",
		`quiver photosocial reels natgeo -limit 5`, (*photosocial.Client).Reels),
	photosocialOp("media", "SHORTCODE", "One post or reel by shortcode (or -media-id).", "shortcode",
		`quiver photosocial media C-9VcYrWAAR`, (*photosocial.Client).Media),
	photosocialOp("comments", "SHORTCODE", "Comments of a post or reel.", "shortcode",
		`quiver photosocial comments C-9VcYrWAAR -limit 50 -o table`, (*photosocial.Client).Comments),
	photosocialOp("hashtag", "HASHTAG", "Public media of a hashtag.", "hashtag",
		`quiver photosocial hashtag sourdough -sort recent`, (*photosocial.Client).HashtagSearch),
	photosocialOp("search", "QUERY...", "Search profiles or hashtags.", "query",
		`quiver photosocial search bakery -type hashtag -o table`, (*photosocial.Client).Search),
	photosocialAIOp("insights profile", "USERNAME", "AI insights on a profile and its posts (needs a language model).", "username",
		`quiver photosocial insights profile sample.bakery -analysis-goal "grow weekday sales"`, (*photosocial.Client).ProfileInsights),
	photosocialAIOp("insights comments", "SHORTCODE", "AI insights on the comments of a post (needs a language model).", "shortcode",
		`quiver photosocial insights comments C-9VcYrWAAR -comment-limit 100`, (*photosocial.Client).CommentInsights),
}

func photosocialOp[Req, Res any](name, args, summary, operand, example string, fn func(*photosocial.Client, context.Context, Req) (Res, error)) command {
	return op(opSpec{
		command: command{name: "photosocial " + name, args: args, summary: summary, example: example, services: []setup{photosocialSetup}},
		operand: operand,
	}, func(ctx context.Context, env *cmdEnv, req Req) (any, bool, error) {
		c, err := env.svc.Photosocial()
		if err != nil {
			return nil, false, err
		}
		return done(fn(c, ctx, req))
	})
}

func photosocialAIOp[Req, Res any](name, args, summary, operand, example string, fn func(*photosocial.Client, context.Context, Req) (Res, llm.Usage, error)) command {
	return op(opSpec{
		command: command{name: "photosocial " + name, args: args, summary: summary, example: example, services: []setup{photosocialSetup, contentSetup}},
		operand: operand,
	}, func(ctx context.Context, env *cmdEnv, req Req) (any, bool, error) {
		c, err := env.svc.Photosocial()
		if err != nil {
			return nil, false, err
		}
		res, ai, err := fn(c, ctx, req)
		return doneAI(env, res, ai, err)
	})
}

// contentCommands are the commands of package content: quiver content
// ..., with the language model chosen by the same flags and environment
// as the server's. The text operands are read from standard input when
// absent.
var contentCommands = []command{
	withRaw(contentOp("summarize", "[TEXT]", "Summarize a text.", "text",
		`quiver content summarize -max-words 50 < article.txt
			quiver content summarize -format bullets -r < article.txt`, (*content.Generator).Summarize),
		"the summary (the key points, one a line, in the bullets format)", func(r any) (string, error) {
			s := r.(content.Summary)
			if s.Summary != nil {
				return *s.Summary, nil
			}
			return "- " + strings.Join(s.KeyPoints, "\n- "), nil
		}),
	withRaw(contentOp("rewrite", "[TEXT]", "Rewrite a text in another tone.", "text",
		`quiver content rewrite -tone friendly "Your request has been denied."`, (*content.Generator).Rewrite),
		"the rewritten text", func(r any) (string, error) { return r.(content.Rewrite).RewrittenText, nil }),
	contentOp("meta-tags", "[PAGE_CONTENT]", "Write SEO meta tags for a page.", "page_content",
		`quiver content meta-tags -target-keyword "sourdough" < page.txt`, (*content.Generator).MetaTags),
	contentOp("blog-outline", "TOPIC...", "Outline a blog post.", "topic",
		`quiver content blog-outline baking sourdough at home -sections 5`, (*content.Generator).BlogOutline),
	contentOp("product-description", "[PRODUCT_DETAILS]", "Write a product description.", "product_details",
		`quiver content product-description -product-name "Trail mug" "enamel, 350 ml, camp-fire safe"`, (*content.Generator).ProductDescription),
	contentOp("social-caption", "[CONTENT]", "Write social media captions.", "content",
		`quiver content social-caption -platform instagram -variants 3 "our new rye loaf is out"`, (*content.Generator).SocialCaption),
	contentOp("headlines", "TOPIC...", "Write headline variants.", "topic",
		`quiver content headlines remote work tips -count 5 -o table`, (*content.Generator).Headlines),
	contentOp("faq", "[SOURCE_TEXT]", "Write a FAQ from a text.", "source_text",
		`quiver content faq -count 5 < terms.txt`, (*content.Generator).FAQ),
}

func contentOp[Req, Res any](name, args, summary, operand, example string, fn func(*content.Generator, context.Context, Req) (Res, llm.Usage, error)) command {
	return op(opSpec{
		command: command{name: "content " + name, args: args, summary: summary, example: example, services: []setup{contentSetup}},
		operand: operand, stdin: true,
	}, func(ctx context.Context, env *cmdEnv, req Req) (any, bool, error) {
		g, err := env.svc.Content()
		if err != nil {
			return nil, false, err
		}
		res, ai, err := fn(g, ctx, req)
		return doneAI(env, res, ai, err)
	})
}

// withRaw gives c the -r flag printing what text returns.
func withRaw(c command, what string, text func(result any) (string, error)) command {
	c.raw = &rawOutput{what: what, text: text}
	return c
}
