package jobs

import (
	"context"
	"runtime/metrics"
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

	mu      sync.Mutex
	samples []metrics.Sample
	busy    float64 // CPU seconds the process was busy at the last mark
	at      time.Time
	until   time.Time // the workers pause until then
}

// mostPause bounds one pause.
const mostPause = time.Second

func newPacer(cores int) *pacer {
	p := &pacer{cores: float64(cores), samples: []metrics.Sample{
		{Name: "/cpu/classes/total:cpu-seconds"}, {Name: "/cpu/classes/idle:cpu-seconds"},
	}}
	p.busy, p.at = p.read(), time.Now()
	return p
}

// read returns the CPU seconds the process has been busy. The caller
// holds p.mu (or has p to itself).
func (p *pacer) read() float64 {
	metrics.Read(p.samples)
	if p.samples[0].Value.Kind() != metrics.KindFloat64 || p.samples[1].Value.Kind() != metrics.KindFloat64 {
		return 0 // unsupported: no pacing
	}
	return p.samples[0].Value.Float64() - p.samples[1].Value.Float64()
}

// mark notes the end of a chunk, and sets the pause the CPU used since
// the last mark calls for.
func (p *pacer) mark() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	busy := p.read()
	used := time.Duration((busy - p.busy) / p.cores * float64(time.Second)) // the wall time it should have taken
	if pause := used - now.Sub(p.at); pause > 0 {
		p.until = later(p.until, now.Add(min(pause, mostPause)))
	}
	p.busy, p.at = busy, now
}

// wait waits until the pause, if any, is over, or ctx ends.
func (p *pacer) wait(ctx context.Context) {
	p.mu.Lock()
	d := time.Until(p.until)
	p.mu.Unlock()
	if d > 0 {
		sleep(ctx, d)
	}
}
