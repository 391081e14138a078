package photosocial

import (
	"fmt"
	"testing"
)

// TestTopPhrasesBoundsWork: the repeated-phrase pass makes a bounded
// number of containment checks per phrase, however many phrases repeat.
func TestTopPhrasesBoundsWork(t *testing.T) {
	cs := repeatedComments(20, 100)
	f := ComputeCommentFacts(cs)
	if len(f.RepeatedPhrases) != 10 {
		t.Fatalf("kept %d phrases, want 10", len(f.RepeatedPhrases))
	}
	var all []Phrase
	for i := range 3000 {
		all = append(all, Phrase{Phrase: fmt.Sprintf("w%d x%d y", i, i), Count: 2})
	}
	_, checks := topPhrases(all, 10)
	if max := 2 * len(all); checks > max {
		t.Errorf("%d containment checks for %d phrases, want at most %d", checks, len(all), max)
	}
}

// TestTopPhrasesWholeWords: a 2-word phrase is dropped only when a kept
// 3-word phrase holds its words, not merely its bytes.
func TestTopPhrasesWholeWords(t *testing.T) {
	f := ComputeCommentFacts([]Comment{
		{ID: "1", Text: "b cat"}, {ID: "2", Text: "b cat"},
		{ID: "3", Text: "apple ab cat"}, {ID: "4", Text: "apple ab cat"},
	})
	var got []string
	for _, p := range f.RepeatedPhrases {
		got = append(got, p.Phrase)
	}
	want := []string{"apple ab cat", "b cat"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("repeated phrases = %q, want %q", got, want)
	}
}
