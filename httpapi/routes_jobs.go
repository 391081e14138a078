package httpapi

import (
	"encoding/hex"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/llm"
)

// jobsExtension opens the OpenAPI description of every bulk job route.
const jobsExtension = "An extension beyond the contract: bulk verification jobs (package email/jobs). "

// jobsUploadSlack is what the body limit of a job upload allows past the
// file's own limit: the multipart headers and the check_* fields.
const jobsUploadSlack = 64 << 10

// jobsRoutes returns the bulk job routes. Without Config.Jobs they answer
// 503 saying how to configure them.
func (s *server) jobsRoutes() []route {
	m := s.cfg.Jobs
	maxBytes := int64(jobs.DefaultMaxBytes)
	if m != nil {
		_, maxBytes = m.Limits()
	}
	unconfigured := func() error {
		// The Go setting is the cause, for Go callers and the logs; the
		// message speaks to the HTTP caller and the server's operator.
		return envelope.Wrap(envelope.CodeServiceUnavailable, errors.New("httpapi.Config.Jobs is nil"),
			"bulk jobs are not configured on this server")
	}
	owner := func(r *http.Request) string {
		ri := info(r.Context())
		return hex.EncodeToString(ri.key[:])
	}
	jobOp := func(fn func(r *http.Request, owner, id string) (jobs.Job, error)) operation {
		return func(r *http.Request) (any, *llm.Usage, error) {
			if m == nil {
				return nil, nil, unconfigured()
			}
			if err := noQuery(r); err != nil {
				return nil, nil, err
			}
			j, err := fn(r, owner(r), r.PathValue("id"))
			return j, nil, err
		}
	}
	jobNotFound := routeError{"JobNotFound", "NOT_FOUND: no job of this key has this ID: it has expired, been deleted, or never was"}
	storeDown := routeError{"JobStoreUnavailable", "SERVICE_UNAVAILABLE with Retry-After: the job store (Redis) refuses writes or does not answer " +
		"(full under maxmemory, read-only, loading, no primary, out of reach); nothing of a refused upload is kept. " +
		"Without Redis: the in-process queue holds its memory limit"}
	notFound := map[string]routeError{"404": jobNotFound, "503": storeDown}
	return []route{
		{
			method: http.MethodPost, path: "/v1/email/bulk/jobs", group: groupEmail, status: http.StatusAccepted,
			summary: "Submit a CSV list for a bulk verification job (header row, up to 1,000,000 rows and 64 MiB by default)",
			description: jobsExtension + "The multipart upload of bulk/validate-csv (address column: email, else the first), " +
				"with optional fields check_mx, check_disposable and check_role_account (true or false, default true) sent before the file part. " +
				"Answers 202 with the job; GET /v1/email/bulk/jobs/{id} follows it. The job belongs to the key that submitted it. " +
				"The file is streamed: a row over 64 KiB (line end included) is refused with 400 as soon as it passes that bound, " +
				"a header of more than 1,000 columns with 400; the fields before the file part (and any part after it) may take 64 KiB. " +
				"The results keep every byte of the file's fields, a quoted \"\\r\\n\" included. " +
				"Each key has quotas, counted while the file is read: rows in flight (of its jobs not ended: 1,000,000 by default), " +
				"rows stored (of its jobs not cancelled nor failed, until they expire or are deleted: 1,000,000) and jobs stored (1,000); " +
				"a file that passes one is refused at the row that does with 429 naming the quota and its value, " +
				"Retry-After 60 s for rows in flight, else the time until the key's earliest job expires. " +
				"A job's results that cannot be stored (a full Redis) are retried, the job waiting longer each time while other jobs go on; " +
				"after -job-store-retry (2 minutes) it fails, its reason saying why.",
			form: true, maxBody: maxBytes + jobsUploadSlack, response: typeOf[jobs.Job](),
			requestExample: `{"file":"name,email\nAna,ana.torres@example.com\nBo,info@example.com\n"}`,
			weight:         jobUploadKind,
			errors: map[string]routeError{
				"429": {"JobQuotaExceeded", "RATE_LIMIT_EXCEEDED with Retry-After: the request rate of the key, or a quota of its jobs " +
					"(rows in flight, rows stored, jobs stored), named with its value in the message"},
				"503": storeDown,
			},
			formFields: []string{"check_mx", "check_disposable", "check_role_account"},
			// 64 MiB take minutes over a slow link: each read is bounded,
			// not the whole upload.
			upload: true,
			op: func(r *http.Request) (any, *llm.Usage, error) {
				if m == nil {
					return nil, nil, unconfigured()
				}
				req, err := jobUpload(r)
				if err != nil {
					return nil, nil, err
				}
				req.Owner = owner(r)
				j, err := m.Submit(r.Context(), req)
				return j, nil, err
			},
		},
		{
			method: http.MethodGet, path: "/v1/email/bulk/jobs/{id}", group: groupEmail,
			summary: "The status, progress and summary so far of a bulk verification job",
			description: jobsExtension + "A job of another key, expired (after 7 days by default) or deleted, is 404. " +
				"A cancelled or failed job says why in reason.",
			response: typeOf[jobs.Job](), errors: notFound,
			op: jobOp(func(r *http.Request, owner, id string) (jobs.Job, error) {
				return m.Get(r.Context(), owner, id)
			}),
		},
		{
			method: http.MethodGet, path: "/v1/email/bulk/jobs/{id}/results", group: groupEmail,
			summary: "The results of a done bulk verification job as CSV, in input order",
			description: jobsExtension + "text/csv, streamed: every input column followed by the columns of `quiver email verify-list` " +
				"(is_valid, reason, normalized_email, is_disposable, is_role_account, is_free_provider, has_mx_records, mx_status, did_you_mean). " +
				"409 CONFLICT in the envelope while the job is not done.",
			csv: func(w io.Writer, r *http.Request) error {
				if m == nil {
					return unconfigured()
				}
				if err := noQuery(r); err != nil {
					return err
				}
				return m.Results(r.Context(), owner(r), r.PathValue("id"), w)
			},
			errors: map[string]routeError{
				"404": jobNotFound,
				"409": {"JobNotDone", "CONFLICT: the job is not done (queued, running, cancelled or failed): it has no results to fetch"},
				"503": storeDown,
			},
			// A million rows take minutes over a slow link: each write
			// is bounded, not the whole download.
			download: true,
		},
		{
			method: http.MethodDelete, path: "/v1/email/bulk/jobs/{id}", group: groupEmail,
			summary: "Cancel a bulk verification job, or delete one that has ended",
			description: jobsExtension + "A job that has not ended (queued or running) is cancelled: chunks not yet checked are skipped, " +
				"its rows and the results of the rows checked are dropped, its rows leave the key's quotas, " +
				"and it is kept, cancelled with its reason, until it expires or a second DELETE. " +
				"A job that has ended (done, cancelled or failed) is deleted with its results: it leaves the key's quotas, and GET is then 404. " +
				"Answers 200 with the job: as cancelled, or as it was before it was deleted.",
			response: typeOf[jobs.Job](), errors: notFound,
			op: jobOp(func(r *http.Request, owner, id string) (jobs.Job, error) {
				return m.Delete(r.Context(), owner, id)
			}),
		},
	}
}

// errPartsTooLarge is the error of an upload whose parts around the file
// take more than jobsUploadSlack bytes.
var errPartsTooLarge = errors.New("the parts around the file part are too large")

// partsLimit bounds the bytes read from an upload's body while it is on:
// before the file part and after it, where mime/multipart reads a part's
// headers whole (up to 10 MiB) and the check_* fields are. The file part
// itself streams through csvrec, bounded there.
type partsLimit struct {
	io.ReadCloser
	left int64
	on   bool
}

func (l *partsLimit) Read(p []byte) (int, error) {
	if !l.on {
		return l.ReadCloser.Read(p)
	}
	if l.left <= 0 {
		return 0, errPartsTooLarge
	}
	n, err := l.ReadCloser.Read(p[:min(int64(len(p)), l.left)])
	l.left -= int64(n)
	return n, err
}

func (l *partsLimit) limit(on bool) { l.on, l.left = on, jobsUploadSlack }

// partsError is multipartError, naming the limit of the parts around the
// file.
func partsError(err error) error {
	if errors.Is(err, errPartsTooLarge) {
		return envelope.Invalidf("file", "the fields before the file part, or a part after it, take more than %d bytes", jobsUploadSlack)
	}
	var ee *envelope.Error
	var ve *envelope.ValidationError
	if errors.As(err, &ee) || errors.As(err, &ve) {
		return err
	}
	return multipartError(err)
}

// jobUpload reads the check_* fields of a job upload up to its file part
// and returns the request with the file part as its File. The file must
// be the last part: a part after it is an error of the upload when the
// file has been read. Before the file part and after it, at most
// jobsUploadSlack bytes are read.
func jobUpload(r *http.Request) (jobs.SubmitRequest, error) {
	var req jobs.SubmitRequest
	lim := &partsLimit{ReadCloser: r.Body}
	lim.limit(true)
	r.Body = lim
	mr, err := multipartBody(r)
	if err != nil {
		return req, err
	}
	for {
		part, err := nextPart(mr)
		if lim.left <= 0 {
			err = errPartsTooLarge // however multipart wrapped it
		}
		if err != nil {
			return req, partsError(err)
		}
		name := part.FormName()
		if isFilePart(part) {
			lim.limit(false)
			req.File = &lastPart{part: part, mr: mr, lim: lim}
			return req, nil
		}
		var dst **bool
		switch name {
		case "check_mx":
			dst = &req.CheckMX
		case "check_disposable":
			dst = &req.CheckDisposable
		case "check_role_account":
			dst = &req.CheckRoleAccount
		default:
			return req, envelope.Invalidf(textcut.Excerpt(name), "is not a known field: the fields are check_mx, check_disposable, check_role_account and the file")
		}
		if *dst != nil {
			return req, envelope.Invalid(name, "is given twice")
		}
		v, err := io.ReadAll(io.LimitReader(part, 16))
		if err != nil {
			return req, partsError(err)
		}
		b, perr := strconv.ParseBool(strings.TrimSpace(string(v)))
		if perr != nil {
			return req, envelope.Invalid(name, "must be true or false")
		}
		*dst = &b
	}
}

// lastPart reads the file part of a job upload and, at its end, checks
// that no part follows: a check_* field sent after the file would be
// ignored otherwise.
type lastPart struct {
	part *multipart.Part
	mr   *multipart.Reader
	lim  *partsLimit
}

func (p *lastPart) Read(b []byte) (int, error) {
	n, err := p.part.Read(b)
	if errors.Is(err, io.EOF) {
		p.lim.limit(true)
		next, nerr := p.mr.NextPart()
		if p.lim.left <= 0 {
			nerr = errPartsTooLarge
		}
		switch {
		case errors.Is(nerr, io.EOF):
		case nerr != nil:
			return n, partsError(nerr)
		default:
			return n, envelope.Invalidf(textcut.Excerpt(next.FormName()), "must come before the file part")
		}
	} else if err != nil {
		return n, multipartError(err)
	}
	return n, err
}

// csvWriter writes a streamed CSV answer: the header goes out with the
// first bytes, and each slice of at most csvSlice bytes gets
// Config.SlowWriteTimeout, so that a client that reads steadily may take
// its time, whatever the size of a write, and one that stops does not
// hold the stream.
type csvWriter struct {
	w       http.ResponseWriter
	timeout time.Duration
	started bool
}

// csvSlice is the most a streamed CSV answer writes under one deadline:
// at SlowWriteTimeout's default of 10 s, a client reading 4 KB a second
// keeps up.
const csvSlice = 32 << 10

func (c *csvWriter) Write(b []byte) (int, error) {
	if !c.started {
		c.started = true
		h := c.w.Header()
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		c.w.WriteHeader(http.StatusOK)
	}
	rc := http.NewResponseController(c.w)
	n := 0
	for first := true; first || len(b) > 0; first = false {
		p := b[:min(len(b), csvSlice)]
		if c.timeout > 0 {
			_ = rc.SetWriteDeadline(time.Now().Add(c.timeout))
		}
		m, err := c.w.Write(p)
		n += m
		if err != nil {
			return n, err
		}
		b = b[len(p):]
	}
	return n, nil
}
