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
