package envelope_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/testutil"
)

// TestErrorSaysEachPartOnce: the text of an *Error says its code, message,
// details and cause once each, however they overlap, and errors.Is and
// errors.As still reach every error it wraps.
func TestErrorSaysEachPartOnce(t *testing.T) {
	refused := errors.New("destination not allowed")
	var issues envelope.ValidationError
	issues.Add("page_url", "must be at most 2048 characters")
	issues.Add("page_url", "must be an absolute http or https URL")
	regexCause := errors.New("at offset 1: missing ')' to close this group")
	inner := envelope.Errorf(envelope.CodeNotFound, "x-api-v2: Could not find tweet with ids: [1].")
	tests := []struct {
		name string
		err  *envelope.Error
		want string
		is   []error // what errors.Is must still find
	}{
		{
			"message and cause",
			envelope.Wrap(envelope.CodeUpstreamError, errors.New("dial tcp: connection refused"), "the site could not be fetched"),
			"UPSTREAM_ERROR: the site could not be fetched: dial tcp: connection refused", nil,
		},
		{
			"From's message is its first detail, the cause its issues",
			envelope.From(fmt.Errorf("content: %w", issues.Err())),
			"INVALID_REQUEST: page_url: must be at most 2048 characters; page_url: must be an absolute http or https URL", nil,
		},
		{
			"a detail quotes the cause",
			&envelope.Error{Code: envelope.CodeInvalidRequest, Message: "pattern is not a valid regular expression",
				Details: []envelope.FieldIssue{{Field: "pattern", Issue: regexCause.Error()}}, Err: regexCause},
			"INVALID_REQUEST: pattern is not a valid regular expression: at offset 1: missing ')' to close this group",
			[]error{regexCause},
		},
		{
			"the cause repeats the message's sentinel",
			&envelope.Error{Code: envelope.CodeInvalidRequest, Message: "destination not allowed: url must point to a public address",
				Details: []envelope.FieldIssue{{Field: "url", Issue: "must point to a public address"}},
				Err:     fmt.Errorf("%w: 10.0.0.1 is a special-purpose address", refused)},
			"INVALID_REQUEST: destination not allowed: url must point to a public address: 10.0.0.1 is a special-purpose address",
			[]error{refused},
		},
		{
			"an *Error wraps an *Error",
			&envelope.Error{Code: envelope.CodeNotFound, Message: "tweet 1 not found", Err: inner},
			"NOT_FOUND: tweet 1 not found: x-api-v2: Could not find tweet with ids: [1].",
			[]error{inner, &envelope.Error{Code: envelope.CodeNotFound}},
		},
		{
			"Errorf with %w",
			envelope.Errorf(envelope.CodeUpstreamError, "provider: %w", context.Canceled),
			"UPSTREAM_ERROR: provider: context canceled",
			[]error{context.Canceled},
		},
		{
			"the whole cause is a clause of the message",
			envelope.Wrap(envelope.CodeServiceUnavailable, refused, "destination not allowed"),
			"SERVICE_UNAVAILABLE: destination not allowed",
			[]error{refused},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.err.Error()
			if got != tt.want {
				t.Errorf("Error() = %q\n\twant %q", got, tt.want)
			}
			if r := testutil.RepeatedClause(got); r != "" {
				t.Errorf("Error() says %q twice: %q", r, got)
			}
			for _, target := range tt.is {
				if !errors.Is(tt.err, target) {
					t.Errorf("errors.Is(%q, %v) = false", got, target)
				}
			}
			var v *envelope.ValidationError
			if tt.err.Code == envelope.CodeInvalidRequest && len(tt.err.Details) > 1 && !errors.As(tt.err, &v) {
				t.Errorf("errors.As finds no ValidationError in %q", got)
			}
		})
	}
}
