package email

import (
	"context"
	"net/netip"
	"sync"
	"time"
)

// pacer spaces the connections of one Verifier to each mail server: at
// most max at once to one address, and starts at least gap apart. The
// state of an address is dropped once nothing holds or awaits it and
// its gap has passed, so memory follows the addresses in use, not every
// address ever contacted.
type pacer struct {
	max int           // connections at once per address; <= 0: no limit
	gap time.Duration // between two starts to one address; <= 0: none

	mu    sync.Mutex
	hosts map[netip.Addr]*hostPace
	swept int // len(hosts) after the last sweep
}

type hostPace struct {
	active  int           // connections open
	waiting int           // callers waiting for a turn
	next    time.Time     // earliest next start
	changed chan struct{} // closed (and replaced) when a connection ends
}

func newPacer(max int, gap time.Duration) *pacer {
	return &pacer{max: max, gap: gap, hosts: map[netip.Addr]*hostPace{}}
}

// acquire waits for a turn to connect to addr: a free slot and the gap
// since the last start. It returns the function that gives the slot
// back, or the context's error when ctx ends first. A nil pacer does
// not pace.
func (p *pacer) acquire(ctx context.Context, addr netip.Addr) (release func(), err error) {
	if p == nil {
		return func() {}, nil
	}
	p.mu.Lock()
	h := p.hosts[addr]
	if h == nil {
		h = &hostPace{changed: make(chan struct{})}
		p.hosts[addr] = h
	}
	h.waiting++
	for {
		now := time.Now()
		free := p.max <= 0 || h.active < p.max
		if free && !now.Before(h.next) {
			h.waiting--
			h.active++
			h.next = now.Add(p.gap)
			p.sweep(now)
			p.mu.Unlock()
			var once sync.Once
			return func() { once.Do(func() { p.release(h) }) }, nil
		}
		changed := h.changed
		var timer *time.Timer
		var due <-chan time.Time
		if free {
			timer = time.NewTimer(h.next.Sub(now))
			due = timer.C
		}
		p.mu.Unlock()
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			p.mu.Lock()
			h.waiting--
			p.mu.Unlock()
			return nil, ctx.Err()
		case <-changed:
		case <-due:
		}
		if timer != nil {
			timer.Stop()
		}
		p.mu.Lock()
	}
}

func (p *pacer) release(h *hostPace) {
	p.mu.Lock()
	defer p.mu.Unlock()
	h.active--
	close(h.changed)
	h.changed = make(chan struct{})
}

// sweep drops the addresses nobody holds or awaits whose gap has passed,
// when the map has doubled since the last sweep: amortized constant
// time per acquire. p.mu is held.
func (p *pacer) sweep(now time.Time) {
	if len(p.hosts) < 2*p.swept+64 {
		return
	}
	for a, h := range p.hosts {
		if h.active == 0 && h.waiting == 0 && !now.Before(h.next) {
			delete(p.hosts, a)
		}
	}
	p.swept = len(p.hosts)
}
