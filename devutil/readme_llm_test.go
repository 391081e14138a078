package devutil_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
)

var polishRequest = devutil.ReadmeRequest{
	RepoName:    "quiver",
	Description: "toolkit. does email checks and web checks and more",
	Language:    "go",
	Features:    []string{"email", "web checks"},
	Polish:      true,
}

func TestReadmeGeneratorPolish(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: `{"description":"x","features":["Email checks."]}`, PromptTokens: 100, CompletionTokens: 20}, llmtest.Reply{Content: `{"description":"Quiver is a *toolkit* for email and web checks.\n\nIt has <b>more</b>.","features":["Email verification.","Web checks."]}`, PromptTokens: 150, CompletionTokens: 30})
	g := newReadmeGenerator(t, llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"})
	res, ai, err := g.Generate(context.Background(), polishRequest)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Polished || ai.Model != "gpt-4o-mini" || ai.PromptTokens != 250 {
		t.Errorf("polished %v ai %+v", res.Polished, ai)
	}
	// The model's text is escaped like the caller's, in the same layout.
	for _, s := range []string{"Quiver is a \\*toolkit\\* for email and web checks.\n\nIt has \\<b\\>more\\</b\\>.\n", "- Email verification.\n- Web checks.\n"} {
		if !strings.Contains(res.ReadmeMD, s) {
			t.Errorf("README lacks %q:\n%s", s, res.ReadmeMD)
		}
	}
	plain := readme(t, devutil.ReadmeRequest{RepoName: "quiver", Description: "d", Language: "go", Features: []string{"a", "b"}})
	if diff := cmp.Diff(headings(t, plain), headings(t, res.ReadmeMD)); diff != "" {
		t.Errorf("polish changed the structure (-plain +polished):\n%s", diff)
	}
	reqs := srv.Requests()
	if !strings.Contains(reqs[0].Messages[1].Content, "- web checks") {
		t.Errorf("prompt %q", reqs[0].Messages[1].Content)
	}
	if last := reqs[1].Messages[len(reqs[1].Messages)-1].Content; !strings.Contains(last, `exactly 2 items, it has 1`) {
		t.Errorf("retry prompt %q", last)
	}
}

// TestReadmePolishRoomForItsAnswer: a polish of many long features asks
// for room for its answer: more than the 2,048 tokens of Anthropic's
// client default, which would cut a valid answer short.
func TestReadmePolishRoomForItsAnswer(t *testing.T) {
	req := polishRequest
	req.Features = nil
	for range 100 {
		req.Features = append(req.Features, strings.Repeat("word ", 50))
	}
	answer := `{"description":"x","features":["f"` + strings.Repeat(`,"f"`, 99) + `]}`
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: answer})
	g := newReadmeGenerator(t, llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"})
	if _, _, err := g.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[0].MaxTokens; got < 8000 {
		t.Errorf("max tokens %d, want room for 100 features of 300 characters", got)
	}
}

func TestReadmeGeneratorPolishFailures(t *testing.T) {
	tests := []struct {
		name    string
		replies []llmtest.Reply
		llm     llm.Config
		code    envelope.Code
	}{
		{"garbage", []llmtest.Reply{{Content: "Here is a nicer README!"}, {Content: "still not JSON"}}, llm.Config{}, envelope.CodeUpstreamError},
		{"timeout", []llmtest.Reply{{Content: `{}`, Delay: 5 * time.Second}}, llm.Config{Timeout: 100 * time.Millisecond}, envelope.CodeUpstreamTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.OpenAI, tt.replies...)
			_, _, err := newReadmeGenerator(t, withModel(tt.llm, srv.ModelT(t, "m"))).Generate(context.Background(), polishRequest)
			var e *envelope.Error
			if !errors.As(err, &e) || e.Code != tt.code {
				t.Errorf("err = %v, want %s", err, tt.code)
			}
		})
	}
}

func TestReadmeGeneratorWithoutPolish(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI) // any call fails the test
	req := polishRequest
	req.Polish = false
	res, ai, err := newReadmeGenerator(t, llm.Config{Model: srv.ModelT(t, "m")}).Generate(context.Background(), req)
	if err != nil || res.Polished || ai != (llm.Usage{}) || res.ReadmeMD != readme(t, req) {
		t.Errorf("res %+v ai %+v err %v", res, ai, err)
	}
	// Polish without a model is SERVICE_UNAVAILABLE.
	_, _, err = newReadmeGenerator(t, llm.Config{}).Generate(context.Background(), polishRequest)
	var e *envelope.Error
	if !errors.As(err, &e) || e.Code != envelope.CodeServiceUnavailable || !strings.Contains(e.Message, "configure a language model") {
		t.Errorf("err = %v", err)
	}
}
