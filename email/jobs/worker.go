package jobs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/quiverkit/quiver/email"
)

// The waits of a worker.
const (
	// storeWait is how long a job waits after its results first failed
	// to be stored; doubled after each failure in a row, at most
	// storeWaitMost.
	storeWait     = 250 * time.Millisecond
	storeWaitMost = 30 * time.Second
	// creatingWait is how long a chunk of a job still being created
	// waits before it is handed out again.
	creatingWait = 100 * time.Millisecond
	// queueWait and queueWaitMost bound the pause of a worker after a
	// failure to read the queue, doubled after each.
	queueWait     = 100 * time.Millisecond
	queueWaitMost = 5 * time.Second
)

// Run checks chunks of queued jobs, Config.Workers at a time, until ctx
// ends; then it returns nil once the chunks in hand have stopped. The
// owners with chunks to check take turns, and so do the jobs of each: a
// small job does not wait for a large one. A chunk cut short is not
// stored: with Redis another worker claims it once its lease (Config.
// ClaimIdle) has lapsed (in process, the jobs end with the process).
// Errors of the store are logged and retried, never returned: a worker
// outlives a Redis restart. Run may be called in many processes (and more
// than once in one) on the same Redis.
func (m *Manager) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for range m.cfg.Workers {
		wg.Go(func() { m.work(ctx) })
	}
	wg.Wait()
	return nil
}

func (m *Manager) work(ctx context.Context) {
	fails := 0
	for ctx.Err() == nil {
		t, ok, err := m.st.next(ctx, m.cfg.ClaimIdle)
		if err != nil {
			if ctx.Err() == nil {
				fails++
				m.log.Error("jobs: reading the queue", "error", err)
				sleep(ctx, backoff(queueWait, queueWaitMost, fails))
			}
			continue
		}
		fails = 0
		if !ok {
			continue
		}
		err = m.process(ctx, t)
		m.pace.mark()
		if err != nil && ctx.Err() == nil {
			// The chunk's lease lapses and it is claimed again.
			m.log.Error("jobs: checking a chunk", "job", t.id, "chunk", t.chunk, "error", err)
			sleep(ctx, queueWait)
		}
		m.pace.wait(ctx)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// process checks one chunk and stores its results. A chunk that is
// neither acked nor put back (an error, ctx ending) stays leased, and is
// claimed again when its lease lapses.
func (m *Manager) process(ctx context.Context, t task) error {
	if t.retried {
		m.metrics.retry()
	}
	st, started, err := m.st.begin(ctx, t.id, m.stamp())
	if err != nil {
		return err
	}
	if started {
		m.metrics.status(StatusRunning)
	}
	switch {
	case st == "" || st.final():
		return m.st.ack(ctx, t) // gone, cancelled, failed or done already
	case st == statusCreating:
		// Its creator is still queueing it; or died doing so, and settle
		// fails the job. The chunk waits, and the worker goes on.
		mt, err := m.st.load(ctx, t.id)
		if err == nil {
			_, err = m.settle(ctx, t.id, mt)
		}
		if err != nil {
			return err
		}
		_, err = m.st.putBack(ctx, t, creatingWait, creatingWait, false, m.now())
		return err
	}
	mt, err := m.st.load(ctx, t.id)
	if err != nil {
		return err
	}
	if mt == nil {
		return m.st.ack(ctx, t)
	}
	if t.attempts > m.cfg.MaxAttempts {
		return m.failJob(ctx, t, mt, fmt.Sprintf("chunk %d was handed out %d times (its workers stopped or failed)", t.chunk, t.attempts))
	}
	in, err := m.st.input(ctx, t.id, t.chunk)
	if err != nil {
		return err
	}
	if in == nil {
		if found, err := m.st.output(ctx, t.id, t.chunk, nil); err != nil {
			return err
		} else if found {
			return m.st.ack(ctx, t) // checked already, by a worker presumed dead
		}
		return m.failJob(ctx, t, mt, fmt.Sprintf("the rows of chunk %d are gone (expired or deleted from the store)", t.chunk))
	}
	stopKeep := m.keep(ctx, t)
	res, err := m.check(ctx, mt, in)
	stopKeep()
	if err != nil {
		if ctx.Err() != nil {
			return nil // cut short: left leased, for another worker
		}
		return m.failJob(ctx, t, mt, "checking chunk "+fmt.Sprint(t.chunk)+": "+err.Error())
	}
	stored, ended, err := m.st.finish(ctx, t.id, t.chunk, res, m.stamp())
	if err != nil {
		return m.storeFailed(ctx, t, mt, err)
	}
	if stored {
		m.metrics.rows(res.rows)
	}
	if ended {
		m.metrics.status(StatusDone)
		m.forget(ctx, t.id, mt.owner, heldDone, mt.total, mt.expires)
	}
	return m.st.ack(ctx, t)
}

// storeFailed handles results that could not be stored: the chunk goes
// back to its job, which waits (longer after each failure in a row) while
// the worker checks other jobs; once they have failed for
// Config.StoreRetry, the job fails, saying why.
func (m *Manager) storeFailed(ctx context.Context, t task, mt *meta, cause error) error {
	if ctx.Err() != nil {
		return nil
	}
	now := m.now()
	since, err := m.st.putBack(ctx, t, storeWait, storeWaitMost, true, now)
	if err != nil {
		return fmt.Errorf("storing the results: %w; putting the chunk back: %w", cause, err)
	}
	if failing := now.Sub(since); failing >= m.cfg.StoreRetry {
		why := unavailable(cause)
		if why == "" {
			why = "fails: " + cause.Error()
		}
		reason := fmt.Sprintf("its results could not be stored for %v: the job store %s", failing.Round(time.Second), why)
		_, err := m.endJob(ctx, t.id, mt, StatusFailed, reason)
		return err
	}
	m.log.Warn("jobs: storing results failed; the job waits", "job", t.id, "chunk", t.chunk, "error", cause)
	return nil
}

// keep extends this worker's lease on chunk t every ClaimIdle/3 while it
// is being checked, so that a slow chunk (slow DNS) is not taken as
// abandoned and claimed by another worker. The returned func stops it
// and waits for it; it stops by itself when ctx ends.
func (m *Manager) keep(ctx context.Context, t task) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(max(m.cfg.ClaimIdle/3, time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if err := m.st.touch(ctx, t); err != nil && ctx.Err() == nil {
					m.log.Error("jobs: keeping a chunk", "job", t.id, "chunk", t.chunk, "error", err)
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// failJob fails the job of chunk t, saying why, and drops the chunk.
func (m *Manager) failJob(ctx context.Context, t task, mt *meta, why string) error {
	if _, err := m.endJob(ctx, t.id, mt, StatusFailed, why); err != nil {
		return err
	}
	return m.st.ack(ctx, t)
}

// check validates the rows of a chunk, in order, and renders them as
// verify-list does.
func (m *Manager) check(ctx context.Context, mt *meta, in []byte) (*chunkResult, error) {
	rows, err := readRecords(in)
	if err != nil {
		return nil, err
	}
	addrs := func(yield func(string) bool) {
		for _, rec := range rows {
			a := ""
			if mt.col < len(rec) {
				a = rec[mt.col]
			}
			if !yield(a) {
				return
			}
		}
	}
	res := &chunkResult{rows: len(rows), keys: make([]dupKey, 0, len(rows)), mxDomains: make([]string, 0, len(rows))}
	var out bytes.Buffer
	out.Grow(resultSize(len(in), len(rows), len(mt.header))) // grown once, as a rule
	w := csv.NewWriter(&out)
	fields := make([]string, 0, 2*len(mt.header)+len(email.CSVResultHeader()))
	mx := make(map[string]bool, len(rows))
	i := 0
	for it, err := range m.v.ValidateStream(ctx, addrs, email.StreamOptions{Checks: mt.checks}) {
		if err != nil {
			return nil, err
		}
		fields = append(fields[:0], rows[i]...)
		for len(fields) < len(mt.header) {
			fields = append(fields, "")
		}
		fields = email.AppendCSVResult(fields, &it.Result)
		w.Write(fields)
		i++
		c := &res.c
		c.rows++
		if it.IsValid {
			c.valid++
		} else {
			c.invalid++
		}
		if it.IsDisposable {
			c.disposable++
		}
		if it.IsRoleAccount {
			c.role++
		}
		h := sha256.Sum256([]byte(it.DuplicateKey()))
		res.keys = append(res.keys, dupKey(h[:12]))
		if it.MX != nil && it.MX.Status == email.MXFound && it.ASCIIDomain != nil && !mx[*it.ASCIIDomain] {
			mx[*it.ASCIIDomain] = true
			res.mxDomains = append(res.mxDomains, *it.ASCIIDomain)
		}
	}
	if i != len(rows) {
		return nil, fmt.Errorf("checked %d rows of %d", i, len(rows))
	}
	w.Flush()
	res.out = out.Bytes()
	slices.Sort(res.mxDomains)
	return res, w.Error()
}

// resultSize estimates the result of a chunk of size bytes and rows rows
// of a file width columns wide: each row repeats its fields and the
// address twice (normalized_email, did_you_mean) beside some 40 bytes of
// fixed columns, padded to the header's width.
func resultSize(size, rows, width int) int {
	return min(2*size+rows*(width+48), 8<<20)
}
