package httpapi

import (
	"hash/maphash"
	"maps"
	"math"
	"net/netip"
	"sync"
	"time"
)

// failureTable counts failed authentications per client: per IPv4
// address, per IPv6 /64, and per IPv6 /48 over all its /64s. Each is a
// token bucket kept as one time (GCRA, the generic cell rate algorithm):
// the moment at which the bucket is full again. A bucket that is full
// holds nothing worth keeping, so it is forgotten; the table keeps only
// clients that are still earning failures back, at most max of them.
//
// A request takes one failure from its client's buckets before its
// credentials are checked, and gives it back when they are right. So
// concurrent guesses from one client cannot all pass the check before the
// first of them is counted: a client never has more guesses than its
// buckets allow.
//
// When the table is full, a client it does not track shares one of
// overflowSlots buckets with the other untracked clients of its IPv6 /32
// or IPv4 /16 (chosen by a hash with a seed of this process). A tracked
// client is never dropped to make room: one that is blocked stays
// blocked, however many new addresses come.
type failureTable struct {
	addr     gcra // an IPv4 address or an IPv6 /64
	prefix   gcra // an IPv6 /48; zero when /48s are not limited
	overflow gcra // an overflow slot: the prefix's limit, or addr's
	capacity int  // entries at most
	seed     maphash.Seed
	base     time.Time
	now      func() time.Time

	mu      sync.Mutex
	entries map[failureKey]int64 // the time each bucket is full again, ns since base
	slots   [overflowSlots]int64
	sweptAt int64 // last sweep, ns since base
	fullAt  int64 // last time take reported the table full
	peak    int   // the most entries since the map was last rebuilt
}

const (
	// overflowSlots is how many buckets the clients that a full table
	// does not track share.
	overflowSlots = 1024
	// sweepEvery is how often full buckets are dropped, and
	// sweepWhenFull how often at most when a new client finds the table
	// full.
	sweepEvery    = time.Minute
	sweepWhenFull = time.Second
)

// gcra is the limit of one kind of bucket: a burst, earned back one
// failure per interval. A bucket at time now with TAT t (the time it is
// full again) may take one more failure when max(t, now) - now is at
// most tolerance.
type gcra struct {
	interval  int64 // ns to earn one failure back
	tolerance int64 // (burst-1) × interval, ns
}

// newGCRA returns the limit of burst failures, earned back at perSecond.
// Out-of-range values saturate: the sums of times stay within int64.
func newGCRA(burst int, perSecond float64) gcra {
	interval := int64(1 << 60)
	if ns := float64(time.Second) / perSecond; ns < 1<<60 {
		interval = max(1, int64(ns))
	}
	tolerance := int64(1 << 61)
	if b := int64(burst - 1); b < (1<<61)/interval {
		tolerance = b * interval
	}
	return gcra{interval: interval, tolerance: tolerance}
}

func (g gcra) enabled() bool { return g.interval > 0 }

// wait is how long a bucket at tat must wait at now to take a failure:
// zero or less when it may.
func (g gcra) wait(tat, now int64) int64 { return max(tat, now) - now - g.tolerance }

// take returns the bucket's TAT once it has taken a failure.
func (g gcra) take(tat, now int64) int64 { return max(tat, now) + g.interval }

// failureKey names a bucket: the first 64 bits of an IPv6 address
// masked to its prefix, or an IPv4 address, with its kind.
type failureKey struct {
	bits uint64
	kind failureKind
}

// failureKind is the kind of client a bucket counts.
type failureKind uint8

const (
	kindUnknown   failureKind = iota // no address: one bucket for all
	kindIPv4                         // one IPv4 address
	kindIPv6Net64                    // an IPv6 /64
	kindIPv6Net48                    // an IPv6 /48: all its /64s together
)

// failureTicket is what take took, for give to give back.
type failureTicket struct {
	keys     [2]failureKey // the buckets of the table that took a failure
	n        int8          // how many of keys
	overflow bool          // whether the overflow slot took one
	slot     uint16        // the overflow slot
}

// newFailureTable returns a table of at most capacity entries. A prefix
// limit whose burst is negative turns the /48 limit off.
func newFailureTable(burst int, rate float64, prefixBurst int, prefixRate float64, capacity int) *failureTable {
	t := &failureTable{
		addr:     newGCRA(burst, rate),
		capacity: capacity,
		seed:     maphash.MakeSeed(),
		base:     time.Now(),
		now:      time.Now,
		entries:  make(map[failureKey]int64),
		fullAt:   math.MinInt64 / 2,
	}
	t.overflow = t.addr
	if prefixBurst >= 0 {
		t.prefix = newGCRA(prefixBurst, prefixRate)
		t.overflow = t.prefix
	}
	return t
}

// keys returns the buckets of a, coarsest first, and its overflow slot.
func (t *failureTable) keys(a netip.Addr) (keys [2]failureKey, n int, slot uint16) {
	var coarse failureKey
	switch {
	case a.Is4():
		b := a.As4()
		v := uint64(b[0])<<24 | uint64(b[1])<<16 | uint64(b[2])<<8 | uint64(b[3])
		keys[0], n = failureKey{v, kindIPv4}, 1
		coarse = failureKey{v &^ 0xffff, kindIPv4} // its /16
	case a.Is6():
		b := a.As16()
		var hi uint64
		for _, c := range b[:8] {
			hi = hi<<8 | uint64(c)
		}
		net64 := failureKey{hi, kindIPv6Net64}
		if t.prefix.enabled() {
			keys[0], keys[1], n = failureKey{hi &^ 0xffff, kindIPv6Net48}, net64, 2
		} else {
			keys[0], n = net64, 1
		}
		coarse = failureKey{hi &^ 0xffff_ffff, kindIPv6Net64} // its /32
	default:
		keys[0], n = failureKey{kind: kindUnknown}, 1
	}
	return keys, n, uint16(maphash.Comparable(t.seed, coarse) % overflowSlots)
}

// limit is the limit of a bucket of kind k.
func (t *failureTable) limit(k failureKind) gcra {
	if k == kindIPv6Net48 {
		return t.prefix
	}
	return t.addr
}

func (t *failureTable) clock() int64 { return int64(t.now().Sub(t.base)) }

// take takes one failure from a's buckets. It returns what it took, or,
// when one of the buckets is empty, how long a must wait; it then takes
// nothing. full reports that a new client found the table full, at most
// once a minute.
func (t *failureTable) take(a netip.Addr) (tk failureTicket, wait time.Duration, full bool) {
	keys, n, slot := t.keys(a)
	now := t.clock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if now-t.sweptAt >= int64(sweepEvery) {
		t.sweep(now)
	}
	var tats [2]int64
	var known [2]bool
	lookup := func() (missing int) {
		for i := range n {
			if tats[i], known[i] = t.entries[keys[i]]; !known[i] {
				missing++
			}
		}
		return missing
	}
	if missing := lookup(); missing > 0 && len(t.entries)+missing > t.capacity && now-t.sweptAt >= int64(sweepWhenFull) {
		t.sweep(now)
		lookup()
	}
	// A bucket the table has is used; a new one is added while there is
	// room, the coarsest first, so that a /48 in the table bounds its
	// /64s even when they do not fit. What does not fit is counted in the
	// overflow slot.
	var took [2]int64
	room := t.capacity - len(t.entries)
	for i := range n {
		switch {
		case known[i]:
		case room > 0:
			room--
		default:
			tk.overflow, tk.slot = true, slot
			continue
		}
		tk.keys[tk.n], took[tk.n] = keys[i], tats[i]
		tk.n++
	}
	if tk.overflow && now-t.fullAt >= int64(time.Minute) {
		t.fullAt, full = now, true
	}
	worst := int64(0)
	for i, k := range tk.keys[:tk.n] {
		worst = max(worst, t.limit(k.kind).wait(took[i], now))
	}
	if tk.overflow {
		worst = max(worst, t.overflow.wait(t.slots[tk.slot], now))
	}
	if worst > 0 {
		return failureTicket{}, time.Duration(worst), full
	}
	for i, k := range tk.keys[:tk.n] {
		t.entries[k] = t.limit(k.kind).take(took[i], now)
	}
	if tk.overflow {
		t.slots[tk.slot] = t.overflow.take(t.slots[tk.slot], now)
	}
	t.peak = max(t.peak, len(t.entries))
	return tk, 0, full
}

// give gives back the failure that tk took: the credentials were right.
// A bucket that is full again is forgotten.
func (t *failureTable) give(tk failureTicket) {
	now := t.clock()
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range tk.keys[:tk.n] {
		tat, ok := t.entries[k]
		if !ok {
			continue
		}
		if tat -= t.limit(k.kind).interval; tat <= now {
			delete(t.entries, k)
		} else {
			t.entries[k] = tat
		}
	}
	if tk.overflow {
		t.slots[tk.slot] -= t.overflow.interval
	}
}

// sweep drops the buckets that are full again, and rebuilds the map when
// it holds less than a quarter of its peak, so that the memory of a
// flood that has passed goes back to the runtime.
func (t *failureTable) sweep(now int64) {
	maps.DeleteFunc(t.entries, func(_ failureKey, tat int64) bool { return tat <= now })
	t.sweptAt = now
	if n := len(t.entries); t.peak >= 1024 && n < t.peak/4 {
		m := make(map[failureKey]int64, n)
		maps.Copy(m, t.entries)
		t.entries, t.peak = m, n
	}
}

// Len returns the number of buckets tracked.
func (t *failureTable) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.entries)
}

// authFailureEntryBytes bounds the heap that one tracked bucket costs: a
// 16-byte key and an 8-byte time in a slot of a Swiss table, whose load
// is between 7/16 and 7/8. TestFailureTableMemory measures it.
const authFailureEntryBytes = 64
