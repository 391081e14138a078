package envelope

import (
	"crypto/rand"
	"strings"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
)

// RequestIDPrefix begins every request ID.
const RequestIDPrefix = "req_"

// IDSource makes request IDs of the form req_<ULID>: 26 Crockford base32
// characters after the prefix, whose first ten encode the millisecond.
// IDs sort by creation time, lexically as well, and IDs made within one
// millisecond by one IDSource increase monotonically, so they stay unique
// and ordered under any concurrency.
//
// The zero value is ready to use and safe for concurrent use.
type IDSource struct {
	mu      sync.Mutex
	lastMS  uint64
	entropy *ulid.MonotonicEntropy
}

// New returns a fresh request ID, greater than every ID this source made
// before it.
func (s *IDSource) New() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entropy == nil {
		s.entropy = ulid.Monotonic(rand.Reader, 0)
	}
	// The clock is read under the lock and never allowed to step back, so
	// that IDs keep increasing across goroutines and clock adjustments.
	ms := max(ulid.Timestamp(time.Now()), s.lastMS)
	id, err := ulid.New(ms, s.entropy)
	if err != nil {
		// The random part overflowed within one millisecond (after about
		// 2^79 IDs): move to the next millisecond instead of failing.
		ms++
		id = ulid.MustNew(ms, s.entropy)
	}
	s.lastMS = ms
	return RequestIDPrefix + id.String()
}

// ValidRequestID reports whether id has the form that [IDSource] produces.
func ValidRequestID(id string) bool {
	rest, ok := strings.CutPrefix(id, RequestIDPrefix)
	if !ok {
		return false
	}
	_, err := ulid.ParseStrict(rest)
	return err == nil
}
