package jobs

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The workers keep the process under Config.CPUs cores on average: with
// four Ps and rows that only take CPU (no DNS), a job keeps the process
// busy about one core of its four, where unpaced it keeps all four busy.
// The process's busy time is the runtime's own count (a P with work to do
// is busy, whether the machine runs its thread or not), so the measure
// holds on a loaded machine.
func TestWorkersKeepToTheirCPUs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	m, err := New(Config{CPUs: 1, ChunkRows: 500})
	if err != nil {
		t.Fatal(err)
	}
	var file strings.Builder
	file.WriteString("email\n")
	for i := range 60_000 {
		fmt.Fprintf(&file, "someone.%d@gmial.test\n", i) // a suggestion to compute: CPU
	}
	ctx := context.Background()
	no := false
	j, err := m.Submit(ctx, SubmitRequest{Owner: "k", File: strings.NewReader(file.String()), CheckMX: &no})
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	p := newPacer(1)
	start := time.Now()
	go func() { m.Run(rctx); close(done) }()
	defer func() { cancel(); <-done }()
	for {
		g, err := m.Get(ctx, "k", j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status == StatusDone {
			break
		}
		if time.Since(start) > 2*time.Minute {
			t.Fatalf("job not done: %+v", g)
		}
		time.Sleep(20 * time.Millisecond)
	}
	wall := time.Since(start).Seconds()
	busy := p.read() - p.busy
	if cores := busy / wall; cores > 2 {
		t.Errorf("the process was busy %.2f cores on average while the job ran (%.1f CPU-s in %.1f s), want about 1 (Config.CPUs)", cores, busy, wall)
	} else {
		t.Logf("busy %.2f cores on average (%.1f CPU-s in %.1f s)", cores, busy, wall)
	}
}
