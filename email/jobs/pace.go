package jobs

import (
	"context"
	"sync"
	"time"
)

// pacer holds the workers of a Manager to their share of the CPU,
// Config.CPUs cores on average: after each chunk, when the process has
// been busier than that since the last chunk ended, the workers pause
// for as long as the excess took, so that the synchronous routes find a
// core, and the process stays a light tenant of a shared machine. The
// process's CPU counts, not only the jobs': the busier the synchronous
// routes, the more the jobs pause. A chunk that mostly waited on DNS
// pauses no one.
type pacer struct {
	cores float64
	cpu   func() time.Duration // the CPU time the process has used
	now   func() time.Time

	mu    sync.Mutex
	busy  time.Duration // CPU time the process had used at the last mark
	at    time.Time
	until time.Time // the workers pause until then
}

// mostPause bounds one pause.
const mostPause = time.Second

func newPacer(cores int) *pacer {
	return startPacer(cores, processCPU, time.Now)
}

// startPacer returns a pacer of cores that reads the process's CPU time
// with cpu and the time with now.
func startPacer(cores int, cpu func() time.Duration, now func() time.Time) *pacer {
	p := &pacer{cores: float64(cores), cpu: cpu, now: now}
	p.busy, p.at = cpu(), now()
	return p
}

// mark notes the end of a chunk, and sets the pause the CPU used since
// the last mark calls for.
func (p *pacer) mark() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now, busy := p.now(), p.cpu()
	used := time.Duration(float64(busy-p.busy) / p.cores) // the wall time it should have taken
	if pause := used - now.Sub(p.at); pause > 0 {
		p.until = later(p.until, now.Add(min(pause, mostPause)))
	}
	p.busy, p.at = busy, now
}

// pause returns how long the workers pause from now on.
func (p *pacer) pause() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.until.Sub(p.now())
}

// wait waits until the pause, if any, is over, or ctx ends.
func (p *pacer) wait(ctx context.Context) {
	if d := p.pause(); d > 0 {
		sleep(ctx, d)
	}
}
