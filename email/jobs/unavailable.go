package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/envelope"
)

// ErrStoreUnavailable is wrapped by the error of an operation that the
// job store (Redis) refused or could not answer for a while: full under
// maxmemory with noeviction, a read-only replica, loading its data, no
// primary, out of reach or timing out. It is a SERVICE_UNAVAILABLE
// envelope error with a Retry-After of storeRetryAfter; nothing of a
// refused submission is kept.
var ErrStoreUnavailable = errors.New("jobs: the job store is unavailable")

// storeRetryAfter is the Retry-After of an ErrStoreUnavailable error.
const storeRetryAfter = 5 * time.Second

// unavailable says why the store failed, when it is for a while rather
// than a fault of the call: "" when it is not.
func unavailable(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, errQueueFull):
		return "is full (the in-process queue is at its memory limit)"
	case redis.IsOOMError(err):
		return "is full (Redis is at its maxmemory)"
	case redis.IsReadOnlyError(err):
		return "is read-only (a Redis replica)"
	case redis.IsLoadingError(err):
		return "is loading its data"
	case redis.IsMasterDownError(err), redis.IsClusterDownError(err), redis.IsTryAgainError(err), redis.IsNoReplicasError(err):
		return "has no primary to write to"
	case redis.IsMaxClientsError(err):
		return "has too many clients"
	case errors.Is(err, redis.ErrPoolTimeout), errors.Is(err, redis.ErrPoolExhausted), errors.Is(err, redis.ErrClosed):
		return "has no connection free"
	}
	var re redis.Error
	if errors.As(err, &re) {
		for _, p := range []string{"BUSY ", "MISCONF ", "NOREPLICAS "} {
			if strings.HasPrefix(re.Error(), p) {
				return "is busy or cannot write"
			}
		}
		return ""
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, context.DeadlineExceeded) {
		return "does not answer"
	}
	return ""
}

// storeError is the error of a store call that failed while doing what:
// a SERVICE_UNAVAILABLE envelope error wrapping ErrStoreUnavailable when
// the store is unavailable (not when ctx, the caller's, ended), else err
// as it is.
func (m *Manager) storeError(ctx context.Context, what string, err error) error {
	var ee *envelope.Error
	if errors.As(err, &ee) || ctx.Err() != nil {
		return err
	}
	why := unavailable(err)
	if why == "" {
		return fmt.Errorf("jobs: %s: %w", what, err)
	}
	return &envelope.Error{Code: envelope.CodeServiceUnavailable, RetryAfter: storeRetryAfter,
		Message: fmt.Sprintf("the job store %s: cannot %s now; retry after %ds", why, what, int(storeRetryAfter.Seconds())),
		Err:     fmt.Errorf("%w: %w", ErrStoreUnavailable, err)}
}
