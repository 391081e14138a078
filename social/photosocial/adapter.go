package photosocial

// Helpers shared by the HTTP adapters (Graph API, Apify).

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/quiverkit/quiver/internal/cfgerr"
	"github.com/quiverkit/quiver/internal/upstream"
)

// Defaults of the HTTP providers' settings.
const (
	// DefaultMaxResponseBytes bounds each response body of an HTTP
	// provider when its config leaves MaxResponseBytes at 0.
	DefaultMaxResponseBytes = 8 << 20
	// DefaultTimeout bounds each request of the Graph provider when its
	// config leaves Timeout at 0.
	DefaultTimeout = 15 * time.Second
)

// ErrInvalidConfig is wrapped by the errors of the constructors ([New],
// [NewGraph], [NewApify], [NewFile]) when a
// configuration cannot work, such as a missing credential. Test with
// errors.Is.
var ErrInvalidConfig = errors.New("photosocial: invalid configuration")

// invalidConfig returns an error wrapping ErrInvalidConfig. A problem
// that starts with the name of its field lets a program find the field
// (as cmd/quiver does, to name its flag).
func invalidConfig(format string, args ...any) error {
	return cfgerr.New(ErrInvalidConfig, fmt.Sprintf(format, args...))
}

// newUpstream returns the upstream client of an HTTP provider: the token
// travels in the Authorization header, held behind a pointer so that
// printing the provider with fmt or log/slog does not reach it. margin is
// added to the timeout of each request.
func newUpstream(name, defBase, token, base string, hc *http.Client, maxBytes int64, timeout, margin time.Duration) (*upstream.Client, error) {
	if maxBytes < 0 || timeout < 0 {
		return nil, invalidConfig("%s: MaxResponseBytes and Timeout must not be negative", name)
	}
	if maxBytes == 0 {
		maxBytes = DefaultMaxResponseBytes
	}
	if base = strings.TrimRight(base, "/"); base == "" {
		base = defBase
	}
	if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, invalidConfig("%s: BaseURL must be an absolute http or https URL", name)
	}
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	return &upstream.Client{
		Name: name, BaseURL: base, Header: http.Header{"Authorization": {"Bearer " + token}},
		HTTP: hc, Timeout: timeout + margin, MaxBytes: maxBytes,
	}, nil
}
