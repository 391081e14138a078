package social

import (
	"testing"

	"github.com/quiverkit/quiver/internal/sentiment"
)

// Threshold documents the rule that LabelOf takes from the sentiment
// engine: the two must agree, and each of the engine's labels converts to
// the Label of the same word.
func TestLabelsFollowTheEngine(t *testing.T) {
	if Threshold != sentiment.Threshold {
		t.Errorf("Threshold = %v, the engine's is %v", Threshold, sentiment.Threshold)
	}
	for _, l := range []sentiment.Label{sentiment.Positive, sentiment.Neutral, sentiment.Negative} {
		if got := fromSentiment(l); got.String() != l.String() {
			t.Errorf("fromSentiment(%s) = %s", l, got)
		}
	}
	for _, c := range []float64{1, Threshold, Threshold - 1e-9, 0, -Threshold + 1e-9, -Threshold, -1} {
		want := Neutral
		if c >= Threshold {
			want = Positive
		} else if c <= -Threshold {
			want = Negative
		}
		if got := LabelOf(c); got != want {
			t.Errorf("LabelOf(%v) = %s, want %s", c, got, want)
		}
	}
}
