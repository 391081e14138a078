// Package llmtest runs scripted language model providers on loopback, in
// the spirit of net/http/httptest: a program or a test gets the real
// langchaingo client of OpenAI, Anthropic or Ollama, talking HTTP to a
// server that answers what it was told to, without leaving the machine
// and without an API key.
//
// A program starts a server with [New], a test with [Start], which fails
// the test when the server cannot start and, when the test ends, closes
// the server and fails the test on [Server.Err]. Each server speaks one
// wire protocol:
//
//   - [OpenAI]: POST {URL}/v1/chat/completions, the OpenAI chat
//     completions API (and that of every OpenAI-compatible server);
//   - [Anthropic]: POST {URL}/v1/messages, the Anthropic messages API;
//   - [Ollama]: POST {URL}/api/chat, the Ollama chat API.
//
// A server is scripted: each call consumes the next [Reply] (content,
// token usage, HTTP status, Retry-After, delay), and [Server.Push] adds
// replies later. A call beyond the script (HTTP 500), or a request the
// server cannot read (HTTP 400), is answered with an error and
// remembered: [Server.Err] reports it, so a test can fail on it. Every request is recorded with the
// messages it carried ([Server.Requests]), so a test can check what the
// model was shown. [Server.Model] builds the real langchaingo client
// pointed at the server ([Server.ModelT] in a test); give it to an
// llm.Config, as Model.
//
// Like an httptest.Server, a Server runs until [Server.Close].
package llmtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Protocol names a provider wire protocol.
type Protocol string

// The protocols a Server can speak.
const (
	OpenAI    Protocol = "openai"
	Anthropic Protocol = "anthropic"
	Ollama    Protocol = "ollama"
)

// Reply scripts the answer to one call. The zero Reply is a successful,
// empty answer with no usage, sent at once.
type Reply struct {
	// Content is the text of the model's answer. Default: "".
	Content string
	// PromptTokens and CompletionTokens are the usage the provider
	// reports (prompt_tokens/completion_tokens, input_tokens/output_tokens
	// or prompt_eval_count/eval_count, depending on the protocol).
	// Default: 0.
	PromptTokens     int
	CompletionTokens int
	// Status, when not 0 or 200, makes the call fail with this HTTP status
	// and an error body in the provider's format. Default (0): success.
	Status int
	// Message is the error message of a failing call. Default: the status
	// text.
	Message string
	// RetryAfter, when set, is sent as the Retry-After header. Default:
	// no header.
	RetryAfter string
	// Delay holds the answer back that long, or until the client gives
	// up. Default (0): the answer is sent at once.
	Delay time.Duration
}

// Message is one message of a recorded request.
type Message struct {
	Role    string
	Content string
}

// Request is a recorded call.
type Request struct {
	// Path is the URL path the client called.
	Path string
	// Header holds the request headers (the API key among them).
	Header http.Header
	// Body is the raw JSON body.
	Body []byte
	// Model is the model the client asked for.
	Model string
	// Messages are the conversation, the system prompt first when there
	// is one.
	Messages []Message
	// JSONMode reports whether the client asked for JSON output
	// (response_format json_object, or Ollama's format "json").
	JSONMode bool
	// MaxTokens is the answer length limit the client sent, 0 when none.
	MaxTokens int
}

// Server is a scripted provider listening on a loopback address. Its
// methods are safe for concurrent use.
type Server struct {
	// URL is the root of the server, e.g. http://127.0.0.1:43121.
	URL      string
	protocol Protocol
	hs       *httptest.Server

	mu       sync.Mutex
	script   []Reply
	requests []Request
	errs     []error
}

// New starts a server on a loopback port speaking protocol p, answering
// its calls with replies in order. It returns an error for a protocol
// other than [OpenAI], [Anthropic] and [Ollama], or when no loopback
// port is free. The caller must Close the server.
func New(p Protocol, replies ...Reply) (*Server, error) {
	switch p {
	case OpenAI, Anthropic, Ollama:
	default:
		return nil, fmt.Errorf("llmtest: unknown protocol %q: want openai, anthropic or ollama", p)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("llmtest: %w", err)
	}
	s := &Server{protocol: p, script: append([]Reply(nil), replies...)}
	s.hs = &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(s.serve)}}
	s.hs.Start()
	s.URL = s.hs.URL
	return s, nil
}

// Start is [New] for a test or benchmark: it fails tb (with Fatal) when
// the server cannot start, and when tb and its subtests end (tb.Cleanup)
// it closes the server and fails tb with [Server.Err] when the script
// could not answer a call well.
func Start(tb testing.TB, p Protocol, replies ...Reply) *Server {
	tb.Helper()
	s, err := New(p, replies...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		s.Close()
		if err := s.Err(); err != nil {
			tb.Errorf("%v", err)
		}
	})
	return s
}

// Close stops the server and blocks until every call in flight has
// ended. Clients built before find nothing listening afterwards.
func (s *Server) Close() { s.hs.Close() }

// Err reports the calls the script could not answer well: a call beyond
// the script, or a request body the server could not read. It returns
// nil when there were none; tests fail on a non-nil Err.
func (s *Server) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(s.errs...)
}

func (s *Server) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs = append(s.errs, err)
}

// Protocol returns the protocol the server speaks.
func (s *Server) Protocol() Protocol { return s.protocol }

// BaseURL returns the base URL to configure the provider client with:
// URL+"/v1" for OpenAI and Anthropic, URL for Ollama.
func (s *Server) BaseURL() string {
	if s.protocol == Ollama {
		return s.URL
	}
	return s.URL + "/v1"
}

// Push appends replies to the script.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, replies...)
}

// Requests returns the calls received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Pending returns how many scripted replies are still unused.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script)
}

func (s *Server) path() string {
	switch s.protocol {
	case OpenAI:
		return "/v1/chat/completions"
	case Anthropic:
		return "/v1/messages"
	case Ollama:
		return "/api/chat"
	default:
		return ""
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || s.path() == "" || r.URL.Path != s.path() {
		http.Error(w, "llmtest: no such endpoint "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rec, err := s.parse(body)
	if err != nil {
		s.fail(fmt.Errorf("llmtest: %s request: %w", s.protocol, err))
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rec.Path, rec.Header, rec.Body = r.URL.Path, r.Header.Clone(), body

	s.mu.Lock()
	s.requests = append(s.requests, rec)
	n := len(s.requests)
	var reply Reply
	ok := len(s.script) > 0
	if ok {
		reply, s.script = s.script[0], s.script[1:]
	}
	s.mu.Unlock()
	if !ok {
		s.fail(fmt.Errorf("llmtest: unscripted call %d to the %s server", n, s.protocol))
		reply = Reply{Status: http.StatusInternalServerError, Message: "llmtest: no scripted reply"}
	}

	if reply.Delay > 0 {
		t := time.NewTimer(reply.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		}
	}
	if reply.RetryAfter != "" {
		w.Header().Set("Retry-After", reply.RetryAfter)
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		msg := reply.Message
		if msg == "" {
			msg = http.StatusText(reply.Status)
		}
		s.writeError(w, reply.Status, msg)
		return
	}
	s.writeAnswer(w, rec.Model, reply)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	_ = json.NewEncoder(&buf).Encode(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

func (s *Server) writeError(w http.ResponseWriter, status int, msg string) {
	switch s.protocol {
	case Anthropic:
		typ := "api_error"
		switch status {
		case http.StatusTooManyRequests:
			typ = "rate_limit_error"
		case http.StatusBadRequest:
			typ = "invalid_request_error"
		case http.StatusUnauthorized:
			typ = "authentication_error"
		case 529:
			typ = "overloaded_error"
		}
		writeJSON(w, status, map[string]any{
			"type": "error", "error": map[string]any{"type": typ, "message": msg},
		})
	case Ollama:
		writeJSON(w, status, map[string]any{"error": msg})
	default:
		typ := "server_error"
		if status == http.StatusTooManyRequests {
			typ = "rate_limit_exceeded"
		} else if status < 500 {
			typ = "invalid_request_error"
		}
		writeJSON(w, status, map[string]any{
			"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil},
		})
	}
}

func (s *Server) writeAnswer(w http.ResponseWriter, model string, r Reply) {
	switch s.protocol {
	case Anthropic:
		writeJSON(w, http.StatusOK, map[string]any{
			"id": "msg_llmtest", "type": "message", "role": "assistant", "model": model,
			"content":     []map[string]any{{"type": "text", "text": r.Content}},
			"stop_reason": "end_turn", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": r.PromptTokens, "output_tokens": r.CompletionTokens},
		})
	case Ollama:
		// One line of the NDJSON stream, marked done.
		writeJSON(w, http.StatusOK, map[string]any{
			"model": model, "created_at": time.Unix(0, 0).UTC().Format(time.RFC3339),
			"message": map[string]any{"role": "assistant", "content": r.Content},
			"done":    true, "done_reason": "stop",
			"prompt_eval_count": r.PromptTokens, "eval_count": r.CompletionTokens,
		})
	default:
		writeJSON(w, http.StatusOK, map[string]any{
			"id": "chatcmpl-llmtest", "object": "chat.completion", "created": 0, "model": model,
			"choices": []map[string]any{{
				"index":         0,
				"message":       map[string]any{"role": "assistant", "content": r.Content},
				"finish_reason": "stop",
			}},
			"usage": map[string]any{
				"prompt_tokens": r.PromptTokens, "completion_tokens": r.CompletionTokens,
				"total_tokens": r.PromptTokens + r.CompletionTokens,
			},
		})
	}
}

// wireRequest is the union of the request fields of the three protocols
// that Request records.
type wireRequest struct {
	Model          string          `json:"model"`
	System         json.RawMessage `json:"system"`
	Messages       []wireMessage   `json:"messages"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	Format              json.RawMessage `json:"format"`
	MaxTokens           int             `json:"max_tokens"`
	MaxCompletionTokens int             `json:"max_completion_tokens"`
	Options             struct {
		NumPredict int `json:"num_predict"`
	} `json:"options"`
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

func (s *Server) parse(body []byte) (Request, error) {
	var wr wireRequest
	if err := json.Unmarshal(body, &wr); err != nil {
		return Request{}, fmt.Errorf("decode body: %w", err)
	}
	rec := Request{Model: wr.Model}
	if len(wr.System) > 0 {
		sys, err := text(wr.System)
		if err != nil {
			return Request{}, fmt.Errorf("system: %w", err)
		}
		if sys != "" {
			rec.Messages = append(rec.Messages, Message{Role: "system", Content: sys})
		}
	}
	for i, m := range wr.Messages {
		t, err := text(m.Content)
		if err != nil {
			return Request{}, fmt.Errorf("messages[%d]: %w", i, err)
		}
		rec.Messages = append(rec.Messages, Message{Role: m.Role, Content: t})
	}
	switch s.protocol {
	case OpenAI:
		rec.JSONMode = wr.ResponseFormat != nil && wr.ResponseFormat.Type == "json_object"
		rec.MaxTokens = max(wr.MaxTokens, wr.MaxCompletionTokens)
	case Anthropic:
		rec.MaxTokens = wr.MaxTokens
	case Ollama:
		var f string
		_ = json.Unmarshal(wr.Format, &f)
		rec.JSONMode = f == "json"
		rec.MaxTokens = wr.Options.NumPredict
	}
	return rec, nil
}

// text reads message content: a string, or an array of content blocks
// whose text parts are concatenated.
func text(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", fmt.Errorf("content is neither a string nor content blocks: %w", err)
	}
	var b bytes.Buffer
	for _, bl := range blocks {
		b.WriteString(bl.Text)
	}
	return b.String(), nil
}
