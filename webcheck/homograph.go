package webcheck

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed" // the confusables table
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/unicode/norm"
)

//go:generate go run ./internal/gen -out data

// HomographFinding says why a host is a homograph.
type HomographFinding struct {
	// Label is the label (Unicode form) that triggered the finding; the
	// whole registrable domain for a skeleton match.
	Label string `json:"label"`
	// Reason is "mixed_script", "whole_script_confusable" or
	// "confusable_with:<domain>".
	Reason string `json:"reason"`
}

// confusablesGz is Unicode's confusables.txt (UTS #39), generated from a
// published npm package; data/NOTICE.md gives its source and licenses.
//
//go:embed data/confusables.txt.gz
var confusablesGz []byte

// confusableTable maps a code point to its UTS #39 prototype.
type confusableTable struct {
	unicode string          // the Unicode version of confusables.txt
	proto   map[rune]string // source code point -> prototype
	ascii   [utf8.RuneSelf]string
}

// hostConfusables amend confusables.txt where host names differ from
// running text. IDNA lower-cases every label, and confusables.txt maps
// the capital palochka "Ӏ" to "l" but its lower case "ӏ", which is drawn
// as the same vertical stroke, to "i"; Chromium's spoof checker likewise
// reads "ӏ" as "l". Without this, "аррӏе" would not meet "apple".
var hostConfusables = map[rune]string{'ӏ': "l"}

// confusables decodes the embedded table once, on first use.
var confusables = sync.OnceValue(func() *confusableTable {
	t, err := parseConfusables(confusablesGz)
	if err != nil {
		panic("webcheck: embedded confusables table: " + err.Error())
	}
	return t
})

// parseConfusables reads the generated format: "# key: value" header
// lines, then "SSSS;PPPP PPPP" (hex code points) per line.
func parseConfusables(gz []byte) (*confusableTable, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	t := &confusableTable{proto: make(map[rune]string, 6400)}
	sc := bufio.NewScanner(zr)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "# unicode: "); ok {
			t.unicode = v
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		src, proto, ok := strings.Cut(line, ";")
		r, err := strconv.ParseUint(src, 16, 32)
		if !ok || err != nil || proto == "" {
			return nil, fmt.Errorf("line %d: %q is not SOURCE;PROTOTYPE", n, line)
		}
		var b strings.Builder
		for _, f := range strings.Fields(proto) {
			p, err := strconv.ParseUint(f, 16, 32)
			if err != nil {
				return nil, fmt.Errorf("line %d: prototype %q: %w", n, f, err)
			}
			b.WriteRune(rune(p))
		}
		t.proto[rune(r)] = b.String()
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for r, p := range hostConfusables {
		t.proto[r] = p
	}
	if t.unicode == "" || len(t.proto) == 0 {
		return nil, fmt.Errorf("no Unicode version or no entries")
	}
	for r := range utf8.RuneSelf {
		if p, ok := t.proto[rune(r)]; ok {
			t.ascii[r] = p
		} else {
			t.ascii[r] = string(rune(r))
		}
	}
	return t, nil
}

// skeleton is the UTS #39 skeleton of s (NFD, each code point replaced
// by its prototype, NFD again), lower-cased afterwards because host names
// are case-insensitive: "g00gle" and "google" then share "google".
func (t *confusableTable) skeleton(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	if isASCII(s) {
		for i := 0; i < len(s); i++ {
			b.WriteString(t.ascii[s[i]])
		}
		return strings.ToLower(b.String())
	}
	for _, r := range norm.NFD.String(s) {
		if p, ok := t.proto[r]; ok {
			b.WriteString(p)
		} else {
			b.WriteRune(r)
		}
	}
	return strings.ToLower(norm.NFD.String(b.String()))
}

// letterPairs are the two-letter lookalikes of one letter that
// confusables.txt cannot hold (it maps single code points): "vv" for
// "w" and "cl" for "d". Its "m" -> "rn" already covers "rn".
var letterPairs = strings.NewReplacer("vv", "w", "cl", "d")

// looseSkeleton is the skeleton without combining marks and with the
// letter pairs joined, so that a Latin label with added accents
// ("gòogle") or a pair ("vvhatsapp") meets the brand it imitates. It is
// used only against the listed brands.
func (t *confusableTable) looseSkeleton(s string) string {
	k := t.skeleton(s)
	if !isASCII(k) {
		k = strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Mn, r) {
				return -1
			}
			return r
		}, k)
	}
	return letterPairs.Replace(k)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
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

// brandIndex holds the skeletons of topDomains: of the whole domain, and
// (loose) of the brand label left of the public suffix.
type brandIndex struct {
	domain map[string]string // skeleton of the domain -> domain
	label  map[string]string // loose skeleton of the brand label -> domain
	labels map[string]bool   // the brand labels as written
}

var brands = sync.OnceValue(func() *brandIndex {
	t := confusables()
	ix := &brandIndex{domain: map[string]string{}, label: map[string]string{}, labels: map[string]bool{}}
	for _, d := range topDomains {
		ix.domain[t.skeleton(d)] = d
		label, _, _ := strings.Cut(d, ".")
		ix.labels[label] = true
		if _, dup := ix.label[t.looseSkeleton(label)]; !dup {
			ix.label[t.looseSkeleton(label)] = d
		}
	}
	return ix
})

// scriptOf returns the script name of r, "" for Common and Inherited.
func scriptOf(r rune) string {
	if r < utf8.RuneSelf {
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

// scriptsOf returns the scripts of label's letters, without Common and
// Inherited (digits, hyphen, combining marks).
func scriptsOf(label string) map[string]bool {
	scripts := map[string]bool{}
	for _, r := range label {
		if s := scriptOf(r); s != "" {
			scripts[s] = true
		}
	}
	return scripts
}

// allowedMixes are the script combinations UTS #39's "highly restrictive"
// level accepts in one label.
var allowedMixes = []map[string]bool{
	{"Latin": true, "Han": true, "Hiragana": true, "Katakana": true},
	{"Latin": true, "Han": true, "Bopomofo": true},
	{"Latin": true, "Han": true, "Hangul": true},
}

// ccTLDScripts are ASCII country-code TLDs whose names are commonly
// registered in a script other than Latin; a whole-script label in that
// script is at home there, as Chromium treats Cyrillic under .ru or .ua.
var ccTLDScripts = map[string]string{
	"bg": "Cyrillic", "by": "Cyrillic", "kz": "Cyrillic", "ru": "Cyrillic",
	"su": "Cyrillic", "ua": "Cyrillic", "uz": "Cyrillic",
	"gr": "Greek", "am": "Armenian", "ge": "Georgian",
}

// tldScript is the script of the top-level domain: that of its letters
// for an IDN TLD (рф, укр, ελ), the script its registry serves for the
// ccTLDs above, else Latin.
func tldScript(uniTLD string) string {
	if s, ok := ccTLDScripts[uniTLD]; ok {
		return s
	}
	scripts := scriptsOf(uniTLD)
	if len(scripts) == 1 {
		for s := range scripts {
			return s
		}
	}
	return "Latin"
}

// checkHomograph applies the browsers' IDN display policy (Chromium's as
// the anchor, after UTS #39) to an ASCII (punycode) host. The labels of
// the public suffix are not scored: no one registers them. For each other
// label:
//   - letters of several scripts outside the "highly restrictive" mixes
//     are "mixed_script";
//   - a label of one non-Latin script whose skeleton is plain ASCII (it
//     can pass for a Latin name) is "whole_script_confusable", unless the
//     TLD is of that same script (москва.рф, мама.укр);
//
// and for the registrable domain: a skeleton equal to a listed domain's,
// or a brand label that looks like a listed brand's without being it, is
// "confusable_with:<domain>".
func checkHomograph(asciiHost string) []HomographFinding {
	host := strings.ToLower(strings.TrimSuffix(asciiHost, "."))
	uni, err := idna.ToUnicode(host)
	if err != nil {
		uni = host
	}
	labels := strings.Split(uni, ".")
	suffix, _ := publicsuffix.PublicSuffix(host)
	nSuffix := strings.Count(suffix, ".") + 1
	if nSuffix > len(labels) {
		nSuffix = len(labels)
	}
	t := confusables()
	home := tldScript(labels[len(labels)-1])
	var out []HomographFinding
	for _, label := range labels[:len(labels)-nSuffix] {
		if isASCII(label) {
			continue // one script, and nothing to confuse it with Latin
		}
		scripts := scriptsOf(label)
		switch {
		case len(scripts) > 1 && !mixAllowed(scripts):
			out = append(out, HomographFinding{Label: label, Reason: "mixed_script"})
		case len(scripts) == 1 && !scripts["Latin"] && !scripts[home] && isASCII(t.skeleton(label)):
			out = append(out, HomographFinding{Label: label, Reason: "whole_script_confusable"})
		}
	}
	if nSuffix >= len(labels) {
		return out
	}
	ix := brands()
	regUni := strings.Join(labels[len(labels)-nSuffix-1:], ".")
	reg, err := idna.ToASCII(regUni)
	if err != nil {
		reg = regUni
	}
	if top, ok := ix.domain[t.skeleton(regUni)]; ok && top != reg {
		return append(out, HomographFinding{Label: regUni, Reason: "confusable_with:" + top})
	}
	brand := labels[len(labels)-nSuffix-1]
	if top, ok := ix.label[t.looseSkeleton(brand)]; ok && !ix.labels[brand] {
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
