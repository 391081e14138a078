// Package devutil holds the developer utilities of Quiver: Base64, hashes,
// JSON formatting, regular expressions, stack trace analysis and README
// drafts.
//
// Each operation is a plain function taking a context and a typed request
// and returning a typed result. Input that the operation exists to check
// (Base64 that does not decode, JSON that does not parse) is reported
// inside the result with IsValid false and an Error string; a request that
// is itself malformed (a required field missing) is an
// [envelope.ValidationError].
//
// # Base64
//
// [EncodeBase64] encodes UTF-8 text; [DecodeBase64] decodes to UTF-8 text.
// Both use the standard alphabet of RFC 4648 section 4, or the URL-safe
// alphabet of section 5 when URLSafe is set. Encoding always pads. Decoding
// accepts padded and unpadded input, ignores CR and LF (so MIME-wrapped
// text decodes), and is strict otherwise: a character outside the
// alphabet, wrong padding, or non-zero trailing bits make the input
// invalid, and the error gives the offset. A value is required: an empty
// value is INVALID_REQUEST rather than an empty result.
package devutil
