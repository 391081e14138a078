package webcheck

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/quiverkit/quiver/internal/textcut"
)

// MaxRobotsBytes is where robots.txt parsing stops (RFC 9309 section
// 2.5: at least 500 kibibytes must be parsed).
const MaxRobotsBytes = 500 << 10

// maxRobotsWarnings bounds the warnings listed for one file, so that a
// hostile file cannot make the answer grow with its number of problems;
// the rest are counted in a last warning, "N more warnings not shown".
const maxRobotsWarnings = 100

// Robots is a parsed robots.txt file. Build it with [ParseRobots]; it is
// safe for concurrent use.
type Robots struct {
	groups   []robotsGroup
	byAgent  map[string][]robotsRule // merged rules per product token
	star     []robotsRule            // merged rules of the "*" groups
	sitemaps []string
	warnings []string
	dropped  int // warnings beyond maxRobotsWarnings
}

// RobotsGroup is one group of a robots.txt file: the user agents it names
// and its rules, as written.
type RobotsGroup struct {
	// UserAgents are the product tokens of the group's user-agent lines,
	// lower case; "*" is the default group.
	UserAgents []string `json:"user_agents"`
	// Allow are the paths of the group's allow rules.
	Allow []string `json:"allow"`
	// Disallow are the paths of the group's disallow rules.
	Disallow []string `json:"disallow"`
}

type robotsGroup struct {
	agents []string
	rules  []robotsRule
}

type robotsRule struct {
	allow   bool
	raw     string // the value as written
	pattern string // percent-normalized
}

// ParseRobots parses a robots.txt file as RFC 9309 specifies, with
// Google's tolerance: keys are case-insensitive, a missing colon after a
// known key is accepted when a space separates the value, consecutive
// user-agent lines share one group, groups naming the same agent merge,
// and only the first MaxRobotsBytes are read. A UTF-8 byte order mark,
// whole or cut short, is skipped. Problems become warnings, never errors:
// every input gives a usable *Robots.
func ParseRobots(data []byte) *Robots {
	r := &Robots{}
	if len(data) > MaxRobotsBytes {
		r.warn(fmt.Sprintf("the file is %d bytes; only the first %d are parsed (RFC 9309 section 2.5)", len(data), MaxRobotsBytes))
		data = data[:MaxRobotsBytes]
	}
	data = trimByteOrderMark(data)
	var cur *robotsGroup
	lastWasAgent := false
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		var line []byte
		if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
			line = data[:i]
			if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			data = data[i+1:]
		} else {
			line, data = data, nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		key, value, ok := splitRobotsLine(string(line))
		if !ok {
			r.warn(fmt.Sprintf("line %d: no colon after the key, ignored: %q", lineNo, textcut.Mark(string(line), 80, "...")))
			continue
		}
		switch key {
		case "user-agent":
			if !lastWasAgent {
				r.groups = append(r.groups, robotsGroup{})
				cur = &r.groups[len(r.groups)-1]
			}
			agent := productToken(value)
			if agent == "" {
				r.warn(fmt.Sprintf("line %d: empty user-agent", lineNo))
			} else {
				cur.agents = append(cur.agents, agent)
			}
			lastWasAgent = true
		case "allow", "disallow":
			if cur == nil {
				r.warn(fmt.Sprintf("line %d: %s rule before any user-agent line, ignored", lineNo, key))
			} else if value != "" {
				cur.rules = append(cur.rules, robotsRule{allow: key == "allow", raw: value, pattern: normalizePattern(value)})
			}
			// Only a rule ends a run of user-agent lines: other records
			// must not interfere with the groups (RFC 9309 section 2.2.4).
			lastWasAgent = false
		case "sitemap":
			r.sitemaps = append(r.sitemaps, value)
			if su, err := url.Parse(value); err != nil || !su.IsAbs() {
				r.warn(fmt.Sprintf("line %d: sitemap URL is not absolute: %s", lineNo, textcut.Quote(value)))
			}
		case "crawl-delay", "host", "noindex", "nofollow", "clean-param", "request-rate", "visit-time":
			r.warn(fmt.Sprintf("line %d: %s is not part of RFC 9309 and is ignored by major crawlers", lineNo, key))
		default:
			r.warn(fmt.Sprintf("line %d: unknown directive %q", lineNo, textcut.Mark(key, 40, "...")))
		}
	}
	r.index()
	return r
}

// trimByteOrderMark removes a UTF-8 byte order mark from the start of
// data, also when it is cut short (its first one or two bytes), as RFC
// 9309 section 2.2 allows crawlers to and Google's parser does: otherwise
// the first line would be read with stray bytes in its key and lost.
func trimByteOrderMark(data []byte) []byte {
	const bom = "\xef\xbb\xbf"
	n := 0
	for n < len(bom) && n < len(data) && data[n] == bom[n] {
		n++
	}
	return data[n:]
}

// index merges the rules of the groups naming each agent, so that
// matching does not depend on the number of groups.
func (r *Robots) index() {
	r.byAgent = map[string][]robotsRule{}
	for _, g := range r.groups {
		seen := map[string]bool{}
		for _, a := range g.agents {
			if seen[a] {
				continue
			}
			seen[a] = true
			if a == "*" {
				r.star = append(r.star, g.rules...)
			} else {
				r.byAgent[a] = append(r.byAgent[a], g.rules...)
			}
		}
	}
}

// robotsKeys maps accepted spellings (Google's common typos included) to
// the directive.
var robotsKeys = map[string]string{
	"user-agent": "user-agent", "useragent": "user-agent", "user agent": "user-agent",
	"allow":    "allow",
	"disallow": "disallow", "dissallow": "disallow", "dissalow": "disallow", "disalow": "disallow", "diasllow": "disallow", "disallaw": "disallow",
	"sitemap": "sitemap", "site-map": "sitemap",
}

// splitRobotsLine splits "key: value". Without a colon, a known key
// followed by whitespace is accepted, as Google does.
func splitRobotsLine(line string) (key, value string, ok bool) {
	if i := strings.IndexByte(line, ':'); i >= 0 {
		key = strings.ToLower(strings.TrimSpace(line[:i]))
		value = strings.TrimSpace(line[i+1:])
		if k, known := robotsKeys[key]; known {
			key = k
		}
		return key, value, true
	}
	if i := strings.IndexAny(line, " \t"); i > 0 {
		if k, known := robotsKeys[strings.ToLower(line[:i])]; known {
			return k, strings.TrimSpace(line[i:]), true
		}
	}
	return "", "", false
}

// productToken returns the lower-case product token of a user-agent
// value or string: its leading letters, '-' and '_' ("Googlebot/2.1" ->
// "googlebot"). "*" stays "*".
func productToken(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "*") {
		return "*"
	}
	end := 0
	for end < len(s) {
		c := s[end]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			break
		}
		end++
	}
	return strings.ToLower(s[:end])
}

// normalizePattern makes a rule path comparable with normalized URL
// paths: escapes are upper-cased, escapes of unreserved characters
// decoded, and non-ASCII bytes escaped (RFC 9309 section 2.2.2). A path
// that does not start with "/" or "*" gets a leading "/".
func normalizePattern(p string) string {
	p = normalizePercent(p)
	if p != "" && p[0] != '/' && p[0] != '*' {
		p = "/" + p
	}
	return p
}

func (r *Robots) warn(msg string) {
	if len(r.warnings) >= maxRobotsWarnings {
		r.dropped++
		return
	}
	r.warnings = append(r.warnings, msg)
}

// Warnings returns the parse warnings: lines without a colon, unknown or
// unsupported directives, rules before any user-agent, relative sitemap
// URLs, truncation. At most 100 are listed; when there were more, a last
// warning "N more warnings not shown" counts the rest.
func (r *Robots) Warnings() []string {
	w := append([]string(nil), r.warnings...)
	if r.dropped > 0 {
		w = append(w, moreWarnings(r.dropped))
	}
	return w
}

// moreWarnings is the last warning of a capped list (robots.txt, sitemap),
// worded as devutil words it.
func moreWarnings(n int) string { return fmt.Sprintf("%d more warnings not shown", n) }

// Sitemaps returns the sitemap URLs the file lists, in order.
func (r *Robots) Sitemaps() []string { return append([]string(nil), r.sitemaps...) }

// Groups returns the groups of the file, in order.
func (r *Robots) Groups() []RobotsGroup {
	out := make([]RobotsGroup, 0, len(r.groups))
	for _, g := range r.groups {
		rg := RobotsGroup{UserAgents: append([]string{}, g.agents...), Allow: []string{}, Disallow: []string{}}
		for _, ru := range g.rules {
			if ru.allow {
				rg.Allow = append(rg.Allow, ru.raw)
			} else {
				rg.Disallow = append(rg.Disallow, ru.raw)
			}
		}
		out = append(out, rg)
	}
	return out
}

// rulesFor returns the merged rules of every group naming the agent's
// product token, or of the "*" groups when none does.
func (r *Robots) rulesFor(token string) []robotsRule {
	if rules, ok := r.byAgent[token]; ok && token != "*" {
		return rules
	}
	return r.star
}

// Allowed reports whether userAgent may fetch rawURL (an absolute URL or
// a path). The most specific rule wins: the matching rule with the
// longest path; on a tie allow wins; no matching rule allows. "*" matches
// any sequence and a final "$" anchors the end. Both sides are compared
// in one form (RFC 9309 section 2.2.2): octets outside US-ASCII
// percent-encoded, escapes of unreserved characters decoded, hex digits
// in upper case; so "/foo/bar/ツ" matches "/foo/bar/%E3%83%84" and
// "/foo/bar/%62%61%7A" matches "/foo/bar/baz". A "*" or "$" in the URL
// is matched by "%2A" or "%24" in a rule (RFC 9309 section 2.2.3). /robots.txt is
// always allowed.
func (r *Robots) Allowed(userAgent, rawURL string) bool {
	if r == nil {
		return true
	}
	path := robotsPath(rawURL)
	if path == "/robots.txt" {
		return true
	}
	allowed, _ := decide(r.rulesFor(productToken(userAgent)), path)
	return allowed
}

// decide returns the verdict for path and the deciding rule, nil when no
// rule matches.
func decide(rules []robotsRule, path string) (bool, *robotsRule) {
	best := -1
	var bestRule *robotsRule
	allowed := true
	for i := range rules {
		ru := &rules[i]
		if len(ru.pattern) < best || !matchPattern(ru.pattern, path) {
			continue
		}
		n := len(ru.pattern)
		if n > best || (n == best && ru.allow) {
			best, bestRule, allowed = n, ru, ru.allow
		}
	}
	return allowed, bestRule
}

// robotsPath returns the normalized path and query of rawURL.
func robotsPath(rawURL string) string {
	p := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		p = u.EscapedPath()
		if u.RawQuery != "" || u.ForceQuery {
			p += "?" + u.RawQuery
		}
	} else if i := strings.Index(rawURL, "://"); i >= 0 {
		p = rawURL[i+3:]
		if j := strings.IndexByte(p, '/'); j >= 0 {
			p = p[j:]
		} else {
			p = "/"
		}
	}
	if p == "" {
		p = "/"
	}
	// A "*" or "$" in the URL is a literal character, which a rule can
	// only name escaped ("%2A", "%24"): RFC 9309 section 2.2.3.
	return pathSpecials.Replace(normalizePercent(p))
}

// pathSpecials escapes the characters that are special in rule patterns.
var pathSpecials = strings.NewReplacer("*", "%2A", "$", "%24")

// matchPattern matches path against a rule pattern with "*" wildcards and
// an optional final "$", in O(len(pattern)·len(path)) at worst.
func matchPattern(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	if !strings.Contains(pattern, "*") {
		if anchored {
			return path == pattern
		}
		return strings.HasPrefix(path, pattern)
	}
	// The first piece (before the first '*') is a prefix; each later
	// piece is found greedily left to right, which is exact for prefix
	// matching. An anchored pattern needs its last piece at the end.
	first, rest, _ := strings.Cut(pattern, "*")
	if !strings.HasPrefix(path, first) {
		return false
	}
	pos := len(first)
	for {
		piece, more, found := strings.Cut(rest, "*")
		if !found {
			if anchored {
				return len(path)-pos >= len(piece) && strings.HasSuffix(path, piece)
			}
			return strings.Contains(path[pos:], piece)
		}
		j := strings.Index(path[pos:], piece)
		if j < 0 {
			return false
		}
		pos += j + len(piece)
		rest = more
	}
}

// blocksAll reports whether the rules disallow the whole site.
func blocksAll(rules []robotsRule) bool {
	allowed, _ := decide(rules, "/")
	if allowed {
		return false
	}
	for _, ru := range rules {
		if ru.allow && ru.pattern != "/" && ru.pattern != "" {
			return false
		}
	}
	return true
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

const upperHex = "0123456789ABCDEF"

// normalizePercent decodes escapes of unreserved characters, upper-cases
// the hex digits of the others, and escapes bytes outside printable ASCII.
func normalizePercent(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				d := hi<<4 | lo
				if isUnreserved(d) {
					b.WriteByte(d)
				} else {
					b.WriteByte('%')
					b.WriteByte(upperHex[d>>4])
					b.WriteByte(upperHex[d&15])
				}
				i += 2
				continue
			}
		}
		if c <= ' ' || c >= 0x7f {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
