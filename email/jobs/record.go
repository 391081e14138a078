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

// readRecords decodes the records that appendRecord wrote. The fields
// share one string, and the records one slice of fields: a chunk of 500
// rows is three allocations, not one per field.
func readRecords(b []byte) ([][]string, error) {
	var nrecs, nfields int
	for rest := b; len(rest) > 0; nrecs++ { // count, and check, first
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) { // every field takes at least its length byte
			return nil, errBadRecords
		}
		rest = rest[k:]
		for range n {
			l, k := binary.Uvarint(rest)
			if k <= 0 || l > uint64(len(rest)-k) {
				return nil, errBadRecords
			}
			rest = rest[k+int(l):]
		}
		nfields += int(n)
	}
	all := string(b)
	fields := make([]string, nfields)
	recs := make([][]string, 0, nrecs)
	for len(all) > 0 {
		n, k := uvarint(all)
		all = all[k:]
		rec := fields[:n:n]
		fields = fields[n:]
		for i := range rec {
			l, k := uvarint(all)
			rec[i] = all[k : k+int(l)]
			all = all[k+int(l):]
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// uvarint is binary.Uvarint of a string that holds a valid one.
func uvarint(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 {
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}
