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

// retryPause is how long a worker waits after a failure of the store.
const retryPause = time.Second

// creatingPoll is how often a worker looks whether the job of its chunk
// is still being created.
const creatingPoll = 50 * time.Millisecond

// Run checks chunks of queued jobs, Config.Workers at a time, until ctx
// ends; then it returns nil once the chunks in hand have stopped. A chunk
// cut short is not stored: with Redis another worker claims it after
// Config.ClaimIdle (in process, the jobs end with the process). Errors of
// the store are logged and retried, never returned: a worker outlives a
// Redis restart. Run may be called in many processes (and more than once
// in one) on the same Redis.
func (m *Manager) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for range m.cfg.Workers {
		wg.Go(func() { m.work(ctx) })
	}
	wg.Wait()
	return nil
}

func (m *Manager) work(ctx context.Context) {
	for ctx.Err() == nil {
		t, ok, err := m.st.next(ctx, m.cfg.ClaimIdle)
		if err != nil {
			if ctx.Err() == nil {
				m.log.Error("jobs: reading the queue", "error", err)
				sleep(ctx, retryPause)
			}
			continue
		}
		if !ok {
			continue
		}
		if err := m.process(ctx, t); err != nil && ctx.Err() == nil {
			m.log.Error("jobs: checking a chunk", "job", t.id, "chunk", t.chunk, "error", err)
			sleep(ctx, retryPause)
		}
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

// process checks one chunk and stores its results. A chunk that is not
// acked (an error, ctx ending) stays pending and is claimed again.
func (m *Manager) process(ctx context.Context, t task) error {
	if t.bad {
		return m.st.ack(ctx, t)
	}
	if t.retried {
		m.metrics.retry()
	}
	st, tries, started, err := m.st.begin(ctx, t.id, t.chunk, m.stamp())
	for err == nil && st == statusCreating {
		// Its creator is still queueing chunks; or died doing so, and
		// settle fails the job.
		var mt *meta
		if mt, err = m.st.load(ctx, t.id); err == nil {
			_, err = m.settle(ctx, t.id, mt)
		}
		if err != nil {
			break
		}
		sleep(ctx, creatingPoll)
		if ctx.Err() != nil {
			return nil // left pending
		}
		st, tries, started, err = m.st.begin(ctx, t.id, t.chunk, m.stamp())
	}
	if err != nil {
		return err
	}
	if started {
		m.metrics.status(StatusRunning)
	}
	if st == "" || st.final() {
		return m.st.ack(ctx, t) // gone, cancelled, failed or done already
	}
	if tries > m.cfg.MaxAttempts {
		return m.failJob(ctx, t, fmt.Sprintf("chunk %d was handed out %d times", t.chunk, tries))
	}
	mt, err := m.st.load(ctx, t.id)
	if err != nil {
		return err
	}
	if mt == nil {
		return m.st.ack(ctx, t)
	}
	in, err := m.st.input(ctx, t.id, t.chunk)
	if err != nil {
		return err
	}
	if in == nil {
		if out, err := m.st.output(ctx, t.id, t.chunk); err != nil {
			return err
		} else if out != nil {
			return m.st.ack(ctx, t) // checked already, by a worker presumed dead
		}
		return m.failJob(ctx, t, fmt.Sprintf("the rows of chunk %d are gone", t.chunk))
	}
	stopKeep := m.keep(ctx, t)
	res, err := m.check(ctx, mt, in)
	stopKeep()
	if err != nil {
		if ctx.Err() != nil {
			return nil // cut short: left pending for another worker
		}
		return m.failJob(ctx, t, err.Error())
	}
	stored, ended, err := m.st.finish(ctx, t.id, t.chunk, res, m.stamp())
	if err != nil {
		return err
	}
	if stored {
		m.metrics.rows(res.rows)
	}
	if ended {
		m.metrics.status(StatusDone)
	}
	return m.st.ack(ctx, t)
}

// keep refreshes the claim of this worker on chunk t every ClaimIdle/3
// while it is being checked, so that a slow chunk (slow DNS) is not
// taken as abandoned and claimed by another worker. The returned func
// stops it and waits for it; it stops by itself when ctx ends.
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

// failJob ends the job as failed and drops the chunk.
func (m *Manager) failJob(ctx context.Context, t task, why string) error {
	m.log.Error("jobs: job failed", "job", t.id, "reason", why)
	ended, err := m.st.end(ctx, t.id, StatusFailed, m.stamp())
	if ended {
		m.metrics.status(StatusFailed)
	}
	if err != nil {
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
	res := &chunkResult{rows: len(rows), keys: make([]string, 0, len(rows))}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	fields := make([]string, 0, 2*len(mt.header)+len(email.CSVResultHeader()))
	mx := map[string]bool{}
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
		res.keys = append(res.keys, string(h[:12]))
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
