package content

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quiverkit/quiver/envelope"
)

// Bounds beyond those of the contract, so that no request can build
// an unbounded prompt. The HTTP body limit (1 MiB by default) applies on
// top.
const (
	maxTextRunes  = 50000 // text, page_content, product_details, content, source_text
	maxTopicRunes = 300   // topic, product_name
	maxShortRunes = 200   // tone, audience, goal, call_to_action, target_keyword
	maxURLRunes   = 2048  // page_url
)

// Summary formats.
const (
	FormatParagraph = "paragraph"
	FormatBullets   = "bullets"
)

// lengthWords is the word range of each product description length.
var lengthWords = map[string][2]int{
	"short":  {20, 100},
	"medium": {60, 250},
	"long":   {150, 500},
}

// platform is a social network with its display name and the character
// limit of a post.
type platform struct {
	name  string
	limit int
}

// platforms are the social platforms SocialCaption writes for. The limits
// are the post lengths each network allows (Facebook's far larger limit is
// capped at a length that still reads as a caption).
var platforms = map[string]platform{
	"linkedin":    {"LinkedIn", 3000},
	"x":           {"X (formerly Twitter)", 280},
	"photosocial": {"the photo-sharing network", 2200},
	"facebook":    {"Facebook", 5000},
	"threads":     {"Threads", 500},
	"mastodon":    {"Mastodon", 500},
	"bluesky":     {"Bluesky", 300},
}

var platformNames = "linkedin, x, photosocial, facebook, threads, mastodon, bluesky"

// checker collects the field violations of one request.
type checker struct{ v envelope.ValidationError }

// text checks a required free text: trimmed, between min and max runes.
func (c *checker) text(field string, s *string, minRunes, maxRunes int) {
	*s = strings.TrimSpace(*s)
	n := utf8.RuneCountInString(*s)
	switch {
	case n == 0:
		c.v.Add(field, "is required")
	case n < minRunes:
		c.v.Addf(field, "must be at least %d characters, not %d", minRunes, n)
	case n > maxRunes:
		c.v.Addf(field, "must be at most %d characters, not %d", maxRunes, n)
	}
}

// short checks an optional one-line value and applies its default.
func (c *checker) short(field string, s *string, def string, maxRunes int) {
	*s = strings.TrimSpace(*s)
	if *s == "" {
		*s = def
		return
	}
	if n := utf8.RuneCountInString(*s); n > maxRunes {
		c.v.Addf(field, "must be at most %d characters, not %d", maxRunes, n)
		return
	}
	if strings.IndexFunc(*s, unicode.IsControl) >= 0 {
		c.v.Add(field, "must be one line without control characters")
	}
}

// intRange checks an optional integer and applies its default.
func (c *checker) intRange(field string, p **int, def, lo, hi int) {
	if *p == nil {
		*p = new(def)
		return
	}
	if n := **p; n < lo || n > hi {
		c.v.Addf(field, "must be between %d and %d, not %d", lo, hi, n)
	}
}

// boolean applies the default of an optional boolean.
func boolean(p **bool, def bool) {
	if *p == nil {
		*p = new(def)
	}
}

// oneOf checks an optional enumerated value, case-insensitively, and
// applies its default.
func (c *checker) oneOf(field string, s *string, def string, allowed string, ok func(string) bool) {
	*s = strings.ToLower(strings.TrimSpace(*s))
	if *s == "" {
		*s = def
		return
	}
	if !ok(*s) {
		c.v.Addf(field, "must be one of %s", allowed)
	}
}

func (r *SummarizeRequest) normalize() error {
	var c checker
	c.text("text", &r.Text, 20, maxTextRunes)
	c.intRange("max_words", &r.MaxWords, 150, 20, 1000)
	c.oneOf("format", &r.Format, FormatParagraph, "paragraph, bullets", func(s string) bool {
		return s == FormatParagraph || s == FormatBullets
	})
	return c.v.Err()
}

func (r *RewriteRequest) normalize() error {
	var c checker
	c.text("text", &r.Text, 10, maxTextRunes)
	c.short("tone", &r.Tone, "professional", maxShortRunes)
	c.short("audience", &r.Audience, "", maxShortRunes)
	boolean(&r.PreserveMeaning, true)
	return c.v.Err()
}

func (r *MetaTagsRequest) normalize() error {
	var c checker
	c.text("page_content", &r.PageContent, 20, maxTextRunes)
	c.short("page_url", &r.PageURL, "", maxURLRunes)
	if r.PageURL != "" {
		u, err := url.Parse(r.PageURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			c.v.Add("page_url", "must be an absolute http or https URL")
		}
	}
	c.short("target_keyword", &r.TargetKeyword, "", maxShortRunes)
	return c.v.Err()
}

func (r *BlogOutlineRequest) normalize() error {
	var c checker
	c.text("topic", &r.Topic, 5, maxTopicRunes)
	c.short("target_keyword", &r.TargetKeyword, "", maxShortRunes)
	c.short("audience", &r.Audience, "", maxShortRunes)
	c.short("tone", &r.Tone, "professional", maxShortRunes)
	c.intRange("sections", &r.Sections, 6, 3, 12)
	return c.v.Err()
}

func (r *ProductDescriptionRequest) normalize() error {
	var c checker
	c.text("product_name", &r.ProductName, 2, maxTopicRunes)
	c.text("product_details", &r.ProductDetails, 20, maxTextRunes)
	c.short("audience", &r.Audience, "", maxShortRunes)
	c.short("tone", &r.Tone, "persuasive", maxShortRunes)
	c.short("target_keyword", &r.TargetKeyword, "", maxShortRunes)
	c.oneOf("length", &r.Length, "medium", "short, medium, long", func(s string) bool {
		_, ok := lengthWords[s]
		return ok
	})
	return c.v.Err()
}

func (r *SocialCaptionRequest) normalize() error {
	var c checker
	c.text("content", &r.Content, 10, maxTextRunes)
	if strings.EqualFold(strings.TrimSpace(r.Platform), "twitter") {
		r.Platform = "x"
	}
	c.oneOf("platform", &r.Platform, "linkedin", platformNames, func(s string) bool {
		_, ok := platforms[s]
		return ok
	})
	c.short("tone", &r.Tone, "professional", maxShortRunes)
	boolean(&r.IncludeHashtags, true)
	c.short("call_to_action", &r.CallToAction, "", maxShortRunes)
	c.intRange("variants", &r.Variants, 3, 1, 10)
	return c.v.Err()
}

func (r *HeadlinesRequest) normalize() error {
	var c checker
	c.text("topic", &r.Topic, 5, maxTopicRunes)
	c.short("audience", &r.Audience, "", maxShortRunes)
	c.short("goal", &r.Goal, "increase clicks", maxShortRunes)
	c.intRange("count", &r.Count, 10, 3, 20)
	return c.v.Err()
}

func (r *FAQRequest) normalize() error {
	var c checker
	c.text("source_text", &r.SourceText, 30, maxTextRunes)
	c.short("audience", &r.Audience, "", maxShortRunes)
	c.intRange("count", &r.Count, 6, 3, 15)
	return c.v.Err()
}

// plural renders "1 item" or "3 items".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
