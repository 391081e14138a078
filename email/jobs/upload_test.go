package jobs

import (
	"testing"

	"github.com/quiverkit/quiver/internal/csvrec"
)

// UploadMemory is at least the sum of what Submit holds of an upload: the
// chunk being filled and the row that ends it, encoded; the reader and
// the row it reads; the header's strings (a string header per column).
func TestUploadMemoryCoversItsParts(t *testing.T) {
	parts := MaxChunkBytes + 2*MaxRowBytes + csvrec.Memory(MaxRowBytes) + MaxRowBytes + 16*MaxColumns
	if parts > UploadMemory {
		t.Errorf("the parts of an upload held take %d bytes, over UploadMemory %d", parts, UploadMemory)
	}
}
