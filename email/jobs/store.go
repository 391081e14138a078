package jobs

import (
	"context"
	"time"

	"github.com/quiverkit/quiver/email"
)

// outputPiece is the most of a chunk's results read at once: a download
// holds one piece at a time, whatever the chunk's size.
const outputPiece = 64 << 10

// meta is the stored state of a job.
type meta struct {
	owner      string // hex SHA-256 of the owner
	status     Status
	reason     string // why it was cancelled or failed
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
	keys      []dupKey // duplicate keys, hashed, one per row
	mxDomains []string // domains seen with MX records
}

// dupKey is a 96-bit hash of a row's duplicate key: an array, so that a
// set of a million of them holds no pointer for the collector to scan.
type dupKey [12]byte

// task is one chunk handed to a worker.
type task struct {
	id       string
	chunk    int
	attempts int  // times the chunk was handed out, this one included
	retried  bool // claimed again from a worker presumed dead
}

// held is the state of a job in its owner's index, for the quotas.
type held byte

const (
	heldUploading held = 'u' // rows being uploaded: in flight and stored
	heldActive    held = 'a' // queued or running: in flight and stored
	heldDone      held = 'd' // done: stored
	heldEnded     held = 'x' // cancelled or failed: no rows, one job
)

// inFlight and stored report whether a job in state h counts its rows
// as in flight, and as stored.
func (h held) inFlight() bool { return h == heldUploading || h == heldActive }
func (h held) stored() bool   { return h != heldEnded }

// quotas are the bounds of an owner's jobs; a negative one is no bound.
type quotas struct {
	rowsInFlight, rowsStored, jobs int
}

// refusal is a store's answer to a reservation over a quota.
type refusal struct {
	quota Quota
	used  int // what the owner's other jobs hold (for QuotaJobsStored, the jobs)
	// earliest is when the earliest job counted by the quota expires
	// (stored quotas).
	earliest time.Time
}

// store keeps the jobs, their owners' quotas and the queue of their
// chunks: Redis or memory. Every method is one atomic step of one part
// (a job, an owner, the queue): the Manager orders the steps so that a
// crash between two leaves nothing that blocks a job or an owner for
// good.
type store interface {
	// reserve counts up to want rows for job id of owner, as many as
	// the quotas allow, creating its entry (one more job) when it has
	// none, as uploading: has is what the entry now counts, and ref says
	// which quota stopped it short of want.
	reserve(ctx context.Context, owner, id string, want int, expires time.Time, q quotas, now time.Time) (has int, ref *refusal, err error)
	// mark sets the state of job id in its owner's index: its rows are
	// rows (0 for heldEnded). A job the index has lost (see repair) is
	// counted again, until expires.
	mark(ctx context.Context, owner, id string, h held, rows int, expires time.Time) error
	// release forgets job id in its owner's index.
	release(ctx context.Context, owner, id string) error
	// repair brings the owner's index in line with its jobs, after a
	// crash between the steps of a job: an entry whose job has ended or
	// is gone, or an upload silent for longer than uploadSilence.
	repair(ctx context.Context, owner string, now time.Time) error

	// putInput stores the input rows of chunk n of job id.
	putInput(ctx context.Context, id string, n int, data []byte, expires time.Time) error
	// create stores the job as creating (Redis) or queued (memory).
	create(ctx context.Context, id string, mt *meta) error
	// enqueue queues the chunks of the job, in its owner's turn.
	enqueue(ctx context.Context, id string, mt *meta) error
	// ready ends the creating state of the job: it turns queued.
	ready(ctx context.Context, id string) error
	// remove drops what is stored of a job that could not be created.
	remove(ctx context.Context, id string, chunks int) error
	// load returns the job, nil when there is none.
	load(ctx context.Context, id string) (*meta, error)
	// begin marks the job running when it is queued, and returns its
	// status ("" when the job is gone) and whether this call started it.
	begin(ctx context.Context, id string, now time.Time) (st Status, started bool, err error)
	// input returns the rows of a chunk, nil when gone.
	input(ctx context.Context, id string, n int) ([]byte, error)
	// finish stores the result of chunk n once and counts it once: a
	// chunk finished twice is stored and counted once. It reports
	// whether this call stored it, and whether it ended the job.
	finish(ctx context.Context, id string, n int, res *chunkResult, now time.Time) (stored, ended bool, err error)
	// output passes the result rows of a chunk to write, in pieces of at
	// most outputPiece bytes read one at a time (none with a nil write),
	// and reports whether the chunk has results; an error of write is
	// returned as it is.
	output(ctx context.Context, id string, n int, write func([]byte) error) (found bool, err error)
	// end ends a job that has not ended with status st (cancelled or
	// failed) and why, and drops its rows and results; false when it
	// had already ended.
	end(ctx context.Context, id string, st Status, reason string, now time.Time) (bool, error)
	// drop deletes everything of an ended job.
	drop(ctx context.Context, id string, chunks int) error

	// next hands out the next chunk to a worker, waiting a little when
	// there is none (ok false then): a chunk of a worker presumed dead
	// (silent for idle), else the next chunk of the next owner's next
	// job, in turn, skipping jobs waiting until later.
	next(ctx context.Context, idle time.Duration) (t task, ok bool, err error)
	// touch notes that this worker is still checking chunk t.
	touch(ctx context.Context, t task) error
	// ack removes a chunk from the queue, and ends the wait of its job.
	ack(ctx context.Context, t task) error
	// putBack returns chunk t to its job, which waits for wait: its
	// handing out does not count as an attempt. With failed, it counts
	// one more failure to store the job's results (one per wait), the
	// wait doubled for each such failure in a row past the first, at
	// most most; it returns since when they fail.
	putBack(ctx context.Context, t task, wait, most time.Duration, failed bool, now time.Time) (since time.Time, err error)
	// unqueue forgets the chunks of an ended job.
	unqueue(ctx context.Context, id string) error
	// depth returns the chunks queued or being checked.
	depth(ctx context.Context) (int64, error)
}
