package content

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"text/template"

	"github.com/quiverkit/quiver/internal/cfgerr"
	"github.com/quiverkit/quiver/internal/llmjson"
	"github.com/quiverkit/quiver/llm"
)

// ExtractiveModel is the model name reported by the deterministic
// fallback of Summarize and MetaTags.
const ExtractiveModel = "quiver-extractive"

// Config configures a [Generator]. The zero Config is valid: it gives the
// extractive fallback (Summarize and MetaTags without a model).
type Config struct {
	// LLM is the language model and its settings: model, name, prices,
	// timeout, attempts and JSON mode; see [llm.Config] for the default
	// of each. Default (zero): no model, so Summarize and MetaTags use the
	// extractive engine and the six other operations fail with
	// SERVICE_UNAVAILABLE.
	//
	// Set LLM.Name to the model the client calls: it is reported in the
	// usage metadata and selects the price. A model the price table does
	// not name is reported with a cost of 0; LLM.PriceKnown() tells.
	LLM llm.Config
}

// Generator runs the eight content operations. It is safe for concurrent
// use. The zero Generator has no model, like New(Config{}).
type Generator struct {
	llm llm.Config
}

// ErrInvalidConfig is wrapped by the error of [New] when its Config
// cannot work.
var ErrInvalidConfig = errors.New("content: invalid configuration")

// New returns a generator configured by cfg. It fails, with an error
// wrapping both [ErrInvalidConfig] and llm.ErrInvalidConfig, when cfg.LLM
// is invalid (see [llm.Config.Validate]).
func New(cfg Config) (*Generator, error) {
	if err := cfg.LLM.Validate(); err != nil {
		return nil, cfgerr.Wrap(ErrInvalidConfig, "LLM", err)
	}
	return &Generator{llm: cfg.LLM}, nil
}

// HasModel reports whether a language model backs the generator.
func (g *Generator) HasModel() bool { return g.llm.Enabled() }

//go:embed prompts.tmpl
var promptText string

var prompts = template.Must(template.New("prompts").Funcs(template.FuncMap{
	"deref": func(p any) any {
		switch v := p.(type) {
		case *int:
			return *v
		case *bool:
			return *v
		}
		return p
	},
	"wordRange": func(length string) string {
		r := lengthWords[length]
		return fmt.Sprintf("%d to %d", r[0], r[1])
	},
	"platformName":  func(p string) string { return platforms[p].name },
	"platformLimit": func(p string) int { return platforms[p].limit },
}).Parse(promptText))

// render executes the system and user templates of op.
func render(op string, data any) (llmjson.Request, error) {
	var sys, user bytes.Buffer
	if err := prompts.ExecuteTemplate(&sys, op+".system", data); err != nil {
		return llmjson.Request{}, fmt.Errorf("content: render %s prompt: %w", op, err)
	}
	if err := prompts.ExecuteTemplate(&user, op+".user", data); err != nil {
		return llmjson.Request{}, fmt.Errorf("content: render %s prompt: %w", op, err)
	}
	return llmjson.Request{System: strings.TrimSpace(sys.String()), Prompt: strings.TrimSpace(user.String())}, nil
}

// ask renders op's prompt for req and asks the model for an answer of at
// most about answerTokens tokens, checking the answer with check.
func ask[T any](ctx context.Context, g *Generator, op string, req any, answerTokens int, check func(*T) []string) (T, llm.Usage, error) {
	var zero T
	if !g.llm.Enabled() {
		return zero, llm.Usage{}, errNoModel(op)
	}
	r, err := render(op, req)
	if err != nil {
		return zero, llm.Usage{}, err
	}
	r.MaxTokens = llmjson.MaxTokens(answerTokens)
	l := &g.llm
	v, used, err := llmjson.Ask(ctx, llmjson.Settings{Model: l.Model, Name: l.ModelName(), Cost: l.PriceTable().Cost,
		Timeout: l.Timeout, Attempts: l.Attempts(), DisableJSONMode: l.DisableJSONMode}, r, check)
	return v, llm.Usage(used), err
}

func errNoModel(op string) error {
	return llmjson.NoModel(op+" needs a language model, and none is configured", "content.Config.LLM.Model")
}

// Summarize summarizes a text. Without a model it uses the extractive
// engine (model "quiver-extractive", cost 0).
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields (format is the request's, set by Quiver), checked before use:
//
//	summary     string|null  format "paragraph": one paragraph without line breaks,
//	                         not empty, at most max_words words; "bullets": null
//	key_points  []string     distinct, not empty; "paragraph": 1 to 10 points of
//	                         at most 40 words each; "bullets": 2 to 15 points, none
//	                         starting with -, * or •, at most max_words words together
func (g *Generator) Summarize(ctx context.Context, req SummarizeRequest) (Summary, llm.Usage, error) {
	if err := req.normalize(); err != nil {
		return Summary{}, llm.Usage{}, err
	}
	if !g.llm.Enabled() {
		if err := ctx.Err(); err != nil {
			return Summary{}, llm.Usage{}, err
		}
		return extractiveSummary(req), llm.Usage{Model: ExtractiveModel}, nil
	}
	res, ai, err := ask(ctx, g, "summarize", req, 300+2*(*req.MaxWords), func(s *Summary) []string { return checkSummary(req, s) })
	if err == nil {
		res.Format = req.Format
	}
	return res, ai, err
}

// Rewrite rewrites a text in another tone or for another audience.
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields, checked before use:
//
//	rewritten_text  string    not empty
//	notes           []string  0 to 10 notes, not empty; null is read as []
func (g *Generator) Rewrite(ctx context.Context, req RewriteRequest) (Rewrite, llm.Usage, error) {
	if err := req.normalize(); err != nil {
		return Rewrite{}, llm.Usage{}, err
	}
	return ask(ctx, g, "rewrite", req, 300+2*len(strings.Fields(req.Text)), checkRewrite)
}

// MetaTags writes the SEO title, description and keywords of a page.
// Without a model it uses the extractive engine (model
// "quiver-extractive", cost 0).
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields, checked before use:
//
//	title        string    not empty, at most 60 characters
//	description  string    not empty, at most 160 characters
//	keywords     []string  3 to 10, distinct, not empty, at most 80 characters each;
//	                       includes target_keyword when given
func (g *Generator) MetaTags(ctx context.Context, req MetaTagsRequest) (MetaTags, llm.Usage, error) {
	if err := req.normalize(); err != nil {
		return MetaTags{}, llm.Usage{}, err
	}
	if !g.llm.Enabled() {
		if err := ctx.Err(); err != nil {
			return MetaTags{}, llm.Usage{}, err
		}
		return extractiveMetaTags(req), llm.Usage{Model: ExtractiveModel}, nil
	}
	return ask(ctx, g, "metatags", req, 300, func(m *MetaTags) []string { return checkMetaTags(req, m) })
}

// BlogOutline outlines a blog post with the requested number of sections.
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields, checked before use:
//
//	title               string                       not empty, at most 150 characters
//	introduction_angle  string                       not empty
//	sections            []{heading, talking_points}  exactly the request's sections;
//	                                                 headings distinct, not empty, at most
//	                                                 150 characters; 2 to 6 talking points
//	                                                 each, not empty
//	conclusion_angle    string                       not empty
//	seo_keywords        []string                     as MetaTags' keywords
func (g *Generator) BlogOutline(ctx context.Context, req BlogOutlineRequest) (BlogOutline, llm.Usage, error) {
	if err := req.normalize(); err != nil {
		return BlogOutline{}, llm.Usage{}, err
	}
	return ask(ctx, g, "outline", req, 200+120*(*req.Sections), func(o *BlogOutline) []string { return checkOutline(req, o) })
}

// ProductDescription writes a product description of the requested
// length.
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields, checked before use:
//
//	title          string    not empty, at most 150 characters
//	description    string    not empty; words: short 20 to 100, medium 60 to 250,
//	                         long 150 to 500
//	bullet_points  []string  3 to 8, distinct, not empty
//	seo_keywords   []string  as MetaTags' keywords
func (g *Generator) ProductDescription(ctx context.Context, req ProductDescriptionRequest) (ProductDescription, llm.Usage, error) {
	if err := req.normalize(); err != nil {
		return ProductDescription{}, llm.Usage{}, err
	}
	return ask(ctx, g, "product", req, 300+2*lengthWords[req.Length][1], func(p *ProductDescription) []string { return checkProduct(req, p) })
}

// SocialCaption writes caption variants for a social platform.
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields (platform is the request's, set by Quiver), checked before use:
//
//	variants  []{caption, hashtags}  exactly the request's variants; captions distinct
//	                                 and not empty; with include_hashtags, 1 to 10
//	                                 distinct hashtags each, written without "#", of
//	                                 letters, digits and underscores; without it, no
//	                                 hashtags in the list or the caption; each caption
//	                                 with " #tag" per hashtag within the platform's post
//	                                 limit (x 280, bluesky 300, threads and mastodon 500,
//	                                 photosocial 2200, linkedin 3000, facebook 5000)
func (g *Generator) SocialCaption(ctx context.Context, req SocialCaptionRequest) (SocialCaptions, llm.Usage, error) {
	if err := req.normalize(); err != nil {
		return SocialCaptions{}, llm.Usage{}, err
	}
	res, ai, err := ask(ctx, g, "caption", req, 100+(*req.Variants)*(platforms[req.Platform].limit/3+60), func(s *SocialCaptions) []string { return checkCaptions(req, s) })
	if err == nil {
		res.Platform = req.Platform
	}
	return res, ai, err
}

// Headlines writes headline variants with a predicted click-through
// score each.
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields, checked before use:
//
//	variants  []{headline, angle, predicted_ctr_score}  exactly the request's count;
//	                                                    headlines distinct, not empty, at
//	                                                    most 150 characters; angle not
//	                                                    empty; predicted_ctr_score from 0
//	                                                    to 1
func (g *Generator) Headlines(ctx context.Context, req HeadlinesRequest) (Headlines, llm.Usage, error) {
	if err := req.normalize(); err != nil {
		return Headlines{}, llm.Usage{}, err
	}
	return ask(ctx, g, "headlines", req, 100+50*(*req.Count), func(h *Headlines) []string { return checkHeadlines(req, h) })
}

// FAQ writes questions and answers drawn from a source text.
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields, checked before use:
//
//	faqs  []{question, answer}  exactly the request's count; questions distinct, not
//	                            empty, ending with "?"; answers not empty
func (g *Generator) FAQ(ctx context.Context, req FAQRequest) (FAQ, llm.Usage, error) {
	if err := req.normalize(); err != nil {
		return FAQ{}, llm.Usage{}, err
	}
	return ask(ctx, g, "faq", req, 100+150*(*req.Count), func(f *FAQ) []string { return checkFAQ(req, f) })
}
