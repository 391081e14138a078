// Package sentiment scores the sentiment of short English texts such as
// tweets and comments with the approach of VADER (Hutto and Gilbert,
// "VADER: A Parsimonious Rule-based Model for Sentiment Analysis of Social
// Media Text", ICWSM 2014).
//
// Every token found in the lexicon contributes its valence (-4 to +4), then
// the rules adjust it:
//
//   - intensifiers and dampeners up to three words before ("very",
//     "extremely", "slightly", "kind of") add or remove 0.293, scaled by
//     1, 0.95 and 0.9 with distance;
//   - negations up to three words before ("not", "isn't", "never", "without")
//     multiply the valence by -0.74; "never so"/"never this" boosts it by 1.25
//     instead, and "without doubt" leaves it alone; "no" before a word and
//     "least" (not "at least") negate too;
//   - a word in ALL CAPS among mixed-case words adds 0.733 in its direction;
//   - "but" halves the words before it and multiplies those after by 1.5;
//   - exclamation marks (up to 4, 0.292 each) and repeated question marks
//     (0.18 each for 2 or 3, 0.96 for more) push the sum away from zero;
//   - emoji are replaced by their English description ("smiling face with
//     heart-eyes"), whose words are then scored; skin-tone modifiers and
//     variation selectors are ignored;
//   - a few idioms ("the bomb", "yeah right", "broken heart") replace the
//     valence of their last word, and "kind of", "sort of" and "just enough"
//     two or three words before dampen it by 0.293.
//
// One addition of ours: VADER's lexicon gives no valence to the words of
// some emoji that carry clear sentiment in social media ("red heart",
// "pouting face", "thumbs down"). A short table of our own ratings (on the
// lexicon's -4..+4 scale) scores those emoji directly; see emojiValence.
//
// The sum s of the valences becomes the compound score s/sqrt(s²+15), in
// [-1, 1]. Pos, Neu and Neg are the shares of positive, neutral and negative
// tokens, weighted by strength; they sum to 1.
//
// [LabelOf] turns a compound score into positive (>= 0.05), negative
// (<= -0.05) or neutral, the thresholds recommended by VADER's authors.
// The package's [Label] is its own: it depends on no package of the
// module, and the public packages convert it (package social's LabelOf
// applies this rule).
//
// The lexicons are VADER's published vader_lexicon.txt (mean ratings only)
// and emoji_utf8_lexicon.txt, MIT licensed, Copyright (c) 2016 C.J. Hutto;
// see LICENSE-VADER in this directory. The code is our own.
package sentiment

import (
	"bufio"
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The constants of the VADER rules.
const (
	boostIncrement = 0.293 // added by an intensifier, subtracted by a dampener
	capsIncrement  = 0.733 // added by an ALL CAPS word among mixed case
	negationScalar = -0.74 // multiplies a negated valence
	neverSoScalar  = 1.25  // "never so good"
	butBefore      = 0.5   // weight of the words before "but"
	butAfter       = 1.5   // weight of the words after "but"
	exclaimWeight  = 0.292 // per "!" up to maxExclaims
	maxExclaims    = 4
	questionWeight = 0.18 // per "?" when there are 2 or 3
	maxQuestion    = 0.96 // for 4 or more "?"
	normAlpha      = 15   // compound = s / sqrt(s² + normAlpha)
)

// Threshold is the compound score at or beyond which a text is labelled
// positive (>= Threshold) or negative (<= -Threshold), as VADER's authors
// recommend.
const Threshold = 0.05

// Label is the polarity of a text, as the sign of its compound score
// under the ±[Threshold] rule: [Negative] (-1), [Neutral] (0, the zero
// value) or [Positive] (+1).
type Label int8

// The labels.
const (
	Negative Label = -1
	Neutral  Label = 0
	Positive Label = 1
)

// String returns "positive", "neutral" or "negative"; another value is
// "Label(n)".
func (l Label) String() string {
	switch l {
	case Positive:
		return "positive"
	case Neutral:
		return "neutral"
	case Negative:
		return "negative"
	}
	return fmt.Sprintf("Label(%d)", int8(l))
}

// Scores are the sentiment scores of one text.
type Scores struct {
	// Compound is the normalized sum of the valences, in [-1, 1].
	Compound float64 `json:"compound"`
	// Pos, Neu and Neg are the weighted shares of positive, neutral and
	// negative tokens; they sum to 1 (all 0 for an empty text).
	Pos float64 `json:"pos"`
	Neu float64 `json:"neu"`
	Neg float64 `json:"neg"`
}

// Label returns the label of the compound score.
func (s Scores) Label() Label { return LabelOf(s.Compound) }

// LabelOf labels a compound score with the ±[Threshold] rule.
func LabelOf(compound float64) Label {
	switch {
	case compound >= Threshold:
		return Positive
	case compound <= -Threshold:
		return Negative
	}
	return Neutral
}

//go:embed vader_lexicon.txt
var lexiconText string

//go:embed emoji_lexicon.txt
var emojiText string

// tables are the parsed lexicons, built once on first use and read-only
// afterwards.
type tables struct {
	words map[string]float64
	emoji map[rune]string
}

var load = sync.OnceValue(func() *tables {
	t := &tables{words: make(map[string]float64, 7600), emoji: make(map[rune]string, 1500)}
	sc := bufio.NewScanner(strings.NewReader(lexiconText))
	for sc.Scan() {
		word, val, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		if v, err := strconv.ParseFloat(val, 64); err == nil {
			t.words[word] = v
		}
	}
	sc = bufio.NewScanner(strings.NewReader(emojiText))
	for sc.Scan() {
		key, desc, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		key = strings.ReplaceAll(key, "\uFE0F", "")
		if r, n := utf8.DecodeRuneInString(key); n == len(key) && r != utf8.RuneError {
			t.emoji[r] = desc
		}
	}
	for r, v := range emojiValence {
		t.emoji[r] = string(r)
		t.words[string(r)] = v
	}
	return t
})

var negations = setOf("aint", "arent", "cannot", "cant", "couldnt", "darent", "didnt", "doesnt",
	"ain't", "aren't", "can't", "couldn't", "daren't", "didn't", "doesn't", "dont", "hadnt", "hasnt",
	"havent", "isnt", "mightnt", "mustnt", "neither", "don't", "hadn't", "hasn't", "haven't", "isn't",
	"mightn't", "mustn't", "neednt", "needn't", "never", "none", "nope", "nor", "not", "nothing",
	"nowhere", "oughtnt", "shant", "shouldnt", "uhuh", "wasnt", "werent", "oughtn't", "shan't",
	"shouldn't", "uh-uh", "wasn't", "weren't", "without", "wont", "wouldnt", "won't", "wouldn't",
	"rarely", "seldom", "despite")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// boosters maps intensifiers to +boostIncrement and dampeners to
// -boostIncrement.
var boosters = func() map[string]float64 {
	m := map[string]float64{}
	for _, w := range strings.Fields(`absolutely amazingly awfully completely considerable considerably
		decidedly deeply effing enormous enormously entirely especially exceptional exceptionally extreme
		extremely fabulously flipping flippin frackin fracking fricking frickin frigging friggin fully
		fuckin fucking fuggin fugging greatly hella highly hugely incredible incredibly intensely major
		majorly more most particularly purely quite really remarkably so substantially thoroughly total
		totally tremendous tremendously uber unbelievably unusually utter utterly very super soo sooo`) {
		m[w] = boostIncrement
	}
	for _, w := range strings.Fields(`almost barely hardly kinda kindof kind-of less little marginal
		marginally occasional occasionally partly scarce scarcely slight slightly somewhat sorta sortof
		sort-of`) {
		m[w] = -boostIncrement
	}
	return m
}()

// emojiValence rates emoji whose descriptions carry no valence in the
// lexicon. The ratings are ours, on the lexicon's scale.
var emojiValence = map[rune]float64{
	'❤': 2.7, '💕': 2.5, '💖': 2.5, '💗': 2.5, '💙': 2.3, '💚': 2.3, '💛': 2.3, '💜': 2.3,
	'🧡': 2.3, '🖤': 1.5, '🤍': 2.0, '💯': 2.0, '🔥': 1.5, '👍': 1.8, '👏': 1.8, '🙌': 2.0,
	'💔': -2.9, '😡': -2.6, '🤬': -3.0, '😤': -1.8, '👎': -2.0, '🙄': -1.3, '🤮': -2.5,
	'💩': -1.5, '😒': -1.5,
}

// multiDampeners are the dampeners of several words.
var multiDampeners = map[string]bool{"kind of": true, "sort of": true, "just enough": true}

// idioms replace the valence of their last word.
var idioms = map[string]float64{
	"the shit": 3, "the bomb": 3, "bad ass": 1.5, "yeah right": -2, "kiss of death": -1.5,
	"to die for": 3, "beating heart": 3.1, "broken heart": -2.9, "bus stop": 0,
}

// Score returns the sentiment scores of text. It is safe for concurrent use
// and allocation-light; the lexicons are parsed on the first call.
func Score(text string) Scores {
	t := load()
	text = replaceEmoji(t, text)
	words := tokens(text)
	if len(words) == 0 {
		return Scores{}
	}
	lower := make([]string, len(words))
	upper := 0
	for i, w := range words {
		lower[i] = strings.ToLower(w)
		if isUpper(w) {
			upper++
		}
	}
	capDiff := upper > 0 && upper < len(words)

	vals := make([]float64, len(words))
	for i := range words {
		lw := lower[i]
		if _, ok := boosters[lw]; ok {
			continue
		}
		if lw == "kind" && i+1 < len(words) && lower[i+1] == "of" {
			continue
		}
		vals[i] = t.valence(words, lower, i, capDiff)
	}

	// "but": damp what precedes the first one, stress what follows.
	for bi, lw := range lower {
		if lw != "but" {
			continue
		}
		for i := range vals {
			switch {
			case i < bi:
				vals[i] *= butBefore
			case i > bi:
				vals[i] *= butAfter
			}
		}
		break
	}
	return combine(vals, text)
}

// valence is the adjusted valence of word i.
func (t *tables) valence(words, lower []string, i int, capDiff bool) float64 {
	lw := lower[i]
	base, ok := t.words[lw]
	if !ok {
		return 0
	}
	v := base
	if lw == "no" && i+1 < len(lower) {
		if _, next := t.words[lower[i+1]]; next {
			v = 0 // "no" qualifies the next word instead
		}
	}
	if (i > 0 && lower[i-1] == "no") || (i > 1 && lower[i-2] == "no") ||
		(i > 2 && lower[i-3] == "no" && (lower[i-1] == "or" || lower[i-1] == "nor")) {
		v = base * negationScalar
	}
	if capDiff && isUpper(words[i]) {
		v += math.Copysign(capsIncrement, v)
	}
	for d := 0; d < 3 && i > d; d++ {
		j := i - d - 1
		if _, inLex := t.words[lower[j]]; inLex {
			continue
		}
		if b, ok := boosters[lower[j]]; ok {
			s := b
			if v < 0 {
				s = -s
			}
			if capDiff && isUpper(words[j]) {
				s += math.Copysign(capsIncrement, v)
			}
			v += s * [3]float64{1, 0.95, 0.9}[d]
		}
		v = negationCheck(v, lower, d, i)
		if d == 2 {
			v = idiomCheck(v, lower, i)
		}
	}
	// "least" negates unless it reads "at least" or "very least".
	if i > 0 && lower[i-1] == "least" {
		if _, inLex := t.words["least"]; !inLex && (i < 2 || (lower[i-2] != "at" && lower[i-2] != "very")) {
			v *= negationScalar
		}
	}
	return v
}

// negationCheck applies the negation at distance d+1 before word i.
func negationCheck(v float64, lower []string, d, i int) float64 {
	j := i - d - 1
	soThis := func(w string) bool { return w == "so" || w == "this" }
	switch {
	case d >= 1 && lower[j] == "never" && (soThis(lower[i-1]) || (d == 2 && soThis(lower[i-2]))):
		return v * neverSoScalar
	case d >= 1 && lower[j] == "without" && (lower[i-1] == "doubt" || (d == 2 && lower[i-2] == "doubt")):
		return v
	case isNegation(lower[j]):
		return v * negationScalar
	}
	return v
}

func isNegation(w string) bool {
	return negations[w] || strings.Contains(w, "n't")
}

// idiomCheck replaces v when the two or three words ending at i form an
// idiom.
func idiomCheck(v float64, lower []string, i int) float64 {
	if i >= 2 {
		if iv, ok := idioms[lower[i-2]+" "+lower[i-1]+" "+lower[i]]; ok {
			return iv
		}
	}
	if iv, ok := idioms[lower[i-1]+" "+lower[i]]; ok {
		return iv
	}
	if multiDampeners[lower[i-2]+" "+lower[i-1]] || (i >= 3 && multiDampeners[lower[i-3]+" "+lower[i-2]]) {
		v -= math.Copysign(boostIncrement, v)
	}
	return v
}

// combine turns the valences into the scores, with punctuation emphasis.
func combine(vals []float64, text string) Scores {
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	emph := punctuationEmphasis(text)
	if sum > 0 {
		sum += emph
	} else if sum < 0 {
		sum -= emph
	}
	compound := sum / math.Sqrt(sum*sum+normAlpha)
	compound = max(-1, min(1, compound))

	var pos, neg, neu float64
	for _, v := range vals {
		switch {
		case v > 0:
			pos += v + 1
		case v < 0:
			neg += v - 1
		default:
			neu++
		}
	}
	if pos > -neg {
		pos += emph
	} else if pos < -neg {
		neg -= emph
	}
	total := pos - neg + neu
	if total == 0 {
		return Scores{Compound: round(compound, 4)}
	}
	return Scores{
		Compound: round(compound, 4),
		Pos:      round(pos/total, 3),
		Neu:      round(neu/total, 3),
		Neg:      round(-neg/total, 3),
	}
}

func punctuationEmphasis(text string) float64 {
	e := min(strings.Count(text, "!"), maxExclaims)
	emph := float64(e) * exclaimWeight
	switch q := strings.Count(text, "?"); {
	case q > 3:
		emph += maxQuestion
	case q > 1:
		emph += float64(q) * questionWeight
	}
	return emph
}

func round(x float64, places int) float64 {
	p := math.Pow10(places)
	return math.Round(x*p) / p
}

// replaceEmoji replaces each emoji by its description, separated from
// neighbouring text by spaces. Variation selectors, skin tones and joiners
// are dropped.
func replaceEmoji(t *tables, text string) string {
	found := false
	for _, r := range text {
		if r >= 0x2000 {
			if _, ok := t.emoji[r]; ok {
				found = true
				break
			}
		}
	}
	if !found {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) * 2)
	for _, r := range text {
		if r == 0xFE0F || r == 0x200D || (r >= 0x1F3FB && r <= 0x1F3FF) {
			continue
		}
		if d, ok := t.emoji[r]; ok {
			b.WriteByte(' ')
			b.WriteString(d)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// tokens splits text on white space and strips leading and trailing
// punctuation from each token, unless that leaves fewer than three
// characters (so that emoticons such as ":)" and ":-(" survive).
func tokens(text string) []string {
	fields := strings.Fields(text)
	for i, f := range fields {
		s := strings.TrimFunc(f, isASCIIPunct)
		if utf8.RuneCountInString(s) > 2 {
			fields[i] = s
		}
	}
	return fields
}

func isASCIIPunct(r rune) bool {
	return r < utf8.RuneSelf && unicode.IsPunct(r) || strings.ContainsRune("$+<=>^`|~", r)
}

// isUpper reports whether s has a cased letter and no lower-case one, as
// Python's str.isupper.
func isUpper(s string) bool {
	cased := false
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			cased = true
		}
	}
	return cased
}
