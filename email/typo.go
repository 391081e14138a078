package email

// popular are the providers whose typos did_you_mean corrects. The list
// is short on purpose: a suggestion must be likely, not merely possible.
var popular = []string{
	"gmail.com", "googlemail.com", "yahoo.com", "yahoo.co.uk", "yahoo.fr", "ymail.com",
	"hotmail.com", "hotmail.co.uk", "hotmail.fr", "outlook.com", "live.com", "msn.com",
	"icloud.com", "me.com", "mac.com", "aol.com", "protonmail.com", "proton.me",
	"gmx.com", "gmx.de", "gmx.net", "web.de", "mail.com", "yandex.ru", "mail.ru",
	"comcast.net", "verizon.net", "att.net", "sbcglobal.net", "qq.com", "163.com",
	"orange.fr", "free.fr", "zoho.com", "fastmail.com",
}

// suggest returns the popular provider domain is most likely a typo of:
// within one edit (two for names of nine or more characters), counting a
// swap of neighbours as one edit. A domain that is itself a known free
// provider or a popular one gets no suggestion.
func suggest(domain string, l *Lists) (string, bool) {
	if len(domain) > 64 || l.IsFree(domain) {
		return "", false
	}
	best, bestDist := "", 3
	for _, p := range popular {
		if p == domain {
			return "", false
		}
		limit := 1
		if len(p) >= 9 {
			limit = 2
		}
		if d := len(p) - len(domain); d > limit || -d > limit {
			continue
		}
		if d := editDistance(domain, p, limit); d <= limit && d < bestDist {
			best, bestDist = p, d
		}
	}
	return best, best != ""
}

// editDistance is the optimal-string-alignment distance of a and b
// (insertions, deletions, substitutions and adjacent transpositions), or a
// value above limit as soon as it must exceed it.
func editDistance(a, b string, limit int) int {
	var buf [3][72]int
	prev2, prev, cur := buf[0][:len(b)+1], buf[1][:len(b)+1], buf[2][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
