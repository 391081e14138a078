package llmjson

// Usage is what the calls of one [Ask] used: the fields of llm.Usage, in
// its order, so that the public packages convert it with llm.Usage(u).
type Usage struct {
	Model            string
	PromptTokens     int
	CompletionTokens int
	CostUSD          float64
}

// UsageOf reads the token usage from a langchaingo choice's
// GenerationInfo. OpenAI, Ollama and Google AI report PromptTokens and
// CompletionTokens; Anthropic reports InputTokens and OutputTokens. The
// values may be any integer or float type; missing keys count as zero.
func UsageOf(info map[string]any) Usage {
	u := Usage{
		PromptTokens:     intOf(info["PromptTokens"]),
		CompletionTokens: intOf(info["CompletionTokens"]),
	}
	if u.PromptTokens == 0 {
		u.PromptTokens = intOf(info["InputTokens"])
	}
	if u.CompletionTokens == 0 {
		u.CompletionTokens = intOf(info["OutputTokens"])
	}
	return u
}

func intOf(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int32:
		return int(n)
	case int64:
		return int(n)
	case uint32:
		return int(n)
	case uint64:
		return int(n)
	case float64:
		return int(n)
	case float32:
		return int(n)
	default:
		return 0
	}
}
