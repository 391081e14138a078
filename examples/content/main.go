// Command content summarizes a text with package content.
//
// With a local Ollama (https://ollama.com) running and a model pulled:
//
//	ollama pull llama3.2
//	QUIVER_LLM_PROVIDER=ollama QUIVER_LLM_MODEL=llama3.2 go run ./examples/content
//
// QUIVER_LLM_BASE_URL points at another Ollama server (default
// http://localhost:11434). With no provider set, the summary comes from the
// deterministic extractive engine, with no model and no cost:
//
//	go run ./examples/content
//
// A file name argument summarizes that file instead of the built-in text.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/llm"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/ollama"
)

const article = `Community solar projects let households buy or lease a share of a shared solar array instead of installing panels on their own roofs. Renters, apartment owners and people whose roofs face the wrong way can all take part. Each member receives a credit on the electricity bill for the power produced by their share.

The model has spread quickly because it removes the two biggest barriers to solar power: the upfront cost and the need for a suitable roof. A typical subscription costs nothing to join and saves between five and fifteen percent on the yearly electricity bill. Larger arrays also cost less per panel to build and maintain than thousands of small rooftop systems.

Critics point out that savings depend heavily on local rules for bill credits, and that some contracts lock members in for twenty years. Consumer groups advise reading the cancellation terms carefully and comparing offers from several developers before signing.`

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "content:", err)
		os.Exit(1)
	}
}

// run summarizes the built-in article, or the file named in args, and
// prints the result and its metadata as JSON.
func run(ctx context.Context, args []string, getenv func(string) string, w io.Writer) error {
	text := article
	if len(args) > 0 {
		b, err := os.ReadFile(args[0])
		if err != nil {
			return err
		}
		text = string(b)
	}

	var model llms.Model
	name := getenv("QUIVER_LLM_MODEL")
	switch p := getenv("QUIVER_LLM_PROVIDER"); p {
	case "":
		// No provider: the extractive engine answers.
	case "ollama":
		if name == "" {
			name = "llama3.2"
		}
		opts := []ollama.Option{ollama.WithModel(name)}
		if u := getenv("QUIVER_LLM_BASE_URL"); u != "" {
			opts = append(opts, ollama.WithServerURL(u))
		}
		m, err := ollama.New(opts...)
		if err != nil {
			return err
		}
		model = m
	default:
		return fmt.Errorf("this example speaks to ollama only, not %q; the quiver server supports every provider", p)
	}

	g, err := content.New(content.Config{LLM: llm.Config{Model: model, Name: name}})
	if err != nil {
		return err
	}
	summary, ai, err := g.Summarize(ctx, content.SummarizeRequest{
		Text:     text,
		MaxWords: new(60),
		Format:   content.FormatParagraph,
	})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{"data": summary, "meta": ai})
}
