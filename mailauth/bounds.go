package mailauth

import "github.com/quiverkit/quiver/internal/textcut"

// Bounds of what a result shows of the text it parses. A record or a
// policy is read whole, and every check applies to all of it; only the
// text the result carries is bounded, so that a result's size does not
// follow what a hostile domain publishes (DNS carries TXT records of
// 64 KiB, and a policy may be as large).
const (
	// MaxRecordBytes bounds the Record a result shows: its first 2,048
	// bytes, cut at a character boundary, with RecordTruncated set. The
	// largest records in use, DKIM keys of 8,192 bits and long SPF
	// records, fit.
	MaxRecordBytes = 2048
	// MaxValueBytes bounds every other text a result takes from a record
	// or a policy (an SPF term's value, a DMARC tag's name and value, a
	// report URI, an id, a key type, a version, a logo URL): 256 bytes,
	// a longer one cut and ending in "…".
	MaxValueBytes = 256
	// MaxMessageBytes bounds the message of a problem (and so each of a
	// result's Errors and Warnings): 512 bytes, a longer one cut and
	// ending in "…". Messages quote what they are about in excerpts of
	// about 100 characters, so this cuts only the odd long one.
	MaxMessageBytes = 512
)

// shownRecord is the record as a result shows it, and whether it was
// cut.
func shownRecord(record string) (string, bool) {
	return textcut.Cut(record, MaxRecordBytes), len(record) > MaxRecordBytes
}

// shownValue is a value of a record as a result shows it.
func shownValue(v string) string { return textcut.Mark(v, MaxValueBytes, "…") }

// shownMessage is the message of a problem as a result shows it.
func shownMessage(msg string) string { return textcut.Mark(msg, MaxMessageBytes, "…") }
