package llm_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/googleai"
)

func TestPricesLookup(t *testing.T) {
	pt := llm.Prices{
		"gpt-4o":      {Input: 2.5, Output: 10},
		"gpt-4o-mini": {Input: 0.15, Output: 0.6},
		"llama3.2":    {Input: 1, Output: 1},
		"claude":      {Input: 3, Output: 15},
	}
	tests := []struct {
		model string
		want  llm.Price
		ok    bool
	}{
		{"gpt-4o", pt["gpt-4o"], true},
		{"gpt-4o-mini", pt["gpt-4o-mini"], true},
		{"gpt-4o-mini-2024-07-18", pt["gpt-4o-mini"], true},
		{"gpt-4o-2024-08-06", pt["gpt-4o"], true},
		{"gpt-4omni", llm.Price{}, false},
		{"llama3.2:3b", pt["llama3.2"], true},
		{"claude@20250101", pt["claude"], true},
		{"claude.x", llm.Price{}, false},
		{"mistral", llm.Price{}, false},
		{"", llm.Price{}, false},
	}
	for _, tt := range tests {
		got, ok := pt.Lookup(tt.model)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v, %v", tt.model, got, ok, tt.want, tt.ok)
		}
	}
}

func TestPricesCost(t *testing.T) {
	pt := llm.Prices{"m": {Input: 2, Output: 8}}
	tests := []struct {
		model   string
		in, out int
		want    float64
	}{
		{"m", 1_000_000, 0, 2},
		{"m", 0, 1_000_000, 8},
		{"m-large", 500_000, 250_000, 3},
		{"other", 1_000_000, 1_000_000, 0},
	}
	for _, tt := range tests {
		if got := pt.Cost(tt.model, tt.in, tt.out); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Cost(%q, %d, %d) = %v, want %v", tt.model, tt.in, tt.out, got, tt.want)
		}
	}
}

func TestDefaultPricesIsACopy(t *testing.T) {
	a := llm.DefaultPrices()
	a["gpt-4o-mini"] = llm.Price{}
	if llm.DefaultPrices()["gpt-4o-mini"] == (llm.Price{}) {
		t.Error("DefaultPrices shares its map")
	}
}

func TestPriceTableAndPriceKnown(t *testing.T) {
	tests := []struct {
		name  string
		cfg   llm.Config
		known bool
	}{
		{"default table, listed model", llm.Config{Name: "gpt-4o-mini"}, true},
		{"default table, dated snapshot", llm.Config{Name: "claude-3-5-haiku-20241022"}, true},
		{"default table, local model", llm.Config{Name: "llama3.2"}, false},
		{"no name", llm.Config{}, false},
		{"own table", llm.Config{Name: "llama3.2", Prices: llm.Prices{"llama3.2": {}}}, true},
		{"empty table", llm.Config{Name: "gpt-4o-mini", Prices: llm.Prices{}}, false},
	}
	for _, tt := range tests {
		if got := tt.cfg.PriceKnown(); got != tt.known {
			t.Errorf("%s: PriceKnown = %v, want %v", tt.name, got, tt.known)
		}
	}
	if len(llm.Config{}.PriceTable()) != len(llm.DefaultPrices()) {
		t.Error("a nil Prices does not select DefaultPrices")
	}
}

func TestAttempts(t *testing.T) {
	for in, want := range map[int]int{0: llm.DefaultMaxAttempts, -1: llm.DefaultMaxAttempts, 1: 1, 5: 5} {
		if got := (llm.Config{MaxAttempts: in}).Attempts(); got != want {
			t.Errorf("Attempts with MaxAttempts %d = %d, want %d", in, got, want)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  llm.Config
		want string // "" for valid
	}{
		{"zero", llm.Config{}, ""},
		{"full", llm.Config{Name: "m", Prices: llm.Prices{"m": {Input: 1}}, Timeout: time.Second, MaxAttempts: 3, DisableJSONMode: true}, ""},
		{"negative timeout", llm.Config{Timeout: -time.Second}, "Timeout"},
		{"negative attempts", llm.Config{MaxAttempts: -1}, "MaxAttempts"},
		{"negative price", llm.Config{Prices: llm.Prices{"m": {Input: -1}}}, `Prices["m"]`},
		{"NaN price", llm.Config{Prices: llm.Prices{"m": {Output: math.NaN()}}}, `Prices["m"]`},
		{"infinite price", llm.Config{Prices: llm.Prices{"m": {Output: math.Inf(1)}}}, `Prices["m"]`},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: Validate = %v, want nil", tt.name, err)
			}
			continue
		}
		if !errors.Is(err, llm.ErrInvalidConfig) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Validate = %v, want ErrInvalidConfig naming %s", tt.name, err, tt.want)
		}
	}
}

// named is a client of the user's own that reports its model.
type named struct{ llms.Model }

func (named) ModelName() string { return "my-model" }

// TestModelNameFromRealClients pins down what langchaingo's clients
// report: none of them tells its model, so Name is what counts. If a new
// langchaingo version adds a ModelName method, this test fails and the
// package documentation should say that the name is read from the client.
func TestModelNameFromRealClients(t *testing.T) {
	clients := map[string]llms.Model{}
	for _, p := range []llmtest.Protocol{llmtest.OpenAI, llmtest.Anthropic, llmtest.Ollama} {
		s := llmtest.Start(t, p)
		clients[string(p)] = s.ModelT(t, "gpt-4o-mini")
	}
	g, err := googleai.New(context.Background(), googleai.WithAPIKey("unused"), googleai.WithDefaultModel("gemini-2.0-flash"))
	if err != nil {
		t.Fatalf("googleai client: %v", err)
	}
	defer g.Close()
	clients["googleai"] = g

	for name, m := range clients {
		if _, ok := m.(interface{ ModelName() string }); ok {
			t.Errorf("%s: the client now reports its model name; read it (and update the docs)", name)
		}
		if got := (llm.Config{Model: m}).ModelName(); got != llm.UnknownModel {
			t.Errorf("%s: ModelName without Name = %q, want %q", name, got, llm.UnknownModel)
		}
		if got := (llm.Config{Model: m, Name: "gpt-4o-mini"}).ModelName(); got != "gpt-4o-mini" {
			t.Errorf("%s: ModelName = %q, want Name", name, got)
		}
	}
	if got := (llm.Config{Model: named{}}).ModelName(); got != "my-model" {
		t.Errorf("a client reporting its model: ModelName = %q, want my-model", got)
	}
	if got := (llm.Config{Model: named{}, Name: "set"}).ModelName(); got != "set" {
		t.Errorf("Name does not take precedence: %q", got)
	}
}

func TestUsageAdd(t *testing.T) {
	var total llm.Usage
	total.Add(llm.Usage{Model: "a", PromptTokens: 10, CompletionTokens: 5, CostUSD: 0.25})
	total.Add(llm.Usage{Model: "b", PromptTokens: 1, CompletionTokens: 2, CostUSD: 0.5})
	total.Add(llm.Usage{PromptTokens: 1}) // no model named: "b" stays
	want := llm.Usage{Model: "b", PromptTokens: 12, CompletionTokens: 7, CostUSD: 0.75}
	if total != want {
		t.Errorf("Add = %+v, want %+v", total, want)
	}
}
