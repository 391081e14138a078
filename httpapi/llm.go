package httpapi

import "github.com/quiverkit/quiver/llm"

// llmOrNil returns c for the packages that take a *llm.Config, nil when
// it has no model.
func llmOrNil(c llm.Config) *llm.Config {
	if !c.Enabled() {
		return nil
	}
	return &c
}
