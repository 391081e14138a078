package httpapi

import (
	"crypto/sha256"
	"net/http"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/secret"
)

// answerRoute answers a string of n bytes: an answer far larger than its
// request.
func answerRoute(n int) route {
	return route{
		method: http.MethodGet, path: "/v1/test/answer", group: groupDev, response: typeOf[string](),
		op: func(*http.Request) (any, *llm.Usage, error) { return strings.Repeat("x", n), nil, nil },
	}
}

// TestAnswerCharged: the answer is charged to the request's admission
// ticket as it is encoded. One larger than the key's share is refused
// with 429, one that does not fit the server's budget beside the work in
// flight with 503, both with Retry-After and a message saying why; a
// large answer that fits is sent whole, and every charge goes back.
func TestAnswerCharged(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name          string
		cfg           Config
		answer        int
		inFlight      int64 // held by another key meanwhile
		status        int
		code          envelope.Code
		messageSaying string
	}{
		{"over the key's share", Config{MemoryBudget: 64 * mib, KeyMemoryBudget: 4 * mib}, 8 * mib, 0, 429, envelope.CodeRateLimitExceeded, "too large for this key's share"},
		{"over the server's budget", Config{MemoryBudget: 16 * mib, KeyMemoryBudget: 12 * mib}, 8 * mib, 10 * mib, 503, envelope.CodeServiceUnavailable, "memory budget cannot hold this answer"},
		{"large but fits", Config{}, 8 * mib, 0, 200, "", ""},
		{"small", Config{MemoryBudget: 1 * mib, KeyMemoryBudget: 512 << 10}, 100, 0, 200, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Keys, tt.cfg.RatePerSecond = []secret.String{testKey}, -1
			s := newServer(tt.cfg)
			h := s.handler([]route{answerRoute(tt.answer)})
			other := sha256.Sum256([]byte("another key"))
			if tt.inFlight > 0 {
				if code := s.admission.acquire(other, tt.inFlight, false); code != "" {
					t.Fatal(code)
				}
			}
			res := do(t, h, "GET", "/v1/test/answer", "")
			checkEnvelope(t, res, tt.status, tt.code)
			if tt.code != "" {
				if res.header.Get("Retry-After") != "1" || !strings.Contains(res.env.Error.Message, tt.messageSaying) {
					t.Errorf("Retry-After %q, message %q; want 1 and one saying %q", res.header.Get("Retry-After"), res.env.Error.Message, tt.messageSaying)
				}
			} else if len(res.env.Data) != tt.answer+2 {
				t.Errorf("answer of %d bytes, want %d", len(res.env.Data), tt.answer+2)
			}
			if got := s.admission.inFlight(); got != tt.inFlight {
				t.Errorf("%d bytes in flight after the request, want %d", got, tt.inFlight)
			}
		})
	}
}
