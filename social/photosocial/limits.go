package photosocial

// DefaultMaxResponseBytes bounds a provider's response body.
const DefaultMaxResponseBytes = 8 << 20

func maxBytes(n int64) int64 {
	if n <= 0 {
		return DefaultMaxResponseBytes
	}
	return n
}
