// Package jobs runs bulk email verification jobs: a CSV list of up to a
// million rows is uploaded once, checked by workers on every instance
// that shares a Redis, and its results are read back as CSV in input
// order. It is the engine of the /v1/email/bulk/jobs routes, an
// extension beyond the Quiver specification.
//
// A [Manager] is built by [New]. [Manager.Submit] reads the CSV once and
// stores its rows in chunks of Config.ChunkRows rows or Config.ChunkBytes
// bytes, whichever comes first (one chunk in memory at a time; a row over
// MaxRowBytes is refused as soon as it passes it), then queues the chunks; [Manager.Run] checks them;
// [Manager.Get], [Manager.Results] and [Manager.Cancel] serve the owner of
// a job. Every operation of a job takes its owner (for the HTTP routes,
// the API key): only the owner's SHA-256 is stored, and another owner is
// told the job does not exist.
//
// # The flow
//
//	client ──POST file──▶ API instance: Submit
//	                        │ rows ─▶ {id}:in:0..N-1   (SET, PXAT expiry)
//	                        │ job  ─▶ {id}:meta        (hash: owner, status, counters)
//	                        └ XADD ─▶ stream  [job,chunk] x N
//	                                     │
//	       consumer group "workers" ─────┤ XREADGROUP ">"   (new chunks)
//	       (every instance with Run)     │ XAUTOCLAIM idle  (chunks of dead workers)
//	                                     ▼
//	                 worker: GET in:n ─▶ Verifier.ValidateStream ─▶ CSV rows
//	                         finish script: SET out:n once, HINCRBY counters,
//	                                        SADD duplicate keys and MX domains,
//	                                        last chunk ─▶ status done
//	                         XACK + XDEL
//	client ──GET results──▶ any instance: GET out:0..N-1 in order ─▶ text/csv
//
// # Decisions
//
//   - Redis Streams with one consumer group is the queue. A chunk is
//     acked and deleted from the stream once its results are stored, so
//     the stream's length is the queue depth. A worker checking a chunk
//     resets its idle time (XCLAIM with min-idle 0, JUSTID) every third
//     of Config.ClaimIdle; a chunk idle longer than that (its worker died)
//     is claimed by another with XAUTOCLAIM; a chunk handed out more than
//     Config.MaxAttempts times fails its job. A job that ends cancelled or
//     failed drops its unchecked rows at once.
//   - Submitting is made safe against a crash without a transaction
//     spanning two cluster slots: the job record is written as
//     "creating" (shown as queued), its chunks are queued, then it turns
//     queued. A worker that gets a chunk of a creating job waits for it;
//     a job still creating 5 minutes after its queueing began (its
//     creator died mid-way) is failed when next read.
//   - Results are written once: a Lua script stores a chunk's rows only
//     when its result key does not exist yet, and moves the counters in
//     the same step, so a chunk checked twice (its first worker was slow,
//     not dead) is stored and counted once.
//   - The summary is that of POST /v1/email/bulk/validate, built as chunks
//     end: duplicates are counted exactly over the whole list with a
//     Redis set of 96-bit hashes of each row's duplicate key (deleted
//     when the job ends); domains_with_mx is the size of a set of domains.
//   - Every key of a job expires at submission time plus Config.TTL.
//   - Without Redis the same Manager runs on an in-process queue: jobs
//     live in this process's memory (rows included) and are lost when it
//     ends; Submit and Run must be on the same Manager.
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
//     job's results equal verify-list's output of the same file, but for
//     a quoted "\r\n", which verify-list reads as "\n". A header wider
//     than MaxColumns is refused: each result row is padded to it.
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
