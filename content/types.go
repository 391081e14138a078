package content

// Requests. Pointer fields distinguish "absent" (nil: the default applies)
// from an explicit value that must then be in range; new builds them, as
// in SummarizeRequest{Text: t, MaxWords: new(80)}.
// String fields whose default is null are plain strings: empty means
// absent.

// SummarizeRequest is the input of [Generator.Summarize].
type SummarizeRequest struct {
	// Text is the text to summarize; required, at least 20 characters.
	Text string `json:"text" openapi:"required"`
	// MaxWords bounds the length of the summary: 20 to 1000, default 150.
	MaxWords *int `json:"max_words,omitempty"`
	// Format is "paragraph" (default: a prose summary plus key points) or
	// "bullets" (summary null; the key points are the summary).
	Format string `json:"format,omitempty"`
}

// Summary is the result of [Generator.Summarize].
type Summary struct {
	// Format is the format applied.
	Format string `json:"format"`
	// Summary is the prose summary; null in the bullets format.
	Summary *string `json:"summary"`
	// KeyPoints are the main points; in the bullets format they are the
	// summary. A model lists them most important first; the extractive
	// engine keeps the order of the text.
	KeyPoints []string `json:"key_points"`
}

// RewriteRequest is the input of [Generator.Rewrite].
type RewriteRequest struct {
	// Text is the text to rewrite; required, at least 10 characters.
	Text string `json:"text" openapi:"required"`
	// Tone of the rewrite, free text such as "friendly"; default
	// "professional".
	Tone string `json:"tone,omitempty"`
	// Audience the rewrite addresses, free text; optional.
	Audience string `json:"audience,omitempty"`
	// PreserveMeaning keeps every fact and claim of the text; default
	// true. When false the rewrite may restructure and condense freely.
	PreserveMeaning *bool `json:"preserve_meaning,omitempty"`
}

// Rewrite is the result of [Generator.Rewrite].
type Rewrite struct {
	// RewrittenText is the rewritten text.
	RewrittenText string `json:"rewritten_text"`
	// Notes explain the main changes.
	Notes []string `json:"notes"`
}

// MetaTagsRequest is the input of [Generator.MetaTags].
type MetaTagsRequest struct {
	// PageContent is the text of the page; required, at least 20
	// characters.
	PageContent string `json:"page_content" openapi:"required"`
	// PageURL is the page's absolute http(s) URL; optional.
	PageURL string `json:"page_url,omitempty"`
	// TargetKeyword is the search phrase the page should rank for;
	// optional. When set, it is among the keywords.
	TargetKeyword string `json:"target_keyword,omitempty"`
}

// MetaTags is the result of [Generator.MetaTags].
type MetaTags struct {
	// Title is the page title, at most 60 characters.
	Title string `json:"title"`
	// Description is the meta description, at most 160 characters.
	Description string `json:"description"`
	// Keywords are 3 to 10 distinct keywords, most important first.
	Keywords []string `json:"keywords"`
}

// BlogOutlineRequest is the input of [Generator.BlogOutline].
type BlogOutlineRequest struct {
	// Topic of the post; required, at least 5 characters.
	Topic string `json:"topic" openapi:"required"`
	// TargetKeyword is the search phrase the post should rank for;
	// optional. When set, it is among the SEO keywords.
	TargetKeyword string `json:"target_keyword,omitempty"`
	// Audience the post addresses; optional.
	Audience string `json:"audience,omitempty"`
	// Tone of the post; default "professional".
	Tone string `json:"tone,omitempty"`
	// Sections is the number of body sections: 3 to 12, default 6.
	Sections *int `json:"sections,omitempty"`
}

// BlogOutline is the result of [Generator.BlogOutline].
type BlogOutline struct {
	// Title of the post.
	Title string `json:"title"`
	// IntroductionAngle says how the post opens.
	IntroductionAngle string `json:"introduction_angle"`
	// Sections are exactly as many as requested.
	Sections []OutlineSection `json:"sections"`
	// ConclusionAngle says how the post closes.
	ConclusionAngle string `json:"conclusion_angle"`
	// SEOKeywords are 3 to 10 distinct keywords.
	SEOKeywords []string `json:"seo_keywords"`
}

// OutlineSection is one section of a [BlogOutline].
type OutlineSection struct {
	// Heading of the section.
	Heading string `json:"heading"`
	// TalkingPoints are 2 to 6 points the section covers.
	TalkingPoints []string `json:"talking_points"`
}

// ProductDescriptionRequest is the input of [Generator.ProductDescription].
type ProductDescriptionRequest struct {
	// ProductName is required, at least 2 characters.
	ProductName string `json:"product_name" openapi:"required"`
	// ProductDetails are the facts to describe; required, at least 20
	// characters.
	ProductDetails string `json:"product_details" openapi:"required"`
	// Audience the description addresses; optional.
	Audience string `json:"audience,omitempty"`
	// Tone of the description; default "persuasive".
	Tone string `json:"tone,omitempty"`
	// TargetKeyword is the search phrase to rank for; optional. When set,
	// it is among the SEO keywords.
	TargetKeyword string `json:"target_keyword,omitempty"`
	// Length is "short" (20 to 100 words), "medium" (60 to 250, the
	// default) or "long" (150 to 500).
	Length string `json:"length,omitempty"`
}

// ProductDescription is the result of [Generator.ProductDescription].
type ProductDescription struct {
	// Title is the product title.
	Title string `json:"title"`
	// Description is the prose description, within the word range of the
	// requested length.
	Description string `json:"description"`
	// BulletPoints are 3 to 8 selling points.
	BulletPoints []string `json:"bullet_points"`
	// SEOKeywords are 3 to 10 distinct keywords.
	SEOKeywords []string `json:"seo_keywords"`
}

// SocialCaptionRequest is the input of [Generator.SocialCaption].
type SocialCaptionRequest struct {
	// Content to write captions about; required, at least 10 characters.
	Content string `json:"content" openapi:"required"`
	// Platform is one of linkedin (default), x, photosocial, facebook,
	// threads, mastodon and bluesky; "twitter" means x.
	Platform string `json:"platform,omitempty"`
	// Tone of the captions; default "professional".
	Tone string `json:"tone,omitempty"`
	// IncludeHashtags asks for hashtags; default true. When false, the
	// variants carry none, in the list or in the caption.
	IncludeHashtags *bool `json:"include_hashtags,omitempty"`
	// CallToAction to work into each caption; optional.
	CallToAction string `json:"call_to_action,omitempty"`
	// Variants is the number of captions: 1 to 10, default 3.
	Variants *int `json:"variants,omitempty"`
}

// SocialCaptions is the result of [Generator.SocialCaption].
type SocialCaptions struct {
	// Platform is the platform the captions were written for.
	Platform string `json:"platform"`
	// Variants are exactly as many as requested.
	Variants []CaptionVariant `json:"variants"`
}

// CaptionVariant is one caption of [SocialCaptions].
type CaptionVariant struct {
	// Caption is the text of the post, within the platform's length
	// limit together with its hashtags.
	Caption string `json:"caption"`
	// Hashtags are distinct tags without "#" or spaces.
	Hashtags []string `json:"hashtags"`
}

// HeadlinesRequest is the input of [Generator.Headlines].
type HeadlinesRequest struct {
	// Topic of the headlines; required, at least 5 characters.
	Topic string `json:"topic" openapi:"required"`
	// Audience the headlines address; optional.
	Audience string `json:"audience,omitempty"`
	// Goal of the headlines; default "increase clicks".
	Goal string `json:"goal,omitempty"`
	// Count of headlines: 3 to 20, default 10.
	Count *int `json:"count,omitempty"`
}

// Headlines is the result of [Generator.Headlines].
type Headlines struct {
	// Variants are exactly as many as requested, all distinct.
	Variants []HeadlineVariant `json:"variants"`
}

// HeadlineVariant is one headline of [Headlines].
type HeadlineVariant struct {
	// Headline text, at most 150 characters.
	Headline string `json:"headline"`
	// Angle names the approach, e.g. "curiosity gap" or "how-to".
	Angle string `json:"angle"`
	// PredictedCTRScore is the model's estimate of the relative
	// click-through appeal, from 0 to 1. It is a model judgement, not a
	// measurement.
	PredictedCTRScore float64 `json:"predicted_ctr_score"`
}

// FAQRequest is the input of [Generator.FAQ].
type FAQRequest struct {
	// SourceText to draw the questions and answers from; required, at
	// least 30 characters.
	SourceText string `json:"source_text" openapi:"required"`
	// Audience the FAQ addresses; optional.
	Audience string `json:"audience,omitempty"`
	// Count of questions: 3 to 15, default 6.
	Count *int `json:"count,omitempty"`
}

// FAQ is the result of [Generator.FAQ].
type FAQ struct {
	// FAQs are exactly as many as requested, with distinct questions.
	FAQs []FAQItem `json:"faqs"`
}

// FAQItem is one question and answer of an [FAQ].
type FAQItem struct {
	// Question ends with a question mark.
	Question string `json:"question"`
	// Answer is drawn from the source text.
	Answer string `json:"answer"`
}
