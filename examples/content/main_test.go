package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/llm/llmtest"
)

type output struct {
	Data struct {
		Format    string   `json:"format"`
		Summary   *string  `json:"summary"`
		KeyPoints []string `json:"key_points"`
	} `json:"data"`
	Meta struct {
		Model            string  `json:"model"`
		PromptTokens     int     `json:"prompt_tokens"`
		CompletionTokens int     `json:"completion_tokens"`
		CostUSD          float64 `json:"cost_usd"`
	} `json:"meta"`
}

func runExample(t *testing.T, env map[string]string) output {
	t.Helper()
	var buf bytes.Buffer
	if err := run(context.Background(), nil, func(k string) string { return env[k] }, &buf); err != nil {
		t.Fatal(err)
	}
	var out output
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return out
}

func TestExtractiveWithoutProvider(t *testing.T) {
	out := runExample(t, nil)
	if out.Meta.Model != "quiver-extractive" || out.Meta.CostUSD != 0 {
		t.Errorf("meta = %+v", out.Meta)
	}
	if out.Data.Summary == nil || len(strings.Fields(*out.Data.Summary)) > 60 {
		t.Fatalf("summary = %v", out.Data.Summary)
	}
	if !strings.Contains(*out.Data.Summary, "Community solar projects") {
		t.Errorf("summary misses the opening sentence: %q", *out.Data.Summary)
	}
}

func TestOllama(t *testing.T) {
	s := llmtest.Start(t, llmtest.Ollama, llmtest.Reply{
		Content:      `{"summary":"Community solar lets people without a suitable roof share an array and save on bills.","key_points":["No upfront cost","Check contract terms"]}`,
		PromptTokens: 412, CompletionTokens: 38,
	})
	out := runExample(t, map[string]string{"QUIVER_LLM_PROVIDER": "ollama", "QUIVER_LLM_BASE_URL": s.URL})
	if out.Meta.Model != "llama3.2" || out.Meta.PromptTokens != 412 || out.Meta.CompletionTokens != 38 || out.Meta.CostUSD != 0 {
		t.Errorf("meta = %+v", out.Meta)
	}
	if out.Data.Summary == nil || !strings.HasPrefix(*out.Data.Summary, "Community solar lets") {
		t.Errorf("data = %+v", out.Data)
	}
	if r := s.Requests()[0]; !r.JSONMode || r.Model != "llama3.2" {
		t.Errorf("request = %+v", r)
	}
}
