package llm_test

import (
	"fmt"

	"github.com/quiverkit/quiver/llm"
)

func ExamplePrices_Cost() {
	prices := llm.Prices{"gpt-4o-mini": {Input: 0.15, Output: 0.60}}
	cost := prices.Cost("gpt-4o-mini-2024-07-18", 2000, 500)
	fmt.Printf("$%.6f\n", cost)
	// Output: $0.000600
}

func ExampleConfig_PriceKnown() {
	local := llm.Config{Name: "llama3.2"}
	hosted := llm.Config{Name: "gpt-4o-mini"}
	fmt.Println(local.PriceKnown(), hosted.PriceKnown())
	// Output: false true
}
