package photosocial

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
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

// TestIDFilterCutsModelText: the model's lists and strings are cut, so
// that an answer the provider let run long does not reach the caller.
func TestIDFilterCutsModelText(t *testing.T) {
	long := strings.Repeat("x", 10000)
	f := &idFilter{known: map[string]bool{"1": true}}
	var ts []Theme
	var fs []Finding
	var es []answerEvidence
	var ls []string
	for range 20 {
		ts = append(ts, Theme{Name: long, Description: long, EvidenceIDs: []string{"1"}})
		fs = append(fs, Finding{Title: long, Detail: long})
		es = append(es, answerEvidence{ID: "1", Reason: long})
		ls = append(ls, long)
	}
	themes, findings, evidence := f.themes(ts), f.findings(fs), f.evidence(es, "media", nil)
	limits, _ := f.limitations(ls, 1, 100, "posts")
	if len(themes) > maxModelItems || len(findings) > maxModelItems || len(evidence) > maxModelItems || len(limits) > maxModelItems {
		t.Errorf("%d themes, %d findings, %d evidence, %d limitations; want at most %d each", len(themes), len(findings), len(evidence), len(limits), maxModelItems)
	}
	var texts []string
	for _, x := range themes {
		texts = append(texts, x.Name, x.Description)
	}
	for _, x := range findings {
		texts = append(texts, x.Title, x.Detail)
	}
	for _, x := range evidence {
		texts = append(texts, x.Reason)
	}
	texts = append(texts, limits...)
	for _, s := range texts {
		if n := utf8.RuneCountInString(s); n > maxModelText+1 {
			t.Fatalf("a model text of %d characters, want at most %d and the mark …", n, maxModelText)
		}
	}
}
