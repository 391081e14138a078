package photosocial

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// shortcodeAlphabet is Instagram's base64 alphabet: the URL-safe one of
// RFC 4648, read as the digits of a base-64 number.
const shortcodeAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// maxShortcodeLen bounds the shortcodes that encode a 64-bit media ID.
// Longer codes (those of private posts) carry more than the ID and do not
// convert.
const maxShortcodeLen = 11

// Errors of the shortcode conversions, wrapped with the offending value.
// A request whose shortcode or media_id is malformed fails with an
// INVALID_REQUEST *envelope.ValidationError that wraps them too.
var (
	ErrInvalidShortcode = errors.New("invalid shortcode")
	ErrInvalidMediaID   = errors.New("invalid media ID")
)

var shortcodeDigit = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(shortcodeAlphabet); i++ {
		t[shortcodeAlphabet[i]] = int8(i)
	}
	return t
}()

// ShortcodeToMediaID returns the numeric media ID that a shortcode encodes:
// the shortcode is the ID written in base 64 with Instagram's alphabet
// (A-Z a-z 0-9 - _), most significant digit first. "B1LbfVPlwIA" is media
// 2110901750722920960.
func ShortcodeToMediaID(shortcode string) (string, error) {
	if shortcode == "" || len(shortcode) > maxShortcodeLen {
		return "", fmt.Errorf("%w %q: must be 1 to %d characters", ErrInvalidShortcode, shortcode, maxShortcodeLen)
	}
	var id uint64
	for i := 0; i < len(shortcode); i++ {
		d := shortcodeDigit[shortcode[i]]
		if d < 0 {
			return "", fmt.Errorf("%w %q: character %q is not in A-Z a-z 0-9 - _", ErrInvalidShortcode, shortcode, shortcode[i])
		}
		hi, lo := bits.Mul64(id, 64)
		lo, carry := bits.Add64(lo, uint64(d), 0)
		if hi != 0 || carry != 0 {
			return "", fmt.Errorf("%w %q: encodes a number beyond 64 bits", ErrInvalidShortcode, shortcode)
		}
		id = lo
	}
	return strconv.FormatUint(id, 10), nil
}

// MediaIDToShortcode returns the shortcode of a numeric media ID. IDs in
// the "<media>_<user>" form that Instagram's private API uses are accepted:
// the user part is dropped.
func MediaIDToShortcode(mediaID string) (string, error) {
	num, _, _ := strings.Cut(mediaID, "_")
	id, err := strconv.ParseUint(num, 10, 64)
	if err != nil || num == "" || num[0] == '+' {
		return "", fmt.Errorf("%w %q: want decimal digits, optionally followed by _<user id>", ErrInvalidMediaID, mediaID)
	}
	if id == 0 {
		return "A", nil
	}
	var buf [maxShortcodeLen]byte
	i := len(buf)
	for id > 0 {
		i--
		buf[i] = shortcodeAlphabet[id%64]
		id /= 64
	}
	return string(buf[i:]), nil
}
