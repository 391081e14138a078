package social

import (
	"fmt"

	"github.com/quiverkit/quiver/internal/sentiment"
)

// Threshold is the compound score at or beyond which a text is labelled
// positive (compound >= Threshold) or negative (compound <= -Threshold);
// between the two it is neutral. It is the threshold recommended by the
// authors of VADER, the approach of Quiver's sentiment engine.
const Threshold = 0.05

// Label is the polarity of a text or of a set of texts: [Neutral] (the
// zero value), [Positive] or [Negative]. It prints and encodes in JSON as
// the word "neutral", "positive" or "negative", and decodes only from
// those words.
type Label uint8

// The labels.
const (
	Neutral Label = iota
	Positive
	Negative
)

// labelWords are the words of the labels, by value.
var labelWords = [...]string{Neutral: "neutral", Positive: "positive", Negative: "negative"}

// Labels returns the labels, in the order positive, neutral, negative.
func Labels() []Label { return []Label{Positive, Neutral, Negative} }

// String returns the label's word; a value outside the three labels is
// "Label(n)".
func (l Label) String() string {
	if int(l) < len(labelWords) {
		return labelWords[l]
	}
	return fmt.Sprintf("Label(%d)", uint8(l))
}

// MarshalText implements encoding.TextMarshaler: the label's word. A
// value outside the three labels is an error.
func (l Label) MarshalText() ([]byte, error) {
	if int(l) >= len(labelWords) {
		return nil, fmt.Errorf("social: invalid label %d", uint8(l))
	}
	return []byte(labelWords[l]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler: it accepts
// "positive", "neutral" and "negative", exactly.
func (l *Label) UnmarshalText(b []byte) error {
	for i, w := range labelWords {
		if string(b) == w {
			*l = Label(i)
			return nil
		}
	}
	return fmt.Errorf("social: unknown label %q: want positive, neutral or negative", b)
}

// LabelOf labels a compound score in [-1, 1] with the ±[Threshold] rule.
func LabelOf(compound float64) Label { return fromSentiment(sentiment.LabelOf(compound)) }

// fromSentiment converts the label of Quiver's sentiment engine, which
// applies the rule, to a Label.
func fromSentiment(l sentiment.Label) Label {
	switch l {
	case sentiment.Positive:
		return Positive
	case sentiment.Negative:
		return Negative
	}
	return Neutral
}

// Sentiment is the sentiment of a set of texts (tweets, comments): the
// mean of their compound scores, its label and how many texts carry each
// label. The zero value is the sentiment of no texts: neutral, mean 0.
type Sentiment struct {
	// Label is LabelOf(MeanCompound).
	Label Label `json:"label"`
	// MeanCompound is the mean compound score of the texts, in [-1, 1];
	// 0 for no texts.
	MeanCompound float64 `json:"mean_compound"`
	// Positive, Neutral and Negative count the texts of each label.
	Positive int `json:"positive"`
	Neutral  int `json:"neutral"`
	Negative int `json:"negative"`
}

// Add counts one more text labelled l. It does not change MeanCompound,
// which the caller sets once all texts are counted.
func (s *Sentiment) Add(l Label) {
	switch l {
	case Positive:
		s.Positive++
	case Negative:
		s.Negative++
	default:
		s.Neutral++
	}
}

// Count is a value and how often it occurs, in a ranked list such as the
// top hashtags of a set of tweets or the busiest weekdays of a profile.
type Count struct {
	// Value is what is counted: a hashtag ("#go"), a mention ("@user"), a
	// term, a weekday ("Monday"), an hour ("09").
	Value string `json:"value"`
	// Count is the number of occurrences.
	Count int `json:"count"`
}
