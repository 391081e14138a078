package photosocial

// Helpers shared by the HTTP adapters (Graph API, Apify).

import (
	"net/http"
	"strings"
)

// DefaultMaxResponseBytes bounds a provider's response body.
const DefaultMaxResponseBytes = 8 << 20

func maxBytes(n int64) int64 {
	if n <= 0 {
		return DefaultMaxResponseBytes
	}
	return n
}

// baseURL is base without a trailing slash, or def when base is empty.
func baseURL(base, def string) string {
	if base = strings.TrimRight(base, "/"); base == "" {
		return def
	}
	return base
}

// bearer is the header that carries a provider token.
func bearer(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + token}}
}
