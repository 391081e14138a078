// Package csvrec reads CSV records (RFC 4180) as a stream: through a
// fixed buffer, one record at a time, each record bounded in bytes while
// it is read, and with every byte of a quoted field kept.
//
// It reads what encoding/csv's Reader reads with FieldsPerRecord -1 (and
// no LazyQuotes, TrimLeadingSpace or Comment), with the same errors and
// line numbers, and differs in three ways:
//
//   - A record longer than the bound is refused with [ErrTooLong] as soon
//     as its bytes pass the bound: encoding/csv reads a whole line into
//     memory first, however long.
//   - A quoted field keeps its bytes: "\r\n" inside quotes stays "\r\n",
//     where encoding/csv turns it into "\n".
//   - A leading UTF-8 byte order mark is skipped.
//
// The dialect: fields separated by commas; records end at "\n" or "\r\n"
// (or a "\r" that ends the input); blank lines are skipped; a field that
// starts with a double quote is quoted, may hold commas, quotes (doubled)
// and line ends, and must end with a quote followed by a comma or the
// end of its record; a quote anywhere in an unquoted field is an error;
// records may have any number of fields.
package csvrec

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
)

// ErrTooLong is the error of a record longer than the bound of its
// [Reader].
var ErrTooLong = errors.New("record is longer than the limit")

// ParseError is the error of a malformed or too long record: Err is
// [ErrTooLong], or encoding/csv's ErrQuote or ErrBareQuote (so that the
// messages are those of encoding/csv).
type ParseError struct {
	// Line is the line of the input on which the record starts, from 1,
	// as encoding/csv's ParseError.StartLine counts it.
	Line int
	// Err is the cause.
	Err error
}

func (e *ParseError) Error() string { return fmt.Sprintf("record on line %d: %v", e.Line, e.Err) }

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// BufferSize is the size of a Reader's buffer: what it reads from its
// source at a time.
const BufferSize = 16 << 10

// Reader reads records from a source. It holds its buffer, and the last
// record: at most the bound of bytes of field data, and 4 bytes per field
// (a field takes at least one byte of the record, its comma, so at most
// 4 times the bound plus 4): [Memory] of the bound.
type Reader struct {
	src     io.Reader
	buf     [BufferSize]byte
	r, w    int   // the unread bytes are buf[r:w]
	base    int64 // the bytes of the source before buf[0]
	nl      int   // where the next '\n' was seen in buf, when r <= nl < w
	err     error // the source's error, once it has returned one
	stuck   error // the error Read returns from now on
	max     int
	line    int // lines consumed ('\n' read)
	started bool
	rec     Record
}

// Record is a record read by a [Reader]. It is valid until the next Read.
type Record struct {
	data []byte
	ends []uint32 // the end of each field in data
	line int
	size int
}

// Len returns the number of fields.
func (r *Record) Len() int { return len(r.ends) }

// Field returns field i, 0 ≤ i < Len. Its bytes are the Reader's until the
// next Read.
func (r *Record) Field(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = r.ends[i-1]
	}
	return r.data[start:r.ends[i]:r.ends[i]]
}

// Strings returns the fields as strings, appended to dst[:0].
func (r *Record) Strings(dst []string) []string {
	dst = dst[:0]
	for i := range r.ends {
		dst = append(dst, string(r.Field(i)))
	}
	return dst
}

// Line returns the line of the input on which the record starts, from 1.
func (r *Record) Line() int { return r.line }

// Size returns the bytes the record takes in the input: from its first
// byte to its line end, included.
func (r *Record) Size() int { return r.size }

// Memory is the most memory a Reader of bound max holds: its buffer, and
// a record's field data and field ends.
func Memory(max int) int { return BufferSize + max + 4*(max+1) }

// NewReader returns a Reader of src whose records may take at most
// maxRecord bytes of the input each, line end included (at least 1).
func NewReader(src io.Reader, maxRecord int) *Reader {
	return &Reader{src: src, max: min(max(maxRecord, 1), math.MaxInt32)}
}

// Offset returns how many bytes of the source the records read so far
// span, from the start of the source (a byte order mark included) to the
// line end of the last record, as encoding/csv's Reader.InputOffset does.
func (r *Reader) Offset() int64 { return r.base + int64(r.r) }

// errNoProgress is the error of a source that keeps returning nothing.
var errNoProgress = errors.New("csvrec: the source returned no data many times")

// more reads from the source into the buffer, after what it holds (moved
// to the start when the buffer's end is reached). It reports false when
// the source has nothing more: r.err is then set.
func (r *Reader) more() bool {
	if r.err != nil {
		return false
	}
	if r.r > 0 && r.w == len(r.buf) {
		r.base += int64(r.r)
		r.w = copy(r.buf[:], r.buf[r.r:r.w])
		r.r, r.nl = 0, -1
	}
	for range 100 {
		n, err := r.src.Read(r.buf[r.w:])
		r.w += n
		if err != nil {
			r.err = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	r.err = errNoProgress
	return false
}

// peek returns the next n bytes without consuming them, fewer only at the
// end of the input.
func (r *Reader) peek(n int) []byte {
	for r.w-r.r < n && r.more() {
	}
	return r.buf[r.r:min(r.w, r.r+n)]
}

// endErr is the error at the end of the source: io.EOF, or what the
// source returned.
func (r *Reader) endErr() error {
	if r.err == nil {
		return io.EOF
	}
	return r.err
}

// Read returns the next record, or io.EOF at the end of the input. An
// error of the source is returned as it is; a malformed or too long
// record is a *ParseError. After an error, Read returns it again.
func (r *Reader) Read() (*Record, error) {
	if r.stuck != nil {
		return nil, r.stuck
	}
	rec, err := r.read()
	if err != nil {
		r.stuck = err
		return nil, err
	}
	return rec, nil
}

func (r *Reader) read() (*Record, error) {
	if !r.started {
		r.started = true
		if b := r.peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
			r.r += 3
		}
	}
	// Blank lines: "\n", "\r\n", and a "\r" that ends the input.
	for {
		b := r.peek(2)
		switch {
		case len(b) == 0:
			if r.err != nil && r.err != io.EOF {
				return nil, r.err
			}
			return nil, io.EOF
		case b[0] == '\n':
			r.r++
			r.line++
			continue
		case b[0] == '\r' && len(b) == 1:
			r.r++
			continue
		case b[0] == '\r' && b[1] == '\n':
			r.r += 2
			r.line++
			continue
		}
		break
	}
	rec := &r.rec
	rec.data, rec.ends, rec.size, rec.line = rec.data[:0], rec.ends[:0], 0, r.line+1
	for {
		b := r.peek(1)
		var end bool
		var err error
		if len(b) > 0 && b[0] == '"' {
			end, err = r.quoted(rec)
		} else {
			end, err = r.unquoted(rec)
		}
		if err != nil {
			return nil, err
		}
		if len(rec.ends) == cap(rec.ends) { // at most one end per byte of the record, and one
			grown := make([]uint32, len(rec.ends), min(max(2*cap(rec.ends), 16), r.max+1))
			copy(grown, rec.ends)
			rec.ends = grown
		}
		rec.ends = append(rec.ends, uint32(len(rec.data)))
		if end {
			return rec, nil
		}
	}
}

// take consumes n bytes of the record, or fails once the record would be
// longer than the bound.
func (r *Reader) take(rec *Record, n int) error {
	if rec.size+n > r.max {
		return &ParseError{Line: rec.line, Err: ErrTooLong}
	}
	rec.size += n
	r.r += n
	return nil
}

// keep appends b, which the record holds, to its field data, growing the
// data at most to the bound.
func (r *Reader) keep(rec *Record, b []byte) {
	if need := len(rec.data) + len(b); need > cap(rec.data) {
		grown := make([]byte, len(rec.data), min(max(2*cap(rec.data), need, 512), r.max))
		copy(grown, rec.data)
		rec.data = grown
	}
	rec.data = append(rec.data, b...)
}

// unquoted reads an unquoted field up to its comma or line end, and
// reports whether it ended the record.
func (r *Reader) unquoted(rec *Record) (end bool, err error) {
	start := len(rec.data)
	for {
		if r.r == r.w && !r.more() {
			if r.err != io.EOF {
				return false, r.err
			}
			// encoding/csv drops a "\r" that ends the input.
			if n := len(rec.data); n > start && rec.data[n-1] == '\r' {
				rec.data = rec.data[:n-1]
			}
			return true, nil
		}
		chunk := r.buf[r.r:r.w]
		i := r.indexSpecial()
		if i < 0 {
			if err := r.take(rec, len(chunk)); err != nil {
				return false, err
			}
			r.keep(rec, chunk)
			continue
		}
		if err := r.take(rec, i+1); err != nil {
			return false, err
		}
		r.keep(rec, chunk[:i])
		switch chunk[i] {
		case ',':
			return false, nil
		case '\n':
			r.line++
			if n := len(rec.data); n > start && rec.data[n-1] == '\r' {
				rec.data = rec.data[:n-1] // "\r\n" ends the line
			}
			return true, nil
		default: // '"'
			return false, &ParseError{Line: rec.line, Err: csv.ErrBareQuote}
		}
	}
}

// indexSpecial returns the index of the first comma, line feed or quote
// in the unread bytes, -1 when there is none. The next line feed is
// remembered, so that a line of many fields is scanned once for it.
func (r *Reader) indexSpecial() int {
	if r.nl < r.r || r.nl >= r.w || r.buf[r.nl] != '\n' {
		r.nl = r.w
		if i := bytes.IndexByte(r.buf[r.r:r.w], '\n'); i >= 0 {
			r.nl = r.r + i
		}
	}
	field := r.buf[r.r:r.nl]
	end := r.nl
	if i := bytes.IndexByte(field, ','); i >= 0 {
		field, end = field[:i], r.r+i
	}
	if i := bytes.IndexByte(field, '"'); i >= 0 {
		return i
	}
	if end == r.w {
		return -1
	}
	return end - r.r
}

// quoted reads a quoted field, whose opening quote is next, up to the
// comma or line end after its closing quote, and reports whether it ended
// the record. Every byte between the quotes is kept, but for the second
// quote of each pair.
func (r *Reader) quoted(rec *Record) (end bool, err error) {
	if err := r.take(rec, 1); err != nil {
		return false, err
	}
	for {
		if r.r == r.w && !r.more() {
			if r.err != io.EOF {
				return false, r.err
			}
			return false, &ParseError{Line: rec.line, Err: csv.ErrQuote}
		}
		chunk := r.buf[r.r:r.w]
		i := bytes.IndexByte(chunk, '"')
		seg := chunk
		if i >= 0 {
			seg = chunk[:i]
		}
		if err := r.take(rec, len(seg)); err != nil {
			return false, err
		}
		r.line += bytes.Count(seg, []byte{'\n'})
		r.keep(rec, seg)
		if i < 0 {
			continue
		}
		if err := r.take(rec, 1); err != nil { // the quote
			return false, err
		}
		b := r.peek(2)
		switch {
		case len(b) == 0:
			if r.err != io.EOF {
				return false, r.err
			}
			return true, nil
		case b[0] == '"':
			if err := r.take(rec, 1); err != nil {
				return false, err
			}
			r.keep(rec, b[:1])
		case b[0] == ',':
			return false, r.take(rec, 1)
		case b[0] == '\n':
			r.line++
			return true, r.take(rec, 1)
		case b[0] == '\r' && len(b) == 1 && r.err == io.EOF:
			return true, r.take(rec, 1)
		case b[0] == '\r' && len(b) == 2 && b[1] == '\n':
			r.line++
			return true, r.take(rec, 2)
		default:
			if len(b) < 2 && r.err != io.EOF && r.err != nil {
				return false, r.err
			}
			return false, &ParseError{Line: rec.line, Err: csv.ErrQuote}
		}
	}
}
