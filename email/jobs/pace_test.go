package jobs

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The pacer reads the CPU the process has used up to now: a loop that
// spins without allocating (so no collection runs) moves the reading.
func TestPacerReadsCPUAsItIsUsed(t *testing.T) {
	p := newPacer(1)
	start, deadline := p.cpu(), time.Now().Add(time.Minute)
	x := uint64(1)
	for p.cpu()-start < 50*time.Millisecond {
		for range 100_000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		if time.Now().After(deadline) {
			t.Fatalf("a minute of spinning moved the process's CPU time by %v (x %d)", p.cpu()-start, x)
		}
	}
}

// The workers pause for the CPU the process used over Config.CPUs since
// the last chunk, at most mostPause, and not at all under it.
func TestPacerPausesOnlyOverItsCores(t *testing.T) {
	for _, c := range []struct {
		cores     int
		wall, cpu time.Duration
		want      time.Duration
	}{
		{1, 100 * time.Millisecond, 50 * time.Millisecond, 0},
		{1, 100 * time.Millisecond, 100 * time.Millisecond, 0},
		{1, 100 * time.Millisecond, 300 * time.Millisecond, 200 * time.Millisecond},
		{2, 100 * time.Millisecond, 300 * time.Millisecond, 50 * time.Millisecond},
		{3, 100 * time.Millisecond, 250 * time.Millisecond, 0},
		{1, time.Second, 5 * time.Second, mostPause},
	} {
		t.Run(fmt.Sprintf("%d cores, %v CPU in %v", c.cores, c.cpu, c.wall), func(t *testing.T) {
			now, used := time.Unix(1000, 0), time.Duration(0)
			p := startPacer(c.cores, func() time.Duration { return used }, func() time.Time { return now })
			now, used = now.Add(c.wall), used+c.cpu
			p.mark()
			if got := max(p.pause(), 0); got != c.want {
				t.Errorf("pause %v, want %v", got, c.want)
			}
		})
	}
}

// The workers keep the process under Config.CPUs cores on average: with
// four Ps and rows that only take CPU (no DNS), a job keeps the process
// busy about one core of its four, where unpaced it keeps up to four
// busy. The process's CPU time is read as the pacer reads it; a loaded
// machine gives the process less of it, never more, so the bound holds
// there too.
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
	cpu0, start := processCPU(), time.Now()
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
	busy := (processCPU() - cpu0).Seconds()
	// One core, and up to a second of pause not yet taken when the job
	// ended (the pause follows the chunk), and one more for the rest of
	// the process.
	if cores := busy / wall; cores > 2 {
		t.Errorf("the process was busy %.2f cores on average while the job ran (%.1f CPU-s in %.1f s), want about 1 (Config.CPUs)", cores, busy, wall)
	} else {
		t.Logf("busy %.2f cores on average (%.1f CPU-s in %.1f s)", cores, busy, wall)
	}
}
