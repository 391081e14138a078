package content

import (
	"os"
	"strings"
	"testing"
)

func benchText(b *testing.B) string {
	var sb strings.Builder
	for _, name := range []string{"beekeeping", "solar_pump", "library"} {
		t, err := os.ReadFile("testdata/" + name + ".txt")
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(t)
		sb.WriteString("\n\n")
	}
	return sb.String()
}

// BenchmarkExtractiveSummary summarizes the three test texts together
// (1,353 words).
func BenchmarkExtractiveSummary(b *testing.B) {
	req := SummarizeRequest{Text: benchText(b)}
	if err := req.normalize(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(req.Text)))
	for b.Loop() {
		extractiveSummary(req)
	}
}

// BenchmarkExtractiveMetaTags extracts meta tags from the same text.
func BenchmarkExtractiveMetaTags(b *testing.B) {
	req := MetaTagsRequest{PageContent: benchText(b)}
	if err := req.normalize(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(req.PageContent)))
	for b.Loop() {
		extractiveMetaTags(req)
	}
}
