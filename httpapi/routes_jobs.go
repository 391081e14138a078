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
)

// jobsExtension opens the OpenAPI description of every bulk job route.
const jobsExtension = "An extension beyond the Quiver specification: bulk verification jobs (package email/jobs). "

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
			"bulk jobs are not configured on this server (quiver serve runs them with -workers, sharing them through -redis-url)")
	}
	owner := func(r *http.Request) string {
		ri := info(r.Context())
		return hex.EncodeToString(ri.key[:])
	}
	jobOp := func(fn func(r *http.Request, owner, id string) (jobs.Job, error)) operation {
		return func(r *http.Request) (any, *envelope.AI, error) {
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
	jobNotFound := routeError{"JobNotFound", "NOT_FOUND: no job of this key has this ID, or it has expired"}
	notFound := map[string]routeError{"404": jobNotFound}
	return []route{
		{
			method: http.MethodPost, path: "/v1/email/bulk/jobs", group: groupEmail, status: http.StatusAccepted,
			summary: "Submit a CSV list for a bulk verification job (header row, up to 1,000,000 rows and 64 MiB by default)",
			description: jobsExtension + "The multipart upload of bulk/validate-csv (address column: email, else the first), " +
				"with optional fields check_mx, check_disposable and check_role_account (true or false, default true) sent before the file part. " +
				"Answers 202 with the job; GET /v1/email/bulk/jobs/{id} follows it. The job belongs to the key that submitted it.",
			form: true, maxBody: maxBytes + jobsUploadSlack, response: typeOf[jobs.Job](),
			formFields: []string{"check_mx", "check_disposable", "check_role_account"},
			// 64 MiB take minutes over a slow link: each read is bounded,
			// not the whole upload.
			upload: true,
			op: func(r *http.Request) (any, *envelope.AI, error) {
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
			summary:     "The status, progress and summary so far of a bulk verification job",
			description: jobsExtension + "A job of another key, or expired (after 7 days by default), is 404.",
			response:    typeOf[jobs.Job](), errors: notFound,
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
			},
			// A million rows take minutes over a slow link: each write
			// is bounded, not the whole download.
			download: true,
		},
		{
			method: http.MethodDelete, path: "/v1/email/bulk/jobs/{id}", group: groupEmail,
			summary:     "Cancel a bulk verification job",
			description: jobsExtension + "Chunks not yet checked are skipped; answers 200 with the job. A job that has ended is returned as it is.",
			response:    typeOf[jobs.Job](), errors: notFound,
			op: jobOp(func(r *http.Request, owner, id string) (jobs.Job, error) {
				return m.Cancel(r.Context(), owner, id)
			}),
		},
	}
}

// jobUpload reads the check_* fields of a job upload up to its file part
// and returns the request with the file part as its File. The file must
// be the last part: a part after it is an error of the upload when the
// file has been read.
func jobUpload(r *http.Request) (jobs.SubmitRequest, error) {
	var req jobs.SubmitRequest
	mr, err := multipartBody(r)
	if err != nil {
		return req, err
	}
	for {
		part, err := nextPart(mr)
		if err != nil {
			return req, err
		}
		name := part.FormName()
		if isFilePart(part) {
			req.File = &lastPart{part: part, mr: mr}
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
			return req, envelope.Invalidf(envelope.Excerpt(name), "is not a known field: the fields are check_mx, check_disposable, check_role_account and the file")
		}
		if *dst != nil {
			return req, envelope.Invalid(name, "is given twice")
		}
		v, err := io.ReadAll(io.LimitReader(part, 16))
		if err != nil {
			return req, multipartError(err)
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
}

func (p *lastPart) Read(b []byte) (int, error) {
	n, err := p.part.Read(b)
	if errors.Is(err, io.EOF) {
		next, nerr := p.mr.NextPart()
		switch {
		case errors.Is(nerr, io.EOF):
		case nerr != nil:
			return n, multipartError(nerr)
		default:
			return n, envelope.Invalidf(envelope.Excerpt(next.FormName()), "must come before the file part")
		}
	} else if err != nil {
		return n, multipartError(err)
	}
	return n, err
}

// csvWriter writes a streamed CSV answer: the header goes out with the
// first bytes, and each write gets Config.SlowWriteTimeout, so that a
// client that reads steadily may take its time and one that stops does
// not hold the stream.
type csvWriter struct {
	w       http.ResponseWriter
	timeout time.Duration
	started bool
}

func (c *csvWriter) Write(b []byte) (int, error) {
	if !c.started {
		c.started = true
		h := c.w.Header()
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		c.w.WriteHeader(http.StatusOK)
	}
	if c.timeout > 0 {
		_ = http.NewResponseController(c.w).SetWriteDeadline(time.Now().Add(c.timeout))
	}
	return c.w.Write(b)
}
