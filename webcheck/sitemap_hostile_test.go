package webcheck

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// hostileSitemap returns a gzip-compressed sitemap that inflates to
// inflated bytes: a urlset whose body is unit repeated (the end tag is
// never reached).
func hostileSitemap(unit string, inflated int) []byte {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	head := `<?xml version="1.0" encoding="UTF-8"?><urlset ` + smNS + ">\n"
	zw.Write([]byte(head))
	chunk := []byte(strings.Repeat(unit, (64<<10)/len(unit)+1))
	for n := len(head); n < inflated; n += len(chunk) {
		zw.Write(chunk)
	}
	zw.Close()
	return gz.Bytes()
}

// hostileSitemaps are the hostile sitemaps of issue 13, each inflating to
// 80 MiB: entries that never end, comments that the parser must read
// through, and one whitespace run longer than the token bound. Each is
// made on first use.
var hostileSitemaps = map[string]func() []byte{
	"entries":  sync.OnceValue(func() []byte { return hostileSitemap("<url><loc>https://example.test/a</loc></url>\n", 80<<20) }),
	"comments": sync.OnceValue(func() []byte { return hostileSitemap("<!--"+strings.Repeat("x", 4089)+"-->\n", 80<<20) }),
	"blank":    sync.OnceValue(func() []byte { return hostileSitemap(strings.Repeat(" ", 4096), 80<<20) }),
}

// TestValidateSitemapProtocolLimits: the protocol's limits (50,000
// entries, 50 MiB uncompressed) end the work as soon as they are crossed,
// whatever MaxBytes allows; a hostile gzip is not inflated further.
func TestValidateSitemapProtocolLimits(t *testing.T) {
	for _, tt := range []struct {
		name     string
		doc      func() []byte
		maxBytes int64 // the bound inflation stops at
		urls     int
		warning  string
	}{
		{"entries", sync.OnceValue(func() []byte { return hostileSitemap("<url><loc>https://example.test/a</loc></url>\n", 4<<20) }), 4 << 20, MaxSitemapURLs + 1, "more than 50000 entries"},
		{"comments", hostileSitemaps["comments"], MaxSitemapSize + 1, 0, "larger than the 50 MiB"},
		{"blank", sync.OnceValue(func() []byte { return hostileSitemap(strings.Repeat(" ", 4096), 8<<20) }), maxTokenBytes + 64<<10, 0, "parsing stopped"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "comments" && (testing.Short() || raceEnabled) {
				// Parsing 50 MiB takes under a second, but a minute with
				// the race detector.
				t.Skip("parses 50 MiB")
			}
			rep := ValidateSitemapXML(bytes.NewReader(tt.doc()), SitemapOptions{MaxBytes: 100 << 20})
			if rep.Bytes > tt.maxBytes || rep.URLCount != tt.urls || rep.IsValidXML {
				t.Errorf("read %d bytes (want at most %d), %d URLs (want %d), valid %v", rep.Bytes, tt.maxBytes, rep.URLCount, tt.urls, rep.IsValidXML)
			}
			assertWarning(t, rep.Warnings, tt.warning)
		})
	}
}

// BenchmarkValidateSitemapHostile validates each hostile 80 MiB gzip and
// reports the CPU time used per validation (user and system, all
// threads) as cpu-ns/op.
func BenchmarkValidateSitemapHostile(b *testing.B) {
	for _, name := range []string{"entries", "comments", "blank"} {
		b.Run(name, func(b *testing.B) {
			data := hostileSitemaps[name]()
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				ValidateSitemapXML(bytes.NewReader(data), SitemapOptions{MaxBytes: 100 << 20})
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(fmt.Sprint("getrusage: ", err))
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
