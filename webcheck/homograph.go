package webcheck

import (
	"strings"
	"unicode"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// HomographFinding says why a host is a homograph.
type HomographFinding struct {
	// Label is the label (Unicode form) that triggered the finding; the
	// whole registrable domain for a skeleton match.
	Label string `json:"label"`
	// Reason is "mixed_script", "whole_script_confusable" or
	// "confusable_with:<domain>".
	Reason string `json:"reason"`
}

// lookalikes maps characters to the Latin letters they are confused with,
// after the prototypes of Unicode's confusables data (UTS #39), reduced to
// the lower-case letters and digits that matter in host names.
var lookalikes = map[rune]string{
	// Cyrillic
	'а': "a", 'в': "b", 'е': "e", 'ё': "e", 'і': "i", 'ї': "i", 'ј': "j", 'к': "k", 'м': "m",
	'н': "h", 'о': "o", 'р': "p", 'с': "c", 'т': "t", 'у': "y", 'х': "x", 'ѕ': "s",
	'ԁ': "d", 'ԛ': "q", 'ԝ': "w", 'һ': "h", 'ӏ': "l", 'ь': "b", 'п': "n", 'г': "r",
	// Greek
	'α': "a", 'β': "b", 'ε': "e", 'ι': "i", 'κ': "k", 'ν': "v", 'ο': "o", 'ρ': "p",
	'τ': "t", 'υ': "u", 'χ': "x", 'ϲ': "c", 'ϳ': "j", 'γ': "y", 'η': "n", 'ω': "w",
	// Armenian
	'օ': "o", 'ո': "n", 'ս': "u", 'ց': "g", 'հ': "h", 'զ': "q",
	// Latin lookalikes and digits
	'ı': "i", 'ɩ': "i", 'ɑ': "a", 'ɡ': "g", 'ʏ': "y", 'ℓ': "l", 'ǀ': "l",
	'0': "o", '1': "l", '3': "e", '5': "s",
}

// topDomains are the registrable domains most often imitated.
var topDomains = []string{
	"google.com", "youtube.com", "facebook.com", "instagram.com", "twitter.com", "x.com",
	"wikipedia.org", "amazon.com", "apple.com", "microsoft.com", "paypal.com", "netflix.com",
	"linkedin.com", "yahoo.com", "bing.com", "github.com", "whatsapp.com", "tiktok.com",
	"reddit.com", "ebay.com", "live.com", "outlook.com", "office.com", "dropbox.com",
	"adobe.com", "chase.com", "bankofamerica.com", "wellsfargo.com", "coinbase.com",
	"binance.com", "stripe.com", "cloudflare.com", "icloud.com", "gmail.com", "yandex.ru",
	"baidu.com", "booking.com", "spotify.com", "twitch.tv", "steamcommunity.com",
	"blockchain.com", "metamask.io", "openai.com", "discord.com", "telegram.org",
}

// skeleton maps s to the string it looks like: lookalikes replaced and
// the multi-letter confusions rn->m, vv->w, cl->d applied.
func skeleton(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if l, ok := lookalikes[r]; ok {
			b.WriteString(l)
		} else {
			b.WriteRune(r)
		}
	}
	return strings.NewReplacer("rn", "m", "vv", "w", "cl", "d").Replace(b.String())
}

var topSkeletons = func() map[string]string {
	m := make(map[string]string, len(topDomains))
	for _, d := range topDomains {
		m[skeleton(d)] = d
	}
	return m
}()

// scriptOf returns the script name of r, "" for Common and Inherited.
func scriptOf(r rune) string {
	if r < 0x80 {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return "Latin"
		}
		return ""
	}
	if unicode.In(r, unicode.Common, unicode.Inherited) {
		return ""
	}
	for _, name := range []string{"Latin", "Cyrillic", "Greek", "Armenian", "Han", "Hiragana", "Katakana", "Hangul", "Bopomofo", "Arabic", "Hebrew"} {
		if unicode.Is(unicode.Scripts[name], r) {
			return name
		}
	}
	for name, t := range unicode.Scripts {
		if unicode.Is(t, r) {
			return name
		}
	}
	return "Unknown"
}

// allowedMixes are the script combinations UTS #39's "highly restrictive"
// level accepts in one label.
var allowedMixes = []map[string]bool{
	{"Latin": true, "Han": true, "Hiragana": true, "Katakana": true},
	{"Latin": true, "Han": true, "Bopomofo": true},
	{"Latin": true, "Han": true, "Hangul": true},
}

// checkHomograph runs the UTS #39 checks on an ASCII (punycode) host: per
// label, mixed scripts and whole-script confusables with Latin; for the
// registrable domain, a skeleton equal to a top domain's.
func checkHomograph(asciiHost string) []HomographFinding {
	uni, err := idna.ToUnicode(asciiHost)
	if err != nil {
		uni = asciiHost
	}
	var out []HomographFinding
	for _, label := range strings.Split(uni, ".") {
		scripts := map[string]bool{}
		allLookalike := true
		for _, r := range label {
			if s := scriptOf(r); s != "" {
				scripts[s] = true
				if _, ok := lookalikes[r]; !ok {
					allLookalike = false
				}
			}
		}
		switch {
		case len(scripts) > 1 && !mixAllowed(scripts):
			out = append(out, HomographFinding{Label: label, Reason: "mixed_script"})
		case len(scripts) == 1 && !scripts["Latin"] && allLookalike && (scripts["Cyrillic"] || scripts["Greek"] || scripts["Armenian"]):
			out = append(out, HomographFinding{Label: label, Reason: "whole_script_confusable"})
		}
	}
	reg, err := publicsuffix.EffectiveTLDPlusOne(asciiHost)
	if err != nil {
		return out
	}
	regUni, err := idna.ToUnicode(reg)
	if err != nil {
		regUni = reg
	}
	if top, ok := topSkeletons[skeleton(regUni)]; ok && top != reg {
		out = append(out, HomographFinding{Label: regUni, Reason: "confusable_with:" + top})
	}
	return out
}

func mixAllowed(scripts map[string]bool) bool {
	for _, mix := range allowedMixes {
		ok := true
		for s := range scripts {
			if !mix[s] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
