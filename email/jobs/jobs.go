package jobs

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/cfgerr"
	"github.com/quiverkit/quiver/internal/csvrec"
	"github.com/quiverkit/quiver/internal/textcut"
)

// Defaults of [Config].
const (
	DefaultTTL         = 7 * 24 * time.Hour
	DefaultClaimIdle   = time.Minute
	DefaultChunkRows   = 500
	DefaultChunkBytes  = MaxChunkBytes
	DefaultMaxRows     = 1_000_000
	DefaultMaxBytes    = 64 << 20
	DefaultMaxMemory   = 256 << 20
	DefaultWorkers     = 1
	DefaultMaxAttempts = 5
	DefaultPrefix      = "quiver:jobs:"
	DefaultStoreRetry  = 2 * time.Minute
	// DefaultMaxOwnerRowsInFlight and DefaultMaxOwnerRowsStored are one
	// job of DefaultMaxRows: an owner may have one such job being
	// checked, and keep the results of one, at a time. For rows of 31
	// bytes that is 116 MB of results in process, under half of
	// DefaultMaxMemory, and about 80 MB of Redis.
	DefaultMaxOwnerRowsInFlight = 1_000_000
	DefaultMaxOwnerRowsStored   = 1_000_000
	DefaultMaxOwnerJobsStored   = 1000
	// MaxChunkRows bounds Config.ChunkRows: a chunk is one Redis value
	// and one script call.
	MaxChunkRows = 5000
	// MaxChunkBytes bounds Config.ChunkBytes: the chunk being filled is
	// what Submit holds of a file.
	MaxChunkBytes = 1 << 20
	// MaxRowBytes bounds one row of a file (the header too), as it is
	// in the file, from its first byte to its line end included: a
	// longer row is refused with INVALID_REQUEST on field "file" as soon
	// as it passes the bound, so that no chunk is much larger than
	// ChunkBytes and an upload is never held whole.
	MaxRowBytes = 64 << 10
	// MaxColumns bounds the columns of the header row: every result row
	// is padded to the header's width, so a wide header would multiply
	// the results of short rows. A wider header is refused with
	// INVALID_REQUEST on field "file". Data rows may be wider.
	MaxColumns = 1000
	// UploadMemory bounds the memory that [Manager.Submit] holds of one
	// upload at a time, whatever the file's size: the chunk being filled
	// (ChunkBytes, at most MaxChunkBytes, plus the row that ends it,
	// encoded: two MaxRowBytes), the row being read (MaxRowBytes, and 4
	// bytes of index per field: at most one field per byte), the
	// reader's 16 KiB buffer, and the header row. N uploads at once hold
	// at most N times UploadMemory; the HTTP route is admitted for twice
	// it, the heap's room for garbage.
	UploadMemory = 2 << 20
)

// ErrInvalidConfig is wrapped by the error of [New] when a [Config] field
// holds a value that cannot work; the message names the field.
var ErrInvalidConfig = errors.New("jobs: invalid configuration")

// Config configures a [Manager]. The zero value works: an in-process
// queue, a Verifier of the email defaults (no resolver: no MX lookups).
type Config struct {
	// Verifier checks the rows. Workers share it, and with it its
	// resolver, its cache and its Concurrency, which bounds the rows (and
	// so the DNS questions) each worker has in flight. Default: a
	// Verifier of email.Config's defaults.
	Verifier *email.Verifier
	// Redis, when set, holds the jobs, their rows and results, and the
	// queue of their chunks (a ring of owners, each with its jobs in
	// turn) that the workers of every instance sharing it take from.
	// Default (nil): an in-process queue; the jobs live in memory and are
	// lost when the process ends.
	Redis redis.UniversalClient
	// Prefix is the prefix of every Redis key. Default DefaultPrefix.
	Prefix string
	// TTL is how long a job, its rows and its results are kept after it
	// is submitted. Default DefaultTTL (7 days).
	TTL time.Duration
	// ClaimIdle is how long a chunk may stay with a worker without being
	// finished before another worker claims it again (the first one is
	// presumed dead). A worker refreshes its claim every ClaimIdle/3 while
	// it checks a chunk, so a slow chunk is not claimed; ClaimIdle is how
	// soon the chunk of a dead worker is taken over. Default
	// DefaultClaimIdle (1 minute). Redis only.
	ClaimIdle time.Duration
	// MaxAttempts is how many times a chunk is handed out before its job
	// fails. Default DefaultMaxAttempts (5).
	MaxAttempts int
	// ChunkRows is the number of rows in a chunk, the unit of work.
	// Default DefaultChunkRows (500), at most MaxChunkRows.
	ChunkRows int
	// ChunkBytes bounds the row data of a chunk: a chunk ends at
	// ChunkRows rows or once its rows reach ChunkBytes bytes, whichever
	// comes first, so that a file of long rows is not one huge chunk.
	// Default DefaultChunkBytes (1 MiB), at most MaxChunkBytes (1 MiB).
	ChunkBytes int
	// MaxRows bounds the data rows of a job. Default DefaultMaxRows
	// (1,000,000).
	MaxRows int
	// MaxBytes bounds the size of the uploaded CSV file. Default
	// DefaultMaxBytes (64 MiB).
	MaxBytes int64
	// MaxMemory bounds the bytes of rows and results that the in-process
	// queue holds, over all its jobs: a chunk's rows count from their
	// upload, and its results, in their place, from when they are stored;
	// a job's header row (its bytes and 16 a column) counts for as long
	// as its record is kept, after the job has ended too.
	// A submission that would go over it is refused with
	// SERVICE_UNAVAILABLE, and nothing of it is kept; results that would
	// go over it are not stored: their job waits, as on a full Redis, and
	// fails after StoreRetry, saying why. Results measure about 3.5 times
	// their rows: a job of 1,000,000 rows of 31-byte addresses holds
	// 33 MB of rows, then 116 MB of results, so two such jobs fit in the
	// default. The bound is shared by every owner, with no share each:
	// owners whose stored jobs fill it (each within MaxOwnerRowsStored)
	// leave no room for another's large job until theirs expire or are
	// deleted; for many owners of large jobs, raise it or use Redis.
	// Default DefaultMaxMemory (256 MiB). Unused with Redis, whose memory
	// is bounded by its own maxmemory.
	MaxMemory int64
	// MaxOwnerRowsInFlight bounds the rows of an owner's jobs that have
	// not ended (being uploaded, queued or running): a submission that
	// would pass it is refused as soon as its rows do, with
	// RATE_LIMIT_EXCEEDED naming the quota (an error wrapping
	// ErrQuotaExceeded) and a Retry-After of a minute; a job's rows
	// leave it when the job ends. Default DefaultMaxOwnerRowsInFlight
	// (1,000,000); negative: no bound.
	MaxOwnerRowsInFlight int
	// MaxOwnerRowsStored bounds the rows of an owner's stored jobs
	// (being uploaded, queued, running or done: a cancelled or failed
	// job keeps no rows), until they expire or are deleted
	// ([Manager.Delete]); refused as MaxOwnerRowsInFlight is, with a
	// Retry-After of the time until the earliest of them expires.
	// Default DefaultMaxOwnerRowsStored (1,000,000); negative: no bound.
	MaxOwnerRowsStored int
	// MaxOwnerJobsStored bounds the jobs an owner has stored, whatever their
	// status, until they expire or are deleted. A job's record keeps its
	// header row (up to MaxRowBytes), so with Redis this bounds an
	// owner's records to MaxOwnerJobsStored times MaxRowBytes (64 MiB by
	// default) beside its rows; in process, headers count against
	// MaxMemory. Default DefaultMaxOwnerJobsStored (1,000); negative: no bound.
	MaxOwnerJobsStored int
	// StoreRetry bounds how long a running job's results may fail to be
	// stored (Redis full under maxmemory, read-only, loading, out of
	// reach) before the job fails with the reason. Meanwhile its chunks
	// are put back and the job waits, a quarter of a second after the
	// first failure, doubled after each (at most 30 seconds), while the
	// workers check other jobs. Default DefaultStoreRetry (2 minutes).
	StoreRetry time.Duration
	// Workers is how many chunks [Manager.Run] checks at once. Default
	// DefaultWorkers (1).
	Workers int
	// CPUs is the CPU, in cores on average, that the workers keep the
	// process under: after each chunk, when the process (the workers and
	// everything else in it) has been busier than that since the last
	// one, the workers pause for as long as the excess took. So a large
	// job leaves a core to the synchronous routes, and yields more the
	// busier they are; a job that waits on DNS does not pause. Default
	// GOMAXPROCS-1, at least 1.
	CPUs int
	// Logger receives the workers' errors. Default (nil): discard.
	Logger *slog.Logger
	// Metrics, when set, is the Prometheus registry in which New
	// registers the collectors of the package documentation. Several
	// Managers may share one. Default (nil): no metrics.
	Metrics prometheus.Registerer
}

// Status is the state of a job.
type Status string

// The states of a job. Done, Cancelled and Failed are final.
const (
	StatusQueued    Status = "queued"
	StatusRunning   Status = "running"
	StatusDone      Status = "done"
	StatusCancelled Status = "cancelled"
	StatusFailed    Status = "failed"
)

// statusCreating is the stored status of a job whose chunks are being
// queued (Redis): shown as queued; a job left in it past creatingBound
// (its creator died) is failed.
const statusCreating Status = "creating"

// creatingBound is how long queueing a job's chunks may take.
const creatingBound = 5 * time.Minute

// settle fails a job left creating for longer than creatingBound: its
// creator died before every chunk was queued, so it would never end.
func (m *Manager) settle(ctx context.Context, id string, mt *meta) (*meta, error) {
	if mt == nil || mt.status != statusCreating || m.now().Sub(mt.queuing) <= creatingBound {
		return mt, nil
	}
	if _, err := m.endJob(ctx, id, mt, StatusFailed, "its chunks were never all queued (its creator stopped)"); err != nil {
		return nil, err
	}
	return m.st.load(ctx, id)
}

// endJob ends the job id, which has not ended, as cancelled or failed, and
// why: its rows and results are dropped, it leaves the queue, and its
// rows leave its owner's quotas. It reports whether this call ended it.
func (m *Manager) endJob(ctx context.Context, id string, mt *meta, st Status, reason string) (bool, error) {
	ended, err := m.st.end(ctx, id, st, reason, m.stamp())
	if ended {
		m.metrics.status(st)
		if st == StatusFailed {
			m.log.Error("jobs: job failed", "job", id, "reason", reason)
		}
		m.forget(ctx, id, mt.owner, heldEnded, 0, mt.expires)
	}
	return ended, err
}

// forget takes an ended job out of the queue and moves it in its owner's
// index. Failures are logged: the queue skips the chunks of an ended job,
// and the index is repaired when a quota refuses a file.
func (m *Manager) forget(ctx context.Context, id, owner string, h held, rows int, expires time.Time) {
	if err := m.st.unqueue(ctx, id); err != nil {
		m.log.Warn("jobs: taking an ended job out of the queue", "job", id, "error", err)
	}
	if err := m.st.mark(ctx, owner, id, h, rows, expires); err != nil {
		m.log.Warn("jobs: counting an ended job", "job", id, "error", err)
	}
}

// Statuses returns every status a [Job] reports, in the order a job
// goes through them: queued, running, then one of done, cancelled or
// failed.
func Statuses() []Status {
	return []Status{StatusQueued, StatusRunning, StatusDone, StatusCancelled, StatusFailed}
}

func (s Status) final() bool {
	return s == StatusDone || s == StatusCancelled || s == StatusFailed
}

// Job is the state of a bulk verification job: the data of
// GET /v1/email/bulk/jobs/{id}.
type Job struct {
	// ID names the job.
	ID string `json:"id"`
	// Status is one of queued, running, done, cancelled, failed.
	Status Status `json:"status"`
	// Total is the number of data rows.
	Total int `json:"total"`
	// Done is the number of rows checked.
	Done int `json:"done"`
	// Summary counts the rows checked so far, as the summary of
	// POST /v1/email/bulk/validate does.
	Summary email.Summary `json:"summary"`
	// CreatedAt is when the job was submitted (RFC 3339, UTC).
	CreatedAt time.Time `json:"created_at"`
	// FinishedAt is when the job ended: done, cancelled or failed; null
	// until then.
	FinishedAt *time.Time `json:"finished_at"`
	// Reason says why a cancelled or failed job ended (its rows and
	// results are dropped then); null otherwise.
	Reason *string `json:"reason"`
	// RowsPerSecond is the rate since the first chunk started: rows done
	// over the time from then to now (to FinishedAt once finished).
	RowsPerSecond float64 `json:"rows_per_second"`
	// ETASeconds estimates the seconds left at that rate; null when
	// there is no rate yet or the job has ended.
	ETASeconds *float64 `json:"eta_seconds"`
}

// Manager submits, watches and runs bulk verification jobs. Build it
// with [New]; it is safe for concurrent use.
type Manager struct {
	cfg     Config
	v       *email.Verifier
	st      store
	log     *slog.Logger
	metrics *jobMetrics
	now     func() time.Time
	pace    *pacer // holds the process under Config.CPUs
}

// New returns a Manager configured by cfg. The error wraps
// [ErrInvalidConfig] when a field cannot work, or reports collectors that
// cannot be registered in cfg.Metrics.
func New(cfg Config) (*Manager, error) {
	problems := cfgerr.List{Sentinel: ErrInvalidConfig}
	bad := func(field, rule string) { problems.Add("%s %s", field, rule) }
	if cfg.TTL < 0 {
		bad("TTL", "must not be negative")
	}
	if cfg.ClaimIdle < 0 {
		bad("ClaimIdle", "must not be negative")
	}
	if cfg.ChunkRows < 0 || cfg.ChunkRows > MaxChunkRows {
		bad("ChunkRows", fmt.Sprintf("must be 0 to %d", MaxChunkRows))
	}
	if cfg.ChunkBytes < 0 || cfg.ChunkBytes > MaxChunkBytes {
		bad("ChunkBytes", fmt.Sprintf("must be 0 to %d", MaxChunkBytes))
	}
	if cfg.MaxRows < 0 {
		bad("MaxRows", "must not be negative")
	}
	if cfg.MaxBytes < 0 {
		bad("MaxBytes", "must not be negative")
	}
	if cfg.MaxMemory < 0 {
		bad("MaxMemory", "must not be negative")
	}
	if cfg.Workers < 0 {
		bad("Workers", "must not be negative")
	}
	if cfg.MaxAttempts < 0 {
		bad("MaxAttempts", "must not be negative")
	}
	if cfg.StoreRetry < 0 {
		bad("StoreRetry", "must not be negative")
	}
	if cfg.CPUs < 0 {
		bad("CPUs", "must not be negative")
	}
	if err := problems.Err(); err != nil {
		return nil, err
	}
	def := func(p *int, d int) {
		if *p == 0 {
			*p = d
		}
	}
	def(&cfg.ChunkRows, DefaultChunkRows)
	def(&cfg.ChunkBytes, DefaultChunkBytes)
	def(&cfg.MaxRows, DefaultMaxRows)
	def(&cfg.Workers, DefaultWorkers)
	def(&cfg.MaxAttempts, DefaultMaxAttempts)
	def(&cfg.MaxOwnerRowsInFlight, DefaultMaxOwnerRowsInFlight)
	def(&cfg.MaxOwnerRowsStored, DefaultMaxOwnerRowsStored)
	def(&cfg.MaxOwnerJobsStored, DefaultMaxOwnerJobsStored)
	def(&cfg.CPUs, max(1, runtime.GOMAXPROCS(0)-1))
	if cfg.StoreRetry == 0 {
		cfg.StoreRetry = DefaultStoreRetry
	}
	if cfg.MaxBytes == 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.MaxMemory == 0 {
		cfg.MaxMemory = DefaultMaxMemory
	}
	if cfg.TTL == 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.ClaimIdle == 0 {
		cfg.ClaimIdle = DefaultClaimIdle
	}
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	m := &Manager{cfg: cfg, v: cfg.Verifier, log: cfg.Logger, now: time.Now, pace: newPacer(cfg.CPUs)}
	if m.v == nil {
		v, err := email.New(email.Config{})
		if err != nil {
			return nil, fmt.Errorf("jobs: %w", err)
		}
		m.v = v
	}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if cfg.Redis != nil {
		m.st = newRedisStore(cfg.Redis, cfg.Prefix, workerName())
	} else {
		m.st = newMemStore(cfg.MaxMemory)
	}
	jm, err := newMetrics(cfg.Metrics, m.st)
	if err != nil {
		return nil, fmt.Errorf("jobs: Metrics: %w", err)
	}
	m.metrics = jm
	return m, nil
}

// workerName names this process's workers in the queue's leases and its
// count of workers.
func workerName() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), randomHex(4))
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Limits returns the bounds of a job's file: its data rows and bytes.
func (m *Manager) Limits() (rows int, bytes int64) { return m.cfg.MaxRows, m.cfg.MaxBytes }

// SubmitRequest is a job to submit.
type SubmitRequest struct {
	// Owner identifies who may see the job: [Manager.Get] and the other
	// operations find it only under the same Owner. Only its SHA-256 is
	// stored. Required.
	Owner string
	// File is the CSV file: a header row, then the data rows. The address
	// column is the one headed "email" (any case), else the first. A
	// UTF-8 BOM, CRLF line ends and quoted fields are accepted; blank
	// lines are skipped. Required.
	File io.Reader
	// CheckMX looks up the MX records of each domain. Default true.
	CheckMX *bool
	// CheckDisposable checks the disposable list. Default true.
	CheckDisposable *bool
	// CheckRoleAccount checks the role list. Default true.
	CheckRoleAccount *bool
}

func isFalse(b *bool) bool { return b != nil && !*b }

// ownerHash is what is stored of an owner.
func ownerHash(owner string) string {
	h := sha256.Sum256([]byte(owner))
	return hex.EncodeToString(h[:])
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Submit reads the CSV file once, stores its rows in chunks (one chunk in
// memory at a time), and queues the job. A file over a limit is refused
// with the limit named as soon as it passes it: too many rows, or a row
// over MaxRowBytes, is a validation error on field "file", too many bytes
// a PAYLOAD_TOO_LARGE error; nothing of it is kept. The job's status is
// queued. Submit holds at most [UploadMemory] bytes of the file at a
// time, whatever its size.
func (m *Manager) Submit(ctx context.Context, req SubmitRequest) (Job, error) {
	if req.Owner == "" {
		return Job{}, envelope.Invalid("owner", "is required")
	}
	if req.File == nil {
		return Job{}, envelope.Invalid("file", "is required")
	}
	cr := &countingReader{r: io.LimitReader(req.File, m.cfg.MaxBytes+1)}
	tooBig := func() error {
		return &envelope.Error{Code: envelope.CodePayloadTooLarge,
			Message: fmt.Sprintf("file: is larger than the limit of %d bytes", m.cfg.MaxBytes)}
	}
	r := csvrec.NewReader(cr, MaxRowBytes)
	readErr := func(err error, where string) error {
		if cr.n > m.cfg.MaxBytes {
			return tooBig()
		}
		var ve *envelope.ValidationError
		var ee *envelope.Error
		if errors.As(err, &ve) || errors.As(err, &ee) {
			return err
		}
		var pe *csvrec.ParseError
		switch {
		case errors.Is(err, csvrec.ErrTooLong) && errors.As(err, &pe):
			return envelope.Invalidf("file", "%s (line %d) is over the limit of %d bytes per row", where, pe.Line, MaxRowBytes)
		case errors.As(err, &pe):
			return envelope.Invalidf("file", "%s (line %d): %v", where, pe.Line, pe.Err)
		}
		return fmt.Errorf("jobs: reading the file: %w", err)
	}
	rec, err := r.Read()
	if errors.Is(err, io.EOF) {
		if cr.n > m.cfg.MaxBytes {
			return Job{}, tooBig()
		}
		return Job{}, envelope.Invalid("file", "is empty: a header row is required")
	}
	if err != nil {
		return Job{}, readErr(err, "the header row")
	}
	if rec.Len() > MaxColumns {
		return Job{}, envelope.Invalidf("file", "the header row has %d columns, over the limit of %d", rec.Len(), MaxColumns)
	}
	header := rec.Strings(nil)
	now := m.stamp()
	id := randomHex(16)
	owner := ownerHash(req.Owner)
	mt := &meta{
		owner: owner, status: StatusQueued, header: header,
		col:     email.AddressColumn(header),
		checks:  email.Checks{SkipMX: isFalse(req.CheckMX), SkipDisposable: isFalse(req.CheckDisposable), SkipRole: isFalse(req.CheckRoleAccount)},
		created: now, expires: now.Add(m.cfg.TTL),
	}
	fail := func(err error) (Job, error) {
		// Nothing of a refused file is kept: its rows, its record, its
		// place in the queue and in its owner's quotas go (DEL works on a
		// full Redis; on one out of reach, the rows expire with the TTL).
		ctx := context.WithoutCancel(ctx)
		m.st.remove(ctx, id, mt.chunks)
		m.st.unqueue(ctx, id)
		m.st.release(ctx, owner, id)
		return Job{}, err
	}
	// The rows are counted against the owner's quotas while they come, a
	// chunk ahead, so that a file is refused at the row that passes one.
	granted, repaired := 0, false
	var counted time.Time
	count := func(need int) error {
		want := max(need, min(granted+m.cfg.ChunkRows, m.cfg.MaxRows))
		for {
			has, ref, err := m.st.reserve(ctx, owner, id, want, mt.expires, m.quotas(), m.now())
			if err != nil {
				return m.storeError(ctx, "count the rows of the file", err)
			}
			granted, counted = has, time.Now()
			if has >= need {
				return nil
			}
			if repaired || ref == nil {
				return m.quotaError(ref, need)
			}
			// The index may count jobs that ended during a crash: bring
			// it in line, and ask once more.
			repaired = true
			if err := m.st.repair(ctx, owner, m.now()); err != nil {
				return m.storeError(ctx, "count the rows of the file", err)
			}
		}
	}
	if err := count(1); err != nil {
		return fail(err)
	}
	buf := make([]byte, 0, 4096)
	rows, inChunk := 0, 0
	flush := func() error {
		if err := m.st.putInput(ctx, id, mt.chunks, buf, mt.expires); err != nil {
			return m.storeError(ctx, "store the rows", err)
		}
		mt.chunks++
		buf = buf[:0]
		inChunk = 0
		return nil
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			if cr.n > m.cfg.MaxBytes {
				return fail(tooBig())
			}
			break
		}
		if err != nil {
			return fail(readErr(err, fmt.Sprintf("row %d", rows+1)))
		}
		rows++
		if rows > m.cfg.MaxRows {
			return fail(envelope.Invalidf("file", "has more than the limit of %d data rows", m.cfg.MaxRows))
		}
		if rows > granted || time.Since(counted) > uploadSilence/4 {
			if err := count(rows); err != nil {
				return fail(err)
			}
		}
		buf = appendRecord(grow(buf, encodedSize(rec), m.cfg.ChunkBytes+2*MaxRowBytes), rec)
		inChunk++
		if inChunk == m.cfg.ChunkRows || len(buf) >= m.cfg.ChunkBytes {
			if err := flush(); err != nil {
				return fail(err)
			}
		}
	}
	if inChunk > 0 {
		if err := flush(); err != nil {
			return fail(err)
		}
	}
	if rows == 0 {
		return fail(envelope.Invalid("file", "has a header row but no data rows"))
	}
	mt.total = rows
	// The job is stored creating, its chunks queued, then it turns
	// queued: a creator that dies in between leaves a job that
	// Manager.settle fails.
	err = m.st.create(ctx, id, mt)
	if err == nil {
		err = m.st.enqueue(ctx, id, mt)
	}
	if err == nil {
		err = m.st.ready(ctx, id)
	}
	if err != nil {
		return fail(m.storeError(ctx, "queue the job", err))
	}
	if err := m.st.mark(ctx, owner, id, heldActive, rows, mt.expires); err != nil {
		// The index counts the rows reserved ahead until repaired.
		m.log.Warn("jobs: counting a job", "job", id, "error", err)
	}
	m.metrics.status(StatusQueued)
	return m.job(id, mt), nil
}

// quotas returns the bounds of an owner's jobs.
func (m *Manager) quotas() quotas {
	return quotas{rowsInFlight: m.cfg.MaxOwnerRowsInFlight, rowsStored: m.cfg.MaxOwnerRowsStored, jobs: m.cfg.MaxOwnerJobsStored}
}

// quotaError is the RATE_LIMIT_EXCEEDED error of a file refused at row
// rows by the quota of ref.
func (m *Manager) quotaError(ref *refusal, rows int) error {
	if ref == nil { // not a quota: the store granted less and said nothing
		return fmt.Errorf("jobs: the store counted fewer rows than the quotas allow")
	}
	qe := &QuotaError{Quota: ref.quota, Used: ref.used + rows}
	retry := inFlightRetry
	if !ref.earliest.IsZero() {
		retry = max(ref.earliest.Sub(m.now()).Round(time.Second), time.Second)
	}
	secs := fmt.Sprintf("%ds", int(retry.Seconds()))
	var msg string
	switch ref.quota {
	case QuotaRowsInFlight:
		qe.Limit = m.cfg.MaxOwnerRowsInFlight
		msg = fmt.Sprintf("quota of rows in flight exceeded: a key's jobs that have not ended may hold %d rows; "+
			"this key's others hold %d, and this file passes the quota at row %d. Retry after %s, when a job has ended, or cancel one",
			qe.Limit, ref.used, rows, secs)
	case QuotaRowsStored:
		qe.Limit = m.cfg.MaxOwnerRowsStored
		msg = fmt.Sprintf("quota of rows stored exceeded: a key's stored jobs may hold %d rows until they expire or are deleted; "+
			"this key's others hold %d, and this file passes the quota at row %d. Delete a job, or retry after %s, when the earliest expires",
			qe.Limit, ref.used, rows, secs)
	default:
		qe.Limit, qe.Used = m.cfg.MaxOwnerJobsStored, ref.used
		msg = fmt.Sprintf("quota of jobs stored exceeded: a key may have %d jobs stored until they expire or are deleted, "+
			"and this key has %d. Delete a job, or retry after %s, when the earliest expires", qe.Limit, ref.used, secs)
	}
	return &envelope.Error{Code: envelope.CodeRateLimitExceeded, Message: msg, RetryAfter: retry, Err: qe}
}

// grow returns b with room for n more bytes, its capacity doubled as it
// grows but never past limit (unless n needs it), so that a chunk being
// filled holds no more than its bound.
func grow(b []byte, n, limit int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	c := min(max(2*cap(b), 4096), limit)
	c = max(c, len(b)+n)
	return append(make([]byte, 0, c), b...)
}

// ErrNotFound is wrapped by the error of the operations on a job that
// does not exist, has expired or belongs to another owner: a NOT_FOUND
// envelope error.
var ErrNotFound = errors.New("jobs: no such job")

// ErrNotDone is wrapped by the error of [Manager.Results] while the job
// has not finished: a CONFLICT envelope error.
var ErrNotDone = errors.New("jobs: the job is not done")

func notFound(id string) error {
	return &envelope.Error{Code: envelope.CodeNotFound, Message: "no job " + textcut.Quote(id), Err: ErrNotFound}
}

// validID reports whether id has the shape of a job ID: other strings
// never reach the store.
func validID(id string) bool {
	if len(id) != 32 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil && strings.ToLower(id) == id
}

// load returns the job id of owner, or a NOT_FOUND error.
func (m *Manager) load(ctx context.Context, owner, id string) (*meta, error) {
	if !validID(id) {
		return nil, notFound(id)
	}
	mt, err := m.st.load(ctx, id)
	if err == nil {
		mt, err = m.settle(ctx, id, mt)
	}
	if err != nil {
		return nil, m.storeError(ctx, "load job "+id, err)
	}
	if mt == nil || mt.owner != ownerHash(owner) || !m.now().Before(mt.expires) {
		return nil, notFound(id)
	}
	return mt, nil
}

// Get returns the job id of owner: its status, progress and summary so
// far. A job of another owner, expired or deleted, is a NOT_FOUND error.
func (m *Manager) Get(ctx context.Context, owner, id string) (Job, error) {
	mt, err := m.load(ctx, owner, id)
	if err != nil {
		return Job{}, err
	}
	return m.job(id, mt), nil
}

// cancelReason is the reason of a job cancelled by its owner.
const cancelReason = "cancelled by its owner"

// Cancel cancels the job id of owner and returns it: chunks not yet
// checked are skipped, its rows and the results of the rows checked are
// dropped (a cancelled job has no results), and its rows leave its
// owner's quotas of rows; its record stays until it expires or is
// deleted. A job that has already ended is returned as it is.
func (m *Manager) Cancel(ctx context.Context, owner, id string) (Job, error) {
	mt, err := m.load(ctx, owner, id)
	if err != nil {
		return Job{}, err
	}
	if _, err := m.endJob(ctx, id, mt, StatusCancelled, cancelReason); err != nil {
		return Job{}, m.storeError(ctx, "cancel job "+id, err)
	}
	return m.Get(ctx, owner, id)
}

// Delete deletes the job id of owner when it has ended (done, cancelled or
// failed): its record and results go, and with them its place in its
// owner's quotas, and it is then a NOT_FOUND error. A job that has not
// ended is cancelled instead, as [Manager.Cancel] does, and kept (its
// status says cancelled, its reason why): deleting it takes a second
// call. Delete returns the job as it was before it was deleted, or as
// cancelled.
func (m *Manager) Delete(ctx context.Context, owner, id string) (Job, error) {
	mt, err := m.load(ctx, owner, id)
	if err != nil {
		return Job{}, err
	}
	if !mt.status.final() {
		return m.Cancel(ctx, owner, id)
	}
	j := m.job(id, mt)
	if err := m.st.drop(ctx, id, mt.chunks); err != nil {
		return Job{}, m.storeError(ctx, "delete job "+id, err)
	}
	if err := m.st.release(ctx, mt.owner, id); err != nil {
		m.log.Warn("jobs: uncounting a deleted job", "job", id, "error", err)
	}
	m.st.unqueue(ctx, id)
	return j, nil
}

// ResultHeader returns the header row of the results of a job whose file
// has the given header: every input column, then the columns of
// [email.CSVResultHeader].
func ResultHeader(header []string) []string {
	return append(append([]string(nil), header...), email.CSVResultHeader()...)
}

// Results writes the results of the done job id of owner to w as CSV:
// the header of [ResultHeader], then one row per input row, in input
// order, each input row (padded with empty fields to the header's width)
// followed by its result columns as `quiver email verify-list` writes
// them. It streams the results in pieces of at most 64 KiB, read one at
// a time from the store, so that a download holds one piece whatever the
// chunks' size. While the job is not done it
// returns a CONFLICT error wrapping [ErrNotDone] and writes nothing.
func (m *Manager) Results(ctx context.Context, owner, id string, w io.Writer) error {
	mt, err := m.load(ctx, owner, id)
	if err != nil {
		return err
	}
	if mt.status != StatusDone {
		msg := "job " + id + " is " + string(m.job(id, mt).Status) + ": results are served once it is done"
		if mt.reason != "" {
			msg = "job " + id + " is " + string(mt.status) + " (" + mt.reason + "): it has no results"
		}
		return &envelope.Error{Code: envelope.CodeConflict, Err: ErrNotDone, Message: msg}
	}
	cw := csv.NewWriter(w)
	cw.Write(ResultHeader(mt.header))
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("jobs: writing results: %w", err)
	}
	var werr error
	write := func(p []byte) error {
		_, werr = w.Write(p)
		return werr
	}
	for n := range mt.chunks {
		found, err := m.st.output(ctx, id, n, write)
		switch {
		case werr != nil:
			return fmt.Errorf("jobs: writing results: %w", werr)
		case err != nil:
			return m.storeError(ctx, "read the results of job "+id, err)
		case !found:
			return fmt.Errorf("jobs: results of job %s chunk %d are missing (expired or deleted?)", id, n)
		}
	}
	return nil
}

// stamp is the time stored for an event of a job: UTC, to the
// millisecond, as Redis keeps it, so that created_at and finished_at
// have the same precision on both backends.
func (m *Manager) stamp() time.Time { return m.now().UTC().Truncate(time.Millisecond) }

// job renders the stored state as a Job.
func (m *Manager) job(id string, mt *meta) Job {
	j := Job{
		ID: id, Status: mt.status, Total: mt.total, Done: mt.counts.rows,
		Summary: email.Summary{
			Total: mt.counts.rows, Valid: mt.counts.valid, Invalid: mt.counts.invalid,
			Disposable: mt.counts.disposable, RoleAccounts: mt.counts.role,
			DomainsWithMX: mt.domainsMX, Duplicates: mt.counts.dups,
		},
		CreatedAt: mt.created.UTC(),
	}
	end := m.now()
	if !mt.finished.IsZero() {
		f := mt.finished.UTC()
		j.FinishedAt = &f
		end = f
	}
	if !mt.started.IsZero() && j.Done > 0 {
		if secs := end.Sub(mt.started).Seconds(); secs > 0 {
			j.RowsPerSecond = float64(j.Done) / secs
		}
	}
	if j.Status == statusCreating {
		j.Status = StatusQueued
	}
	if mt.reason != "" {
		r := mt.reason
		j.Reason = &r
	}
	if !mt.status.final() && j.RowsPerSecond > 0 {
		eta := float64(j.Total-j.Done) / j.RowsPerSecond
		j.ETASeconds = &eta
	}
	return j
}
