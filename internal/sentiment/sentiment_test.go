package sentiment

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// TestReference checks the engine against the compound scores that the
// reference implementation (vaderSentiment 3.3) publishes for its examples,
// one per rule.
func TestReference(t *testing.T) {
	tests := []struct {
		text string
		want float64
	}{
		{"VADER is smart, handsome, and funny.", 0.8316},
		{"VADER is smart, handsome, and funny!", 0.8439},                                                 // exclamation
		{"VADER is very smart, handsome, and funny.", 0.8545},                                            // intensifier
		{"VADER is VERY SMART, handsome, and FUNNY.", 0.9227},                                            // caps
		{"VADER is VERY SMART, handsome, and FUNNY!!!", 0.9342},                                          // caps and exclamations
		{"VADER is not smart, handsome, nor funny.", -0.7424},                                            // negation
		{"The book was good.", 0.4404},                                                                   // plain
		{"At least it isn't a horrible book.", 0.431},                                                    // "at least", negation
		{"The book was only kind of good.", 0.3832},                                                      // dampener "kind of"
		{"The plot was good, but the characters are uncompelling and the dialog is not great.", -0.7042}, // but
		{"Today SUX!", -0.5461},                                                                          // slang, caps
		{"Today only kinda sux! But I'll get by, lol", 0.5249},                                           // but, dampener
		{"Make sure you :) or :D today!", 0.8633},                                                        // emoticons
		{"Not bad at all", 0.431},                                                                        // negated negative
		{"", 0},
		{"   ", 0},
	}
	for _, tt := range tests {
		got := Score(tt.text).Compound
		if math.Abs(got-tt.want) > 0.0011 {
			t.Errorf("Score(%q).Compound = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestEmoji(t *testing.T) {
	for text, want := range map[string]Label{
		"😍":                  Positive,
		"new phone 😡😡":       Negative,
		"ok 👍🏽":              Positive, // skin tone ignored
		"launch day ❤️":      Positive, // variation selector ignored
		"meeting at 3pm 📅":   Neutral,
		"flight delayed 😭😭😭": Negative,
	} {
		if got := Score(text).Label(); got != want {
			t.Errorf("Score(%q) = %+v (%s), want %s", text, Score(text), got, want)
		}
	}
}

func TestSharesSumToOne(t *testing.T) {
	for _, text := range []string{"good", "bad!!", "a b c", "not great but fine", "I LOVE it"} {
		s := Score(text)
		if sum := s.Pos + s.Neu + s.Neg; math.Abs(sum-1) > 0.002 {
			t.Errorf("Score(%q) shares sum to %v: %+v", text, sum, s)
		}
		if s.Compound < -1 || s.Compound > 1 {
			t.Errorf("Score(%q).Compound = %v out of range", text, s.Compound)
		}
	}
}

func TestLabelOf(t *testing.T) {
	tests := []struct {
		c    float64
		want Label
	}{{0.05, Positive}, {0.0499, Neutral}, {0, Neutral}, {-0.0499, Neutral}, {-0.05, Negative}, {1, Positive}, {-1, Negative}}
	for _, tt := range tests {
		if got := LabelOf(tt.c); got != tt.want {
			t.Errorf("LabelOf(%v) = %s, want %s", tt.c, got, tt.want)
		}
	}
}

// labelNamed is the Label of each word of testdata/labelled.tsv.
var labelNamed = map[string]Label{"positive": Positive, "neutral": Neutral, "negative": Negative}

// TestAccuracy measures the labels against testdata/labelled.tsv, texts
// written and labelled by hand, and prints the accuracy and the confusion
// matrix (go test -run TestAccuracy -v ./internal/sentiment).
func TestAccuracy(t *testing.T) {
	f, err := os.Open("testdata/labelled.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	labels := []Label{Positive, Neutral, Negative}
	confusion := map[Label]map[Label]int{}
	for _, l := range labels {
		confusion[l] = map[Label]int{}
	}
	total, correct := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		want, text, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("malformed line %q", line)
		}
		wl, ok := labelNamed[want]
		if !ok {
			t.Fatalf("line %q: the label is not positive, neutral or negative", line)
		}
		got := Score(text).Label()
		confusion[wl][got]++
		total++
		if got == wl {
			correct++
		} else if testing.Verbose() {
			t.Logf("miss: want %-8s got %-8s %+.4f %s", want, got, Score(text).Compound, text)
		}
	}
	if total < 200 {
		t.Fatalf("labelled set has %d texts, want at least 200", total)
	}
	acc := float64(correct) / float64(total)
	var b strings.Builder
	fmt.Fprintf(&b, "accuracy %d/%d = %.1f%%\n", correct, total, 100*acc)
	fmt.Fprintf(&b, "%-14s %9s %9s %9s\n", "want \\ got", "positive", "neutral", "negative")
	for _, w := range labels {
		fmt.Fprintf(&b, "%-14s %9d %9d %9d\n", w, confusion[w][Positive], confusion[w][Neutral], confusion[w][Negative])
	}
	t.Log("\n" + b.String())
	if acc < 0.70 {
		t.Errorf("accuracy %.3f is below the 0.70 floor", acc)
	}
}

func BenchmarkScore(b *testing.B) {
	text := "The plot was good, but the characters are uncompelling and the dialog is NOT great!! 😡 #fail"
	Score(text)
	b.ReportAllocs()
	for b.Loop() {
		Score(text)
	}
}

func FuzzScore(f *testing.F) {
	for _, s := range []string{"good", "not bad!!!", "😍 :)", "", "but but but", "no no no least"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s := Score(text)
		if math.IsNaN(s.Compound) || s.Compound < -1 || s.Compound > 1 {
			t.Fatalf("Score(%q) = %+v", text, s)
		}
	})
}
