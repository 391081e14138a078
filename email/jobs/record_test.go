package jobs

import (
	"slices"
	"testing"
)

// FuzzRecords: any bytes decode to records or an error, never a panic;
// what decodes encodes back to the same records.
func FuzzRecords(f *testing.F) {
	f.Add(appendStrings(appendStrings(nil, []string{"a", "", "\r\n"}), []string{""}))
	f.Add([]byte{0x02, 0x01, 'a'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Add([]byte{0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := readRecords(b)
		if err != nil {
			return
		}
		var enc []byte
		for _, r := range recs {
			enc = appendStrings(enc, r)
		}
		again, err := readRecords(enc)
		if err != nil || !slices.EqualFunc(recs, again, slices.Equal) {
			t.Fatalf("%q: %q, then %q %v", b, recs, again, err)
		}
	})
}

func TestReadRecordsRefusesDamage(t *testing.T) {
	good := appendStrings(nil, []string{"name", "a@b.test"})
	for _, b := range [][]byte{good[:len(good)-1], {0x05}, {0x01, 0x09, 'x'}, {0x80}} {
		if _, err := readRecords(b); err != errBadRecords {
			t.Errorf("%q: %v, want errBadRecords", b, err)
		}
	}
	if recs, err := readRecords(good); err != nil || len(recs) != 1 || recs[0][1] != "a@b.test" {
		t.Errorf("%q: %q %v", good, recs, err)
	}
}
