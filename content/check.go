package content

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The checks of the model's answers against the request. Each returns the
// broken rules in words the model can act on; an empty list accepts the
// answer. They trim surrounding white space of the strings in place, and
// change nothing else.

// Limits of the answers, in characters.
const (
	maxTitleRunes       = 60  // meta title
	maxDescriptionRunes = 160 // meta description
	maxHeadlineRunes    = 150 // headlines, outline and product titles
	maxKeywordRunes     = 80
)

type rules []string

func (r *rules) addf(format string, args ...any) { *r = append(*r, fmt.Sprintf(format, args...)) }

// nonEmpty trims *s and reports a violation when it is empty.
func (r *rules) nonEmpty(field string, s *string) {
	*s = strings.TrimSpace(*s)
	if *s == "" {
		r.addf("%s must not be empty", field)
	}
}

// maxRunes reports a string longer than n characters.
func (r *rules) maxRunes(field, s string, n int) {
	if c := utf8.RuneCountInString(s); c > n {
		r.addf("%s must have at most %d characters, not %d", field, n, c)
	}
}

// count reports a list whose length is outside lo..hi.
func (r *rules) count(field string, n, lo, hi int) {
	switch {
	case lo == hi && n != lo:
		r.addf("%s must hold exactly %s, not %d", field, plural(lo, "item"), n)
	case n < lo || n > hi:
		r.addf("%s must hold %d to %d items, not %d", field, lo, hi, n)
	}
}

// items checks that every string of a list is non-empty and, with
// distinct, that none repeats another (case-insensitively).
func (r *rules) items(field string, list []string, distinct bool, maxLen int) {
	seen := make(map[string]bool, len(list))
	for i := range list {
		f := fmt.Sprintf("%s[%d]", field, i)
		r.nonEmpty(f, &list[i])
		if maxLen > 0 {
			r.maxRunes(f, list[i], maxLen)
		}
		k := strings.ToLower(list[i])
		if distinct && k != "" && seen[k] {
			r.addf("%s repeats %q; items must be distinct", f, list[i])
		}
		seen[k] = true
	}
}

// keywords checks an SEO keyword list and the presence of the target
// keyword.
func (r *rules) keywords(field string, list []string, target string) {
	r.count(field, len(list), 3, 10)
	r.items(field, list, true, maxKeywordRunes)
	if target == "" {
		return
	}
	for _, k := range list {
		if strings.EqualFold(k, target) {
			return
		}
	}
	r.addf("%s must include the target keyword %q", field, target)
}

func words(s string) int { return len(strings.Fields(s)) }

func checkSummary(req SummarizeRequest, s *Summary) []string {
	var r rules
	maxWords := *req.MaxWords
	if s.KeyPoints == nil {
		s.KeyPoints = []string{}
	}
	if req.Format == FormatBullets {
		if s.Summary != nil && strings.TrimSpace(*s.Summary) != "" {
			r.addf("summary must be null in the bullets format; put the points in key_points")
		}
		s.Summary = nil
		r.count("key_points", len(s.KeyPoints), 2, 15)
		r.items("key_points", s.KeyPoints, true, 0)
		total := 0
		for i, p := range s.KeyPoints {
			total += words(p)
			if strings.HasPrefix(p, "-") || strings.HasPrefix(p, "*") || strings.HasPrefix(p, "•") {
				r.addf("key_points[%d] must not start with a bullet character", i)
			}
		}
		if total > maxWords {
			r.addf("key_points must use at most %d words together, not %d", maxWords, total)
		}
		return r
	}
	if s.Summary == nil {
		r.addf("summary must be a string in the paragraph format")
	} else {
		r.nonEmpty("summary", s.Summary)
		if n := words(*s.Summary); n > maxWords {
			r.addf("summary must have at most %d words, not %d", maxWords, n)
		}
		if strings.Contains(*s.Summary, "\n") {
			r.addf("summary must be a single paragraph without line breaks or bullet points")
		}
	}
	r.count("key_points", len(s.KeyPoints), 1, 10)
	r.items("key_points", s.KeyPoints, true, 0)
	for i, p := range s.KeyPoints {
		if n := words(p); n > 40 {
			r.addf("key_points[%d] must have at most 40 words, not %d", i, n)
		}
	}
	return r
}

func checkRewrite(w *Rewrite) []string {
	var r rules
	r.nonEmpty("rewritten_text", &w.RewrittenText)
	r.count("notes", len(w.Notes), 0, 10)
	r.items("notes", w.Notes, false, 0)
	if w.Notes == nil {
		w.Notes = []string{}
	}
	return r
}

func checkMetaTags(req MetaTagsRequest, m *MetaTags) []string {
	var r rules
	r.nonEmpty("title", &m.Title)
	r.maxRunes("title", m.Title, maxTitleRunes)
	r.nonEmpty("description", &m.Description)
	r.maxRunes("description", m.Description, maxDescriptionRunes)
	r.keywords("keywords", m.Keywords, req.TargetKeyword)
	return r
}

func checkOutline(req BlogOutlineRequest, o *BlogOutline) []string {
	var r rules
	r.nonEmpty("title", &o.Title)
	r.maxRunes("title", o.Title, maxHeadlineRunes)
	r.nonEmpty("introduction_angle", &o.IntroductionAngle)
	r.nonEmpty("conclusion_angle", &o.ConclusionAngle)
	r.count("sections", len(o.Sections), *req.Sections, *req.Sections)
	headings := make([]string, len(o.Sections))
	for i := range o.Sections {
		sec := &o.Sections[i]
		f := fmt.Sprintf("sections[%d].talking_points", i)
		r.count(f, len(sec.TalkingPoints), 2, 6)
		r.items(f, sec.TalkingPoints, false, 0)
		headings[i] = sec.Heading
	}
	r.items("sections.heading", headings, true, maxHeadlineRunes)
	for i := range o.Sections {
		o.Sections[i].Heading = headings[i]
	}
	r.keywords("seo_keywords", o.SEOKeywords, req.TargetKeyword)
	return r
}

func checkProduct(req ProductDescriptionRequest, p *ProductDescription) []string {
	var r rules
	r.nonEmpty("title", &p.Title)
	r.maxRunes("title", p.Title, maxHeadlineRunes)
	r.nonEmpty("description", &p.Description)
	lim := lengthWords[req.Length]
	if n := words(p.Description); n < lim[0] || n > lim[1] {
		r.addf("description must have %d to %d words for the %s length, not %d", lim[0], lim[1], req.Length, n)
	}
	r.count("bullet_points", len(p.BulletPoints), 3, 8)
	r.items("bullet_points", p.BulletPoints, true, 0)
	r.keywords("seo_keywords", p.SEOKeywords, req.TargetKeyword)
	return r
}

func checkCaptions(req SocialCaptionRequest, s *SocialCaptions) []string {
	var r rules
	want := *req.Variants
	withTags := *req.IncludeHashtags
	limit := platforms[req.Platform].limit
	r.count("variants", len(s.Variants), want, want)
	captions := make([]string, len(s.Variants))
	for i := range s.Variants {
		v := &s.Variants[i]
		f := fmt.Sprintf("variants[%d]", i)
		captions[i] = v.Caption
		if v.Hashtags == nil {
			v.Hashtags = []string{}
		}
		if !withTags {
			if len(v.Hashtags) > 0 {
				r.addf("%s.hashtags must be empty: hashtags were not requested", f)
			}
			if hasInlineHashtag(v.Caption) {
				r.addf("%s.caption must not contain hashtags: hashtags were not requested", f)
			}
		} else {
			r.count(f+".hashtags", len(v.Hashtags), 1, 10)
		}
		seen := make(map[string]bool, len(v.Hashtags))
		length := utf8.RuneCountInString(strings.TrimSpace(v.Caption))
		for j, h := range v.Hashtags {
			hf := fmt.Sprintf("%s.hashtags[%d]", f, j)
			switch {
			case h == "":
				r.addf("%s must not be empty", hf)
			case strings.Contains(h, "#"):
				r.addf("%s must be written without the # sign: %q", hf, h)
			case strings.IndexFunc(h, unicode.IsSpace) >= 0:
				r.addf("%s must not contain spaces: %q", hf, h)
			case strings.IndexFunc(h, notTagRune) >= 0:
				r.addf("%s may hold only letters, digits and underscores: %q", hf, h)
			}
			k := strings.ToLower(h)
			if seen[k] {
				r.addf("%s repeats %q; hashtags must be distinct", hf, h)
			}
			seen[k] = true
			length += 2 + utf8.RuneCountInString(h) // " #tag"
		}
		if length > limit {
			r.addf("%s has %d characters with its hashtags; %s allows at most %d", f, length, platforms[req.Platform].name, limit)
		}
	}
	r.items("variants.caption", captions, true, 0)
	for i := range s.Variants {
		s.Variants[i].Caption = captions[i]
	}
	return r
}

func notTagRune(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '_' }

// hasInlineHashtag reports a "#" followed by a letter at the start of a
// word.
func hasInlineHashtag(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '#' || (i > 0 && !unicode.IsSpace(rune(s[i-1])) && s[i-1] != '(') {
			continue
		}
		if c, _ := utf8.DecodeRuneInString(s[i+1:]); unicode.IsLetter(c) {
			return true
		}
	}
	return false
}

func checkHeadlines(req HeadlinesRequest, h *Headlines) []string {
	var r rules
	want := *req.Count
	r.count("variants", len(h.Variants), want, want)
	texts := make([]string, len(h.Variants))
	for i := range h.Variants {
		v := &h.Variants[i]
		f := fmt.Sprintf("variants[%d]", i)
		r.nonEmpty(f+".angle", &v.Angle)
		if v.PredictedCTRScore < 0 || v.PredictedCTRScore > 1 {
			r.addf("%s.predicted_ctr_score must be between 0 and 1, not %g", f, v.PredictedCTRScore)
		}
		texts[i] = v.Headline
	}
	r.items("variants.headline", texts, true, maxHeadlineRunes)
	for i := range h.Variants {
		h.Variants[i].Headline = texts[i]
	}
	return r
}

func checkFAQ(req FAQRequest, f *FAQ) []string {
	var r rules
	want := *req.Count
	r.count("faqs", len(f.FAQs), want, want)
	questions := make([]string, len(f.FAQs))
	for i := range f.FAQs {
		q := &f.FAQs[i]
		r.nonEmpty(fmt.Sprintf("faqs[%d].answer", i), &q.Answer)
		questions[i] = q.Question
	}
	r.items("faqs.question", questions, true, 0)
	for i, q := range questions {
		f.FAQs[i].Question = q
		if q != "" && !strings.HasSuffix(q, "?") {
			r.addf("faqs[%d].question must end with a question mark", i)
		}
	}
	return r
}
