package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
)

// applyContent parses the content flags from env and args and returns
// the language model they configure.
func applyContent(t *testing.T, env map[string]string, args ...string) (llm.Config, error) {
	t.Helper()
	s, err := parseServices(t, []setup{contentSetup}, env, args...)
	if err != nil {
		return llm.Config{}, err
	}
	return s.LLM()
}

func TestContentSetupErrors(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"unknown provider", map[string]string{"QUIVER_LLM_PROVIDER": "skynet"}, nil, "must be openai, anthropic, ollama or googleai"},
		{"model without provider", map[string]string{"QUIVER_LLM_MODEL": "gpt-4o"}, nil, "-llm-provider (QUIVER_LLM_PROVIDER) is not"},
		{"relative base URL", map[string]string{"QUIVER_LLM_PROVIDER": "ollama", "QUIVER_LLM_BASE_URL": "localhost:11434"}, nil, "absolute http or https URL"},
		{"bad price", map[string]string{"QUIVER_LLM_PRICES": "gpt-4o=cheap"}, nil, "want model=input/output"},
		{"negative price", nil, []string{"-llm-prices", "m=-1/2"}, "non-negative"},
		{"zero attempts", map[string]string{"QUIVER_LLM_MAX_ATTEMPTS": "0"}, nil, "at least 1"},
		{"attempts not a number", map[string]string{"QUIVER_LLM_MAX_ATTEMPTS": "two"}, nil, "not an integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := applyContent(t, tt.env, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// A base URL that is refused is not quoted with its password.
func TestContentSetupBaseURLErrorHidesPassword(t *testing.T) {
	for _, u := range []string{"htps://user:hunter2@llm.internal/v1", "http://user:hunter2@llm internal/v1", "user:hunter2@llm.internal"} {
		_, err := applyContent(t, map[string]string{"QUIVER_LLM_PROVIDER": "openai", "QUIVER_LLM_BASE_URL": u})
		if err == nil || !strings.Contains(err.Error(), "absolute http or https URL") {
			t.Errorf("%s: err = %v, want a refusal", u, err)
		} else if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: err = %q shows the password", u, err)
		}
	}
}

func TestContentSetupNoProvider(t *testing.T) {
	lc, err := applyContent(t, nil)
	if err != nil || lc.Enabled() {
		t.Fatalf("LLM = %+v, err = %v; want no model", lc, err)
	}
}

func TestContentSetupGoogleAIMakesNoCall(t *testing.T) {
	// Nothing listens on the endpoint: building the client must not
	// connect.
	start := time.Now()
	lc, err := applyContent(t, map[string]string{
		"QUIVER_LLM_PROVIDER": "googleai", "QUIVER_LLM_API_KEY": "k", "QUIVER_LLM_BASE_URL": "http://127.0.0.1:9",
	})
	if err != nil || !lc.Enabled() || lc.Name != "gemini-2.0-flash" {
		t.Fatalf("cfg = %+v, err = %v", lc, err)
	}
	closer, ok := lc.Model.(io.Closer)
	if !ok {
		t.Fatal("the Google AI model cannot be closed; its gRPC connection would leak")
	}
	t.Cleanup(func() { closer.Close() })
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("building the client took %v", d)
	}
}

// TestContentSetupProviders builds each provider from the environment
// and summarizes through it against a loopback server of its protocol.
func TestContentSetupProviders(t *testing.T) {
	answer := `{"summary":"Rooftop hives thrive in cities.","key_points":["Cities offer varied forage."]}`
	tests := []struct {
		provider  string
		protocol  llmtest.Protocol
		model     string
		keyHeader string
		keyValue  string
	}{
		{"openai", llmtest.OpenAI, "qwen2.5-7b-instruct", "Authorization", "Bearer sk-test"},
		{"anthropic", llmtest.Anthropic, "claude-3-5-haiku-latest", "X-Api-Key", "sk-test"},
		{"ollama", llmtest.Ollama, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			s := llmtest.Start(t, tt.protocol, llmtest.Reply{Content: answer, PromptTokens: 1_000_000, CompletionTokens: 1_000_000})
			env := map[string]string{
				"QUIVER_LLM_PROVIDER": tt.provider,
				"QUIVER_LLM_MODEL":    tt.model,
				"QUIVER_LLM_BASE_URL": s.BaseURL(),
				"QUIVER_LLM_PRICES":   "qwen2.5-7b-instruct=0.5/1.5",
			}
			if tt.keyValue != "" {
				env["QUIVER_LLM_API_KEY"] = "sk-test"
			}
			lc, err := applyContent(t, env)
			if err != nil {
				t.Fatal(err)
			}
			wantModel := tt.model
			if wantModel == "" {
				wantModel = defaultModels[tt.provider]
			}
			g, err := content.New(content.Config{LLM: lc})
			if err != nil {
				t.Fatal(err)
			}
			_, ai, err := g.Summarize(context.Background(), content.SummarizeRequest{Text: "Urban beekeeping has grown from a niche hobby into a common sight on city rooftops."})
			if err != nil {
				t.Fatal(err)
			}
			r := s.Requests()[0]
			if r.Model != wantModel || ai.Model != wantModel {
				t.Errorf("model sent %q, reported %q; want %q", r.Model, ai.Model, wantModel)
			}
			if tt.keyHeader != "" && r.Header.Get(tt.keyHeader) != tt.keyValue {
				t.Errorf("%s = %q, want %q", tt.keyHeader, r.Header.Get(tt.keyHeader), tt.keyValue)
			}
			wantCost := map[string]float64{"openai": 2.0, "anthropic": 4.8, "ollama": 0}[tt.provider]
			if d := ai.CostUSD - wantCost; d > 1e-9 || d < -1e-9 {
				t.Errorf("cost = %v, want %v from the price table", ai.CostUSD, wantCost)
			}
			if lc.Timeout != 50*time.Second || lc.MaxAttempts != 2 || lc.DisableJSONMode {
				t.Errorf("settings = %+v, want the defaults", lc)
			}
		})
	}
}

func TestContentSetupFlagsOverrideEnv(t *testing.T) {
	lc, err := applyContent(t, map[string]string{"QUIVER_LLM_PROVIDER": "ollama", "QUIVER_LLM_JSON_MODE": "true"},
		"-llm-model", "mistral", "-llm-json-mode=false", "-llm-timeout", "5s")
	if err != nil {
		t.Fatal(err)
	}
	if st := lc; st.Name != "mistral" || !st.DisableJSONMode || st.Timeout != 5*time.Second {
		t.Errorf("settings = %+v", st)
	}
}
