package jobs

import (
	"context"
	"time"

	"github.com/quiverkit/quiver/email"
)

// meta is the stored state of a job.
type meta struct {
	owner      string // hex SHA-256 of the owner
	status     Status
	total      int
	chunks     int
	chunksDone int
	header     []string
	col        int
	checks     email.Checks
	created    time.Time
	started    time.Time // zero until the first chunk starts
	finished   time.Time // zero until the job ends
	queuing    time.Time // Redis: when its chunks began to be queued
	expires    time.Time
	counts     counts
	domainsMX  int
}

// counts are the summary counters of the rows done.
type counts struct {
	rows, valid, invalid, disposable, role, dups int
}

// chunkResult is what a worker stores for a chunk.
type chunkResult struct {
	rows      int
	out       []byte   // the CSV result rows
	c         counts   // dups not set: the store counts them
	keys      []string // duplicate keys, hashed, one per row
	mxDomains []string // domains seen with MX records
}

// task is one chunk handed to a worker.
type task struct {
	id      string
	chunk   int
	ref     string // the stream entry, for the ack
	retried bool   // claimed again from a worker presumed dead
	bad     bool   // a malformed queue entry, to drop
}

// store keeps the jobs and queues their chunks: Redis or memory.
type store interface {
	// putInput stores the input rows of chunk n of job id. hold is what
	// the chunk is counted for against a memory bound until its result
	// is stored: its rows and the most its result is expected to take.
	putInput(ctx context.Context, id string, n int, data []byte, hold int64, expires time.Time) error
	// create stores the job and queues its chunks 0..mt.chunks-1.
	create(ctx context.Context, id string, mt *meta) error
	// remove drops what is stored of a job that could not be created.
	remove(ctx context.Context, id string, chunks int) error
	// load returns the job, nil when there is none.
	load(ctx context.Context, id string) (*meta, error)
	// begin marks the job running when it is queued, counts one more
	// handing out of chunk n, and returns the job's status ("" when the
	// job is gone), the chunk's attempts so far, and whether this call
	// started the job.
	begin(ctx context.Context, id string, n int, now time.Time) (st Status, attempts int, started bool, err error)
	// input returns the rows of a chunk, nil when gone.
	input(ctx context.Context, id string, n int) ([]byte, error)
	// finish stores the result of chunk n once and counts it once: a
	// chunk finished twice is stored and counted once. It reports
	// whether this call stored it, and whether it ended the job.
	finish(ctx context.Context, id string, n int, res *chunkResult, now time.Time) (stored, ended bool, err error)
	// output returns the result rows of a chunk, nil when gone.
	output(ctx context.Context, id string, n int) ([]byte, error)
	// end ends a job that has not ended with status st; false when it
	// had already ended.
	end(ctx context.Context, id string, st Status, now time.Time) (bool, error)
	// next hands out the next chunk to a worker, waiting a little when
	// there is none (ok false then). Chunks of a worker presumed dead
	// (idle longer than idle) come first.
	next(ctx context.Context, idle time.Duration) (t task, ok bool, err error)
	// touch tells the queue that this worker is still checking chunk t,
	// so that it is not claimed as abandoned.
	touch(ctx context.Context, t task) error
	// ack removes a chunk from the queue.
	ack(ctx context.Context, t task) error
	// depth returns the chunks queued or being checked.
	depth(ctx context.Context) (int64, error)
}
