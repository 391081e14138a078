package llmtest

import (
	"testing"

	"github.com/quiverkit/quiver/internal/llmjson"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
)

// TestKey is the API key the clients built by [Server.Model] send.
const TestKey = "llmtest-key"

// Model returns the real langchaingo client of the server's protocol,
// pointed at the server, asking for model name, with an HTTP client whose
// transport is an [llmjson.Transport] (so status codes and Retry-After
// reach llmjson). The environment (OPENAI_API_KEY and the like) is not
// consulted for anything the test would notice.
func (s *Server) Model(tb testing.TB, name string) llms.Model {
	tb.Helper()
	hc := llmjson.HTTPClient()
	var (
		m   llms.Model
		err error
	)
	switch s.protocol {
	case Anthropic:
		m, err = anthropic.New(anthropic.WithToken(TestKey), anthropic.WithModel(name),
			anthropic.WithBaseURL(s.BaseURL()), anthropic.WithHTTPClient(hc))
	case Ollama:
		m, err = ollama.New(ollama.WithModel(name), ollama.WithServerURL(s.BaseURL()), ollama.WithHTTPClient(hc))
	default:
		m, err = openai.New(openai.WithToken(TestKey), openai.WithModel(name),
			openai.WithBaseURL(s.BaseURL()), openai.WithHTTPClient(hc))
	}
	if err != nil {
		tb.Fatalf("llmtest: build the %s client: %v", s.protocol, err)
	}
	return m
}
