package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/quiverkit/quiver/envelope"
)

// respond writes the envelope of a call: the one place where responses are
// encoded. A nil err is success with data; otherwise the error is
// classified by envelope.From, and INTERNAL_ERROR causes are logged, never
// sent.
func (s *server) respond(w http.ResponseWriter, r *http.Request, data any, ai *envelope.AI, err error) {
	s.respondStatus(w, r, http.StatusOK, data, ai, err)
}

// respondStatus is respond with the status of success: 200, or 202 for
// a job accepted.
func (s *server) respondStatus(w http.ResponseWriter, r *http.Request, status int, data any, ai *envelope.AI, err error) {
	meta := envelope.Meta{RequestID: requestID(r.Context()), AI: ai}
	s.metrics.ObserveAI(ai)
	if err == nil {
		s.write(w, status, envelope.Success(data, meta))
		return
	}
	if errors.Is(err, context.Canceled) && errors.Is(r.Context().Err(), context.Canceled) {
		// The client went away and the operation stopped for it: no one
		// reads an answer, and it is not our fault. Record nginx's 499
		// "client closed request" for the access log and the metrics.
		s.log.InfoContext(r.Context(), "client closed request", "request_id", meta.RequestID)
		w.WriteHeader(statusClientClosed)
		return
	}
	e := boundError(envelope.From(err))
	if e.Code == envelope.CodeInternal {
		s.log.ErrorContext(r.Context(), "internal error", "request_id", meta.RequestID, "error", err)
		e = &envelope.Error{Code: envelope.CodeInternal, Message: "internal error; quote request " + meta.RequestID + " when reporting it"}
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", retryAfterSeconds(e.RetryAfter))
	}
	s.write(w, e.HTTPStatus(), envelope.Envelope{Error: e, Meta: meta})
}

// fail writes an error envelope with the given code and message.
func (s *server) fail(w http.ResponseWriter, r *http.Request, code envelope.Code, message string) {
	s.respond(w, r, nil, nil, &envelope.Error{Code: code, Message: message})
}

func (s *server) write(w http.ResponseWriter, status int, env envelope.Envelope) {
	// Encode before the header goes out, so that data JSON cannot carry
	// (a NaN, say) still gets an envelope, not a 200 with an empty body.
	buf, _ := s.bufs.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer func() {
		if buf.Cap() <= 64<<10 { // do not keep the odd huge response alive
			buf.Reset()
			s.bufs.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(env); err != nil {
		s.log.Error("encoding response", "request_id", env.Meta.RequestID, "error", err)
		status = http.StatusInternalServerError
		buf.Reset()
		enc.Encode(envelope.Envelope{
			Error: &envelope.Error{Code: envelope.CodeInternal, Message: "internal error; quote request " + env.Meta.RequestID + " when reporting it"},
			Meta:  envelope.Meta{RequestID: env.Meta.RequestID},
		})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	s.boundWrite(w, buf.Len())
	w.WriteHeader(status)
	if _, err := w.Write(buf.Bytes()); err != nil {
		s.log.Debug("writing response", "request_id", env.Meta.RequestID, "error", err)
	}
}

// retryAfterSeconds renders d as whole seconds, rounded up, at least 1.
func retryAfterSeconds(d time.Duration) string {
	secs := int64((d + time.Second - 1) / time.Second)
	return strconv.FormatInt(max(secs, 1), 10)
}

// streamCSV serves a route that answers text/csv: an error before the
// first byte is the envelope's; one after it aborts the connection, so
// that the client sees a cut answer, never a short one that looks whole.
func (s *server) streamCSV(w http.ResponseWriter, r *http.Request, rt route) {
	cw := &csvWriter{w: w, timeout: s.cfg.SlowWriteTimeout}
	err := rt.csv(cw, r)
	if err == nil {
		if !cw.started {
			cw.Write(nil)
		}
		return
	}
	if !cw.started {
		s.respond(w, r, nil, nil, err)
		return
	}
	// A client that goes mid-download is ordinary: only a failure on a
	// live request is worth a warning.
	level := slog.LevelWarn
	if r.Context().Err() != nil {
		level = slog.LevelDebug
	}
	s.log.Log(r.Context(), level, "streaming CSV failed", "request_id", requestID(r.Context()), "error", err)
	panic(http.ErrAbortHandler)
}
