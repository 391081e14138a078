package llmtest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/tmc/langchaingo/llms"
)

// A scripted OpenAI server answers the real langchaingo client, and
// records what the client sent.
func Example() {
	srv, err := llmtest.New(llmtest.OpenAI, llmtest.Reply{Content: "Paris", PromptTokens: 12, CompletionTokens: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
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

// New takes the protocol as a value, for tests that run against every
// provider; a protocol it does not speak is an error. A reply with a
// Status makes the call fail the way the provider would.
func ExampleNew() {
	for _, p := range []llmtest.Protocol{llmtest.OpenAI, llmtest.Anthropic, llmtest.Ollama, "grpc"} {
		srv, err := llmtest.New(p, llmtest.Reply{Content: "hi from " + string(p)}, llmtest.Reply{Status: 529, Message: "Overloaded"})
		if err != nil {
			fmt.Println(err)
			continue
		}
		model, err := srv.Model("some-model")
		if err != nil {
			fmt.Println(err)
			srv.Close()
			continue
		}
		answer, err := llms.GenerateFromSinglePrompt(context.Background(), model, "hello")
		fmt.Println(answer, err, srv.Requests()[0].Path)
		_, err = llms.GenerateFromSinglePrompt(context.Background(), model, "hello again")
		fmt.Println(err != nil)
		srv.Close()
	}
	// Output:
	// hi from openai <nil> /v1/chat/completions
	// true
	// hi from anthropic <nil> /v1/messages
	// true
	// hi from ollama <nil> /api/chat
	// true
	// llmtest: unknown protocol "grpc": want openai, anthropic or ollama
}

// Start is New for a test: the server closes when the test ends, and the
// test fails if the server saw a call beyond its script. ModelT builds
// the client, failing the test if it cannot. (This example only
// compiles: it needs the *testing.T of a test.)
func ExampleStart() {
	testSummary := func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: "A short summary.", PromptTokens: 80, CompletionTokens: 5})
		cfg := llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini"}
		answer, err := llms.GenerateFromSinglePrompt(context.Background(), cfg.Model, "Summarize: ...")
		if err != nil || answer != "A short summary." {
			t.Errorf("answer %q, %v", answer, err)
		}
	}
	_ = testSummary
}

// Replies may be pushed after the server started; each call takes the
// next one.
func ExampleServer_Push() {
	srv, err := llmtest.New(llmtest.Ollama)
	if err != nil {
		fmt.Println(err)
		return
	}
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
// non-nil Err when it ends (Start does this).
func ExampleServer_Err() {
	srv, err := llmtest.New(llmtest.OpenAI) // no replies scripted
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	model, _ := srv.Model("gpt-4o-mini")
	_, err = llms.GenerateFromSinglePrompt(context.Background(), model, "hello")
	fmt.Println(err != nil)
	fmt.Println(srv.Err())
	// Output:
	// true
	// llmtest: unscripted call 1 to the openai server
}

// BaseURL is what a client of your own is configured with.
func ExampleServer_BaseURL() {
	srv, err := llmtest.New(llmtest.Anthropic)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	fmt.Println(srv.Protocol(), srv.BaseURL() == srv.URL+"/v1")
	// Output: anthropic true
}
