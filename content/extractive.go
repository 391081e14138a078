package content

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quiverkit/quiver/internal/textcut"
)

// The extractive engine answers Summarize and MetaTags without a language
// model. It is deterministic: the same input gives the same output.
//
//   - Sentences are ranked with TextRank: a graph whose nodes are the
//     sentences and whose edges weigh the content words two sentences
//     share, normalized by their lengths, scored with PageRank (damping
//     0.85) whose random jump favours early sentences (weight 1/sqrt(i+1)).
//     The summary is the best-ranked sentences that fit max_words, in
//     document order; headings are never part of it.
//   - Keywords are ranked with TextRank over the co-occurrence graph of
//     content words (window of 3); adjacent top words within a clause are
//     joined into phrases of up to 3 words, which count only when they
//     recur.
//   - Titles and descriptions are cut at word boundaries.

const (
	damping       = 0.85
	rankEpsilon   = 1e-6
	maxRankRounds = 100
	maxSentences  = 400 // sentences ranked; the rest of a very long text is ignored
	cooccurWindow = 3
)

// sentence is one sentence of the input with its content words.
type sentence struct {
	text    string
	pos     int
	terms   []string
	heading bool // a heading line, never part of a summary or description
}

// span is a sentence, or a heading line.
type span struct {
	text    string
	heading bool
}

// splitSentences splits text into sentences: at ".", "!" or "?" (with
// closing quotes or brackets) followed by white space and an upper-case
// letter, digit or opening quote, and at blank lines. A short line without
// final punctuation that opens a paragraph is a heading. Common
// abbreviations and initials do not end a sentence.
func splitSentences(text string) []span {
	var out []span
	for _, para := range splitParagraphs(text) {
		if para.heading {
			out = append(out, para)
			continue
		}
		start := 0
		rs := []rune(para.text)
		for i := 0; i < len(rs); i++ {
			if rs[i] != '.' && rs[i] != '!' && rs[i] != '?' {
				continue
			}
			end := i + 1
			for end < len(rs) && strings.ContainsRune(`"')]”’`, rs[end]) {
				end++
			}
			if end < len(rs) && !unicode.IsSpace(rs[end]) {
				continue
			}
			next := end
			for next < len(rs) && unicode.IsSpace(rs[next]) {
				next++
			}
			if next < len(rs) && !(unicode.IsUpper(rs[next]) || unicode.IsDigit(rs[next]) || strings.ContainsRune(`"'“‘(`, rs[next])) {
				continue
			}
			if rs[i] == '.' && isAbbreviation(rs[start:i]) {
				continue
			}
			if s := strings.TrimSpace(string(rs[start:end])); s != "" {
				out = append(out, span{text: s})
			}
			start = next
			i = next - 1
		}
		if s := strings.TrimSpace(string(rs[start:])); s != "" {
			out = append(out, span{text: s})
		}
	}
	return out
}

// splitParagraphs splits at blank lines, and joins the lines of a
// paragraph with spaces. A heading-like line that opens a paragraph
// stands alone.
func splitParagraphs(text string) []span {
	var paras []span
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, span{text: strings.Join(cur, " ")})
			cur = cur[:0]
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			flush()
			continue
		}
		if len(cur) == 0 && isHeading(line) {
			paras = append(paras, span{text: line, heading: true})
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return paras
}

func isHeading(line string) bool {
	line = strings.TrimLeft(line, "#= ")
	if line == "" || utf8.RuneCountInString(line) > 80 {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(line)
	return !strings.ContainsRune(".!?:;,", last)
}

var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true, "jr": true,
	"st": true, "vs": true, "etc": true, "e.g": true, "i.e": true, "inc": true, "ltd": true,
	"co": true, "corp": true, "no": true, "fig": true, "u.s": true, "u.k": true, "approx": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
}

// isAbbreviation reports whether the word before a period is a known
// abbreviation or a single initial ("J.").
func isAbbreviation(before []rune) bool {
	i := len(before)
	for i > 0 && !unicode.IsSpace(before[i-1]) {
		i--
	}
	w := strings.ToLower(strings.TrimLeft(string(before[i:]), `"'(“‘`))
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsLetter(r)
	}
	return abbreviations[w]
}

// words splits text into lower-case words of letters and digits
// (apostrophes and inner hyphens kept).
func tokenize(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' && r != '-'
	}) {
		f = strings.Trim(strings.ToLower(f), "'’-")
		f = strings.TrimSuffix(strings.TrimSuffix(f, "'s"), "’s")
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// stem reduces a word to a crude stem so that "models" and "model" meet.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

func isContentWord(w string) bool {
	if stopwords[w] || utf8.RuneCountInString(w) < 2 {
		return false
	}
	for _, r := range w {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false // numbers alone
}

func analyze(text string) []sentence {
	raw := splitSentences(text)
	if len(raw) > maxSentences {
		raw = raw[:maxSentences]
	}
	out := make([]sentence, len(raw))
	for i, sp := range raw {
		var terms []string
		for _, w := range tokenize(sp.text) {
			if isContentWord(w) {
				terms = append(terms, stem(w))
			}
		}
		out[i] = sentence{text: sp.text, pos: i, terms: terms, heading: sp.heading}
	}
	return out
}

// rankSentences returns the sentence indexes, best first, ties broken by
// position.
func rankSentences(ss []sentence) []int {
	n := len(ss)
	sets := make([]map[string]bool, n)
	for i, s := range ss {
		sets[i] = make(map[string]bool, len(s.terms))
		for _, t := range s.terms {
			sets[i][t] = true
		}
	}
	edges := make([]map[int]float64, n)
	for i := range edges {
		edges[i] = map[int]float64{}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if len(sets[i]) < 2 || len(sets[j]) < 2 {
				continue
			}
			common := 0
			for t := range sets[i] {
				if sets[j][t] {
					common++
				}
			}
			if common == 0 {
				continue
			}
			sim := float64(common) / (math.Log(float64(len(sets[i]))) + math.Log(float64(len(sets[j]))))
			edges[i][j], edges[j][i] = sim, sim
		}
	}
	score := pagerank(edges, positionPrior(n))
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
	return order
}

// positionPrior favours early sentences in the random jump of the
// sentence graph, as lead sentences tend to state what a text is about:
// the weight of sentence i falls as 1/sqrt(i+1).
func positionPrior(n int) []float64 {
	p := make([]float64, n)
	sum := 0.0
	for i := range p {
		p[i] = 1 / math.Sqrt(float64(i+1))
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// pickSentences chooses the best-ranked sentences whose words fit in
// budget, and returns them in document order. The best sentence is always
// chosen, cut at a word boundary when it alone exceeds the budget.
func pickSentences(ss []sentence, order []int, budget int) []string {
	if len(ss) == 0 {
		return nil
	}
	var chosen []int
	used := 0
	for _, i := range order {
		if ss[i].heading || len(ss[i].terms) == 0 {
			continue // headings and fragments without content words
		}
		n := len(strings.Fields(ss[i].text))
		if used+n > budget {
			if len(chosen) == 0 {
				return []string{cutWords(ss[i].text, budget)}
			}
			continue
		}
		chosen = append(chosen, i)
		used += n
	}
	if len(chosen) == 0 { // only headings and fragments: take the best
		return []string{cutWords(ss[order[0]].text, budget)}
	}
	sort.Ints(chosen)
	out := make([]string, len(chosen))
	for k, i := range chosen {
		out[k] = ss[i].text
	}
	return out
}

// cutWords keeps the first n words of s, marking the cut with "…".
func cutWords(s string, n int) string {
	if w := textcut.Words(s, n); w != s {
		return strings.TrimRight(w, ",;:-") + "…"
	}
	return s
}

// cutRunes cuts s at a word boundary to at most n characters; when
// ellipsis is set and s was cut, the result ends with "…" (counted).
func cutRunes(s string, n int, ellipsis bool) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	limit := n
	if ellipsis {
		limit--
	}
	// The last space among the first limit+1 characters ends the cut; one
	// long word is cut inside.
	out := textcut.Runes(s, limit+1)
	if i := strings.LastIndexByte(out, ' '); i > 0 {
		out = out[:i]
	} else {
		out = textcut.Runes(s, limit)
	}
	out = strings.TrimRight(out, " ,;:-–—")
	if ellipsis {
		out += "…"
	}
	return out
}

func extractiveSummary(req SummarizeRequest) Summary {
	ss := analyze(req.Text)
	order := rankSentences(ss)
	picked := pickSentences(ss, order, *req.MaxWords)
	if req.Format == FormatBullets {
		return Summary{Format: req.Format, Summary: nil, KeyPoints: nonNil(picked)}
	}
	summary := strings.Join(picked, " ")
	// Key points: the best sentences, at most 5, each at most 40 words,
	// in document order.
	var top []int
	for _, i := range order {
		if !ss[i].heading && len(ss[i].terms) > 0 {
			top = append(top, i)
		}
		if len(top) == 5 {
			break
		}
	}
	sort.Ints(top)
	points := make([]string, len(top))
	for k, i := range top {
		points[k] = cutWords(ss[i].text, 40)
	}
	if len(points) == 0 {
		points = nonNil(picked)
	}
	return Summary{Format: req.Format, Summary: &summary, KeyPoints: points}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// keyword is a candidate keyword or phrase with its score.
type keyword struct {
	text  string
	score float64
	count int
	words []string // the words of a phrase
	ids   []int    // their nodes
}

// extractKeywords returns up to n keywords of text, best first.
func extractKeywords(text string, n int) []string {
	// Phrases never cross punctuation: each chunk between punctuation
	// marks has its own number.
	var toks []string
	var chunk []int
	for c, part := range strings.FieldsFunc(text, func(r rune) bool {
		return r == '\n' || (unicode.IsPunct(r) && r != '\'' && r != '’' && r != '-')
	}) {
		for _, t := range tokenize(part) {
			toks = append(toks, t)
			chunk = append(chunk, c)
		}
		if len(toks) > 50*maxSentences {
			break
		}
	}
	// Nodes: stems of content words.
	index := map[string]int{}
	var stems []string
	seq := make([]int, len(toks)) // node of each token, -1 for stop words
	for i, t := range toks {
		if !isContentWord(t) || weakKeywords[t] {
			seq[i] = -1
			continue
		}
		s := stem(t)
		id, ok := index[s]
		if !ok {
			id = len(stems)
			index[s] = id
			stems = append(stems, s)
		}
		seq[i] = id
	}
	if len(stems) == 0 {
		return []string{}
	}
	// Sparse co-occurrence counts within the window, over content words.
	edges := make([]map[int]float64, len(stems))
	for i := range edges {
		edges[i] = map[int]float64{}
	}
	var content []int
	for _, id := range seq {
		if id >= 0 {
			content = append(content, id)
		}
	}
	for i := range content {
		for j := i + 1; j < len(content) && j < i+cooccurWindow; j++ {
			a, b := content[i], content[j]
			if a != b {
				edges[a][b]++
				edges[b][a]++
			}
		}
	}
	score := pagerank(edges, nil)

	// Top third of the words (at least 2*n) are keyword material.
	ids := make([]int, len(stems))
	for i := range ids {
		ids[i] = i
	}
	sort.SliceStable(ids, func(a, b int) bool { return score[ids[a]] > score[ids[b]] })
	limit := max(2*n, len(stems)/3)
	top := make(map[int]bool, limit)
	for _, id := range ids[:min(limit, len(ids))] {
		top[id] = true
	}

	// Join runs of adjacent top words (up to 3) into phrases, scored by
	// the mean of their words' scores times a small bonus per word.
	cands := map[string]*keyword{}
	var order []string
	for i := 0; i < len(toks); {
		if seq[i] < 0 || !top[seq[i]] {
			i++
			continue
		}
		j := i
		for j < len(toks) && j-i < 3 && seq[j] >= 0 && top[seq[j]] && chunk[j] == chunk[i] {
			j++
		}
		phrase := strings.Join(toks[i:j], " ")
		sum := 0.0
		for k := i; k < j; k++ {
			sum += score[seq[k]]
		}
		s := sum / float64(j-i) * (1 + 0.25*float64(j-i-1))
		if c, ok := cands[phrase]; ok {
			c.count++
		} else {
			cands[phrase] = &keyword{text: phrase, score: s, count: 1, words: toks[i:j], ids: seq[i:j]}
			order = append(order, phrase)
		}
		i = j
	}
	// A phrase of several words must recur to count as a keyword; its
	// words stand as candidates on their own anyway.
	for _, p := range order {
		c := cands[p]
		if c.count >= 2 || len(c.words) == 1 {
			continue
		}
		delete(cands, p)
		for k, w := range c.words {
			if single, ok := cands[w]; ok {
				single.count++
			} else {
				cands[w] = &keyword{text: w, score: score[c.ids[k]], count: 1, words: []string{w}}
				order = append(order, w)
			}
		}
	}
	list := make([]*keyword, 0, len(cands))
	for _, p := range order {
		c, ok := cands[p]
		if !ok {
			continue
		}
		c.score *= 1 + 0.2*math.Log(float64(c.count))
		list = append(list, c)
	}
	sort.SliceStable(list, func(a, b int) bool { return list[a].score > list[b].score })

	// Keep the best, skipping a phrase whose words a better one already
	// covers ("model" after "language model").
	var out []string
	covered := map[string]bool{}
	for _, k := range list {
		ws := strings.Fields(k.text)
		dup := true
		for _, w := range ws {
			if !covered[stem(w)] {
				dup = false
			}
		}
		if dup {
			continue
		}
		for _, w := range ws {
			covered[stem(w)] = true
		}
		out = append(out, k.text)
		if len(out) == n {
			break
		}
	}
	return out
}

// pagerank scores the nodes of a weighted undirected graph, given as the
// weights of each node's edges, by PageRank with damping 0.85. The random
// jump lands on node i with probability prior[i] (prior sums to 1; nil
// means uniform). Iteration stops when the scores move less than 1e-6 in
// total, or after 100 rounds.
func pagerank(edges []map[int]float64, prior []float64) []float64 {
	n := len(edges)
	if n == 0 {
		return nil
	}
	if prior == nil {
		prior = make([]float64, n)
		for i := range prior {
			prior[i] = 1 / float64(n)
		}
	}
	// Adjacency lists sorted by node, so that the sums run in one order
	// and the scores are the same on every run.
	type arc struct {
		to int
		w  float64
	}
	adj := make([][]arc, n)
	out := make([]float64, n)
	for i, e := range edges {
		adj[i] = make([]arc, 0, len(e))
		for j, w := range e {
			adj[i] = append(adj[i], arc{j, w})
		}
		slices.SortFunc(adj[i], func(a, b arc) int { return a.to - b.to })
		for _, a := range adj[i] {
			out[i] += a.w
		}
	}
	score := make([]float64, n)
	next := make([]float64, n)
	copy(score, prior)
	for round := 0; round < maxRankRounds; round++ {
		dangling := 0.0
		for j := range score {
			if out[j] == 0 {
				dangling += score[j]
			}
		}
		clear(next)
		for j, arcs := range adj {
			if out[j] == 0 {
				continue
			}
			share := score[j] / out[j]
			for _, a := range arcs {
				next[a.to] += a.w * share
			}
		}
		delta := 0.0
		for i := range next {
			next[i] = (1-damping)*prior[i] + damping*(next[i]+dangling*prior[i])
			delta += math.Abs(next[i] - score[i])
		}
		score, next = next, score
		if delta < rankEpsilon {
			break
		}
	}
	return score
}

func extractiveMetaTags(req MetaTagsRequest) MetaTags {
	ss := analyze(req.PageContent)
	order := rankSentences(ss)

	// Title: the page's own heading when it starts with one, else its
	// best sentence; cut at a word boundary to 60 characters.
	var title string
	if first := firstLine(req.PageContent); isHeading(first) && len(tokenize(first)) > 0 {
		title = strings.TrimLeft(first, "#= ")
	} else if len(order) > 0 {
		title = strings.TrimRight(ss[order[0]].text, ".!?")
	}
	if utf8.RuneCountInString(title) > maxTitleRunes {
		title = trimStopwords(cutRunes(title, maxTitleRunes, false))
	}

	// Description: those of the three best sentences that fit in 160
	// characters, in document order; the best one cut at a word boundary
	// when it alone is too long. (Filling the space with lesser sentences
	// reads as filler.)
	var chosen []int
	used, considered := 0, 0
	for _, i := range order {
		if ss[i].heading || len(ss[i].terms) == 0 {
			continue
		}
		if considered++; considered > 3 {
			break
		}
		n := utf8.RuneCountInString(ss[i].text)
		if len(chosen) > 0 {
			n++ // the joining space
		}
		if used+n > maxDescriptionRunes {
			if len(chosen) == 0 {
				chosen, used = []int{i}, maxDescriptionRunes
				break
			}
			continue
		}
		chosen = append(chosen, i)
		used += n
	}
	sort.Ints(chosen)
	parts := make([]string, len(chosen))
	for k, i := range chosen {
		parts[k] = ss[i].text
	}
	desc := cutRunes(strings.Join(parts, " "), maxDescriptionRunes, true)
	if desc == "" {
		desc = cutRunes(req.PageContent, maxDescriptionRunes, true)
	}

	kws := extractKeywords(req.PageContent, 8)
	if t := req.TargetKeyword; t != "" {
		// The target leads; keywords made only of its words go.
		inTarget := map[string]bool{}
		for _, w := range tokenize(t) {
			inTarget[stem(w)] = true
		}
		rest := []string{t}
		for _, k := range kws {
			covered := true
			for _, w := range strings.Fields(k) {
				covered = covered && inTarget[stem(w)]
			}
			if !covered {
				rest = append(rest, k)
			}
		}
		kws = rest[:min(len(rest), 8)]
	}
	return MetaTags{Title: title, Description: desc, Keywords: nonNil(kws)}
}

// trimStopwords drops function words and punctuation from the end of a
// cut title ("... voted last spring to" becomes "... voted last spring").
func trimStopwords(s string) string {
	f := strings.Fields(s)
	for len(f) > 1 {
		last := strings.ToLower(strings.TrimRight(f[len(f)-1], ",;:-–—"))
		if last != "" && !stopwords[last] {
			break
		}
		f = f[:len(f)-1]
	}
	return strings.TrimRight(strings.Join(f, " "), ",;:-–—")
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// weakKeywords are common words that take part in sentence similarity but
// make poor keywords on their own.
var weakKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`day days week weeks month months year years time times small large big
	good great best first last way ways part parts lot lots kind thing things`) {
		m[w] = true
	}
	return m
}()

// stopwords are English function words that carry no topic.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also although am an and any are aren't
	as at be because been before being below between both but by can can't cannot could couldn't did didn't do does
	doesn't doing don't down during each either else even ever every few for from further get gets got had hadn't has
	hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how how's however i i'd
	i'll i'm i've if in into is isn't it it's its itself just least less let's like likely made make makes many may
	me might more most much must mustn't my myself near need needs neither never new no nor not now of off often on
	once one only or other others otherwise ought our ours ourselves out over own per perhaps quite rather really
	same say says shall shan't she she'd she'll she's should shouldn't since so some such than that that's the their
	theirs them themselves then there there's therefore these they they'd they'll they're they've this those though
	through thus to too toward towards under until up upon us use used uses using very via was wasn't we we'd we'll
	we're we've well were weren't what what's whatever when when's where where's whether which while who who's whom
	whose why why's will with within without won't would wouldn't yet you you'd you'll you're you've your yours
	yourself yourselves two three four five six seven eight nine ten said came come went take takes took
	found began asked`) {
		m[w] = true
	}
	return m
}()
