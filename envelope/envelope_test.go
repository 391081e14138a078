package envelope_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
)

func TestCodeHTTPStatus(t *testing.T) {
	want := map[envelope.Code]int{
		envelope.CodeInvalidRequest:       400,
		envelope.CodeUnauthorized:         401,
		envelope.CodeNotFound:             404,
		envelope.CodeMethodNotAllowed:     405,
		envelope.CodeRequestTimeout:       408,
		envelope.CodeConflict:             409,
		envelope.CodePayloadTooLarge:      413,
		envelope.CodeUnsupportedMediaType: 415,
		envelope.CodeRateLimitExceeded:    429,
		envelope.CodeInternal:             500,
		envelope.CodeUpstreamError:        502,
		envelope.CodeServiceUnavailable:   503,
		envelope.CodeUpstreamTimeout:      504,
		envelope.Code("SOMETHING_ELSE"):   500,
	}
	for code, status := range want {
		if got := code.HTTPStatus(); got != status {
			t.Errorf("%s.HTTPStatus() = %d, want %d", code, got, status)
		}
	}
	if len(envelope.Codes) != len(want)-1 {
		t.Errorf("Codes has %d entries, want %d", len(envelope.Codes), len(want)-1)
	}
}

func TestFrom(t *testing.T) {
	cause := errors.New("dial tcp: connection refused")
	upstream := envelope.Wrap(envelope.CodeUpstreamError, cause, "the provider failed")
	tests := []struct {
		name string
		err  error
		want *envelope.Error
	}{
		{"nil", nil, nil},
		{"coded", upstream, upstream},
		{"wrapped coded", fmt.Errorf("fetch: %w", upstream), upstream},
		{
			"validation",
			envelope.Invalid("emails", "must have 1 to 500 items"),
			&envelope.Error{Code: envelope.CodeInvalidRequest, Message: "emails: must have 1 to 500 items",
				Details: []envelope.FieldIssue{{Field: "emails", Issue: "must have 1 to 500 items"}}},
		},
		{
			"deadline",
			fmt.Errorf("lookup: %w", context.DeadlineExceeded),
			&envelope.Error{Code: envelope.CodeUpstreamTimeout, Message: "the operation did not finish in time"},
		},
		{
			"unexpected",
			errors.New("secret internal detail"),
			&envelope.Error{Code: envelope.CodeInternal, Message: "internal error"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := envelope.From(tt.err)
			opt := cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Err" }, cmp.Ignore())
			if diff := cmp.Diff(tt.want, got, opt); diff != "" {
				t.Errorf("From() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrorIsAndAs(t *testing.T) {
	err := fmt.Errorf("user: %w", envelope.Errorf(envelope.CodeNotFound, "user %q not found", "ghost"))
	if !errors.Is(err, &envelope.Error{Code: envelope.CodeNotFound}) {
		t.Error("errors.Is by code failed")
	}
	if errors.Is(err, &envelope.Error{Code: envelope.CodeInternal}) {
		t.Error("errors.Is matched another code")
	}
	var e *envelope.Error
	if !errors.As(err, &e) || e.Message != `user "ghost" not found` {
		t.Errorf("errors.As = %v", e)
	}
	cause := errors.New("boom")
	if got := envelope.Errorf(envelope.CodeUpstreamError, "provider: %w", cause); !errors.Is(got, cause) {
		t.Error("Errorf with %w does not wrap its cause")
	}
}

func TestValidationError(t *testing.T) {
	var v envelope.ValidationError
	if v.Err() != nil {
		t.Fatal("empty ValidationError is an error")
	}
	v.Add("text", "is required")
	v.Addf("max_words", "must be between %d and %d", 20, 1000)
	err := v.Err()
	if err == nil {
		t.Fatal("Err() = nil with issues")
	}
	if got, want := err.Error(), "invalid request: text: is required; max_words: must be between 20 and 1000"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e := envelope.From(fmt.Errorf("summarize: %w", err))
	if e.Code != envelope.CodeInvalidRequest || len(e.Details) != 2 || e.Details[1].Field != "max_words" {
		t.Errorf("From(validation) = %+v", e)
	}
	if errors.Unwrap(err) != nil {
		t.Errorf("Unwrap() = %v without a cause", errors.Unwrap(err))
	}
	sentinel := errors.New("bad id")
	v.Cause = sentinel
	if err := fmt.Errorf("media: %w", v.Err()); !errors.Is(err, sentinel) || envelope.From(err).Code != envelope.CodeInvalidRequest {
		t.Errorf("with Cause: errors.Is = false or code %v", envelope.From(err).Code)
	}
}

func TestEnvelopeJSON(t *testing.T) {
	tests := []struct {
		name string
		env  envelope.Envelope
		want string
	}{
		{
			"success",
			envelope.Success(map[string]int{"n": 1}, envelope.Meta{RequestID: "req_1"}),
			`{"success":true,"data":{"n":1},"error":null,"meta":{"request_id":"req_1"}}`,
		},
		{
			"ai meta",
			envelope.Success(nil, envelope.Meta{RequestID: "req_1", Usage: &llm.Usage{Model: "m", PromptTokens: 3, CompletionTokens: 4, CostUSD: 0.5}}),
			`{"success":true,"data":null,"error":null,"meta":{"request_id":"req_1","model":"m","prompt_tokens":3,"completion_tokens":4,"cost_usd":0.5}}`,
		},
		{
			"failure",
			envelope.Failure(envelope.Invalid("value", "is required"), envelope.Meta{RequestID: "req_2"}),
			`{"success":false,"data":null,"error":{"code":"INVALID_REQUEST","message":"value: is required","details":[{"field":"value","issue":"is required"}]},"meta":{"request_id":"req_2"}}`,
		},
		{
			"internal hides cause",
			envelope.Failure(errors.New("password=hunter2"), envelope.Meta{}),
			`{"success":false,"data":null,"error":{"code":"INTERNAL_ERROR","message":"internal error"},"meta":{}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
		})
	}
}

func TestRequestIDsUniqueAndSorted(t *testing.T) {
	var src envelope.IDSource
	const workers, each = 8, 2000
	ids := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for range each {
				ids[w] = append(ids[w], src.New())
			}
		})
	}
	wg.Wait()
	seen := make(map[string]bool, workers*each)
	for _, list := range ids {
		if !slices.IsSorted(list) {
			t.Error("IDs from one goroutine are not increasing")
		}
		for _, id := range list {
			if !envelope.ValidRequestID(id) {
				t.Fatalf("invalid request ID %q", id)
			}
			if seen[id] {
				t.Fatalf("duplicate request ID %q", id)
			}
			seen[id] = true
		}
	}
}

func TestValidRequestID(t *testing.T) {
	for id, want := range map[string]bool{
		"req_01ARZ3NDEKTSV4RRFFQ69G5FAV":  true,
		"01ARZ3NDEKTSV4RRFFQ69G5FAV":      false,
		"req_":                            false,
		"req_01ARZ3NDEKTSV4RRFFQ69G5FA!":  false,
		"req_01ARZ3NDEKTSV4RRFFQ69G5FAVX": false,
	} {
		if got := envelope.ValidRequestID(id); got != want {
			t.Errorf("ValidRequestID(%q) = %v, want %v", id, got, want)
		}
	}
}

func BenchmarkIDSource(b *testing.B) {
	var src envelope.IDSource
	for b.Loop() {
		_ = src.New()
	}
}

func TestErrorCode(t *testing.T) {
	notFound := errors.New("jobs: no such job")
	tests := []struct {
		err  error
		want envelope.Code
	}{
		{nil, ""},
		{envelope.Errorf(envelope.CodeNotFound, "no job"), envelope.CodeNotFound},
		{fmt.Errorf("get: %w", &envelope.Error{Code: envelope.CodeNotFound, Message: "no job", Err: notFound}), envelope.CodeNotFound},
		{envelope.Invalid("emails", "is required"), envelope.CodeInvalidRequest},
		{fmt.Errorf("lookup: %w", context.DeadlineExceeded), envelope.CodeUpstreamTimeout},
		{errors.New("a bug"), envelope.CodeInternal},
	}
	for _, tt := range tests {
		if got := envelope.ErrorCode(tt.err); got != tt.want {
			t.Errorf("ErrorCode(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// A Go caller switches on the code, as the HTTP adapter does, and tells a
// package's sentinels apart with errors.Is.
func ExampleErrorCode() {
	errNoJob := errors.New("jobs: no such job")
	err := fmt.Errorf("fetching results: %w", &envelope.Error{Code: envelope.CodeNotFound, Message: `no job "j_1"`, Err: errNoJob})
	switch envelope.ErrorCode(err) {
	case envelope.CodeNotFound:
		fmt.Println("not found; the job is gone:", errors.Is(err, errNoJob))
	case envelope.CodeRateLimitExceeded, envelope.CodeUpstreamTimeout:
		fmt.Println("retry later")
	default:
		fmt.Println(err)
	}
	// Output:
	// not found; the job is gone: true
}

func ExampleFrom() {
	err := fmt.Errorf("validate: %w", envelope.Invalid("emails", "must have at most 500 items"))
	e := envelope.From(err)
	fmt.Println(e.Code, e.Code.HTTPStatus(), http.StatusText(e.Code.HTTPStatus()))
	fmt.Println(e.Details[0].Field, "-", e.Details[0].Issue)
	// Output:
	// INVALID_REQUEST 400 Bad Request
	// emails - must have at most 500 items
}
