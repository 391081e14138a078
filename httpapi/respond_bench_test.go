package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/quiverkit/quiver/secret"
)

// BenchmarkRespondLarge encodes and writes an answer of about 670 KB: 5,000
// records of several fields, the shape of a bulk or domain-health answer.
func BenchmarkRespondLarge(b *testing.B) {
	type rec struct {
		Email  string   `json:"email"`
		Valid  bool     `json:"is_valid"`
		Score  float64  `json:"score"`
		Hosts  []string `json:"hosts"`
		Reason *string  `json:"reason"`
	}
	data := make([]rec, 5000)
	for i := range data {
		data[i] = rec{Email: "user" + strconv.Itoa(i) + "@example.com", Valid: i%2 == 0, Score: float64(i) / 7, Hosts: []string{"mx1.example.com", "mx2.example.com"}}
	}
	s := newServer(Config{Keys: []secret.String{testKey}})
	req := httptest.NewRequest("GET", "/", nil)
	b.ReportAllocs()
	w := &discardWriter{h: http.Header{}}
	for b.Loop() {
		w.n = 0
		s.respond(w, req, data, nil, nil)
		if w.n < 600<<10 {
			b.Fatal(w.n)
		}
	}
}

// discardWriter is a ResponseWriter that counts what it is sent, as a
// connection would take it: without keeping it.
type discardWriter struct {
	h http.Header
	n int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(int)     {}
func (w *discardWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return len(p), nil
}
