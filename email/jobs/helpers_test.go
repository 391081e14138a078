package jobs_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// zone is a loopback DNS zone of n mail domains d0.test ... d{n-1}.test;
// every tenth has no MX (NODATA).
func zone(n int) string {
	var b strings.Builder
	b.WriteString("$ORIGIN test.\n$TTL 300\n@ IN SOA ns1 hostmaster 1 3600 600 86400 60\n")
	for i := range n {
		if i%10 == 9 {
			fmt.Fprintf(&b, "d%d IN A 192.0.2.1\n", i)
			continue
		}
		fmt.Fprintf(&b, "d%d IN MX 10 mx.d%d\n", i, i)
	}
	return b.String()
}

// listCSV is a CSV list of rows addresses over domains domains, with a
// name column before the address and a note after it; some rows are
// invalid, duplicated, role accounts or short.
func listCSV(rows, domains int) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"name", "Email", "note"})
	for i := range rows {
		addr := fmt.Sprintf("user%d@d%d.test", i, i%domains)
		switch {
		case i%97 == 5:
			addr = "not an address"
		case i%89 == 7:
			addr = fmt.Sprintf("admin@d%d.test", i%domains)
		case i%83 == 3 && i > 0:
			addr = fmt.Sprintf("user%d@d%d.test", i-1, (i-1)%domains) // a duplicate
		}
		rec := []string{fmt.Sprintf("n,%d", i), addr, "x"}
		if i%71 == 1 {
			rec = rec[:2] // short row: padded in the results
		}
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

// dns starts the loopback DNS server of zone(domains), served as cfg
// says otherwise.
func dns(t testing.TB, domains int, cfg resolvertest.Config) *resolvertest.Server {
	t.Helper()
	cfg.Zone = zone(domains)
	return resolvertest.Start(t, cfg)
}

// verifier returns a Verifier asking addr; cacheSize as resolver.Config's.
func verifier(t testing.TB, addr string, cacheSize, concurrency int) *email.Verifier {
	t.Helper()
	r, err := resolver.New(resolver.Config{Servers: []string{addr}, CacheSize: cacheSize, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	v, err := email.New(email.Config{Resolver: r, Concurrency: concurrency})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// expected is what verify-list writes for file: the oracle of a job's
// results.
func expected(t testing.TB, v *email.Verifier, file []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if _, err := v.VerifyCSV(context.Background(), bytes.NewReader(file), &out, email.StreamOptions{}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// sameRows compares two CSV texts row by row and reports the first rows
// that differ.
func sameRows(t testing.TB, got, want []byte) {
	t.Helper()
	gr, wr := csv.NewReader(bytes.NewReader(got)), csv.NewReader(bytes.NewReader(want))
	gr.FieldsPerRecord, wr.FieldsPerRecord = -1, -1
	for row := 0; ; row++ {
		g, gerr := gr.Read()
		w, werr := wr.Read()
		if gerr == io.EOF && werr == io.EOF {
			return
		}
		if gerr != nil || werr != nil {
			t.Fatalf("row %d: read errors %v / %v (got %q, want %q)", row, gerr, werr, g, w)
		}
		if strings.Join(g, "\x00") != strings.Join(w, "\x00") {
			t.Fatalf("row %d:\n got %q\nwant %q", row, g, w)
		}
	}
}

// wait polls the job until cond holds or the deadline passes.
func wait(t testing.TB, m *jobs.Manager, owner, id string, d time.Duration, cond func(jobs.Job) bool) jobs.Job {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		j, err := m.Get(context.Background(), owner, id)
		if err != nil {
			t.Fatal(err)
		}
		if cond(j) {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s: condition not met after %v: %+v", id, d, j)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func isDone(j jobs.Job) bool { return j.Status == jobs.StatusDone }

// results reads the results of a job.
func results(t testing.TB, m *jobs.Manager, owner, id string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := m.Results(context.Background(), owner, id, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
