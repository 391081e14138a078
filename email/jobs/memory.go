package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/quiverkit/quiver/envelope"
)

// memStore keeps jobs in memory, for one process: the fallback without
// Redis. Expired jobs are dropped when a job is created, or when rows
// would not fit in the memory limit.
type memStore struct {
	mu      sync.Mutex
	limit   int64 // Config.MaxMemory: rows are refused past it
	used    int64 // bytes of rows and results held, over all jobs
	jobs    map[string]*memJob
	owners  map[string]map[string]*ownerEntry // the quotas' index of each owner
	ring    []string                          // owners with chunks to hand out, in turn
	turns   map[string][]string               // the jobs of each owner in the ring, in turn
	pending int                               // chunks handed out, not acked
	wake    chan struct{}                     // signalled when a chunk is queued
}

type memJob struct {
	meta
	size     int64 // bytes of in and out, and hdr
	hdr      int64 // what the header counts for: kept until the job is forgotten
	in, out  map[int][]byte
	seen     map[dupKey]struct{}
	mx       map[string]struct{}
	attempts map[int]int
	next     int       // the first chunk never handed out
	back     []int     // chunks put back, handed out first
	wait     time.Time // no chunk is handed out before
	fails    int       // failures to store results in a row
	since    time.Time // when they began
	inTurn   bool      // in its owner's turns
}

// left reports whether the job has chunks to hand out.
func (j *memJob) left() bool {
	return !j.status.final() && (j.next < j.chunks || len(j.back) > 0)
}

func newMemStore(limit int64) *memStore {
	return &memStore{limit: limit, jobs: make(map[string]*memJob), owners: make(map[string]map[string]*ownerEntry),
		turns: make(map[string][]string), wake: make(chan struct{}, 1)}
}

func (s *memStore) job(id string) *memJob {
	j := s.jobs[id]
	if j != nil && !time.Now().Before(j.expires) {
		s.forget(id)
		return nil
	}
	return j
}

// forget forgets job id and frees its bytes. The caller holds s.mu.
func (s *memStore) forget(id string) {
	if j := s.jobs[id]; j != nil {
		s.used -= j.size
		delete(s.jobs, id)
	}
}

// dropExpired forgets every expired job. The caller holds s.mu.
func (s *memStore) dropExpired(now time.Time) {
	for id, j := range s.jobs {
		if !now.Before(j.expires) {
			s.forget(id)
		}
	}
}

// errQueueFull is why results are not stored past Config.MaxMemory:
// the job waits, as it does on a full Redis, and fails after
// Config.StoreRetry.
var errQueueFull = errors.New("jobs: the in-process job queue is full")

// errMemoryFull is why rows are refused past Config.MaxMemory.
func (s *memStore) errMemoryFull() error {
	return envelope.Errorf(envelope.CodeServiceUnavailable,
		"the in-process job queue holds its limit of %d bytes of rows and results; try again when a job has ended or expired, or run with Redis", s.limit)
}

func newMemJob() *memJob {
	return &memJob{in: map[int][]byte{}, out: map[int][]byte{},
		seen: map[dupKey]struct{}{}, mx: map[string]struct{}{}, attempts: map[int]int{}}
}

// index returns the quotas' index of owner, made when it has none. The
// caller holds s.mu.
func (s *memStore) index(owner string) map[string]*ownerEntry {
	es := s.owners[owner]
	if es == nil {
		es = map[string]*ownerEntry{}
		s.owners[owner] = es
	}
	return es
}

func (s *memStore) reserve(_ context.Context, owner, id string, want int, expires time.Time, q quotas, now time.Time) (int, *refusal, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	es := s.index(owner)
	has, ref := grant(es, id, want, expires, q, now)
	if len(es) == 0 {
		delete(s.owners, owner)
	}
	return has, ref, nil
}

func (s *memStore) mark(_ context.Context, owner, id string, h held, rows int, expires time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	es := s.index(owner)
	e := es[id]
	if e == nil {
		e = &ownerEntry{expires: expires}
		es[id] = e
	}
	e.h, e.rows, e.updated = h, rows, time.Now()
	return nil
}

func (s *memStore) release(_ context.Context, owner, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.owners[owner], id)
	if len(s.owners[owner]) == 0 {
		delete(s.owners, owner)
	}
	return nil
}

// repair has nothing to do in process: every step of a job is taken with
// its owner's index under one lock.
func (s *memStore) repair(context.Context, string, time.Time) error { return nil }

// putInput admits a chunk when its rows fit under the limit. Its result
// is counted when it lands (see finish), in place of the rows.
func (s *memStore) putInput(_ context.Context, id string, n int, data []byte, expires time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.fits(int64(len(data) - len(s.jobs[id].inputOf(n)))) {
		return s.errMemoryFull()
	}
	j := s.jobs[id]
	if j == nil {
		j = newMemJob()
		j.expires = expires
		j.status = "" // not visible until created
		s.jobs[id] = j
	}
	j.resize(int64(len(data)-len(j.in[n])), s)
	j.in[n] = append([]byte(nil), data...)
	return nil
}

// inputOf returns the rows of chunk n of j, nil when j is nil.
func (j *memJob) inputOf(n int) []byte {
	if j == nil {
		return nil
	}
	return j.in[n]
}

// fits reports whether delta more bytes fit under the limit, once
// expired jobs are dropped if need be. The caller holds s.mu.
func (s *memStore) fits(delta int64) bool {
	if s.used+delta <= s.limit {
		return true
	}
	s.dropExpired(time.Now())
	return s.used+delta <= s.limit
}

// resize adds delta bytes to the job's size and the store's total. The
// caller holds s.mu.
func (j *memJob) resize(delta int64, s *memStore) {
	j.size += delta
	s.used += delta
}

func (s *memStore) create(_ context.Context, id string, mt *meta) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropExpired(time.Now())
	j := s.jobs[id]
	hdr := headerBytes(mt.header)
	if !s.fits(hdr - j.headerHeld()) {
		return s.errMemoryFull()
	}
	if j == nil {
		j = newMemJob()
		s.jobs[id] = j
	}
	j.resize(hdr-j.hdr, s)
	j.hdr = hdr
	j.meta = *mt
	j.meta.header = slices.Clone(mt.header)
	j.next = mt.chunks // nothing to hand out until enqueued
	return nil
}

// headerBytes is what a job's header row counts for against the limit,
// as long as the job is kept: its bytes and a string header each.
func headerBytes(header []string) int64 {
	n := int64(len(header)) * 16
	for _, h := range header {
		n += int64(len(h))
	}
	return n
}

// headerHeld returns the bytes j's header counts for, 0 when j is nil.
func (j *memJob) headerHeld() int64 {
	if j == nil {
		return 0
	}
	return j.hdr
}

func (s *memStore) enqueue(_ context.Context, id string, _ *meta) error {
	s.mu.Lock()
	if j := s.job(id); j != nil {
		j.next = 0
		s.inTurn(id, j)
	}
	s.mu.Unlock()
	s.signal()
	return nil
}

// inTurn puts job id, which has chunks to hand out, in its owner's turns,
// and the owner in the ring. The caller holds s.mu.
func (s *memStore) inTurn(id string, j *memJob) {
	if j.inTurn {
		return
	}
	j.inTurn = true
	if _, ok := s.turns[j.owner]; !ok {
		s.ring = append(s.ring, j.owner)
	}
	s.turns[j.owner] = append(s.turns[j.owner], id)
}

func (s *memStore) ready(context.Context, string) error { return nil }

func (s *memStore) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *memStore) remove(_ context.Context, id string, _ int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forget(id)
	return nil
}

func (s *memStore) drop(ctx context.Context, id string, chunks int) error {
	return s.remove(ctx, id, chunks)
}

func (s *memStore) load(_ context.Context, id string) (*meta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.job(id)
	if j == nil || j.status == "" {
		return nil, nil
	}
	mt := j.meta
	mt.domainsMX = len(j.mx)
	return &mt, nil
}

func (s *memStore) begin(_ context.Context, id string, now time.Time) (Status, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.job(id)
	if j == nil {
		return "", false, nil
	}
	started := j.status == StatusQueued
	if started {
		j.status = StatusRunning
		j.started = now
	}
	return j.status, started, nil
}

func (s *memStore) input(_ context.Context, id string, n int) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j := s.job(id); j != nil {
		return j.in[n], nil
	}
	return nil, nil
}

func (s *memStore) finish(_ context.Context, id string, n int, res *chunkResult, now time.Time) (bool, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.job(id)
	if j == nil || j.status != StatusRunning {
		return false, false, nil
	}
	if _, ok := j.out[n]; ok {
		return false, false, nil
	}
	delta := int64(len(res.out) - len(j.in[n])) // the result replaces the rows
	if !s.fits(delta) {
		return false, false, fmt.Errorf("%w: %d bytes of results do not fit in %d (Config.MaxMemory), %d held", errQueueFull, len(res.out), s.limit, s.used)
	}
	j.resize(delta, s)
	j.out[n] = res.out
	delete(j.in, n)
	c := &j.counts
	c.rows += res.c.rows
	c.valid += res.c.valid
	c.invalid += res.c.invalid
	c.disposable += res.c.disposable
	c.role += res.c.role
	for _, k := range res.keys {
		if _, ok := j.seen[k]; ok {
			c.dups++
		}
		j.seen[k] = struct{}{}
	}
	for _, d := range res.mxDomains {
		j.mx[d] = struct{}{}
	}
	j.chunksDone++
	if j.chunksDone >= j.chunks {
		j.status = StatusDone
		j.finished = now
		j.seen = nil // no row comes any more
		return true, true, nil
	}
	return true, false, nil
}

func (s *memStore) output(_ context.Context, id string, n int, write func([]byte) error) (bool, error) {
	s.mu.Lock()
	var out []byte // never changed once stored
	if j := s.job(id); j != nil {
		out = j.out[n]
	}
	s.mu.Unlock()
	for p := range slices.Chunk(out, outputPiece) {
		if write == nil {
			break
		}
		if err := write(p); err != nil {
			return true, err
		}
	}
	return out != nil, nil
}

// end ends the job and frees its rows and results: a cancelled or failed
// job has no results to serve. Its header is kept, and counted, with its
// record.
func (s *memStore) end(_ context.Context, id string, st Status, reason string, now time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.job(id)
	if j == nil || j.status == "" || j.status.final() {
		return false, nil
	}
	j.status, j.reason, j.finished = st, reason, now
	j.resize(j.hdr-j.size, s) // the record stays, header included
	clear(j.in)
	clear(j.out)
	j.seen = nil
	return true, nil
}

// memPoll is how long next waits for a chunk before reporting none.
const memPoll = 200 * time.Millisecond

func (s *memStore) next(ctx context.Context, _ time.Duration) (task, bool, error) {
	timer := time.NewTimer(memPoll)
	defer timer.Stop()
	for {
		s.mu.Lock()
		t, ok := s.take(time.Now())
		more := ok && len(s.ring) > 0
		s.mu.Unlock()
		if ok {
			if more {
				s.signal() // another worker may take the next one
			}
			return t, true, nil
		}
		select {
		case <-s.wake:
		case <-timer.C:
			return task{}, false, nil
		case <-ctx.Done():
			return task{}, false, ctx.Err()
		}
	}
}

// take hands out the next chunk of the next owner in the ring, whose jobs
// take turns too; owners and jobs with nothing to hand out leave the
// ring. The caller holds s.mu.
func (s *memStore) take(now time.Time) (task, bool) {
	for range len(s.ring) {
		owner := s.ring[0]
		s.ring = append(s.ring[1:], owner)
		var keep []string
		pick := -1
		for _, id := range s.turns[owner] {
			j := s.job(id)
			if j == nil || !j.left() {
				if j != nil {
					j.inTurn = false
				}
				continue
			}
			if pick < 0 && !now.Before(j.wait) {
				pick = len(keep)
			}
			keep = append(keep, id)
		}
		if pick >= 0 { // the picked job goes to the end of its owner's turns
			keep = append(keep[pick+1:], keep[:pick+1]...)
		}
		if len(keep) == 0 {
			delete(s.turns, owner)
			s.ring = s.ring[:len(s.ring)-1]
		} else {
			s.turns[owner] = keep
		}
		if pick < 0 {
			continue
		}
		id := keep[len(keep)-1]
		j := s.jobs[id]
		var n int
		if len(j.back) > 0 {
			n, j.back = j.back[0], j.back[1:]
		} else {
			n = j.next
			j.next++
		}
		j.attempts[n]++
		s.pending++
		return task{id: id, chunk: n, attempts: j.attempts[n]}, true
	}
	return task{}, false
}

// touch does nothing: in process, no chunk is claimed again.
func (s *memStore) touch(context.Context, task) error { return nil }

func (s *memStore) ack(_ context.Context, t task) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending--
	if j := s.job(t.id); j != nil {
		j.wait, j.fails, j.since = time.Time{}, 0, time.Time{}
	}
	return nil
}

func (s *memStore) putBack(_ context.Context, t task, wait, most time.Duration, failed bool, now time.Time) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending--
	j := s.job(t.id)
	if j == nil {
		return now, nil
	}
	j.attempts[t.chunk]--
	j.back = append(j.back, t.chunk)
	if failed {
		if !now.Before(j.wait) { // one failure per wait, however many chunks fail in it
			j.fails++
		}
		if j.since.IsZero() {
			j.since = now
		}
		wait = backoff(wait, most, j.fails)
	}
	j.wait = later(j.wait, now.Add(wait))
	if j.left() {
		s.inTurn(t.id, j)
	}
	return j.since, nil
}

// backoff is wait doubled for each failure past the first, at most most.
func backoff(wait, most time.Duration, fails int) time.Duration {
	for i := 1; i < fails && wait < most; i++ {
		wait *= 2
	}
	return min(wait, most)
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func (s *memStore) unqueue(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j := s.job(id); j != nil {
		j.next, j.back = j.chunks, nil
	}
	return nil
}

func (s *memStore) depth(context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.pending
	for _, j := range s.jobs {
		if j.left() {
			n += j.chunks - j.next + len(j.back)
		}
	}
	return int64(n), nil
}
