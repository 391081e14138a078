package devutil

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/quiverkit/quiver/internal/llmjson"
	"github.com/quiverkit/quiver/llm"
)

// ReadmeGenerator is [GenerateReadme] with an optional language model
// that polishes the description and features when a request asks for it.
// It is safe for concurrent use. The zero ReadmeGenerator has no model.
type ReadmeGenerator struct {
	settings
}

// NewReadmeGenerator returns a generator that polishes with cfg.LLM;
// without a model it is [GenerateReadme], and Polish is
// SERVICE_UNAVAILABLE. The error, wrapping [ErrInvalidConfig] (and
// llm.ErrInvalidConfig for an invalid cfg.LLM), reports an invalid cfg.
func NewReadmeGenerator(cfg Config) (*ReadmeGenerator, error) {
	s, err := newSettings(cfg)
	if err != nil {
		return nil, err
	}
	return &ReadmeGenerator{s}, nil
}

type polishedText struct {
	Description string   `json:"description"`
	Features    []string `json:"features"`
}

const readmeSystemPrompt = `You edit the text of a README. Rewrite the project description and the features in clear, concise, factual prose.
Answer with one JSON object and nothing else: {"description": "...", "features": ["...", ...]}
Rules:
- Keep every fact; add none (no invented features, numbers, users or claims).
- "description" is 1 to 3 short paragraphs of plain text separated by blank lines: no Markdown, no HTML, no headings, no links.
- "features" has exactly as many items as the input, in the same order, each one plain-text sentence or phrase of at most 200 characters.`

// Generate drafts the README. With Polish set, the model first rewrites
// the description and the features; its text is checked (same number of
// features, bounded lengths) and retried with the violations shown, then
// escaped and laid out exactly as the caller's would be. Without Polish,
// the model is not asked.
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields, checked before use:
//
//	description  string    1 to 10000 characters, not blank
//	features     []string  exactly as many as the request's non-empty features, in
//	                       their order, each 1 to 300 characters, not blank
func (g *ReadmeGenerator) Generate(ctx context.Context, req ReadmeRequest) (ReadmeResult, llm.Usage, error) {
	if err := validateReadme(req); err != nil {
		return ReadmeResult{}, llm.Usage{}, err
	}
	if !req.Polish || !g.llm.Enabled() {
		res, err := GenerateReadme(ctx, req)
		return res, llm.Usage{}, err
	}
	features := nonEmpty(req.Features)
	var prompt strings.Builder
	fmt.Fprintf(&prompt, "Project: %s\n", singleLine(req.RepoName))
	if req.Language != "" {
		fmt.Fprintf(&prompt, "Language: %s\n", singleLine(req.Language))
	}
	fmt.Fprintf(&prompt, "Description:\n%s\n\nFeatures (%d):\n", req.Description, len(features))
	for _, f := range features {
		fmt.Fprintf(&prompt, "- %s\n", singleLine(f))
	}
	check := func(p *polishedText) []string {
		var v []string
		if n := utf8.RuneCountInString(p.Description); strings.TrimSpace(p.Description) == "" || n > MaxReadmeTextLength {
			v = append(v, fmt.Sprintf(`"description" must be 1 to %d characters`, MaxReadmeTextLength))
		}
		if len(p.Features) != len(features) {
			v = append(v, fmt.Sprintf(`"features" must have exactly %d items, it has %d`, len(features), len(p.Features)))
		}
		for i, f := range p.Features {
			if strings.TrimSpace(f) == "" || utf8.RuneCountInString(f) > 300 {
				v = append(v, fmt.Sprintf(`"features[%d]" must be 1 to 300 characters`, i))
			}
		}
		return v
	}
	// Up to 300 characters, about 100 tokens, a feature, and the description.
	limit := llmjson.MaxTokens(100*len(features) + 500)
	ans, used, err := llmjson.Ask(ctx, g.model(), llmjson.Request{System: readmeSystemPrompt, Prompt: prompt.String(), MaxTokens: limit}, check)
	ai := llm.Usage(used)
	if err != nil {
		return ReadmeResult{}, ai, err
	}
	polished := req
	polished.Description, polished.Features, polished.Polish = ans.Description, ans.Features, false
	res := renderReadme(polished)
	res.Polished = true
	return res, ai, nil
}
