package devutil

import (
	"context"
	"fmt"
	"strings"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/llmjson"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/llm"
)

// maxAISuggestionLength bounds the model's suggestion, in bytes.
const maxAISuggestionLength = 1500

// StacktraceAnalyzer is [AnalyzeStacktrace] with an optional language
// model that adds advice specific to the trace. It is safe for
// concurrent use. The zero StacktraceAnalyzer has no model.
type StacktraceAnalyzer struct {
	settings
}

// NewStacktraceAnalyzer returns an analyzer enriched by cfg.LLM; without
// a model it is exactly [AnalyzeStacktrace]. The error, wrapping
// [ErrInvalidConfig] (and llm.ErrInvalidConfig for an invalid cfg.LLM),
// reports an invalid cfg.
func NewStacktraceAnalyzer(cfg Config) (*StacktraceAnalyzer, error) {
	s, err := newSettings(cfg)
	if err != nil {
		return nil, err
	}
	return &StacktraceAnalyzer{s}, nil
}

type aiSuggestion struct {
	Suggestion string `json:"suggestion"`
}

const stacktraceSystemPrompt = `You help a developer fix the error in a stack trace. A deterministic analyzer has already found the facts below; they are correct, do not contradict or repeat them.
Answer with one JSON object and nothing else: {"suggestion": "..."}
"suggestion" is 1 to 4 sentences of concrete advice specific to this trace: what to check or change in the named application frame, given the message. No generic advice, no code fences, no links.`

// Analyze runs the deterministic analysis and, when a model is
// configured and the error was recognized, asks the model for advice
// specific to the trace, which goes to AISuggestion. The deterministic
// fields are never replaced. When the model fails, the analysis is still
// returned, with the reason in AINote; the usage (llm.Usage) accounts for what
// the model used either way. A model's rate limit is such a failure too:
// the answer is the analysis, not RATE_LIMIT_EXCEEDED, and AINote ends
// with the wait, as in "(retry after 30s)".
//
// Answer contract (see the package doc for the notation): the model
// answers one JSON object with these fields, checked before use:
//
//	suggestion  string  not empty, at most 1500 bytes; no code fence (```) and no
//	                    link ("://" or "www."): the documentation links are the
//	                    analysis' own
func (a *StacktraceAnalyzer) Analyze(ctx context.Context, req StacktraceRequest) (StacktraceResult, llm.Usage, error) {
	res, err := AnalyzeStacktrace(ctx, req)
	if err != nil || !a.llm.Enabled() || res.ErrorType == "unknown" {
		return res, llm.Usage{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Language: %s\n", res.Language)
	if req.Framework != "" {
		fmt.Fprintf(&b, "Framework: %s\n", textcut.Cut(singleLine(req.Framework), 100))
	}
	fmt.Fprintf(&b, "Error type: %s\nMessage: %s\nRoot cause: %s\nGeneric fix: %s\n",
		res.ErrorType, textcut.Cut(res.ErrorMessage, 500), textcut.Cut(res.RootCause, 800), res.FixSuggestion)
	for _, c := range res.Chain {
		fmt.Fprintf(&b, "Chained error: %s\n", textcut.Cut(c, 300))
	}
	b.WriteString("Frames, innermost first:\n")
	for i, f := range res.Frames {
		if i == 10 {
			break
		}
		kind := "library"
		if f.Application {
			kind = "application"
		}
		fmt.Fprintf(&b, "- %s [%s]\n", textcut.Cut(describeFrame(f), 300), kind)
	}
	check := func(s *aiSuggestion) []string {
		switch n := len(strings.TrimSpace(s.Suggestion)); {
		case n == 0:
			return []string{`"suggestion" is empty`}
		case n > maxAISuggestionLength:
			return []string{fmt.Sprintf(`"suggestion" is longer than %d characters; keep it to 4 sentences`, maxAISuggestionLength)}
		}
		// The deterministic documentation_links are the vetted ones: a
		// link the model makes up must not reach the caller.
		lower := strings.ToLower(s.Suggestion)
		if strings.Contains(lower, "```") || strings.Contains(lower, "://") || strings.Contains(lower, "www.") {
			return []string{`"suggestion" must be plain sentences, without code fences or links`}
		}
		return nil
	}
	// A suggestion of a few sentences.
	ans, used, err := llmjson.Ask(ctx, a.model(), llmjson.Request{System: stacktraceSystemPrompt, Prompt: b.String(), MaxTokens: llmjson.MaxTokens(500)}, check)
	ai := llm.Usage(used)
	if err != nil {
		if ctx.Err() != nil {
			// err is llmjson's classified error, which still wraps
			// ctx.Err(): a canceled request is not an internal error.
			return StacktraceResult{}, ai, err
		}
		// A failing model does not fail the deterministic analysis, not
		// even a rate limit: the note carries its wait instead.
		e := envelope.From(err)
		res.AINote = "no suggestion: " + e.Message
		if e.Code == envelope.CodeRateLimitExceeded && e.RetryAfter > 0 {
			res.AINote += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
		}
		return res, ai, nil
	}
	res.AISuggestion = strings.TrimSpace(ans.Suggestion)
	return res, ai, nil
}
