package jobs

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// discardStore keeps no rows: the heap holds only what Submit does.
type discardStore struct{ store }

func (discardStore) putInput(context.Context, string, int, []byte, time.Time) error { return nil }

// heapSampler reads r, and every 256 KiB notes the live heap, after a
// collection: the most of it is what the reader's consumer held then.
type heapSampler struct {
	r          io.Reader
	n, next    int
	peak, base uint64
}

func (h *heapSampler) Read(p []byte) (int, error) {
	if h.n >= h.next {
		h.next += 256 << 10
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		h.peak = max(h.peak, ms.HeapAlloc)
	}
	n, err := h.r.Read(p)
	h.n += n
	return n, err
}

// Submit holds at most UploadMemory of an upload at a time, measured: the
// live heap, sampled every 256 KiB of the file, grows by less than
// UploadMemory while files of the worst shapes are read: rows just under
// MaxRowBytes, rows of one-byte fields (the most fields a row may have),
// and a header of MaxColumns long names before rows as wide.
func TestUploadMemoryCoversItsParts(t *testing.T) {
	rows := func(header, row string) []byte {
		var b bytes.Buffer
		b.WriteString(header)
		for b.Len() < 4<<20 { // chunks of 1 MiB, four times over
			b.WriteString(row)
		}
		return b.Bytes()
	}
	wideHeader := strings.Repeat(strings.Repeat("h", 60)+",", MaxColumns-1) + "email\n"
	for _, c := range []struct {
		name string
		file []byte
	}{
		{"long rows", rows("email\n", strings.Repeat("a", MaxRowBytes-1)+"\n")},
		{"one-byte fields", rows("email\n", strings.Repeat("a,", MaxRowBytes/2-1)+"a\n")},
		{"a wide header", rows(wideHeader, strings.Repeat(strings.Repeat("v", 60)+",", MaxColumns-1)+"a@b.test\n")},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := New(Config{MaxOwnerRowsInFlight: -1, MaxOwnerRowsStored: -1})
			if err != nil {
				t.Fatal(err)
			}
			m.st = discardStore{m.st}
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			h := &heapSampler{r: bytes.NewReader(c.file), base: ms.HeapAlloc}
			if _, err := m.Submit(context.Background(), SubmitRequest{Owner: "k", File: h}); err != nil {
				t.Fatal(err)
			}
			held := int64(h.peak) - int64(h.base)
			if held > UploadMemory {
				t.Errorf("Submit of %d bytes held up to %d bytes, over UploadMemory %d", len(c.file), held, UploadMemory)
			}
			t.Logf("Submit of %d bytes held up to %d bytes (UploadMemory %d)", len(c.file), held, UploadMemory)
		})
	}
}
