package csvrec_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/quiverkit/quiver/internal/csvrec"
)

// outcome is what a reader made of an input: its records up to the first
// error, and that error's kind and start line.
type outcome struct {
	recs [][]string
	offs []int64 // the input offset after each record
	err  error   // nil, csv.ErrQuote, csv.ErrBareQuote, csvrec.ErrTooLong
	line int
}

func (o outcome) String() string {
	return fmt.Sprintf("%q, error %v on line %d", o.recs, o.err, o.line)
}

func equal(a, b outcome) bool {
	if a.err != b.err || a.line != b.line || len(a.recs) != len(b.recs) || len(a.offs) != len(b.offs) {
		return false
	}
	for i := range a.recs {
		if (a.offs != nil && a.offs[i] != b.offs[i]) || strings.Join(a.recs[i], "\x00|") != strings.Join(b.recs[i], "\x00|") || len(a.recs[i]) != len(b.recs[i]) {
			return false
		}
	}
	return true
}

// std reads in with encoding/csv as Submit configured it: FieldsPerRecord
// -1, the BOM skipped beforehand.
func std(in []byte) outcome {
	body := bytes.TrimPrefix(in, []byte("\xef\xbb\xbf"))
	bom := int64(len(in) - len(body))
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1
	var o outcome
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return o
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				panic(err)
			}
			o.err, o.line = pe.Err, pe.StartLine
			return o
		}
		o.recs = append(o.recs, rec)
		o.offs = append(o.offs, bom+r.InputOffset())
	}
}

// ours reads in with a csvrec.Reader of bound max.
func ours(t testing.TB, src io.Reader, max int) outcome {
	r := csvrec.NewReader(src, max)
	var o outcome
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return o
		}
		if err != nil {
			var pe *csvrec.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("not a ParseError: %v", err)
			}
			o.err, o.line = pe.Err, pe.Line
			if _, again := r.Read(); again != err {
				t.Fatalf("Read after an error = %v, want the same error %v", again, err)
			}
			return o
		}
		if rec.Size() > max {
			t.Fatalf("record of %d bytes under a bound of %d", rec.Size(), max)
		}
		o.recs = append(o.recs, rec.Strings(nil))
		o.offs = append(o.offs, r.Offset())
	}
}

// folded is o with every "\r\n" inside a field turned into "\n", as
// encoding/csv reads a quoted field (an unquoted one never holds "\n").
func folded(o outcome) outcome {
	out := outcome{offs: o.offs, err: o.err, line: o.line}
	for _, rec := range o.recs {
		f := make([]string, len(rec))
		for i, s := range rec {
			f[i] = strings.ReplaceAll(s, "\r\n", "\n")
		}
		out.recs = append(out.recs, f)
	}
	return out
}

// The cases where the two readers agree, and the ones where csvrec keeps
// the bytes of a quoted field.
func TestAgainstEncodingCSV(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want [][]string // when it differs from encoding/csv's
	}{
		{in: "email\na@b.test\n"},
		{in: "\xef\xbb\xbfname,Email\r\nAna,ana@example.test\r\n\r\nBo,\"info@x.test\"\r\n"},
		{in: "a,b,c\n1\n1,2,3,4,5\n\"multi\nline\",x@y.test,\"q\"\"q\"\n"},
		{in: "email\n\"unterminated\n"},
		{in: "x\n\"a\rb\",c\n\n\n"},
		{in: "a,\"\"\n,\n\"\"\n"},
		{in: "a\r\r\nb\rc\r"},
		{in: "\r\n\n\r\na\n\r"},
		{in: "a,b\"c\n"},
		{in: "a,\"b\"c\n"},
		{in: "\"a\"\r\r\n"},
		{in: "\"a\"\r"},
		{in: " \"a\"\n"},
		{in: "\"\"\"\"\n\"a\"\"\"\n"},
		{in: ""},
		{in: "\xef\xbb\xbf"},
		{in: "\xef\xbb"},
		{in: "a\n\n\"b\nc\nd\"\"\ne"}, // an error on line 3: the record's start
		{in: "\"line1\r\nline2\"\n", want: [][]string{{"line1\r\nline2"}}},
		{in: "\"a\r\r\nb\",\"\r\n\"\r\n", want: [][]string{{"a\r\r\nb", "\r\n"}}},
		{in: "h\n\"\r\n\",x\r\n", want: [][]string{{"h"}, {"\r\n", "x"}}},
	} {
		got := ours(t, strings.NewReader(tc.in), 1<<20)
		want := std([]byte(tc.in))
		if tc.want != nil {
			if !equal(folded(got), want) {
				t.Errorf("%q: folded %v, encoding/csv %v", tc.in, folded(got), want)
			}
			want = outcome{recs: tc.want, offs: got.offs}
		}
		if !equal(got, want) {
			t.Errorf("%q:\n got %v\nwant %v", tc.in, got, want)
		}
		// One byte at a time from the source: the buffer's edges do not
		// change anything.
		if slow := ours(t, iotest.OneByteReader(strings.NewReader(tc.in)), 1<<20); !equal(slow, got) {
			t.Errorf("%q one byte at a time: %v, want %v", tc.in, slow, got)
		}
	}
}

// A file many buffers long, read whole or a few bytes at a time: the
// records and their offsets are encoding/csv's across the buffer's moves.
func TestOffsetAcrossBuffers(t *testing.T) {
	file := append([]byte("\xef\xbb\xbf\n\n"), rowsFile(3000)...)
	want := std(file)
	if len(want.offs) != 3001 || want.offs[3000] != int64(len(file)) {
		t.Fatalf("encoding/csv read %d records, last offset %d of %d", len(want.offs), want.offs[len(want.offs)-1], len(file))
	}
	for name, src := range map[string]io.Reader{"whole": bytes.NewReader(file), "half": iotest.HalfReader(bytes.NewReader(file))} {
		if got := ours(t, src, 1<<10); !equal(got, want) {
			t.Errorf("%s: records or offsets differ from encoding/csv's", name)
		}
	}
}

// Random inputs over the bytes that matter, with no CR inside quotes and
// with: without, both readers agree; with, they agree once the quoted
// "\r\n" are folded.
func TestAgainstEncodingCSVRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab,\"\n\r \xef")
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		in := make([]byte, rng.IntN(40))
		for i := range in {
			in[i] = alphabet[rng.IntN(len(alphabet))]
		}
		got := ours(t, bytes.NewReader(in), 1<<20)
		want := std(in)
		if !bytes.Contains(in, []byte("\r\n")) && !equal(got, want) {
			t.Fatalf("%q:\n got %v\nwant %v", in, got, want)
		}
		if !equal(folded(got), want) {
			t.Fatalf("%q folded:\n got %v\nwant %v", in, folded(got), want)
		}
	}
}

// A record over the bound is refused as soon as its bytes pass it: the
// source has been read at most one buffer past it, and no more than the
// bound is held.
func TestBound(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   io.Reader
		max  int
		recs int
		line int
	}{
		{"one huge field", io.MultiReader(strings.NewReader("email\n"), io.LimitReader(ones{}, 64<<20)), 64 << 10, 1, 2},
		{"one huge quoted field", io.MultiReader(strings.NewReader("email\nx\n\""), io.LimitReader(ones{}, 64<<20)), 1000, 2, 3},
		{"many fields", strings.NewReader("a\n" + strings.Repeat(",", 5000)), 100, 1, 2},
		{"exactly the bound, line end included", strings.NewReader("abcd\nabcde\n"), 5, 1, 2},
	} {
		cr := &counting{r: tc.in}
		r := csvrec.NewReader(cr, tc.max)
		var recs int
		var err error
		for {
			var rec *csvrec.Record
			if rec, err = r.Read(); err != nil {
				break
			}
			recs++
			if rec.Size() > tc.max {
				t.Errorf("%s: a record of %d bytes", tc.name, rec.Size())
			}
		}
		var pe *csvrec.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, csvrec.ErrTooLong) || pe.Line != tc.line || recs != tc.recs {
			t.Errorf("%s: %d records then %v, want %d then ErrTooLong on line %d", tc.name, recs, err, tc.recs, tc.line)
		}
		if cr.n > int64(tc.max)+csvrec.BufferSize+64 {
			t.Errorf("%s: read %d bytes of the source before refusing a record over %d", tc.name, cr.n, tc.max)
		}
	}
}

// The memory a reader keeps does not grow with the input: a 64 MiB field
// over a 64 KiB bound allocates a few buffers, not the field.
func TestBoundedAllocation(t *testing.T) {
	allocs := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			r := csvrec.NewReader(io.MultiReader(strings.NewReader("email\n"), io.LimitReader(ones{}, 64<<20)), 64<<10)
			for {
				if _, err := r.Read(); err != nil {
					break
				}
			}
		}
	})
	if per := allocs.AllocedBytesPerOp(); per > 256<<10 {
		t.Errorf("reading a 64 MiB field under a 64 KiB bound allocates %d bytes, want under 256 KiB", per)
	}
}

type ones struct{}

func (ones) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '1'
	}
	return len(p), nil
}

type counting struct {
	r io.Reader
	n int64
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A source's error comes back as it is, and stays.
func TestSourceError(t *testing.T) {
	boom := errors.New("boom")
	r := csvrec.NewReader(io.MultiReader(strings.NewReader("a,b\n\"c"), iotest.ErrReader(boom)), 100)
	if rec, err := r.Read(); err != nil || rec.Len() != 2 {
		t.Fatalf("first record: %v %v", rec, err)
	}
	for range 2 {
		if _, err := r.Read(); err != boom {
			t.Fatalf("Read = %v, want the source's error", err)
		}
	}
}

// FuzzRecordReader: never a panic; no record over the bound, nor data
// held past it; the same records as encoding/csv (the quoted "\r\n"
// folded), up to a record over the bound, refused on its line.
func FuzzRecordReader(f *testing.F) {
	for _, s := range []string{
		"email\na@b.test\n", "\"line1\r\nline2\"\n", "a,\"b\"\"c\",d\r\n\r\n", "\xef\xbb\xbf\"\",\n", "a\"b\n", "\"a\"x", "\r", "x\r\r\n",
	} {
		f.Add([]byte(s), uint8(8))
	}
	f.Fuzz(func(t *testing.T, in []byte, bound uint8) {
		max := int(bound) + 1
		free := ours(t, bytes.NewReader(in), 1<<30)
		if want := std(in); !equal(folded(free), want) {
			t.Fatalf("%q folded:\n got %v\nwant %v", in, folded(free), want)
		}
		// Bounded: the same records, then ErrTooLong on the first one over
		// the bound (or the same end).
		r := csvrec.NewReader(iotest.HalfReader(bytes.NewReader(in)), max)
		for i := 0; ; i++ {
			rec, err := r.Read()
			if err != nil {
				var pe *csvrec.ParseError
				switch {
				case err == io.EOF:
					if i != len(free.recs) || free.err != nil {
						t.Fatalf("%q bound %d: EOF after %d records, want %v", in, max, i, free)
					}
				case errors.As(err, &pe) && pe.Err == csvrec.ErrTooLong:
					if i > len(free.recs) || (i == len(free.recs) && free.err == nil) {
						t.Fatalf("%q bound %d: ErrTooLong after %d records, want %v", in, max, i, free)
					}
				case errors.As(err, &pe):
					if i != len(free.recs) || pe.Err != free.err || pe.Line != free.line {
						t.Fatalf("%q bound %d: %v after %d records, want %v", in, max, err, i, free)
					}
				default:
					t.Fatalf("%q: %v", in, err)
				}
				return
			}
			if rec.Size() > max || len(rec.Strings(nil)) != rec.Len() {
				t.Fatalf("%q: record of %d bytes over the bound %d", in, rec.Size(), max)
			}
			var held int
			for j := range rec.Len() {
				held += len(rec.Field(j))
			}
			if held > max {
				t.Fatalf("%q: %d bytes of fields held under a bound of %d", in, held, max)
			}
			if i >= len(free.recs) || strings.Join(rec.Strings(nil), "\x00") != strings.Join(free.recs[i], "\x00") {
				t.Fatalf("%q bound %d: record %d = %q, want %v", in, max, i, rec.Strings(nil), free)
			}
		}
	})
}

// rowsFile is a CSV of n rows like a contact list, some fields quoted.
func rowsFile(n int) []byte {
	var b bytes.Buffer
	b.WriteString("name,email,note\r\n")
	for i := range n {
		fmt.Fprintf(&b, "\"Doe, Jane %d\",user%d@d%d.test,plain note %d\r\n", i, i, i%1000, i)
	}
	return b.Bytes()
}

func BenchmarkRead(b *testing.B) {
	file := rowsFile(100_000)
	b.Run("encoding-csv", func(b *testing.B) {
		b.SetBytes(int64(len(file)))
		b.ReportAllocs()
		for range b.N {
			r := csv.NewReader(bytes.NewReader(file))
			r.FieldsPerRecord = -1
			r.ReuseRecord = true
			for {
				if _, err := r.Read(); err != nil {
					break
				}
			}
		}
	})
	b.Run("csvrec", func(b *testing.B) {
		b.SetBytes(int64(len(file)))
		b.ReportAllocs()
		for range b.N {
			r := csvrec.NewReader(bytes.NewReader(file), 64<<10)
			for {
				if _, err := r.Read(); err != nil {
					break
				}
			}
		}
	})
}
