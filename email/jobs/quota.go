package jobs

import (
	"errors"
	"fmt"
	"time"
)

// Quota names a bound of an owner's jobs: see Config.MaxOwnerRowsInFlight,
// MaxOwnerRowsStored and MaxOwnerJobsStored.
type Quota string

// The quotas of an owner's jobs.
const (
	// QuotaRowsInFlight bounds the rows of the jobs that have not ended:
	// being uploaded, queued or running.
	QuotaRowsInFlight Quota = "rows_in_flight"
	// QuotaRowsStored bounds the rows of the jobs stored: being uploaded,
	// queued, running or done (a cancelled or failed job keeps no rows).
	QuotaRowsStored Quota = "rows_stored"
	// QuotaJobsStored bounds the jobs stored, whatever their status.
	QuotaJobsStored Quota = "jobs_stored"
)

// ErrQuotaExceeded is wrapped by the error of a submission over a quota
// of its owner: a RATE_LIMIT_EXCEEDED envelope error whose Err is a
// *[QuotaError].
var ErrQuotaExceeded = errors.New("jobs: over a quota of the owner's jobs")

// QuotaError says which quota a submission passed.
type QuotaError struct {
	// Quota is the quota passed.
	Quota Quota
	// Limit is its value.
	Limit int
	// Used is what the owner's jobs held when the submission was
	// refused, the submission's rows so far included.
	Used int
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("jobs: quota %s of %d passed (%d used)", e.Quota, e.Limit, e.Used)
}

// Unwrap returns ErrQuotaExceeded.
func (e *QuotaError) Unwrap() error { return ErrQuotaExceeded }

// inFlightRetry is the Retry-After of a submission over the quota of rows
// in flight: jobs end as they are checked.
const inFlightRetry = time.Minute

// uploadSilence is how long an upload may go without counting more rows
// before its owner's index forgets it (its uploader presumed dead); a
// live upload refreshes its count every quarter of it.
const uploadSilence = 10 * time.Minute

// ownerEntry is a job in its owner's index.
type ownerEntry struct {
	h       held
	rows    int
	expires time.Time
	updated time.Time
}

// grant is the reservation of the quotas, over the index es of an owner
// (the Lua of the Redis store does the same): job id is granted up to
// want rows, as the quotas allow.
func grant(es map[string]*ownerEntry, id string, want int, expires time.Time, q quotas, now time.Time) (has int, ref *refusal) {
	var inFlight, stored, jobs int
	var earliestStored, earliestJob time.Time
	earlier := func(t *time.Time, e time.Time) {
		if t.IsZero() || e.Before(*t) {
			*t = e
		}
	}
	for k, e := range es {
		if !now.Before(e.expires) {
			delete(es, k)
			continue
		}
		jobs++
		earlier(&earliestJob, e.expires)
		if k == id {
			continue
		}
		if e.h.inFlight() {
			inFlight += e.rows
		}
		if e.h.stored() {
			stored += e.rows
			earlier(&earliestStored, e.expires)
		}
	}
	e := es[id]
	if e == nil {
		if q.jobs >= 0 && jobs >= q.jobs {
			return 0, &refusal{quota: QuotaJobsStored, used: jobs, earliest: earliestJob}
		}
		e = &ownerEntry{h: heldUploading, expires: expires}
	}
	allowed := want
	if q.rowsInFlight >= 0 && inFlight+allowed > q.rowsInFlight {
		allowed = q.rowsInFlight - inFlight
		ref = &refusal{quota: QuotaRowsInFlight, used: inFlight}
	}
	if q.rowsStored >= 0 && stored+allowed > q.rowsStored {
		allowed = q.rowsStored - stored
		ref = &refusal{quota: QuotaRowsStored, used: stored, earliest: earliestStored}
	}
	has = max(allowed, e.rows, 0) // what was granted is never taken back
	if has >= want {
		ref = nil
	}
	if has == 0 && es[id] == nil {
		return 0, ref
	}
	e.rows, e.updated = has, now
	es[id] = e
	return has, ref
}
