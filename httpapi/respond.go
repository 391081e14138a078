package httpapi

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/meter"
	"github.com/quiverkit/quiver/llm"
)

// respond writes the envelope of a call: the one place where responses are
// encoded. A nil err is success with data; otherwise the error is
// classified by envelope.From, and INTERNAL_ERROR causes are logged, never
// sent.
func (s *server) respond(w http.ResponseWriter, r *http.Request, data any, ai *llm.Usage, err error) {
	s.respondStatus(w, r, http.StatusOK, data, ai, err)
}

// respondStatus is respond with the status of success: 200, or 202 for
// a job accepted.
func (s *server) respondStatus(w http.ResponseWriter, r *http.Request, status int, data any, ai *llm.Usage, err error) {
	meta := envelope.Meta{RequestID: requestID(r.Context()), Usage: ai}
	if ai != nil {
		s.metrics.ObserveAI(ai.Model, ai.PromptTokens, ai.CompletionTokens, ai.CostUSD)
	}
	if err == nil {
		s.write(w, r, status, envelope.Success(data, meta))
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
	s.write(w, r, e.HTTPStatus(), envelope.Envelope{Error: e, Meta: meta})
}

// fail writes an error envelope with the given code and message.
func (s *server) fail(w http.ResponseWriter, r *http.Request, code envelope.Code, message string) {
	s.respond(w, r, nil, nil, &envelope.Error{Code: code, Message: message})
}

// write encodes env and writes it. The encoding streams into a buffer
// that charges the request's ticket (its meter, see admit) as it grows
// past the base weight every request holds; an answer that the ticket
// refuses is not sent: the refusal is, a 429 or 503 with Retry-After.
// Encoding before the header goes out also gives data that JSON cannot
// carry (a NaN, say) an envelope, not a 200 with an empty body.
func (s *server) write(w http.ResponseWriter, r *http.Request, status int, env envelope.Envelope) {
	buf, _ := s.bufs.Get().(*answerBuffer)
	if buf == nil {
		buf = new(answerBuffer)
	}
	defer func() {
		buf.reset(nil)
		s.bufs.Put(buf)
	}()
	buf.reset(meter.From(r.Context()))
	if err := encodeJSON(buf, env); err != nil {
		var refusal *envelope.Error
		if errors.As(buf.refused, &refusal) {
			// Not sent: what the encoding held goes back with the ticket.
			s.log.InfoContext(r.Context(), "answer refused by admission", "request_id", env.Meta.RequestID, "bytes_encoded", buf.n, "code", refusal.Code)
			if refusal.Code == envelope.CodeRateLimitExceeded {
				s.metrics.RateLimited()
			}
			w.Header().Set("Retry-After", retryAfterSeconds(refusal.RetryAfter))
			env, status = envelope.Envelope{Error: refusal, Meta: envelope.Meta{RequestID: env.Meta.RequestID}}, refusal.HTTPStatus()
		} else {
			s.log.Error("encoding response", "request_id", env.Meta.RequestID, "error", err)
			status = http.StatusInternalServerError
			env = envelope.Envelope{
				Error: &envelope.Error{Code: envelope.CodeInternal, Message: "internal error; quote request " + env.Meta.RequestID + " when reporting it"},
				Meta:  envelope.Meta{RequestID: env.Meta.RequestID},
			}
		}
		buf.reset(nil)
		encodeJSON(buf, env)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	s.boundWrite(w, buf.n)
	w.WriteHeader(status)
	if _, err := buf.WriteTo(w); err != nil {
		s.log.Debug("writing response", "request_id", env.Meta.RequestID, "error", err)
	}
}

// jsonOptions encode as encoding/json does (go-json-experiment's v1
// options, which encoding/json/v2 implements v1 with), without escaping
// <, > and &: the answers are JSON for programs, not HTML.
var jsonOptions = json.JoinOptions(jsonv1.DefaultOptionsV1(), jsontext.EscapeForHTML(false))

// encodeJSON writes v and a newline to w, as json.Encoder.Encode does,
// but streaming: w receives the text in chunks of a few KB as it is
// encoded, instead of once when it is whole, so that a writer that
// charges what it holds sees it grow.
func encodeJSON(w io.Writer, v any) error {
	if err := json.MarshalWrite(w, v, jsonOptions); err != nil {
		return err
	}
	_, err := w.Write([]byte{'\n'})
	return err
}

// answerBuffer holds an encoded answer in chunks of chunkSize bytes,
// taken from and given back to chunks, so that growing it copies nothing
// and answers reuse memory. Its meter is charged each chunk past the
// first baseWeight bytes, which admission charges every request; a chunk
// the meter refuses fails the write with the refusal, kept in refused.
type answerBuffer struct {
	chunks  []*[]byte
	n       int         // bytes held
	m       meter.Meter // nil: nothing to charge
	refused error
}

// chunkSize is the size of the chunks of an answerBuffer.
const chunkSize = 32 << 10

// chunks are the free chunks of every answerBuffer.
var chunks = sync.Pool{New: func() any { b := make([]byte, 0, chunkSize); return &b }}

// reset empties a, giving its chunks back, for an answer charged to m.
func (a *answerBuffer) reset(m meter.Meter) {
	for i, c := range a.chunks {
		*c = (*c)[:0]
		chunks.Put(c)
		a.chunks[i] = nil
	}
	a.chunks, a.n, a.m, a.refused = a.chunks[:0], 0, m, nil
}

func (a *answerBuffer) Write(p []byte) (int, error) {
	if a.refused != nil {
		return 0, a.refused
	}
	written := len(p)
	for len(p) > 0 {
		last := len(a.chunks) - 1
		if last < 0 || len(*a.chunks[last]) == chunkSize {
			if held := int64(len(a.chunks)+1) * chunkSize; held > baseWeight && a.m != nil {
				if err := a.m.Charge(chunkSize); err != nil {
					a.refused = err
					return written - len(p), err
				}
			}
			a.chunks = append(a.chunks, chunks.Get().(*[]byte))
			last++
		}
		c := a.chunks[last]
		k := copy((*c)[len(*c):chunkSize], p)
		*c = (*c)[:len(*c)+k]
		a.n += k
		p = p[k:]
	}
	return written, nil
}

// WriteTo writes the answer to w.
func (a *answerBuffer) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for _, c := range a.chunks {
		k, err := w.Write(*c)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
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
