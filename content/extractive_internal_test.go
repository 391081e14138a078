package content

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []span
	}{
		{"simple", "One thing. Two things! Three things?", []span{{text: "One thing."}, {text: "Two things!"}, {text: "Three things?"}}},
		{"abbreviations", "Dr. Marsh met Mrs. Alvarez in the U.S. yesterday. They talked, e.g. about bees.",
			[]span{{text: "Dr. Marsh met Mrs. Alvarez in the U.S. yesterday."}, {text: "They talked, e.g. about bees."}}},
		{"initials", "The book by J. R. Smith sold well. It was reprinted.",
			[]span{{text: "The book by J. R. Smith sold well."}, {text: "It was reprinted."}}},
		{"decimals", "It costs 3.5 dollars. That is cheap.", []span{{text: "It costs 3.5 dollars."}, {text: "That is cheap."}}},
		{"lower case after period", "Use the v1. api for now. Then upgrade.", []span{{text: "Use the v1. api for now."}, {text: "Then upgrade."}}},
		{"quotes", `"It works." She smiled. (Really.) Fine.`, []span{{text: `"It works."`}, {text: "She smiled."}, {text: "(Really.)"}, {text: "Fine."}}},
		{"heading and paragraphs", "A Title Line\n\nFirst sentence here.\nStill the same paragraph.\n\nNew paragraph",
			[]span{{text: "A Title Line", heading: true}, {text: "First sentence here."}, {text: "Still the same paragraph."}, {text: "New paragraph", heading: true}}},
		{"no punctuation", "just some words without an end", []span{{text: "just some words without an end", heading: true}}},
		{"empty", "  \n\n ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitSentences(tt.in)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(span{})); diff != "" {
				t.Errorf("splitSentences(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestCutRunes(t *testing.T) {
	tests := []struct {
		in       string
		n        int
		ellipsis bool
		want     string
	}{
		{"short enough", 20, true, "short enough"},
		{"the quick brown fox jumps", 12, false, "the quick"},
		{"the quick brown fox jumps", 12, true, "the quick…"},
		{"the quick, brown fox", 11, false, "the quick"},
		{"Supercalifragilistic", 10, true, "Supercali…"},
		{"  spaced\n  out   text ", 15, false, "spaced out text"},
		{"héllo wörld ünïcode", 12, false, "héllo wörld"},
		{"héllo wörld ünïcode", 11, false, "héllo wörld"}, // the space after the limit ends the cut
		{"héllo wörld ünïcode", 10, true, "héllo…"},
		{"ab cd", 2, true, "a…"},
	}
	for _, tt := range tests {
		got := cutRunes(tt.in, tt.n, tt.ellipsis)
		if got != tt.want || utf8.RuneCountInString(got) > tt.n {
			t.Errorf("cutRunes(%q, %d, %v) = %q, want %q", tt.in, tt.n, tt.ellipsis, got, tt.want)
		}
	}
}

func TestTrimStopwords(t *testing.T) {
	for in, want := range map[string]string{
		"When the council voted last spring to": "When the council voted last spring",
		"Bees and the":                          "Bees",
		"the":                                   "the",
		"Solar pumps,":                          "Solar pumps",
	} {
		if got := trimStopwords(in); got != want {
			t.Errorf("trimStopwords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPagerankSumsToOne(t *testing.T) {
	// A triangle and an isolated node.
	w := []map[int]float64{{1: 1, 2: 1}, {0: 1, 2: 1}, {0: 1, 1: 1}, {}}
	s := pagerank(w, nil)
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	if sum < 0.999 || sum > 1.001 {
		t.Errorf("scores %v sum to %v, want 1", s, sum)
	}
	if !(s[0] > s[3] && s[1] > s[3] && s[2] > s[3]) {
		t.Errorf("isolated node ranks too high: %v", s)
	}
}

func FuzzExtractive(f *testing.F) {
	for _, name := range []string{"beekeeping", "solar_pump", "library"} {
		b, err := os.ReadFile("testdata/" + name + ".txt")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), 40)
	}
	f.Add("Dr. J. Smith. U.S. e.g. ... ?! \n\n## Head\n\n“Quote.” 3.5.", 20)
	f.Add("#####\n\n\n", 1000)
	f.Fuzz(func(t *testing.T, text string, maxWords int) {
		maxWords = 20 + int(uint(maxWords)%981)
		req := SummarizeRequest{Text: text, MaxWords: &maxWords}
		if req.normalize() != nil {
			return
		}
		for _, format := range []string{FormatParagraph, FormatBullets} {
			req.Format = format
			s := extractiveSummary(req)
			if format == FormatParagraph {
				if s.Summary == nil || len(strings.Fields(*s.Summary)) > maxWords {
					t.Fatalf("paragraph summary %v breaks max_words %d", s.Summary, maxWords)
				}
			} else {
				n := 0
				for _, p := range s.KeyPoints {
					n += len(strings.Fields(p))
				}
				if s.Summary != nil || n > maxWords {
					t.Fatalf("bullets %q break max_words %d", s.KeyPoints, maxWords)
				}
			}
		}
		m := MetaTagsRequest{PageContent: text}
		if m.normalize() != nil {
			return
		}
		tags := extractiveMetaTags(m)
		if utf8.RuneCountInString(tags.Title) > maxTitleRunes || utf8.RuneCountInString(tags.Description) > maxDescriptionRunes || len(tags.Keywords) > 10 {
			t.Fatalf("meta tags out of bounds: %+v", tags)
		}
	})
}
