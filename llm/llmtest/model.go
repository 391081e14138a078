package llmtest

import (
	"fmt"
	"testing"

	"github.com/quiverkit/quiver/llm"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
)

// TestKey is the API key the clients built by [Server.Model] send.
const TestKey = "llmtest-key"

// ModelT is [Server.Model] for a test or benchmark: it fails tb (with
// Fatal) when the client cannot be built.
func (s *Server) ModelT(tb testing.TB, name string) llms.Model {
	tb.Helper()
	m, err := s.Model(name)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// Model returns the real langchaingo client of the server's protocol
// (openai, anthropic or ollama), pointed at the server and asking for the
// model called name. The key it sends is [TestKey], never one from the
// environment. Its HTTP client is llm.HTTPClient(), which passes the
// provider's status codes and Retry-After headers on to Quiver's error
// mapping, as the quiver server's clients do and a user's should. It
// fails only when langchaingo cannot build the client.
func (s *Server) Model(name string) (llms.Model, error) {
	hc := llm.HTTPClient()
	var (
		m   llms.Model
		err error
	)
	switch s.protocol {
	case OpenAI:
		m, err = openai.New(openai.WithToken(TestKey), openai.WithModel(name),
			openai.WithBaseURL(s.BaseURL()), openai.WithHTTPClient(hc))
	case Anthropic:
		m, err = anthropic.New(anthropic.WithToken(TestKey), anthropic.WithModel(name),
			anthropic.WithBaseURL(s.BaseURL()), anthropic.WithHTTPClient(hc))
	case Ollama:
		m, err = ollama.New(ollama.WithModel(name), ollama.WithServerURL(s.BaseURL()), ollama.WithHTTPClient(hc))
	default:
		return nil, fmt.Errorf("llmtest: no client for protocol %q", s.protocol)
	}
	if err != nil {
		return nil, fmt.Errorf("llmtest: build the %s client: %w", s.protocol, err)
	}
	return m, nil
}
