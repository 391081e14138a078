package email

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"go.uber.org/goleak"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// noLeaks checks, after the test's other cleanups (the DNS server's),
// that it left no goroutine behind.
func noLeaks(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

func TestValidateStreamKeepsOrder(t *testing.T) {
	noLeaks(t)
	srv, r := fixture(t, resolvertest.Config{Delay: 2 * time.Millisecond})
	v := &Verifier{cfg: Config{Resolver: r, Concurrency: 8}}
	inputs := []string{"a@mx.test", "bad", "b@nullmx.test", "c@implicit.test", "info@mx.test", "d@missing.test"}
	var addrs []string
	for i := range 300 {
		addrs = append(addrs, inputs[i%len(inputs)])
	}
	var got []BulkItem
	for it, err := range v.ValidateStream(t.Context(), slices.Values(addrs), StreamOptions{Window: 16}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, it)
	}
	if len(got) != len(addrs) {
		t.Fatalf("got %d items, want %d", len(got), len(addrs))
	}
	for i, it := range got {
		want := v.Validate(t.Context(), addrs[i], Checks{}).Result
		if it.Input != addrs[i] || it.IsValid != want.IsValid || (it.MX == nil) != (want.MX == nil) || (it.MX != nil && it.MX.Status != want.MX.Status) {
			t.Fatalf("item %d = %+v, want input %q and %+v", i, it, addrs[i], want)
		}
	}
	// One shared cache: each distinct name was asked once.
	if n := srv.QueriesFor("mx.test.", dns.TypeMX); n != 1 {
		t.Errorf("MX queries for mx.test = %d, want 1", n)
	}
}

func TestValidateStreamBreak(t *testing.T) {
	noLeaks(t)
	_, r := fixture(t, resolvertest.Config{Delay: 5 * time.Millisecond})
	v := &Verifier{cfg: Config{Resolver: r}}
	n := 0
	for _, err := range v.ValidateStream(t.Context(), func(yield func(string) bool) {
		for i := 0; ; i++ { // endless
			if !yield(fmt.Sprintf("u%d@d%d.mx.test", i, i)) {
				return
			}
		}
	}, StreamOptions{Window: 64}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 100 {
			break
		}
	}
}

func TestValidateStreamBoundsWindow(t *testing.T) {
	noLeaks(t)
	_, r := fixture(t, resolvertest.Config{Delay: time.Millisecond})
	v := &Verifier{cfg: Config{Resolver: r, Concurrency: 4}}
	const window = 8
	pulled, received := 0, 0
	addrs := func(yield func(string) bool) {
		for i := range 200 {
			pulled++
			if !yield(fmt.Sprintf("u%d@d%d.mx.test", i, i%20)) {
				return
			}
		}
	}
	for it, err := range v.ValidateStream(t.Context(), addrs, StreamOptions{Window: window}) {
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("u%d@d%d.mx.test", received, received%20); it.Input != want {
			t.Fatalf("item %d = %q, want %q", received, it.Input, want)
		}
		received++
		// The rows read but not yet handed back, this one included.
		if ahead := pulled - received + 1; ahead > window {
			t.Fatalf("after %d items, %d addresses were read: %d in flight, window %d", received, pulled, ahead, window)
		}
	}
	if received != 200 {
		t.Errorf("got %d items, want 200", received)
	}
}

// When the context ends, the sequence hands back the items checked before,
// in order, then the context's error, and nothing after it.
func TestValidateStreamCancel(t *testing.T) {
	noLeaks(t)
	_, r := fixture(t, resolvertest.Config{Delay: 5 * time.Millisecond})
	v := &Verifier{cfg: Config{Resolver: r, Concurrency: 4}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	endless := func(yield func(string) bool) {
		for i := 0; ; i++ {
			if !yield(fmt.Sprintf("u%d@d%d.mx.test", i, i)) {
				return
			}
		}
	}
	n, errs := 0, 0
	for it, err := range v.ValidateStream(ctx, endless, StreamOptions{Window: 16}) {
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			errs++
			continue
		}
		if errs > 0 {
			t.Fatalf("item %q after the error", it.Input)
		}
		if want := fmt.Sprintf("u%d@d%d.mx.test", n, n); it.Input != want || it.MX == nil || it.MX.Status == MXTimeout {
			t.Fatalf("item %d = %+v, want %s checked", n, it, want)
		}
		if n++; n == 10 {
			cancel()
		}
	}
	if n < 10 || errs != 1 {
		t.Errorf("%d items, %d errors; want at least 10 items, then one error", n, errs)
	}
}

// csvOf returns a CSV file of n rows over a few domains.
func csvOf(n int) string {
	var b strings.Builder
	b.WriteString("\xef\xbb\xbfname,Email\r\n")
	domains := []string{"mx.test", "nullmx.test", "implicit.test", "missing.test"}
	for i := range n {
		fmt.Fprintf(&b, "\"user, %d\",u%d@%s\r\n", i, i, domains[i%len(domains)])
	}
	return b.String()
}

func TestVerifyCSV(t *testing.T) {
	noLeaks(t)
	_, r := fixture(t, resolvertest.Config{})
	v := &Verifier{cfg: Config{Resolver: r}}
	in := csvOf(5000) + "\nshort\n"
	var out bytes.Buffer
	calls := 0
	stats, err := v.VerifyCSV(t.Context(), strings.NewReader(in), &out, StreamOptions{Window: 100, Progress: func(StreamStats) { calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	want := StreamStats{Rows: 5001, Valid: 2500, Invalid: 2501, Offset: int64(len(in))}
	if stats != want {
		t.Errorf("stats = %+v, want %+v", stats, want)
	}
	if calls != 5001 {
		t.Errorf("progress called %d times, want 5001", calls)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if h := strings.Join(recs[0], ","); h != "name,Email,"+strings.Join(CSVResultHeader(), ",") {
		t.Errorf("header = %s", h)
	}
	wantStatus := []string{"mx", "null_mx", "implicit", "nxdomain"}
	for i, rec := range recs[1:5001] {
		if rec[0] != fmt.Sprintf("user, %d", i) || rec[2] != fmt.Sprint(i%4 != 1 && i%4 != 3) || rec[9] != wantStatus[i%4] {
			t.Fatalf("row %d = %q", i+1, rec)
		}
	}
	if last := recs[5001]; last[0] != "short" || last[1] != "" || last[2] != "false" || last[3] != string(ReasonEmpty) {
		t.Errorf("short row = %q", last)
	}
}

func TestVerifyCSVErrors(t *testing.T) {
	v := &Verifier{}
	for _, tc := range []struct {
		name, in, column, field, message string
	}{
		{"empty", "", "", "file", "is empty"},
		{"bad quote", "email\na@b.test\n\"x\"y\n", "", "file", "row 2 (line 3)"},
		{"unknown column", "email\na@b.test\n", "mail", "column", `no column is headed "mail"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			stats, err := v.VerifyCSV(t.Context(), strings.NewReader(tc.in), &out, StreamOptions{Column: tc.column})
			var ve *envelope.ValidationError
			if !errors.As(err, &ve) || !strings.Contains(err.Error(), tc.message) || ve.Issues[0].Field != tc.field {
				t.Fatalf("err = %v, want a validation error on %s containing %q", err, tc.field, tc.message)
			}
			if tc.name == "bad quote" && (stats.Rows != 1 || !strings.Contains(out.String(), "a@b.test,true")) {
				t.Errorf("the row before the error was not written: %d rows, %q", stats.Rows, out.String())
			}
		})
	}
}

// TestVerifyCSVCancel: when the context ends, the rows checked before are
// written, in order, and nothing after a gap.
func TestVerifyCSVCancel(t *testing.T) {
	noLeaks(t)
	// Every row has its own domain, and each query takes 20ms.
	_, r := fixture(t, resolvertest.Config{Delay: 20 * time.Millisecond})
	v := &Verifier{cfg: Config{Resolver: r, Concurrency: 4}}
	var in strings.Builder
	in.WriteString("email\n")
	for i := range 10000 {
		fmt.Fprintf(&in, "u@d%d.mx.test\n", i)
	}
	ctx, cancel := context.WithCancel(t.Context())
	var out bytes.Buffer
	stats, err := v.VerifyCSV(ctx, strings.NewReader(in.String()), &out, StreamOptions{Progress: func(s StreamStats) {
		if s.Rows == 10 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	recs, perr := csv.NewReader(&out).ReadAll()
	if perr != nil {
		t.Fatal(perr)
	}
	if stats.Rows < 10 || len(recs) != stats.Rows+1 {
		t.Fatalf("stats.Rows = %d, %d records written", stats.Rows, len(recs))
	}
	for i, rec := range recs[1:] {
		if rec[0] != fmt.Sprintf("u@d%d.mx.test", i) || rec[len(rec)-2] == "" {
			t.Fatalf("row %d = %q", i+1, rec)
		}
	}
}

func BenchmarkVerifyCSV(b *testing.B) {
	_, r := fixture(b, resolvertest.Config{})
	v := &Verifier{cfg: Config{Resolver: r}}
	in := csvOf(10000)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := v.VerifyCSV(b.Context(), strings.NewReader(in), discard{}, StreamOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "rows/s")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// A domain whose DNS servers do not answer costs one timeout per list,
// not one per row: the stream remembers the outcome.
func TestVerifyCSVDeadDomainCostsOneTimeout(t *testing.T) {
	noLeaks(t)
	const timeout = 100 * time.Millisecond
	srv := resolvertest.Start(t, resolvertest.Config{Zone: fixtureZone, Drop: []string{"dead.test"}})
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}, Timeout: timeout, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := &Verifier{cfg: Config{Resolver: r, Concurrency: 4}}
	var in strings.Builder
	in.WriteString("email\n")
	for i := range 400 {
		fmt.Fprintf(&in, "u%d@dead.test\nv%d@mx.test\n", i, i)
	}
	start := time.Now()
	var out bytes.Buffer
	stats, err := v.VerifyCSV(t.Context(), strings.NewReader(in.String()), &out, StreamOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 20*timeout {
		t.Errorf("800 rows took %v: the dead domain cost more than one timeout", took)
	}
	if stats.Rows != 800 || stats.Valid != 800 || strings.Count(out.String(), ",timeout,") != 400 {
		t.Errorf("stats %+v, %d timeouts", stats, strings.Count(out.String(), ",timeout,"))
	}
	if n := srv.QueriesFor("dead.test", dns.TypeMX); n != 1 {
		t.Errorf("%d MX queries for dead.test, want 1", n)
	}
}

// Skip resumes a run: the rows after the first Skip, with no header,
// make the same file as one whole run.
func TestVerifyCSVSkip(t *testing.T) {
	v := &Verifier{}
	in := csvOf(100)
	var whole, first, rest bytes.Buffer
	if _, err := v.VerifyCSV(t.Context(), strings.NewReader(in), &whole, StreamOptions{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	stats, _ := v.VerifyCSV(ctx, strings.NewReader(in), &first, StreamOptions{Window: 1, Progress: func(s StreamStats) {
		if s.Rows == 37 {
			cancel()
		}
	}})
	more, err := v.VerifyCSV(t.Context(), strings.NewReader(in), &rest, StreamOptions{Skip: stats.Rows})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Rows != 37 || more.Rows != 63 || more.Offset != int64(len(in)) {
		t.Errorf("first run %d rows, resumed run %+v", stats.Rows, more)
	}
	if got := first.String() + rest.String(); got != whole.String() {
		t.Errorf("resumed output differs from a whole run:\n%s\nwant:\n%s", got, whole.String())
	}
}

// FuzzVerifyCSV: whatever the file, VerifyCSV fails with a validation
// error or writes a CSV of one row per data row, each ending with the
// result columns, and never reports more input read than there is.
func FuzzVerifyCSV(f *testing.F) {
	f.Add("email\na@b.co\n")
	f.Add("\xef\xbb\xbfName,EMAIL\r\n\"x, y\",a@b.co\r\n\nshort\n")
	f.Add("email\n\"a\n")
	f.Add("a,b,c\n1\n1,2,3,4,5\n")
	v := &Verifier{}
	f.Fuzz(func(t *testing.T, file string) {
		var out bytes.Buffer
		stats, err := v.VerifyCSV(t.Context(), strings.NewReader(file), &out, StreamOptions{Window: 4})
		if err != nil {
			var ve *envelope.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %v is not a validation error", err)
			}
			return
		}
		if stats.Offset > int64(len(file)) || stats.Rows != stats.Valid+stats.Invalid {
			t.Fatalf("stats %+v for %d bytes", stats, len(file))
		}
		r := csv.NewReader(&out)
		r.FieldsPerRecord = -1
		recs, err := r.ReadAll()
		if err != nil {
			t.Fatalf("output is not CSV: %v\n%q", err, out.String())
		}
		if len(recs) != stats.Rows+1 {
			t.Fatalf("%d records for %d rows", len(recs), stats.Rows)
		}
		width := len(recs[0])
		if width <= len(CSVResultHeader()) || !slices.Equal(recs[0][width-len(CSVResultHeader()):], CSVResultHeader()) {
			t.Fatalf("header %q", recs[0])
		}
		for i, rec := range recs[1:] {
			if len(rec) < width {
				t.Fatalf("row %d has %d fields, the header %d", i+1, len(rec), width)
			}
		}
	})
}

// A stream's counts are a bulk summary's, counted by the same tally: the
// same list gives the same numbers in both.
func TestStreamStatsCountAsBulkSummary(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	v := &Verifier{cfg: Config{Resolver: r}}
	addrs := []string{"a@mx.test", "bad", "info@mx.test", "x@mailinator.com", "admin@mailinator.com", "b@nullmx.test", " "}
	bulk := v.bulk(t.Context(), addrs, Checks{})
	var csvIn strings.Builder
	csvIn.WriteString("email\n")
	for _, a := range addrs {
		csvIn.WriteString(a + "\n")
	}
	stats, err := v.VerifyCSV(t.Context(), strings.NewReader(csvIn.String()), &bytes.Buffer{}, StreamOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := bulk.Summary
	got := StreamStats{Rows: stats.Rows, Valid: stats.Valid, Invalid: stats.Invalid, Disposable: stats.Disposable, RoleAccounts: stats.RoleAccounts}
	want := StreamStats{Rows: s.Total, Valid: s.Valid, Invalid: s.Invalid, Disposable: s.Disposable, RoleAccounts: s.RoleAccounts}
	if got != want || s.Disposable == 0 || s.RoleAccounts == 0 || s.Invalid == 0 {
		t.Errorf("stream counts %+v, bulk summary %+v: want equal, each kind present", got, s)
	}
}

// A quoted field keeps its bytes, "\r\n" included: VerifyCSV writes it
// back as it read it, and ValidateCSV returns it as the input (encoding/csv
// read it as "\n").
func TestCSVKeepsQuotedCR(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	v := &Verifier{cfg: Config{Resolver: r}}
	in := "email,note\r\n\"a@mx.test\",\"line1\r\nline2\"\r\n\"b@mx.test\r\n\",x\r\n"
	var out bytes.Buffer
	stats, err := v.VerifyCSV(t.Context(), strings.NewReader(in), &out, StreamOptions{Checks: Checks{SkipMX: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "a@mx.test,\"line1\r\nline2\",true,") || !strings.Contains(out.String(), "\"b@mx.test\r\n\",x,true,") {
		t.Errorf("VerifyCSV wrote:\n%q", out.String())
	}
	if stats.Rows != 2 || stats.Offset != int64(len(in)) {
		t.Errorf("stats = %+v, want 2 rows spanning %d bytes", stats, len(in))
	}
	res, err := v.ValidateCSV(t.Context(), strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 2 || res.Results[1].Input != "b@mx.test\r\n" {
		t.Errorf("ValidateCSV results = %+v, want the second input with its CR LF", res.Results)
	}
}
