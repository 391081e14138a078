package jobs

import (
	"context"
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
	used    int64 // bytes of rows and results held or reserved, over all jobs
	jobs    map[string]*memJob
	queue   []task
	pending int           // chunks handed out, not acked
	wake    chan struct{} // signalled when a chunk is queued
}

type memJob struct {
	meta
	size     int64 // bytes of out, and hold of the chunks in
	in, out  map[int][]byte
	hold     map[int]int64 // what a chunk in counts for: rows and result reserved
	seen     map[string]struct{}
	mx       map[string]struct{}
	attempts map[int]int
}

func newMemStore(limit int64) *memStore {
	return &memStore{limit: limit, jobs: make(map[string]*memJob), wake: make(chan struct{}, 1)}
}

func (s *memStore) job(id string) *memJob {
	j := s.jobs[id]
	if j != nil && !time.Now().Before(j.expires) {
		s.drop(id)
		return nil
	}
	return j
}

// drop forgets job id and frees its bytes. The caller holds s.mu.
func (s *memStore) drop(id string) {
	if j := s.jobs[id]; j != nil {
		s.used -= j.size
		delete(s.jobs, id)
	}
}

// dropExpired forgets every expired job. The caller holds s.mu.
func (s *memStore) dropExpired(now time.Time) {
	for id, j := range s.jobs {
		if !now.Before(j.expires) {
			s.drop(id)
		}
	}
}

// errMemoryFull is why rows are refused past Config.MaxMemory.
func (s *memStore) errMemoryFull() error {
	return envelope.Errorf(envelope.CodeServiceUnavailable,
		"the in-process job queue holds its limit of %d bytes of rows and results; try again when a job has expired, or run with Redis", s.limit)
}

func newMemJob() *memJob {
	return &memJob{in: map[int][]byte{}, out: map[int][]byte{}, hold: map[int]int64{},
		seen: map[string]struct{}{}, mx: map[string]struct{}{}, attempts: map[int]int{}}
}

// putInput admits a chunk when its hold (rows and reserved result) fits
// under the limit: results are then stored within what was reserved.
func (s *memStore) putInput(_ context.Context, id string, n int, data []byte, hold int64, expires time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	hold = max(hold, int64(len(data)))
	if s.used+hold > s.limit {
		s.dropExpired(time.Now())
		if s.used+hold > s.limit {
			return s.errMemoryFull()
		}
	}
	j := s.jobs[id]
	if j == nil {
		j = newMemJob()
		j.expires = expires
		j.status = "" // not visible until created
		s.jobs[id] = j
	}
	j.resize(hold-j.hold[n], s)
	j.hold[n] = hold
	j.in[n] = append([]byte(nil), data...)
	return nil
}

// resize adds delta bytes to the job's size and the store's total. The
// caller holds s.mu.
func (j *memJob) resize(delta int64, s *memStore) {
	j.size += delta
	s.used += delta
}

func (s *memStore) create(_ context.Context, id string, mt *meta) error {
	s.mu.Lock()
	s.dropExpired(time.Now())
	j := s.jobs[id]
	if j == nil {
		j = newMemJob()
		s.jobs[id] = j
	}
	j.meta = *mt
	j.meta.header = append([]string(nil), mt.header...)
	for n := range mt.chunks {
		s.queue = append(s.queue, task{id: id, chunk: n})
	}
	s.mu.Unlock()
	s.signal()
	return nil
}

func (s *memStore) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *memStore) remove(_ context.Context, id string, _ int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drop(id)
	return nil
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

func (s *memStore) begin(_ context.Context, id string, n int, now time.Time) (Status, int, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.job(id)
	if j == nil {
		return "", 0, false, nil
	}
	started := j.status == StatusQueued
	if started {
		j.status = StatusRunning
		j.started = now
	}
	j.attempts[n]++
	return j.status, j.attempts[n], started, nil
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
	j.resize(int64(len(res.out))-j.hold[n], s)
	j.out[n] = res.out
	delete(j.in, n)
	delete(j.hold, n)
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

func (s *memStore) output(_ context.Context, id string, n int) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j := s.job(id); j != nil {
		return j.out[n], nil
	}
	return nil, nil
}

func (s *memStore) end(_ context.Context, id string, st Status, now time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.job(id)
	if j == nil || j.status.final() {
		return false, nil
	}
	j.status = st
	j.finished = now
	for n := range j.in { // rows never to be checked
		j.resize(-j.hold[n], s)
		delete(j.in, n)
		delete(j.hold, n)
	}
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
		if len(s.queue) > 0 {
			t := s.queue[0]
			s.queue = s.queue[1:]
			s.pending++
			more := len(s.queue) > 0
			s.mu.Unlock()
			if more {
				s.signal() // another worker may take the next one
			}
			return t, true, nil
		}
		s.mu.Unlock()
		select {
		case <-s.wake:
		case <-timer.C:
			return task{}, false, nil
		case <-ctx.Done():
			return task{}, false, ctx.Err()
		}
	}
}

// touch does nothing: in process, no chunk is claimed again.
func (s *memStore) touch(context.Context, task) error { return nil }

func (s *memStore) ack(context.Context, task) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending--
	return nil
}

func (s *memStore) depth(context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.queue) + s.pending), nil
}
