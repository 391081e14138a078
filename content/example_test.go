package content_test

import (
	"context"
	"fmt"

	"github.com/quiverkit/quiver/content"
)

const pumpPage = `The SunFlow 300 solar water pump brings reliable irrigation to farms that have no connection to the electricity grid. The pump runs directly from two standard solar panels and needs no batteries, no fuel and no daily maintenance.

Small farms in dry regions often depend on diesel pumps. Diesel is expensive, deliveries are unreliable and the engines break down in dust and heat. A solar pump removes the fuel bill entirely: once it is installed, the water it delivers is free.`

// Without a language model, Summarize extracts the most central sentences.
func ExampleGenerator_Summarize() {
	g := content.New(nil) // no model: the extractive engine answers
	s, meta, err := g.Summarize(context.Background(), content.SummarizeRequest{
		Text:     pumpPage,
		MaxWords: content.Ptr(40),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(*s.Summary)
	fmt.Println(meta.Model, meta.CostUSD)
	// Output:
	// The SunFlow 300 solar water pump brings reliable irrigation to farms that have no connection to the electricity grid. A solar pump removes the fuel bill entirely: once it is installed, the water it delivers is free.
	// quiver-extractive 0
}

// Without a language model, MetaTags cuts the title and description at
// word boundaries and extracts keywords.
func ExampleGenerator_MetaTags() {
	g := content.New(nil)
	m, _, err := g.MetaTags(context.Background(), content.MetaTagsRequest{
		PageContent:   pumpPage,
		TargetKeyword: "solar water pump",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Title)
	fmt.Println(m.Description)
	fmt.Println(m.Keywords)
	// Output:
	// The SunFlow 300 solar water pump brings reliable irrigation
	// The SunFlow 300 solar water pump brings reliable irrigation to farms that have no connection to the electricity grid.
	// [solar water pump farms fuel diesel installed engines]
}
