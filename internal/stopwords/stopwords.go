// Package stopwords knows the English words that carry no topic: function
// words and the filler of social posts. The term and topic statistics of
// the social packages skip them.
package stopwords

import "strings"

// english holds the words, lower case, with and without apostrophes.
var english = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are aren't as at
		be because been before being below between both but by can can't cannot could couldn't did didn't do does
		doesn't doing don't down during each few for from further get gets got had hadn't has hasn't have haven't
		having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in
		into is isn't it it's its itself just let's like me more most mustn't my myself no nor not now of off on once
		only or other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't so
		some such than that that's the their theirs them themselves then there there's these they they'd they'll
		they're they've this those through to too under until up very was wasn't we we'd we'll we're we've were
		weren't what what's when when's where where's which while who who's whom why why's will with won't would
		wouldn't you you'd you'll you're you've your yours yourself yourselves
		amp rt via im dont cant wont didnt doesnt isnt ive youre thats lol yes yeah ok okay one two really still
		much many every even well back way going today new now use using used make made see know think want need`) {
		m[w] = true
	}
	return m
}()

// Is reports whether w, in lower case, is a stop word.
func Is(w string) bool { return english[w] }
