package jobs_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// BenchmarkJob runs jobs of 20,000 rows over 1,000 domains on the
// in-process queue, as quiver serve does by default (one worker, 16 rows
// at once, the resolver's cache on): the CPU and allocations of the job
// engine per row, which the synchronous routes share the machine with.
func BenchmarkJob(b *testing.B) {
	srv := dns(b, 1000, resolvertest.Config{})
	v := verifier(b, srv.Addr, 0, 16)
	var file bytes.Buffer
	file.WriteString("email\n")
	for i := range 20_000 {
		fmt.Fprintf(&file, "user%d@d%d.test\n", i, i%1000)
	}
	m := manager(b, jobs.Config{Verifier: v, MaxOwnerRowsStored: -1, MaxOwnerRowsInFlight: -1, MaxOwnerJobsStored: -1})
	run(b, m)
	ctx := context.Background()
	warm := submit(b, m, "k", file.Bytes()) // the cache filled
	wait(b, m, "k", warm.ID, time.Minute, isDone)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "k", File: bytes.NewReader(file.Bytes())})
		if err != nil {
			b.Fatal(err)
		}
		for {
			g, _ := m.Get(ctx, "k", j.ID)
			if g.Status == jobs.StatusDone {
				break
			}
			time.Sleep(time.Millisecond)
		}
		m.Delete(ctx, "k", j.ID)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*20_000), "ns/row")
}
