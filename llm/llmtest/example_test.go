package llmtest_test

import (
	"context"
	"fmt"

	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/tmc/langchaingo/llms"
)

// A scripted OpenAI server answers the real langchaingo client, and
// records what the client sent.
func Example() {
	srv := llmtest.NewOpenAI(llmtest.Reply{Content: "Paris", PromptTokens: 12, CompletionTokens: 1})
	defer srv.Close()

	model, err := srv.Model("gpt-4o-mini")
	if err != nil {
		fmt.Println(err)
		return
	}
	answer, err := llms.GenerateFromSinglePrompt(context.Background(), model, "What is the capital of France?")
	if err != nil {
		fmt.Println(err)
		return
	}
	req := srv.Requests()[0]
	fmt.Println(answer)
	fmt.Println(req.Model, req.Messages[0].Role, req.Messages[0].Content)
	fmt.Println(srv.Pending(), srv.Err())
	// Output:
	// Paris
	// gpt-4o-mini user What is the capital of France?
	// 0 <nil>
}

// A reply with a Status makes the call fail the way the provider would.
func ExampleNewAnthropic() {
	srv := llmtest.NewAnthropic(llmtest.Reply{Status: 529, Message: "Overloaded"})
	defer srv.Close()

	model, _ := srv.Model("claude-3-5-haiku-latest")
	_, err := llms.GenerateFromSinglePrompt(context.Background(), model, "hello")
	fmt.Println(err != nil)
	// Output: true
}

// Replies may be pushed after the server started; each call takes the
// next one.
func ExampleServer_Push() {
	srv := llmtest.NewOllama()
	defer srv.Close()
	srv.Push(llmtest.Reply{Content: "one"}, llmtest.Reply{Content: "two"})

	model, _ := srv.Model("llama3.2")
	for range 2 {
		answer, _ := llms.GenerateFromSinglePrompt(context.Background(), model, "count")
		fmt.Println(answer)
	}
	fmt.Println(len(srv.Requests()), srv.Pending())
	// Output:
	// one
	// two
	// 2 0
}

// A call beyond the script fails, and Err says so: a test fails on a
// non-nil Err when it ends.
func ExampleServer_Err() {
	srv := llmtest.NewOpenAI() // no replies scripted
	defer srv.Close()

	model, _ := srv.Model("gpt-4o-mini")
	_, err := llms.GenerateFromSinglePrompt(context.Background(), model, "hello")
	fmt.Println(err != nil)
	fmt.Println(srv.Err())
	// Output:
	// true
	// llmtest: unscripted call 1 to the openai server
}

// NewServer takes the protocol as a value, for tests that run against
// every provider.
func ExampleNewServer() {
	for _, p := range []llmtest.Protocol{llmtest.OpenAI, llmtest.Anthropic, llmtest.Ollama} {
		srv := llmtest.NewServer(p, llmtest.Reply{Content: "hi from " + string(p)})
		model, err := srv.Model("some-model")
		if err != nil {
			fmt.Println(err)
			srv.Close()
			continue
		}
		answer, err := llms.GenerateFromSinglePrompt(context.Background(), model, "hello")
		fmt.Println(answer, err, srv.Requests()[0].Path)
		srv.Close()
	}
	// Output:
	// hi from openai <nil> /v1/chat/completions
	// hi from anthropic <nil> /v1/messages
	// hi from ollama <nil> /api/chat
}

// BaseURL is what a client of your own is configured with.
func ExampleServer_BaseURL() {
	srv := llmtest.NewAnthropic()
	defer srv.Close()
	fmt.Println(srv.Protocol(), srv.BaseURL() == srv.URL+"/v1")
	// Output: anthropic true
}
