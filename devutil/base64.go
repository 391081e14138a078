package devutil

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/quiverkit/quiver/envelope"
)

// Base64Request is the request of [EncodeBase64] and [DecodeBase64].
type Base64Request struct {
	// Value is the text to encode, or the Base64 text to decode. Required.
	Value string `json:"value" openapi:"required"`
	// URLSafe selects the URL-safe alphabet (- and _ instead of + and /).
	URLSafe bool `json:"urlsafe"`
}

// A Base64Operation says what [EncodeBase64] or [DecodeBase64] did.
type Base64Operation string

// The operations of a [Base64Result].
const (
	Base64Encode Base64Operation = "encode"
	Base64Decode Base64Operation = "decode"
)

// Base64Operations returns the operations of a Base64Result.
func Base64Operations() []Base64Operation { return []Base64Operation{Base64Encode, Base64Decode} }

// Base64Result is the result of [EncodeBase64] and [DecodeBase64].
type Base64Result struct {
	// Input echoes the request's value.
	Input string `json:"input"`
	// Output is the encoded or decoded text; empty when IsValid is false.
	Output string `json:"output"`
	// Operation is "encode" or "decode".
	Operation Base64Operation `json:"operation"`
	// IsValid reports whether the input could be transformed.
	IsValid bool `json:"is_valid"`
	// Error says why the input is not valid; nil when it is.
	Error *string `json:"error"`
}

// EncodeBase64 encodes req.Value, as UTF-8, to padded Base64.
func EncodeBase64(_ context.Context, req Base64Request) (Base64Result, error) {
	if req.Value == "" {
		return Base64Result{}, envelope.Invalid("value", "is required")
	}
	return Base64Result{
		Input:     req.Value,
		Output:    base64Encoding(req.URLSafe, true).EncodeToString([]byte(req.Value)),
		Operation: Base64Encode,
		IsValid:   true,
	}, nil
}

// DecodeBase64 decodes req.Value from Base64, padded or not, and returns
// the decoded bytes as text. Input that is not Base64 of the chosen
// alphabet, or that decodes to bytes which are not valid UTF-8, gives a
// result with IsValid false and an Error, not an error.
func DecodeBase64(_ context.Context, req Base64Request) (Base64Result, error) {
	if req.Value == "" {
		return Base64Result{}, envelope.Invalid("value", "is required")
	}
	res := Base64Result{Input: req.Value, Operation: Base64Decode}
	padded := strings.Contains(req.Value, "=")
	out, err := base64Encoding(req.URLSafe, padded).DecodeString(req.Value)
	if err != nil {
		res.Error = new(describeBase64Error(req.Value, req.URLSafe, err))
		return res, nil
	}
	if !utf8.Valid(out) {
		res.Error = new(fmt.Sprintf("the decoded %d bytes are not valid UTF-8 text (binary data cannot be returned as a string)", len(out)))
		return res, nil
	}
	res.Output = string(out)
	res.IsValid = true
	return res, nil
}

func base64Encoding(urlSafe, padded bool) *base64.Encoding {
	enc := base64.StdEncoding
	if urlSafe {
		enc = base64.URLEncoding
	}
	if !padded {
		enc = enc.WithPadding(base64.NoPadding)
	}
	return enc.Strict()
}

// describeBase64Error explains a decoding failure, pointing at the offending
// character and at the other alphabet when that is the likely mistake.
func describeBase64Error(in string, urlSafe bool, err error) string {
	var corrupt base64.CorruptInputError
	if !errors.As(err, &corrupt) {
		return "invalid Base64: " + err.Error()
	}
	off := int(corrupt)
	if off >= len(in) {
		return fmt.Sprintf("invalid Base64: the input ends early or has wrong padding (length %d)", len(in))
	}
	r, _ := utf8.DecodeRuneInString(in[off:])
	msg := fmt.Sprintf("invalid Base64: unexpected %q at offset %d", r, off)
	switch {
	case !urlSafe && (r == '-' || r == '_'):
		msg += "; it belongs to the URL-safe alphabet, set urlsafe to true"
	case urlSafe && (r == '+' || r == '/'):
		msg += "; it belongs to the standard alphabet, set urlsafe to false"
	case r == '=':
		msg += "; padding is misplaced or there is too much of it"
	}
	return msg
}
