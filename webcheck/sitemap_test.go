package webcheck

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"
)

const smNS = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`

func urlset(entries ...string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><urlset ` + smNS + `>` + strings.Join(entries, "") + `</urlset>`
}

func TestValidateSitemapXML(t *testing.T) {
	base, _ := url.Parse("https://example.test/sitemap.xml")
	tests := []struct {
		name      string
		doc       string
		valid     bool
		urls      int
		sitemaps  int
		warnings  []string
		noWarning bool
	}{
		{"clean urlset", urlset(
			`<url><loc>https://example.test/</loc><lastmod>2024-05-01</lastmod><changefreq>daily</changefreq><priority>0.8</priority></url>`,
			`<url><loc>https://example.test/a</loc><lastmod>2024-05-01T10:20:30+02:00</lastmod></url>`,
		), true, 2, 0, nil, true},
		{"sitemap index", `<sitemapindex ` + smNS + `><sitemap><loc>https://example.test/s1.xml</loc><lastmod>2024-01-01T00:00Z</lastmod></sitemap><sitemap><loc>https://example.test/s2.xml.gz</loc></sitemap></sitemapindex>`,
			true, 0, 2, nil, true},
		{"relative and cross-host loc", urlset(`<url><loc>/relative</loc></url>`, `<url><loc>https://other.test/x</loc></url>`),
			true, 2, 0, []string{"is relative", "on another host"}, false},
		{"long loc", urlset(`<url><loc>https://example.test/` + strings.Repeat("a", 2100) + `</loc></url>`),
			true, 1, 0, []string{"over the limit of 2048"}, false},
		{"bad lastmod", urlset(`<url><loc>https://example.test/</loc><lastmod>05/01/2024</lastmod></url>`),
			true, 1, 0, []string{"not a W3C datetime"}, false},
		{"bad changefreq and priority", urlset(`<url><loc>https://example.test/</loc><changefreq>often</changefreq><priority>1.5</priority></url>`),
			true, 1, 0, []string{"changefreq \"often\"", "priority \"1.5\""}, false},
		{"duplicates", urlset(`<url><loc>https://example.test/a</loc></url>`, `<url><loc>https://example.test/a</loc></url>`),
			true, 2, 0, []string{"duplicate URL", "1 duplicate URLs"}, false},
		{"wrong namespace", `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://example.test/</loc></url></urlset>`,
			true, 1, 0, []string{"the namespace is"}, false},
		{"prefixed namespace", `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><sm:url><sm:loc>https://example.test/</sm:loc><image:image><image:loc>https://example.test/i.png</image:loc></image:image></sm:url></sm:urlset>`,
			true, 1, 0, nil, true},
		{"mismatched tags", urlset(`<url><loc>https://example.test/</lastmod></url>`), false, 0, 0, []string{"closed by"}, false},
		{"missing loc", urlset(`<url><lastmod>2024</lastmod></url>`), true, 1, 0, []string{"missing <loc>"}, false},
		{"wrong root", `<rss><channel/></rss>`, false, 0, 0, []string{"root element is <rss>"}, false},
		{"not XML", `this is not xml <`, false, 0, 0, []string{"XML syntax error"}, false},
		{"truncated", urlset(`<url><loc>https://example.test/</loc></url>`)[:80], false, 0, 0, []string{"XML syntax error"}, false},
		{"empty", ``, false, 0, 0, []string{"empty"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := ValidateSitemapXML(strings.NewReader(tt.doc), SitemapOptions{Base: base})
			if rep.IsValidXML != tt.valid || rep.URLCount != tt.urls || rep.SitemapCount != tt.sitemaps {
				t.Errorf("valid=%v urls=%d sitemaps=%d; want %v %d %d (warnings %q)", rep.IsValidXML, rep.URLCount, rep.SitemapCount, tt.valid, tt.urls, tt.sitemaps, rep.Warnings)
			}
			if tt.noWarning && len(rep.Warnings) > 0 {
				t.Errorf("warnings = %q; want none", rep.Warnings)
			}
			for _, w := range tt.warnings {
				assertWarning(t, rep.Warnings, w)
			}
		})
	}
}

func TestSitemapLimits(t *testing.T) {
	t.Run("more than 50,000 URLs", func(t *testing.T) {
		rep := ValidateSitemapXML(bigSitemap(MaxSitemapURLs+10), SitemapOptions{})
		if rep.URLCount != MaxSitemapURLs+1 || rep.IsValidXML {
			t.Errorf("urls=%d valid=%v; want the parse stopped at entry 50,001", rep.URLCount, rep.IsValidXML)
		}
		assertWarning(t, rep.Warnings, "more than 50000 entries")
	})
	t.Run("gzip bomb", func(t *testing.T) {
		// 64 MiB of one letter inside a urlset compresses to about 64 KiB; the
		// validator must stop at its bound without inflating it all.
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		io.WriteString(zw, `<urlset `+smNS+`><url><loc>https://example.test/`)
		chunk := make([]byte, 1<<20)
		for i := range chunk {
			chunk[i] = 'a'
		}
		for range 64 {
			zw.Write(chunk)
		}
		io.WriteString(zw, `</loc></url></urlset>`)
		zw.Close()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rep := ValidateSitemapXML(&buf, SitemapOptions{MaxBytes: 4 << 20})
		runtime.ReadMemStats(&after)
		if rep.IsValidXML || rep.Bytes > 4<<20+1 {
			t.Errorf("valid=%v bytes=%d; want stopped at the bound", rep.IsValidXML, rep.Bytes)
		}
		assertWarning(t, rep.Warnings, "stopped")
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 48<<20 {
			t.Errorf("allocated %d MiB for a 4 MiB bound", grew>>20)
		}
	})
	t.Run("deep nesting", func(t *testing.T) {
		doc := `<urlset ` + smNS + `>` + strings.Repeat("<a>", 100000) + strings.Repeat("</a>", 100000) + `</urlset>`
		rep := ValidateSitemapXML(strings.NewReader(doc), SitemapOptions{})
		if rep.IsValidXML {
			t.Error("a document nested 100,000 deep was accepted")
		}
		assertWarning(t, rep.Warnings, "nested deeper than 32")
	})
	t.Run("warnings are capped", func(t *testing.T) {
		var entries []string
		for range 500 {
			entries = append(entries, `<url><loc>/rel</loc></url>`)
		}
		rep := ValidateSitemapXML(strings.NewReader(urlset(entries...)), SitemapOptions{})
		if len(rep.Warnings) > maxSitemapWarnings+3 {
			t.Errorf("%d warnings", len(rep.Warnings))
		}
		assertWarning(t, rep.Warnings, "more warnings not shown")
	})
}

// bigSitemap streams a urlset of n URLs.
func bigSitemap(n int) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		bw := &bytes.Buffer{}
		bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset ` + smNS + ">\n")
		for i := range n {
			fmt.Fprintf(bw, "<url><loc>https://example.test/page/%d</loc><lastmod>2024-05-01</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>\n", i)
			if bw.Len() > 32<<10 {
				pw.Write(bw.Bytes())
				bw.Reset()
			}
		}
		bw.WriteString("</urlset>")
		pw.Write(bw.Bytes())
		pw.Close()
	}()
	return pr
}

func TestValidateSitemapFetch(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, urlset(`<url><loc>http://HOST/a</loc></url>`))
	zw.Close()
	mux := http.NewServeMux()
	var host string
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.ReplaceAll(urlset(`<url><loc>http://HOST/a</loc></url>`, `<url><loc>http://HOST/b</loc></url>`), "HOST", host))
	})
	mux.HandleFunc("/sitemap.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(gz.Bytes())
	})
	mux.HandleFunc("/moved.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/sitemap.xml", http.StatusMovedPermanently)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	host = strings.TrimPrefix(srv.URL, "http://")
	c := newTestChecker(t, "")
	ctx := context.Background()

	res, err := c.ValidateSitemap(ctx, SitemapRequest{URL: srv.URL + "/moved.xml"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Exists || res.StatusCode != 200 || !res.IsValidXML || res.URLCount != 2 || res.Type != "urlset" || len(res.Warnings) != 0 {
		t.Errorf("plain: %+v", res)
	}
	res, err = c.ValidateSitemap(ctx, SitemapRequest{URL: srv.URL + "/sitemap.xml.gz"})
	if err != nil || !res.IsValidXML || res.URLCount != 1 {
		t.Errorf("gzip: %+v %v", res, err)
	}
	assertWarning(t, res.Warnings, "on another host") // "HOST" was not replaced in the gzip body
	res, err = c.ValidateSitemap(ctx, SitemapRequest{URL: srv.URL + "/missing.xml"})
	if err != nil || res.Exists || res.StatusCode != 404 {
		t.Errorf("missing: %+v %v", res, err)
	}
	_, err = c.ValidateSitemap(ctx, SitemapRequest{URL: "ftp://example.test/sitemap.xml"})
	assertInvalid(t, err, "http or https")
	_, err = c.ValidateSitemap(ctx, SitemapRequest{URL: "http://169.254.169.254/sitemap.xml"})
	assertInvalid(t, err, "destination not allowed")
}

func FuzzValidateSitemapXML(f *testing.F) {
	f.Add([]byte(urlset(`<url><loc>https://example.test/</loc><lastmod>2024</lastmod><priority>x</priority></url>`)))
	f.Add([]byte(`<sitemapindex ` + smNS + `><sitemap><loc>s</loc></sitemap></sitemapindex>`))
	f.Add([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00"))
	f.Add([]byte(`<urlset><url><loc><![CDATA[https://e.test/]]></loc></url><!-- c --></urlset>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep := ValidateSitemapXML(bytes.NewReader(data), SitemapOptions{MaxBytes: 1 << 20})
		if rep.URLCount < 0 || rep.Bytes > 1<<20+1 || len(rep.Warnings) > maxSitemapWarnings+6 {
			t.Fatalf("report out of bounds: %+v", rep)
		}
		if rep.IsValidXML && rep.Kind == "" {
			t.Fatal("valid without a sitemap root")
		}
	})
}

// BenchmarkValidateSitemap50k validates a 50,000-URL sitemap (about 6.5
// MB) streamed from a pipe, reporting time and memory.
func BenchmarkValidateSitemap50k(b *testing.B) {
	var doc bytes.Buffer
	io.Copy(&doc, bigSitemap(MaxSitemapURLs))
	data := doc.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	stop := samplePeakHeap(b)
	for b.Loop() {
		rep := ValidateSitemapXML(bytes.NewReader(data), SitemapOptions{})
		if rep.URLCount != MaxSitemapURLs || len(rep.Warnings) != 0 {
			b.Fatalf("urls=%d warnings=%q", rep.URLCount, rep.Warnings)
		}
	}
	stop()
}

// samplePeakHeap samples the heap in use every millisecond until the
// returned func is called, which reports the peak above the heap in use
// at the start (the benchmark's input) as peak-heap-MiB.
func samplePeakHeap(b *testing.B) (stop func()) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	done, finished := make(chan struct{}), make(chan uint64)
	go func() {
		var peak uint64
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-done:
				finished <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(done)
		peak := <-finished
		b.ReportMetric(float64(peak-min(peak, base))/(1<<20), "peak-heap-MiB")
	}
}

// BenchmarkSitemapUnmarshalBaseline is the peer: encoding/xml.Unmarshal
// of the same document into structs, which holds every entry in memory
// and checks nothing.
func BenchmarkSitemapUnmarshalBaseline(b *testing.B) {
	var doc bytes.Buffer
	io.Copy(&doc, bigSitemap(MaxSitemapURLs))
	data := doc.Bytes()
	type entry struct {
		Loc        string `xml:"loc"`
		LastMod    string `xml:"lastmod"`
		ChangeFreq string `xml:"changefreq"`
		Priority   string `xml:"priority"`
	}
	var set struct {
		URLs []entry `xml:"url"`
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	stop := samplePeakHeap(b)
	for b.Loop() {
		set.URLs = nil
		if err := xml.Unmarshal(data, &set); err != nil || len(set.URLs) != MaxSitemapURLs {
			b.Fatal(err, len(set.URLs))
		}
	}
	stop()
}

// TestSitemapLongToken: encoding/xml holds a whole token in memory, so
// one long text node must stop the parse at a small bound instead of
// taking memory in proportion to the document (which a 30 KiB gzip body
// can inflate to the 50 MiB bound). Nothing past the token is inflated.
func TestSitemapLongToken(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	io.WriteString(zw, `<urlset `+smNS+`><url><loc>https://example.test/`)
	zw.Write(bytes.Repeat([]byte("a"), 32<<20))
	io.WriteString(zw, `</loc></url></urlset>`)
	zw.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rep := ValidateSitemapXML(&buf, SitemapOptions{})
	runtime.ReadMemStats(&after)
	if rep.IsValidXML {
		t.Error("a 32 MiB text node was accepted")
	}
	assertWarning(t, rep.Warnings, "longer than")
	if rep.Bytes > maxTokenBytes+64<<10 {
		t.Errorf("bytes = %d; want the reading stopped at the long token", rep.Bytes)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("allocated %d MiB for a 32 MiB text node", grew>>20)
	}
}
