package social_test

import (
	"fmt"

	"github.com/quiverkit/quiver/social"
)

func ExampleLabelOf() {
	for _, compound := range []float64{0.6, 0.05, 0.01, -0.049, -0.05, -0.9} {
		fmt.Println(compound, social.LabelOf(compound))
	}
	// Output:
	// 0.6 positive
	// 0.05 positive
	// 0.01 neutral
	// -0.049 neutral
	// -0.05 negative
	// -0.9 negative
}

// A summary of the sentiment of a set of texts, from their compound
// scores.
func ExampleSentiment_Add() {
	scores := []float64{0.8, -0.4, 0.0, 0.3}
	var s social.Sentiment
	sum := 0.0
	for _, c := range scores {
		s.Add(social.LabelOf(c))
		sum += c
	}
	s.MeanCompound = sum / float64(len(scores))
	s.Label = social.LabelOf(s.MeanCompound)
	fmt.Printf("%+v\n", s)
	// Output:
	// {Label:positive MeanCompound:0.175 Positive:2 Neutral:1 Negative:1}
}

func ExampleLabels() {
	for _, l := range social.Labels() {
		fmt.Println(l)
	}
	var zero social.Label
	fmt.Println("zero:", zero)
	// Output:
	// positive
	// neutral
	// negative
	// zero: neutral
}
