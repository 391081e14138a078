package content_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
)

const pumpPage = `The SunFlow 300 solar water pump brings reliable irrigation to farms that have no connection to the electricity grid. The pump runs directly from two standard solar panels and needs no batteries, no fuel and no daily maintenance.

Small farms in dry regions often depend on diesel pumps. Diesel is expensive, deliveries are unreliable and the engines break down in dust and heat. A solar pump removes the fuel bill entirely: once it is installed, the water it delivers is free.`

// scriptedGenerator returns a generator whose model is a scripted OpenAI
// server on loopback that answers once with answer, as gpt-4o-mini would,
// reporting 1000 prompt and 200 completion tokens. A program passes its
// own client instead, such as openai.New(openai.WithModel("gpt-4o-mini")).
// The caller closes the server.
func scriptedGenerator(answer string) (*content.Generator, *llmtest.Server) {
	srv, err := llmtest.New(llmtest.OpenAI, llmtest.Reply{Content: answer, PromptTokens: 1000, CompletionTokens: 200})
	if err != nil {
		panic(err)
	}
	model, err := srv.Model("gpt-4o-mini")
	if err != nil {
		panic(err)
	}
	g, err := content.New(content.Config{LLM: llm.Config{Model: model, Name: "gpt-4o-mini"}})
	if err != nil {
		panic(err)
	}
	return g, srv
}

// A Generator takes its model as an llm.Config. Name selects the price:
// gpt-4o-mini costs $0.15 per million prompt tokens and $0.60 per million
// completion tokens in the built-in table.
func ExampleNew() {
	srv, err := llmtest.New(llmtest.OpenAI, llmtest.Reply{
		Content:      `{"rewritten_text":"You'll love how simple it is.","notes":[]}`,
		PromptTokens: 1000, CompletionTokens: 200,
	})
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
	cfg := content.Config{LLM: llm.Config{Model: model, Name: "gpt-4o-mini"}}
	if !cfg.LLM.PriceKnown() {
		fmt.Println("warning: costs will be reported as 0")
	}
	g, err := content.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, meta, err := g.Rewrite(context.Background(), content.RewriteRequest{Text: "It is a simple product.", Tone: "friendly"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.RewrittenText)
	fmt.Printf("%s %d+%d tokens $%.5f\n", meta.Model, meta.PromptTokens, meta.CompletionTokens, meta.CostUSD)
	// Output:
	// You'll love how simple it is.
	// gpt-4o-mini 1000+200 tokens $0.00027
}

// The zero Config has no model: Summarize and MetaTags use the extractive
// engine, and the other operations say how to configure one.
func ExampleNew_withoutModel() {
	g, err := content.New(content.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, _, err = g.Headlines(context.Background(), content.HeadlinesRequest{Topic: "Solar irrigation"})
	fmt.Println(g.HasModel(), envelope.From(err).Code)
	// Output:
	// false SERVICE_UNAVAILABLE
}

// Without a language model, Summarize extracts the most central sentences.
func ExampleGenerator_Summarize_extractive() {
	g, _ := content.New(content.Config{}) // no model: the extractive engine answers
	s, meta, err := g.Summarize(context.Background(), content.SummarizeRequest{
		Text:     pumpPage,
		MaxWords: new(40),
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
func ExampleGenerator_MetaTags_extractive() {
	g, _ := content.New(content.Config{})
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

func ExampleGenerator_Summarize() {
	g, srv := scriptedGenerator(`{"summary":"A solar pump irrigates off-grid farms without fuel or batteries.","key_points":["Runs from two solar panels.","Removes the diesel bill."]}`)
	defer srv.Close()
	s, meta, err := g.Summarize(context.Background(), content.SummarizeRequest{Text: pumpPage, MaxWords: new(20)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Format, *s.Summary)
	fmt.Println(s.KeyPoints)
	fmt.Printf("%s $%.5f\n", meta.Model, meta.CostUSD)
	// Output:
	// paragraph A solar pump irrigates off-grid farms without fuel or batteries.
	// [Runs from two solar panels. Removes the diesel bill.]
	// gpt-4o-mini $0.00027
}

func ExampleGenerator_Rewrite() {
	g, srv := scriptedGenerator(`{"rewritten_text":"Our pump runs on sunshine, so your water is free.","notes":["Second person","Shorter sentences"]}`)
	defer srv.Close()
	r, _, err := g.Rewrite(context.Background(), content.RewriteRequest{
		Text:     "The pump is powered by solar panels and consequently incurs no fuel costs.",
		Tone:     "casual",
		Audience: "farmers",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.RewrittenText)
	fmt.Println(r.Notes)
	// Output:
	// Our pump runs on sunshine, so your water is free.
	// [Second person Shorter sentences]
}

// With a model, the answer is checked: the title must fit 60 characters
// and the keywords must include the target keyword.
func ExampleGenerator_MetaTags() {
	g, srv := scriptedGenerator(`{"title":"SunFlow 300 Solar Water Pump for Off-Grid Farms","description":"Irrigate without fuel, batteries or grid power.","keywords":["solar water pump","off-grid irrigation","diesel alternative"]}`)
	defer srv.Close()
	m, _, err := g.MetaTags(context.Background(), content.MetaTagsRequest{PageContent: pumpPage, TargetKeyword: "solar water pump"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Title)
	fmt.Println(m.Description)
	fmt.Println(m.Keywords)
	// Output:
	// SunFlow 300 Solar Water Pump for Off-Grid Farms
	// Irrigate without fuel, batteries or grid power.
	// [solar water pump off-grid irrigation diesel alternative]
}

func ExampleGenerator_BlogOutline() {
	g, srv := scriptedGenerator(`{"title":"Bees on the Roof","introduction_angle":"Why cities suit bees","sections":[` +
		`{"heading":"Rules","talking_points":["Registration","Neighbours"]},` +
		`{"heading":"Hives","talking_points":["Space","Inspections"]},` +
		`{"heading":"Honey","talking_points":["Flavour","Yield"]}],` +
		`"conclusion_angle":"Plant flowers too","seo_keywords":["urban beekeeping","rooftop hives","city honey"]}`)
	defer srv.Close()
	o, _, err := g.BlogOutline(context.Background(), content.BlogOutlineRequest{
		Topic:         "Urban beekeeping",
		TargetKeyword: "urban beekeeping",
		Sections:      new(3),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(o.Title)
	for _, s := range o.Sections {
		fmt.Println("-", s.Heading, s.TalkingPoints)
	}
	// Output:
	// Bees on the Roof
	// - Rules [Registration Neighbours]
	// - Hives [Space Inspections]
	// - Honey [Flavour Yield]
}

func ExampleGenerator_ProductDescription() {
	g, srv := scriptedGenerator(`{"title":"SunFlow 300 Solar Pump","description":"Water your fields from the sun. The SunFlow 300 runs on two solar panels, needs no fuel and no batteries, and keeps working in dust and heat.",` +
		`"bullet_points":["No fuel","No batteries","Two standard panels"],"seo_keywords":["solar pump","irrigation","off-grid"]}`)
	defer srv.Close()
	p, _, err := g.ProductDescription(context.Background(), content.ProductDescriptionRequest{
		ProductName:    "SunFlow 300",
		ProductDetails: pumpPage,
		Length:         "short",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Title)
	fmt.Println(len(strings.Fields(p.Description)), "words")
	fmt.Println(p.BulletPoints)
	// Output:
	// SunFlow 300 Solar Pump
	// 27 words
	// [No fuel No batteries Two standard panels]
}

func ExampleGenerator_SocialCaption() {
	g, srv := scriptedGenerator(`{"variants":[{"caption":"Free water from the sun.","hashtags":["solar","farming"]},` +
		`{"caption":"Goodbye diesel bills.","hashtags":["irrigation"]}]}`)
	defer srv.Close()
	c, _, err := g.SocialCaption(context.Background(), content.SocialCaptionRequest{
		Content:  "Our solar pump is out.",
		Platform: "twitter",
		Variants: new(2),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Platform)
	for _, v := range c.Variants {
		fmt.Println(v.Caption, v.Hashtags)
	}
	// Output:
	// x
	// Free water from the sun. [solar farming]
	// Goodbye diesel bills. [irrigation]
}

func ExampleGenerator_Headlines() {
	g, srv := scriptedGenerator(`{"variants":[{"headline":"Free Water From the Sun","angle":"benefit","predicted_ctr_score":0.62},` +
		`{"headline":"How One Pump Ended a Diesel Bill","angle":"story","predicted_ctr_score":0.71},` +
		`{"headline":"5 Reasons Farmers Go Solar","angle":"listicle","predicted_ctr_score":0.55}]}`)
	defer srv.Close()
	h, _, err := g.Headlines(context.Background(), content.HeadlinesRequest{Topic: "Solar irrigation", Count: new(3)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range h.Variants {
		fmt.Printf("%.2f %-8s %s\n", v.PredictedCTRScore, v.Angle, v.Headline)
	}
	// Output:
	// 0.62 benefit  Free Water From the Sun
	// 0.71 story    How One Pump Ended a Diesel Bill
	// 0.55 listicle 5 Reasons Farmers Go Solar
}

func ExampleGenerator_FAQ() {
	g, srv := scriptedGenerator(`{"faqs":[{"question":"Does it need batteries?","answer":"No, it runs directly from the panels."},` +
		`{"question":"What does the water cost?","answer":"Nothing once the pump is installed."},` +
		`{"question":"Why replace a diesel pump?","answer":"Diesel is expensive and the engines break down."}]}`)
	defer srv.Close()
	f, _, err := g.FAQ(context.Background(), content.FAQRequest{SourceText: pumpPage, Count: new(3)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, qa := range f.FAQs {
		fmt.Println(qa.Question, qa.Answer)
	}
	// Output:
	// Does it need batteries? No, it runs directly from the panels.
	// What does the water cost? Nothing once the pump is installed.
	// Why replace a diesel pump? Diesel is expensive and the engines break down.
}
