package jobs

import (
	"encoding/binary"
	"errors"

	"github.com/quiverkit/quiver/internal/csvrec"
)

// The rows of a chunk are stored in a length-prefixed encoding, not as
// CSV: encoding/csv does not read back every field it writes (a field
// holding "\r\n" comes back as "\n", a lone empty field as nothing), and
// a job's results must be verify-list's output of the file as it was
// read. A record is the number of its fields, then each field's length
// and bytes, all lengths as uvarints.

// appendRecord appends the encoding of rec to dst.
func appendRecord(dst []byte, rec *csvrec.Record) []byte {
	dst = binary.AppendUvarint(dst, uint64(rec.Len()))
	for i := range rec.Len() {
		f := rec.Field(i)
		dst = binary.AppendUvarint(dst, uint64(len(f)))
		dst = append(dst, f...)
	}
	return dst
}

// appendStrings appends the encoding of fields to dst.
func appendStrings(dst []byte, fields []string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(fields)))
	for _, f := range fields {
		dst = binary.AppendUvarint(dst, uint64(len(f)))
		dst = append(dst, f...)
	}
	return dst
}

// encodedSize is the length of the encoding of rec.
func encodedSize(rec *csvrec.Record) int {
	n := uvarintLen(rec.Len())
	for i := range rec.Len() {
		l := len(rec.Field(i))
		n += uvarintLen(l) + l
	}
	return n
}

func uvarintLen(n int) int {
	var b [binary.MaxVarintLen64]byte
	return len(binary.AppendUvarint(b[:0], uint64(n)))
}

var errBadRecords = errors.New("jobs: malformed stored rows")

// readRecords decodes the records that appendRecord wrote.
func readRecords(b []byte) ([][]string, error) {
	var recs [][]string
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) { // every field takes at least its length byte
			return nil, errBadRecords
		}
		b = b[k:]
		rec := make([]string, n)
		for i := range rec {
			l, k := binary.Uvarint(b)
			if k <= 0 || l > uint64(len(b)-k) {
				return nil, errBadRecords
			}
			rec[i] = string(b[k : k+int(l)])
			b = b[k+int(l):]
		}
		recs = append(recs, rec)
	}
	return recs, nil
}
