package testutil

import (
	"testing"

	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/tmc/langchaingo/llms"
)

// NewLLMServer starts an [llmtest.Server] speaking p for the test tb: the
// server is closed when the test ends, and the test fails if the server
// saw a call beyond its script or a request it could not read.
func NewLLMServer(tb testing.TB, p llmtest.Protocol, replies ...llmtest.Reply) *llmtest.Server {
	tb.Helper()
	s := llmtest.NewServer(p, replies...)
	tb.Cleanup(func() {
		s.Close()
		if err := s.Err(); err != nil {
			tb.Errorf("%v", err)
		}
	})
	return s
}

// NewOpenAI is [NewLLMServer] for the OpenAI protocol.
func NewOpenAI(tb testing.TB, replies ...llmtest.Reply) *llmtest.Server {
	tb.Helper()
	return NewLLMServer(tb, llmtest.OpenAI, replies...)
}

// NewAnthropic is [NewLLMServer] for the Anthropic protocol.
func NewAnthropic(tb testing.TB, replies ...llmtest.Reply) *llmtest.Server {
	tb.Helper()
	return NewLLMServer(tb, llmtest.Anthropic, replies...)
}

// NewOllama is [NewLLMServer] for the Ollama protocol.
func NewOllama(tb testing.TB, replies ...llmtest.Reply) *llmtest.Server {
	tb.Helper()
	return NewLLMServer(tb, llmtest.Ollama, replies...)
}

// Model returns s's langchaingo client asking for the model name,
// failing the test if it cannot be built.
func Model(tb testing.TB, s *llmtest.Server, name string) llms.Model {
	tb.Helper()
	m, err := s.Model(name)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}
