package email

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/csvrec"
	"github.com/quiverkit/quiver/internal/textcut"
)

// DefaultWindow is the default of [StreamOptions.Window].
const DefaultWindow = 4096

// StreamOptions configure [Verifier.ValidateStream] and
// [Verifier.VerifyCSV].
type StreamOptions struct {
	// Checks selects the checks; the zero value runs them all (the SMTP
	// probe is never run on a list).
	Checks Checks
	// Window bounds the rows in flight: read but not yet handed back,
	// because they, or an earlier row, are still being checked. Memory is
	// proportional to it, whatever the length of the list. Default
	// DefaultWindow. [Config.Concurrency] bounds the rows checked at
	// once.
	Window int
	// Column is the header of the CSV column holding the addresses,
	// compared case-insensitively; default the column headed "email",
	// else the first. VerifyCSV only.
	Column string
	// Progress, when set, is called by VerifyCSV after each row written,
	// on the calling goroutine, with the counts so far. Keep it cheap.
	Progress func(StreamStats)
	// Skip, for VerifyCSV, passes over the first Skip data rows without
	// checking them, and writes no header: with the output of an
	// interrupted run opened for appending, the run resumes where it
	// stopped. The counts are those of the rows written now.
	Skip int
}

func (o StreamOptions) window() int {
	if o.Window > 0 {
		return o.Window
	}
	return DefaultWindow
}

// StreamStats count the rows a stream has handed back.
type StreamStats struct {
	// Rows is the number of rows written.
	Rows int `json:"rows"`
	// Valid and Invalid split them by is_valid.
	Valid   int `json:"valid"`
	Invalid int `json:"invalid"`
	// Disposable and RoleAccounts count the disposable and role addresses.
	Disposable   int `json:"disposable"`
	RoleAccounts int `json:"role_accounts"`
	// Offset is how many bytes of the input the rows written span: with
	// the size of the input it gives the fraction done.
	Offset int64 `json:"offset"`
}

func (s *StreamStats) count(r *Result) {
	tally{&s.Rows, &s.Valid, &s.Invalid, &s.Disposable, &s.RoleAccounts}.add(r)
}

// ValidateStream validates the addresses of a sequence of any length and
// yields one item per address, in input order, as soon as it and every
// earlier one are checked. The checks are those of
// [Verifier.ValidateBulk] except the duplicate count, which would need
// memory proportional to the list. Every lookup goes through the
// Verifier's one resolver (Config.Resolver) (its cache and in-flight de-duplication are
// shared with everything else using it), and the outcome of each distinct
// domain is remembered for the stream, failures included, as in a bulk
// request: a domain whose DNS servers do not answer costs one timeout per
// list, not one per row (up to 65,536 domains; past them, the resolver's
// cache alone).
//
// At most opts.Window addresses are in flight and at most
// [Config.Concurrency] are checked at once. When ctx ends, the
// sequence stops after the last address checked before it ended and
// yields ctx's error: what was yielded is complete and in order. Breaking
// out of the loop stops the work and waits for it. A panic in addrs is
// propagated.
func (v *Verifier) ValidateStream(ctx context.Context, addrs iter.Seq[string], opts StreamOptions) iter.Seq2[BulkItem, error] {
	return func(yield func(BulkItem, error) bool) {
		next, stop := iter.Pull(addrs)
		defer stop()
		read := func() (struct{}, string, int64, bool, error) {
			a, ok := next()
			return struct{}{}, a, 0, ok, nil
		}
		stopped := false
		err := stream(ctx, v, opts, read, func(_ struct{}, it BulkItem, _ int64) bool {
			stopped = !yield(it, nil)
			return !stopped
		})
		if err != nil && !stopped {
			yield(BulkItem{}, err)
		}
	}
}

// VerifyCSV validates the addresses of a CSV file of any size and writes
// the file back to w, each row followed by the result columns of
// [CSVResultHeader]: the rows keep their order and their fields. The
// first row is the header. A UTF-8 BOM, CRLF line ends and quoted fields
// are accepted (a quoted field keeps its bytes, line ends included, and
// is written back as it was read); blank lines are skipped; a row without the address column
// is checked as an empty address. Rows shorter than the header are padded
// with empty fields, so that the result columns line up under their
// names (rows longer than the header keep their extra fields).
//
// Unlike [Verifier.ValidateCSV] (an upload of at most 1,000 rows held in
// memory) it streams: memory depends on opts.Window and the size of a
// row, not on the file. A row is held whole, however long: bound r (with
// http.MaxBytesReader, io.LimitReader) when it comes from someone else.
// It returns the counts of the rows written. When ctx ends it writes every
// row checked before, flushes, and returns ctx's error with them; a CSV
// syntax error likewise ends the file after the rows before it, as a
// validation error on field "file" naming the line.
func (v *Verifier) VerifyCSV(ctx context.Context, r io.Reader, w io.Writer, opts StreamOptions) (StreamStats, error) {
	var stats StreamStats
	cr := csvrec.NewReader(r, math.MaxInt32) // a row is held whole, as the doc says
	rec, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return stats, envelope.Invalid("file", "is empty: a header row is required")
	}
	if err != nil {
		return stats, csvError(err, "header row")
	}
	header := rec.Strings(nil)
	col, err := addressColumn(header, opts.Column)
	if err != nil {
		return stats, err
	}
	cw := csv.NewWriter(w)
	if opts.Skip <= 0 {
		if err := cw.Write(append(header, csvResultHeader...)); err != nil {
			return stats, fmt.Errorf("email: writing the CSV: %w", err)
		}
	}
	row := 1
	for ; row <= opts.Skip; row++ {
		if _, err := cr.Read(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return stats, csvError(err, fmt.Sprintf("row %d", row))
		}
	}
	stats.Offset = cr.Offset()

	var rowErr error
	read := func() ([]string, string, int64, bool, error) {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil, "", 0, false, nil
		}
		if err != nil {
			return nil, "", 0, false, csvError(err, fmt.Sprintf("row %d", row))
		}
		row++
		fields := rec.Strings(nil)
		addr := ""
		if col < len(fields) {
			addr = fields[col]
		}
		return fields, addr, cr.Offset(), true, nil
	}
	fields := make([]string, 0, 2*len(header)+len(csvResultHeader))
	err = stream(ctx, v, opts, read, func(rec []string, it BulkItem, offset int64) bool {
		fields = append(fields[:0], rec...)
		for len(fields) < len(header) { // short rows are padded: the results line up
			fields = append(fields, "")
		}
		fields = AppendCSVResult(fields, &it.Result)
		if rowErr = cw.Write(fields); rowErr != nil {
			return false
		}
		stats.count(&it.Result)
		stats.Offset = offset
		if stats.Rows%1024 == 0 {
			cw.Flush()
		}
		if opts.Progress != nil {
			opts.Progress(stats)
		}
		return true
	})
	cw.Flush()
	if rowErr == nil {
		rowErr = cw.Error()
	}
	if rowErr != nil {
		return stats, fmt.Errorf("email: writing the CSV: %w", rowErr)
	}
	return stats, err
}

// CSVResultHeader returns the names of the columns [Verifier.VerifyCSV]
// appends to each row: booleans as true/false, absent values empty;
// reachability_reasons joins its codes with ";" (empty for safe). The last
// two, reachability and reachability_reasons, are extensions.
func CSVResultHeader() []string { return slices.Clone(csvResultHeader) }

var csvResultHeader = []string{
	"is_valid", "reason", "normalized_email", "is_disposable", "is_role_account",
	"is_free_provider", "has_mx_records", "mx_status", "did_you_mean",
	"reachability", "reachability_reasons",
}

// MaxCSVResultBytes bounds the bytes the result columns of one row take
// beyond the two that repeat the address (normalized_email and
// did_you_mean): the longest value of each other column, the separators
// and a line end. A program that holds result rows in memory (package
// email/jobs) counts them with it.
const MaxCSVResultBytes = 160

// AppendCSVResult appends to dst the values of the [CSVResultHeader]
// columns for r, as [Verifier.VerifyCSV] writes them, and returns the
// extended slice: a program that checks rows its own way (package
// email/jobs) writes the same columns.
func AppendCSVResult(dst []string, r *Result) []string {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	reason, mx := "", ""
	if r.Reason != nil {
		reason = string(*r.Reason)
	}
	if r.MX != nil {
		mx = string(r.MX.Status)
	}
	return append(dst,
		strconv.FormatBool(r.IsValid), reason, str(r.Email), strconv.FormatBool(r.IsDisposable),
		strconv.FormatBool(r.IsRoleAccount), strconv.FormatBool(r.IsFreeProvider),
		strconv.FormatBool(r.HasMXRecords), mx, str(r.DidYouMean),
		string(r.Reachability), joinReasons(r.ReachabilityReasons))
}

// joinReasons joins reasons with ";", without allocating for one.
func joinReasons(reasons []ReachabilityReason) string {
	switch len(reasons) {
	case 0:
		return ""
	case 1:
		return string(reasons[0])
	}
	n := len(reasons) - 1
	for _, r := range reasons {
		n += len(r)
	}
	var b strings.Builder
	b.Grow(n)
	for i, r := range reasons {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(string(r))
	}
	return b.String()
}

// addressColumn finds the address column: the one named (any case), else
// "email", else the first.
func addressColumn(header []string, name string) (int, error) {
	want := "email"
	if name != "" {
		want = name
	}
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(h), want) {
			return i, nil
		}
	}
	if name != "" {
		return 0, envelope.Invalidf("column", "no column is headed %s", textcut.Quote(name))
	}
	return 0, nil
}

// streamRow is one row in flight.
type streamRow[T any] struct {
	payload T
	addr    string
	offset  int64
	item    BulkItem
	cut     bool // the context ended before the row was checked
	done    chan struct{}
}

// stream is the engine of the streaming validations: read returns the
// next row (ok false at the end), emit takes the rows back in order
// (false stops). Rows are checked by Concurrency workers, at most window
// rows are in flight. It returns read's error after emitting the rows
// before it, or ctx's error after emitting every row checked before ctx
// ended.
func stream[T any](ctx context.Context, v *Verifier, opts StreamOptions,
	read func() (payload T, addr string, offset int64, ok bool, err error),
	emit func(payload T, it BulkItem, offset int64) bool) error {
	window := opts.window()
	c := opts.Checks
	c.SMTP = false

	wctx, cancel := context.WithCancel(ctx)
	work := make(chan *streamRow[T], window)
	memo := &mxMemo{v: v, entries: make(map[string]*mxEntry)}
	var wg sync.WaitGroup
	for range min(window, v.concurrency()) {
		wg.Go(func() {
			var reasons reasonArena
			for r := range work {
				if wctx.Err() == nil {
					r.item = BulkItem{Input: r.addr, Result: memo.checkRow(wctx, r.addr, c, &reasons)}
				}
				r.cut = wctx.Err() != nil
				close(r.done)
			}
		})
	}
	defer func() {
		cancel()
		close(work)
		wg.Wait()
	}()

	queue := make([]*streamRow[T], 0, window)
	var readErr error
	eof := false
	for {
		for !eof && len(queue) < window {
			if ctx.Err() != nil {
				eof = true
				break
			}
			payload, addr, offset, ok, err := read()
			if err != nil || !ok {
				readErr, eof = err, true
				break
			}
			r := &streamRow[T]{payload: payload, addr: addr, offset: offset, done: make(chan struct{})}
			queue = append(queue, r)
			work <- r
		}
		if len(queue) == 0 {
			break
		}
		r := queue[0]
		queue[0] = nil
		queue = queue[1:]
		<-r.done
		if r.cut || !emit(r.payload, r.item, r.offset) {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return readErr
}

// maxMemo bounds the domains a stream remembers the MX outcome of.
const maxMemo = 1 << 16

// mxMemo remembers the MX outcome of each domain for the length of one
// stream, as a bulk request does: the resolver caches answers, but not
// its failures (a timeout, a SERVFAIL), and without the memo a domain
// whose servers do not answer would cost a timeout per row, not per
// list. Past maxMemo domains, lookups go to the resolver alone.
type mxMemo struct {
	v       *Verifier
	mu      sync.Mutex
	entries map[string]*mxEntry
}

type mxEntry struct {
	once     sync.Once
	mx       MX
	provider Provider
}

// checkRow runs the checks of a bulk validation on one address; the
// verdict's reasons are cut from reasons.
func (m *mxMemo) checkRow(ctx context.Context, addr string, c Checks, reasons *reasonArena) Result {
	a, r := m.v.check(addr, c)
	if r.Reason == nil && !c.SkipMX {
		mx, provider := m.lookup(ctx, a)
		r.applyMX(&mx, provider)
	}
	r.setReachability(nil, reasons)
	return r
}

// lookup returns the MX outcome of a's domain and its provider.
func (m *mxMemo) lookup(ctx context.Context, a Address) (MX, Provider) {
	if a.Literal {
		mx := m.v.lookupMX(ctx, a)
		return mx, mx.provider()
	}
	m.mu.Lock()
	e, ok := m.entries[a.ASCIIDomain]
	if !ok && len(m.entries) < maxMemo {
		e = &mxEntry{}
		m.entries[a.ASCIIDomain] = e
	}
	m.mu.Unlock()
	if e == nil {
		mx := m.v.domainMX(ctx, a.ASCIIDomain)
		return mx, mx.provider()
	}
	e.once.Do(func() {
		e.mx = m.v.domainMX(ctx, a.ASCIIDomain)
		e.provider = e.mx.provider()
	})
	mx := e.mx
	mx.Hosts = slices.Clone(mx.Hosts) // each row owns its result
	return mx, e.provider
}
