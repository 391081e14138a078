package httpapi

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// deadlineRecorder records each write, and whether a write deadline was
// pushed since the one before.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	pushed bool
	writes []int // bytes of each write; negative when no deadline came before it
}

func (d *deadlineRecorder) SetWriteDeadline(time.Time) error { d.pushed = true; return nil }

func (d *deadlineRecorder) Write(p []byte) (int, error) {
	n := len(p)
	if !d.pushed {
		n = -n
	}
	d.pushed = false
	d.writes = append(d.writes, n)
	return d.ResponseRecorder.Write(p)
}

// A streamed CSV answer is written in slices of at most 64 KiB, each
// under a fresh SlowWriteTimeout: a client that reads steadily is not cut
// by a large write.
func TestCSVWriterSlicesLargeWrites(t *testing.T) {
	rec := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	cw := &csvWriter{w: rec, timeout: time.Second}
	big := make([]byte, 1<<20+5)
	if n, err := cw.Write(big); n != len(big) || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if rec.Code != http.StatusOK || rec.Body.Len() != len(big) {
		t.Fatalf("status %d, %d bytes, want 200 and %d", rec.Code, rec.Body.Len(), len(big))
	}
	for i, n := range rec.writes {
		if n < 0 || n > 64<<10 {
			t.Fatalf("write %d of %d: %d bytes (negative: no deadline pushed before it), want at most 64 KiB each under its own deadline", i, len(rec.writes), n)
		}
	}
}
