// Package jobs runs bulk email verification jobs: a CSV list of up to a
// million rows is uploaded once, checked by workers on every instance
// that shares a Redis, and its results are read back as CSV in input
// order. It is the engine of the /v1/email/bulk/jobs routes, an
// extension beyond the contract.
//
// A [Manager] is built by [New]. [Manager.Submit] reads the CSV once and
// stores its rows in chunks of Config.ChunkRows rows or Config.ChunkBytes
// bytes, whichever comes first (one chunk in memory at a time; a row over
// MaxRowBytes is refused as soon as it passes it), counting them against
// its owner's quotas as they come, then queues the chunks; [Manager.Run]
// checks them; [Manager.Get], [Manager.Results], [Manager.Cancel] and
// [Manager.Delete] serve the owner of a job. Every operation of a job
// takes its owner (for the HTTP routes, the API key): only the owner's
// SHA-256 is stored, and another owner is told the job does not exist.
//
// # The flow
//
//	client ──POST file──▶ API instance: Submit
//	                        │ rows  ─▶ owner:{o}        (quotas: counted ahead, a chunk at a time)
//	                        │ rows  ─▶ {id}:in:0..N-1   (SET, PXAT expiry)
//	                        │ job   ─▶ {id}:meta        (hash: owner, status, counters)
//	                        └ queue ─▶ {q}:j:id, {q}:o:owner, {q}:ring
//	                                     │
//	       every instance with Run ──────┤ claim script: a chunk whose worker went silent,
//	                                     │ else the next owner's next job's next chunk
//	                                     ▼
//	                 worker: GET in:n ─▶ Verifier.ValidateStream ─▶ CSV rows
//	                         finish script: SET out:n once, HINCRBY counters,
//	                                        SADD duplicate keys and MX domains,
//	                                        last chunk ─▶ status done
//	                         ack script (or, when the results could not be
//	                         stored, put back: the job waits)
//	client ──GET results──▶ any instance: GET out:0..N-1 in order ─▶ text/csv
//
// # Decisions
//
//   - Fair turns. The queue is a ring of the owners that have chunks to
//     hand out; each owner has its jobs in turn, each job a cursor over
//     its chunks. A claim (one Lua script, on the queue's hash slot
//     {q}) takes the next owner of the ring and the next job of that
//     owner, hands out its next chunk, and puts both at the end of their
//     turns. So a job of three rows waits for the chunks in hand, not
//     for the million rows queued before it, whoever submitted them; and
//     an owner's small job does not wait for its own large one either.
//     A worker with nothing to do waits on a list that new jobs push to.
//   - Crash safety and many instances: a chunk handed out is
//     leased (a sorted set, by when its worker last showed life); a
//     worker checking a chunk shows life every third of
//     Config.ClaimIdle, and a chunk whose worker has been silent for
//     ClaimIdle (it died) is claimed again, first; a chunk handed out
//     more than Config.MaxAttempts times fails its job. Results are
//     written once (see below), so a chunk checked twice is stored once.
//   - A full or failing store is not a crash. A write that Redis refuses
//     (OOM under maxmemory with noeviction, READONLY, LOADING,
//     MASTERDOWN, a lost connection or a timeout) is SERVICE_UNAVAILABLE
//     with Retry-After (an error wrapping ErrStoreUnavailable), and
//     nothing of a refused submission is kept. A running job whose
//     results cannot be stored puts its chunk back and waits, 250 ms
//     after the first failure, doubled after each (at most 30 s); the
//     worker goes on with other jobs. After Config.StoreRetry of
//     failures (2 minutes) the job fails, its reason saying why, and its
//     rows and results are dropped, which frees the store for the
//     others. The scripts that move no data (claim, put back, ack, end)
//     are flagged allow-oom, so that a full Redis still hands out the
//     chunks of other owners and ends jobs; the scripts that store data
//     are refused at their first write. So Redis 7.0 or later is needed.
//   - Quotas per owner: rows in flight (of its jobs that have not
//     ended), rows stored (of its jobs being uploaded, queued, running or
//     done) and jobs stored, Config.MaxOwnerRowsInFlight,
//     MaxOwnerRowsStored and MaxOwnerJobsStored. An owner's index (a hash in
//     the owner's hash slot: job, state, rows, expiry) is the count; one
//     script reads it and grants rows, so concurrent submissions of one
//     owner cannot pass a quota together. Rows are granted a chunk ahead
//     while the file is read, and a file is refused (RATE_LIMIT_EXCEEDED,
//     an error wrapping ErrQuotaExceeded, a *QuotaError naming the quota
//     and its value) at the row that passes one; what it was granted
//     goes back. The index and the jobs live in different slots, so a
//     crash between a job's end and its index's update can leave the
//     index counting it: a refused file first repairs the index (entries
//     of jobs ended or gone, uploads silent for 10 minutes) and asks
//     again.
//   - Cancel and Delete. A cancelled or failed job drops its rows and
//     the results of the rows checked (it has no results to serve), and
//     leaves the quotas of rows; its record stays, with its reason,
//     until it expires, so that its owner can see why. Delete of a job
//     that has ended deletes it, record and results: it leaves every
//     quota, and is not found after. Delete of a job that has not ended
//     cancels it, as Cancel does: deleting takes a second call, so that
//     a job is never deleted before its owner has seen how it ended.
//   - Submitting is made safe against a crash without a transaction
//     spanning two cluster slots: the job record is written as
//     "creating" (shown as queued), its chunks are queued, then it turns
//     queued. A worker that gets a chunk of a creating job puts it back
//     for a moment; a job still creating 5 minutes after its queueing
//     began (its creator died mid-way) is failed when next read.
//   - Every script touches the keys of one cluster hash slot: a job's
//     ({id}), the queue's ({q}) or an owner's index's; the Manager
//     orders the steps between them so that a crash between two leaves
//     nothing blocked for good.
//   - Results are written once: a Lua script stores a chunk's rows only
//     when its result key does not exist yet, and moves the counters in
//     the same step, so a chunk checked twice (its first worker was slow,
//     not dead) is stored and counted once.
//   - The summary is that of POST /v1/email/bulk/validate, built as chunks
//     end: duplicates are counted exactly over the whole list with a
//     Redis set of 96-bit hashes of each row's duplicate key (deleted
//     when the job ends); domains_with_mx is the size of a set of domains.
//   - Every key of a job expires at submission time plus Config.TTL; an
//     owner's index expires with its last job.
//   - Without Redis the same Manager runs on an in-process queue: jobs
//     live in this process's memory (rows included) and are lost when it
//     ends; Submit and Run must be on the same Manager.
//   - The workers keep the process under Config.CPUs cores on average
//     (GOMAXPROCS-1 by default): after each chunk, when the process has
//     been busier than that since the previous one (the CPU time the
//     system counts for the process, where it is known: on Unix), they
//     pause for as long as the excess took. Rows answered from the DNS
//     cache take only CPU, and a large job of them unpaced keeps both
//     cores of a 2-core machine busy: a cheap route's p99 went from 1.5
//     to 21 ms. Paced, it stays under 10 ms; the job pays in time what
//     the routes need, more when they are busy, nothing while its rows
//     wait on DNS.
//   - Rows are checked by the Verifier of Config.Verifier with
//     ValidateStream: the checks of a bulk validation, never the SMTP
//     probe, each chunk's domains looked up once through the shared
//     resolver and its cache. A worker has one chunk in flight per
//     Config.Workers and at most the Verifier's Concurrency rows per
//     chunk: give the jobs a Verifier of their own with a lower
//     Concurrency (on the same resolver) to keep DNS capacity for the
//     synchronous routes.
//   - The CSV is read by a streaming reader of the dialect of
//     encoding/csv (BOM, CRLF or LF, blank lines skipped, quoted fields,
//     any number of fields per row, the same errors and line numbers)
//     under the column rule of email.AddressColumn, through a 16 KiB
//     buffer: a row is refused as soon as it passes MaxRowBytes, so an
//     upload is never held whole, and Submit holds at most UploadMemory
//     of a file whatever its size. Unlike encoding/csv, it keeps every
//     byte of a quoted field: "\r\n" inside quotes comes back as "\r\n".
//     The stored chunks (and, on Redis, the header) are not CSV but each
//     field's length and bytes, so that every byte is kept; the results
//     are verify-list's columns (email.CSVResultHeader) after every
//     input column, written by encoding/csv's writer, which writes the
//     bytes of a field as they are (quoted when they need it). So a
//     job's results equal verify-list's output of the same file, which
//     reads it with the same reader. A header wider than MaxColumns is
//     refused: each result row is padded to it.
//
// # Metrics
//
// With Config.Metrics set, New registers:
//
//	quiver_email_jobs_total{status}        jobs that entered a status through this process
//	quiver_email_job_rows_total            rows checked and stored by this process's workers
//	quiver_email_job_chunk_retries_total   chunks claimed again from a worker presumed dead
//	quiver_email_job_queue_depth           chunks queued or being checked (-1 when the store fails)
package jobs
