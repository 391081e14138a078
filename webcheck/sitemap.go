package webcheck

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/internal/textcut"
)

// Limits of the sitemaps protocol (sitemaps.org) and of the validator.
const (
	// MaxSitemapURLs is the protocol's limit of entries per file.
	MaxSitemapURLs = 50000
	// MaxSitemapSize is the protocol's limit of uncompressed bytes per file
	// (50 MiB).
	MaxSitemapSize = 50 << 20
	// MaxLocLength is the protocol's limit of a loc URL.
	MaxLocLength = 2048
	// SitemapNamespace is the namespace of urlset and sitemapindex.
	SitemapNamespace = "http://www.sitemaps.org/schemas/sitemap/0.9"
	// maxSitemapDepth bounds element nesting.
	maxSitemapDepth = 32
	// maxSitemapWarnings bounds the warnings listed; the rest are counted.
	maxSitemapWarnings = 100
	// maxFieldBytes bounds the text kept of one loc, lastmod, changefreq or
	// priority.
	maxFieldBytes = 4096
	// maxSeen bounds the entries remembered for duplicate detection (a
	// few MB): twice what a valid sitemap may hold, so every duplicate of
	// a valid file is found, and an oversized file, already warned about,
	// costs no more.
	maxSeen = 2 * MaxSitemapURLs
	// maxTokenBytes bounds one XML token: a text run, a tag with its
	// attributes, a comment. encoding/xml holds a whole token in memory,
	// so without this bound one long text node would take memory in
	// proportion to the document.
	maxTokenBytes = 1 << 20
)

// errTokenTooLarge stops the parse at a token longer than maxTokenBytes.
var errTokenTooLarge = fmt.Errorf("an XML token (text, tag or comment) is longer than %d bytes", maxTokenBytes)

// tokenLimiter feeds the decoder byte by byte (encoding/xml reads an
// io.ByteReader directly) and fails once the current token passes
// maxTokenBytes; the parse loop resets n after each token.
type tokenLimiter struct {
	r *bufio.Reader
	n int
}

func (t *tokenLimiter) ReadByte() (byte, error) {
	if t.n >= maxTokenBytes {
		return 0, errTokenTooLarge
	}
	t.n++
	return t.r.ReadByte()
}

func (t *tokenLimiter) Read(p []byte) (int, error) {
	if t.n >= maxTokenBytes {
		return 0, errTokenTooLarge
	}
	if room := maxTokenBytes - t.n; len(p) > room {
		p = p[:room]
	}
	n, err := t.r.Read(p)
	t.n += n
	return n, err
}

// SitemapReport is the outcome of validating one sitemap document.
type SitemapReport struct {
	// IsValidXML reports whether the document is well-formed XML whose
	// root is urlset or sitemapindex.
	IsValidXML bool
	// Kind is "urlset", "sitemapindex", or "" when neither.
	Kind string
	// URLCount counts url entries; SitemapCount counts sitemap entries.
	URLCount, SitemapCount int
	// Bytes is the uncompressed size read.
	Bytes int64
	// Warnings lists the problems found, at most 100 and then a count.
	Warnings []string
}

// SitemapOptions configures [ValidateSitemapXML].
type SitemapOptions struct {
	// Base is the sitemap's own URL: relative locs are resolved against it
	// and locs on another host are flagged. Optional.
	Base *url.URL
	// MaxBytes bounds the uncompressed bytes read; reading stops there
	// with a warning. Default, and at most, MaxSitemapSize (50 MiB, the
	// protocol's limit).
	MaxBytes int64
}

// ValidateSitemapXML validates a sitemap or sitemap index read from r,
// gzip-compressed or not (detected from the magic bytes). It streams: the
// only state that grows with the number of entries is a set of 64-bit
// hashes of the locs seen, for duplicate detection.
//
// The work is bounded by the protocol's own limits: parsing stops, with
// a warning and IsValidXML false, as soon as the document has more than
// MaxSitemapURLs entries or more than MaxSitemapSize uncompressed bytes
// (or opts.MaxBytes, when smaller), so a small gzip that inflates without
// end costs no more than a 50 MiB document. Nesting deeper than 32
// elements and a token (text run, tag, comment) longer than 1 MiB stop
// the parse too.
func ValidateSitemapXML(r io.Reader, opts SitemapOptions) SitemapReport {
	limit := opts.MaxBytes
	if limit <= 0 || limit > MaxSitemapSize {
		limit = MaxSitemapSize
	}
	v := &sitemapValidator{opts: opts, seen: map[uint64]struct{}{}, seed: maphash.MakeSeed()}
	br := bufio.NewReader(r)
	var src io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			v.warn("gzip: " + err.Error())
			return v.report
		}
		defer zr.Close()
		src = zr
	}
	cr := &boundedReader{r: src, limit: limit}
	v.run(cr)
	v.report.Bytes = cr.n
	switch {
	case cr.n <= limit:
	case limit == MaxSitemapSize:
		v.warnAlways(fmt.Sprintf("the document is larger than the 50 MiB (%d bytes) uncompressed that the sitemaps protocol allows: parsing stopped there", MaxSitemapSize))
	default:
		v.warnAlways(fmt.Sprintf("stopped after %d uncompressed bytes: the document is larger than this validator reads", limit))
	}
	if v.dropped > 0 {
		v.report.Warnings = append(v.report.Warnings, moreWarnings(v.dropped))
	}
	return v.report
}

// errSitemapTooLarge ends the parse once the uncompressed document passes
// its bound.
var errSitemapTooLarge = errors.New("sitemap too large")

// boundedReader counts the bytes read and fails with errSitemapTooLarge
// once more than limit have been read, so that inflating and parsing stop
// one byte past the bound.
type boundedReader struct {
	r     io.Reader
	n     int64
	limit int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.n > b.limit {
		return 0, errSitemapTooLarge
	}
	if room := b.limit + 1 - b.n; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

type sitemapValidator struct {
	opts    SitemapOptions
	report  SitemapReport
	dropped int
	seen    map[uint64]struct{}
	seed    maphash.Seed
	dups    int
}

func (v *sitemapValidator) warn(msg string) {
	if len(v.report.Warnings) >= maxSitemapWarnings {
		v.dropped++
		return
	}
	v.report.Warnings = append(v.report.Warnings, msg)
}

// warnAlways adds a summary warning even past the cap.
func (v *sitemapValidator) warnAlways(msg string) { v.report.Warnings = append(v.report.Warnings, msg) }

// entry is the text of one url or sitemap entry's fields.
type entry struct {
	loc, lastmod, changefreq, priority strings.Builder
	hasLoc                             bool
}

func (v *sitemapValidator) run(r io.Reader) {
	tl := &tokenLimiter{r: bufio.NewReader(r)}
	d := xml.NewDecoder(tl)
	d.Strict = true
	depth := 0
	var rootSeen bool
	var e *entry
	var field *strings.Builder
	entryName := ""
	index := 0
	// RawToken skips the namespace translation and copying of Token,
	// which allocate for every element; the stack below does the
	// well-formedness check Token would (end tags match their start, no
	// element left open at the end).
	var open []xml.Name
	prefix := "" // the root's namespace prefix, "" for the default namespace
	for {
		tl.n = 0
		tok, err := d.RawToken()
		if err == io.EOF && len(open) > 0 {
			v.report.IsValidXML = false
			v.warnAlways(fmt.Sprintf("the document ends early: <%s> is not closed", textcut.Mark(open[len(open)-1].Local, 40, "...")))
			return
		}
		if err == io.EOF {
			if !rootSeen {
				v.warn("the document is empty")
				return
			}
			v.report.IsValidXML = v.report.Kind != ""
			if v.dups > 0 {
				v.warnAlways(fmt.Sprintf("%d duplicate URLs", v.dups))
			}
			return
		}
		if err != nil {
			v.report.IsValidXML = false
			var se *xml.SyntaxError
			if errors.Is(err, errSitemapTooLarge) {
				// ValidateSitemapXML says so.
			} else if errors.Is(err, errTokenTooLarge) {
				v.warnAlways(err.Error() + ": parsing stopped")
			} else if errors.As(err, &se) {
				v.warnAlways(fmt.Sprintf("XML syntax error on line %d: %s", se.Line, se.Msg))
			} else if !errors.Is(err, io.ErrUnexpectedEOF) {
				v.warnAlways("XML error: " + err.Error())
			} else {
				v.warnAlways("the document ends early")
			}
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 && rootSeen {
				v.report.IsValidXML = false
				v.warnAlways("more than one root element")
				return
			}
			open = append(open, t.Name)
			if depth == 0 {
				prefix = t.Name.Space
				t.Name.Space = namespaceOf(prefix, t.Attr)
			}
			depth++
			if depth > maxSitemapDepth {
				v.report.IsValidXML = false
				v.warnAlways(fmt.Sprintf("elements nested deeper than %d: parsing stopped", maxSitemapDepth))
				return
			}
			name := t.Name.Local
			switch {
			case depth == 1:
				rootSeen = true
				if name != "urlset" && name != "sitemapindex" {
					v.warnAlways("the root element is <" + textcut.Mark(name, 40, "...") + ">, not <urlset> or <sitemapindex>")
					continue
				}
				v.report.Kind = name
				if t.Name.Space != SitemapNamespace {
					v.warn(fmt.Sprintf("the namespace is %q, want %q", textcut.Mark(t.Name.Space, 100, "..."), SitemapNamespace))
				}
			case depth == 2 && v.report.Kind != "" && t.Name.Space == prefix:
				want := "url"
				if v.report.Kind == "sitemapindex" {
					want = "sitemap"
				}
				if name != want {
					v.warn(fmt.Sprintf("unexpected <%s> in <%s>", textcut.Mark(name, 40, "..."), v.report.Kind))
					continue
				}
				index++
				e, entryName = &entry{}, name
			case depth == 3 && e != nil && t.Name.Space == prefix:
				switch name {
				case "loc":
					field, e.hasLoc = &e.loc, true
				case "lastmod":
					field = &e.lastmod
				case "changefreq":
					field = &e.changefreq
				case "priority":
					field = &e.priority
				default:
					v.warn(fmt.Sprintf("entry %d: unknown element <%s>", index, textcut.Mark(name, 40, "...")))
				}
				if entryName == "sitemap" && (name == "changefreq" || name == "priority") {
					v.warn(fmt.Sprintf("entry %d: <%s> does not belong in a sitemap index", index, name))
				}
			}
		case xml.CharData:
			if field != nil && field.Len() < maxFieldBytes {
				room := maxFieldBytes - field.Len()
				if len(t) > room {
					t = t[:room]
				}
				field.Write(t)
			}
		case xml.EndElement:
			if len(open) == 0 {
				v.report.IsValidXML = false
				v.warnAlways(fmt.Sprintf("XML syntax error on line %d: unexpected end element </%s>", lineOf(d), textcut.Mark(t.Name.Local, 40, "...")))
				return
			}
			if top := open[len(open)-1]; top != t.Name {
				v.report.IsValidXML = false
				v.warnAlways(fmt.Sprintf("XML syntax error on line %d: element <%s> closed by </%s>", lineOf(d), textcut.Mark(top.Local, 40, "..."), textcut.Mark(t.Name.Local, 40, "...")))
				return
			}
			open = open[:len(open)-1]
			if depth == 3 {
				field = nil
			}
			if depth == 2 && e != nil {
				v.checkEntry(index, entryName, e)
				e = nil
				if v.report.URLCount+v.report.SitemapCount > MaxSitemapURLs {
					v.report.IsValidXML = false
					v.warnAlways(fmt.Sprintf("more than %d entries, the limit per file of the sitemaps protocol: parsing stopped; split the sitemap", MaxSitemapURLs))
					return
				}
			}
			depth--
		}
	}
}

// namespaceOf returns the namespace the root's attributes bind to
// prefix ("" for the default namespace).
func namespaceOf(prefix string, attrs []xml.Attr) string {
	for _, a := range attrs {
		if prefix == "" && a.Name.Space == "" && a.Name.Local == "xmlns" ||
			prefix != "" && a.Name.Space == "xmlns" && a.Name.Local == prefix {
			return a.Value
		}
	}
	return ""
}

func lineOf(d *xml.Decoder) int {
	line, _ := d.InputPos()
	return line
}

var changefreqs = map[string]bool{"always": true, "hourly": true, "daily": true, "weekly": true, "monthly": true, "yearly": true, "never": true}

func (v *sitemapValidator) checkEntry(i int, kind string, e *entry) {
	if kind == "url" {
		v.report.URLCount++
	} else {
		v.report.SitemapCount++
	}
	loc := strings.TrimSpace(e.loc.String())
	switch {
	case !e.hasLoc || loc == "":
		v.warn(fmt.Sprintf("entry %d: missing <loc>", i))
	default:
		v.checkLoc(i, loc)
	}
	if lm := strings.TrimSpace(e.lastmod.String()); lm != "" && !isW3CDatetime(lm) {
		v.warn(fmt.Sprintf("entry %d: lastmod %q is not a W3C datetime", i, textcut.Mark(lm, 40, "...")))
	}
	if cf := strings.TrimSpace(e.changefreq.String()); cf != "" && !changefreqs[cf] {
		v.warn(fmt.Sprintf("entry %d: changefreq %q is not one of always, hourly, daily, weekly, monthly, yearly, never", i, textcut.Mark(cf, 40, "...")))
	}
	if p := strings.TrimSpace(e.priority.String()); p != "" {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 || f > 1 {
			v.warn(fmt.Sprintf("entry %d: priority %q is not a number from 0.0 to 1.0", i, textcut.Mark(p, 40, "...")))
		}
	}
}

func (v *sitemapValidator) checkLoc(i int, loc string) {
	if len(loc) > MaxLocLength {
		v.warn(fmt.Sprintf("entry %d: loc is %d characters, over the limit of %d", i, len(loc), MaxLocLength))
	}
	u, err := url.Parse(loc)
	switch {
	case err != nil:
		v.warn(fmt.Sprintf("entry %d: loc %q is not a valid URL", i, textcut.Mark(loc, 100, "...")))
	case !u.IsAbs() || u.Host == "":
		v.warn(fmt.Sprintf("entry %d: loc %q is relative; the protocol requires absolute URLs", i, textcut.Mark(loc, 100, "...")))
	case v.opts.Base != nil && !strings.EqualFold(u.Hostname(), v.opts.Base.Hostname()):
		v.warn(fmt.Sprintf("entry %d: loc %q is on another host than the sitemap (%s)", i, textcut.Mark(loc, 100, "..."), v.opts.Base.Hostname()))
	}
	h := maphash.String(v.seed, loc)
	if _, dup := v.seen[h]; dup {
		v.dups++
		v.warn(fmt.Sprintf("entry %d: duplicate URL %q", i, textcut.Mark(loc, 100, "...")))
	} else if len(v.seen) < maxSeen {
		v.seen[h] = struct{}{}
	}
}

// w3cLayouts are the W3C datetime profile (https://www.w3.org/TR/NOTE-datetime)
// forms, without the time-zone variants that time.RFC3339 covers.
var w3cLayouts = []string{"2006", "2006-01", "2006-01-02", "2006-01-02T15:04Z07:00", time.RFC3339, time.RFC3339Nano}

func isW3CDatetime(s string) bool {
	layouts := w3cLayouts[3:]
	switch len(s) {
	case 4, 7, 10:
		layouts = w3cLayouts[:3]
	}
	for _, l := range layouts {
		if _, err := time.Parse(l, s); err == nil {
			return true
		}
	}
	return false
}

// SitemapRequest is the request of [Checker.ValidateSitemap].
type SitemapRequest struct {
	// URL is the URL of a sitemap or sitemap index, plain or gzip. Required.
	URL string `json:"url" openapi:"required"`
}

// SitemapResult is the result of [Checker.ValidateSitemap].
type SitemapResult struct {
	// URL echoes the request.
	URL string `json:"url"`
	// Exists reports whether the sitemap was served (2xx).
	Exists bool `json:"exists"`
	// StatusCode is the final HTTP status; 0 when unreachable.
	StatusCode int `json:"status_code"`
	// IsValidXML reports whether the document is well-formed XML with a
	// urlset or sitemapindex root.
	IsValidXML bool `json:"is_valid_xml"`
	// URLCount counts the url entries of a urlset.
	URLCount int `json:"url_count"`
	// SitemapCount counts the sitemap entries of a sitemap index.
	SitemapCount int `json:"sitemap_count"`
	// Warnings lists the problems found.
	Warnings []string `json:"warnings"`
	// Type is "urlset", "sitemapindex", or "" when neither.
	Type string `json:"type"`
	// UncompressedBytes is the size of the document read.
	UncompressedBytes int64 `json:"uncompressed_bytes"`
}

// ValidateSitemap fetches a sitemap or sitemap index (following up to 5
// redirects) and validates it with [ValidateSitemapXML]. The sitemaps an
// index lists are counted and checked, not fetched.
func (c *Checker) ValidateSitemap(ctx context.Context, req SitemapRequest) (SitemapResult, error) {
	ctx, cancel := c.operation(ctx)
	defer cancel()
	u, err := parseHTTPURL("url", req.URL)
	if err != nil {
		return SitemapResult{}, err
	}
	if err := c.client.CheckURL(u); err != nil {
		return SitemapResult{}, fetchError("url", err)
	}
	res := SitemapResult{URL: req.URL, Warnings: []string{}}
	f, err := c.follow(ctx, u, MaxRobotsRedirects)
	switch {
	case isRefused(err):
		return SitemapResult{}, fetchError("url", err)
	case err != nil:
		res.Warnings = append(res.Warnings, "the sitemap could not be fetched: "+fetchFailure(err))
		return res, nil
	}
	defer f.resp.Body.Close()
	res.StatusCode = f.resp.StatusCode
	if res.StatusCode < 200 || res.StatusCode > 299 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the sitemap answered %d", res.StatusCode))
		return res, nil
	}
	res.Exists = true
	if f.final.Host != u.Host {
		res.Warnings = append(res.Warnings, "the sitemap redirects to another host ("+f.final.Host+"): its URLs must be on the sitemap's host")
	}
	rep := ValidateSitemapXML(f.resp.Body, SitemapOptions{Base: f.final, MaxBytes: c.cfg.MaxBodyBytes})
	res.IsValidXML, res.Type = rep.IsValidXML, rep.Kind
	res.URLCount, res.SitemapCount = rep.URLCount, rep.SitemapCount
	res.UncompressedBytes = rep.Bytes
	res.Warnings = append(res.Warnings, rep.Warnings...)
	return res, nil
}
