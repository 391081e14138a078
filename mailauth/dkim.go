package mailauth

import (
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/quiverkit/quiver/internal/textcut"
)

// DKIM key sizes (RFC 8301 section 3.2).
const (
	// MinDKIMRSABits: verifiers need not accept RSA keys shorter than
	// 1024 bits; a shorter key is weak (CodeDKIMWeakKey).
	MinDKIMRSABits = 1024
	// RecommendedDKIMRSABits: signers should use at least 2048 bits;
	// shorter is a warning (CodeDKIMShortKey).
	RecommendedDKIMRSABits = 2048
	// maxDKIMKeyBytes bounds the decoded p= value: an RSA key of 16384
	// bits is about 2 KiB.
	maxDKIMKeyBytes = 4096
)

// The codes of DKIM key problems.
const (
	// CodeDKIMMultipleRecords (error): more than one TXT record is
	// published at the selector, so verifiers may pick either.
	CodeDKIMMultipleRecords Code = "dkim_multiple_records"
	// CodeDKIMSyntax (error): the record does not parse: a malformed or
	// repeated tag, v not DKIM1 or not first, p missing, an unknown k.
	CodeDKIMSyntax Code = "dkim_syntax"
	// CodeDKIMInvalidKey (error): p= is not base64 or not a key of the
	// type k= says.
	CodeDKIMInvalidKey Code = "dkim_invalid_key"
	// CodeDKIMWeakKey (error): an RSA key shorter than MinDKIMRSABits,
	// which receivers ignore or can forge.
	CodeDKIMWeakKey Code = "dkim_weak_key"
	// CodeDKIMShortKey (warning): an RSA key shorter than
	// RecommendedDKIMRSABits.
	CodeDKIMShortKey Code = "dkim_short_key"
	// CodeDKIMRevoked (warning): p= is empty: the key is revoked and
	// signatures with it fail (RFC 6376 section 3.6.1).
	CodeDKIMRevoked Code = "dkim_revoked"
	// CodeDKIMTesting (warning): t=y: receivers may treat failures as
	// unsigned mail.
	CodeDKIMTesting Code = "dkim_testing"
)

// DKIMKey is a DKIM public-key record (RFC 6376 section 3.6.1), the TXT
// record at <selector>._domainkey.<domain>, as [ParseDKIM] reads it.
type DKIMKey struct {
	// Record is the TXT record, strings joined, up to MaxRecordBytes.
	Record string `json:"record"`
	// RecordTruncated reports a record longer than MaxRecordBytes, of
	// which Record shows the first MaxRecordBytes bytes. Every check
	// applies to the whole record. An extension beyond the contract.
	RecordTruncated bool `json:"record_truncated,omitempty" openapi:"extension"`
	// KeyType is k: "rsa" (the default) or "ed25519" (RFC 8463); another
	// value, up to MaxValueBytes, is an error.
	KeyType string `json:"key_type"`
	// Bits is the key size: the RSA modulus length, 256 for ed25519; 0
	// when the key is revoked or does not parse.
	Bits int `json:"bits"`
	// Revoked reports an empty p=.
	Revoked bool `json:"revoked"`
	// Testing reports the y flag of t=.
	Testing bool `json:"testing"`
	// Errors are the messages of the problems that make the key unusable
	// or weak. Never nil.
	Errors []string `json:"errors"`
	// Warnings are the messages of the weaknesses. Never nil.
	Warnings []string `json:"warnings"`
	// Problems are the errors and warnings with their Code and Severity,
	// in the order found; their messages are also in Errors and
	// Warnings. Never nil. An extension beyond the contract in the
	// answers of the HTTP API.
	Problems []Problem `json:"problems" openapi:"extension"`
}

func (k *DKIMKey) findings() findings {
	return findings{errors: &k.Errors, warnings: &k.Warnings, problems: &k.Problems}
}

// Valid reports whether the key has no errors: it parses, is not weak,
// and is not revoked (a revoked key is a warning, yet signs nothing).
func (k *DKIMKey) Valid() bool { return len(k.Errors) == 0 && !k.Revoked }

// ParseDKIM parses a DKIM key record, without DNS: the tags v (DKIM1,
// optional, first), k (rsa or ed25519), p (the base64 key, required;
// empty when revoked), t (flags) and the others, which are not checked.
// An RSA p= is a SubjectPublicKeyInfo, or a bare RSAPublicKey as some
// signers publish; an ed25519 p= is the 32-byte key. p= is base64, with
// or without its "=" padding (optional in RFC 6376 section 2.4). Tag
// names are case-sensitive: "P=" is an unknown tag. At most ten problems
// are listed, the rest counted in one last problem. Problems are in the
// result, never a failure.
func ParseDKIM(record string) *DKIMKey {
	k := &DKIMKey{KeyType: "rsa", Errors: []string{}, Warnings: []string{}, Problems: []Problem{}}
	k.Record, k.RecordTruncated = shownRecord(record)
	f := k.findings().capped()
	defer f.flush()
	var p *string
	for _, t := range tagList(record, f, CodeDKIMSyntax, "DKIM1", false) {
		switch t.name {
		case "k":
			k.KeyType = strings.ToLower(t.value)
		case "p":
			v := t.value
			p = &v
		case "t":
			for flag := range strings.SplitSeq(t.value, ":") {
				if strings.TrimSpace(flag) == "y" {
					k.Testing = true
				}
			}
		}
	}
	if k.KeyType != "rsa" && k.KeyType != "ed25519" {
		f.fail(CodeDKIMSyntax, fmt.Sprintf("k=%s is not rsa or ed25519", textcut.Excerpt(k.KeyType)))
	}
	switch {
	case p == nil:
		f.fail(CodeDKIMSyntax, "the required p tag is missing")
	case *p == "":
		k.Revoked = true
		f.warn(CodeDKIMRevoked, "p= is empty: the key is revoked")
	default:
		k.parseKey(*p, f)
	}
	if k.Testing {
		f.warn(CodeDKIMTesting, "t=y: the domain is testing DKIM, and receivers may ignore failures")
	}
	k.KeyType = shownValue(k.KeyType)
	return k
}

// parseKey decodes p and sets Bits, reporting invalid and weak keys.
func (k *DKIMKey) parseKey(p string, f findings) {
	p = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, p)
	if base64.StdEncoding.DecodedLen(len(p)) > maxDKIMKeyBytes {
		f.fail(CodeDKIMInvalidKey, fmt.Sprintf("p= is longer than %d bytes", maxDKIMKeyBytes))
		return
	}
	// RFC 6376 section 2.4 makes the "=" padding of a base64string
	// optional, so a key without it is decoded as well.
	enc := base64.StdEncoding
	if !strings.HasSuffix(p, "=") {
		enc = base64.RawStdEncoding
	}
	der, err := enc.DecodeString(p)
	if err != nil {
		f.fail(CodeDKIMInvalidKey, "p= is not valid base64")
		return
	}
	switch k.KeyType {
	case "ed25519":
		if len(der) != ed25519.PublicKeySize {
			f.fail(CodeDKIMInvalidKey, fmt.Sprintf("an ed25519 p= must be %d bytes, not %d", ed25519.PublicKeySize, len(der)))
			return
		}
		k.Bits = 256
	case "rsa":
		var pub *rsa.PublicKey
		if key, err := x509.ParsePKIXPublicKey(der); err == nil {
			rk, ok := key.(*rsa.PublicKey)
			if !ok {
				f.fail(CodeDKIMInvalidKey, fmt.Sprintf("p= holds a %T, not an RSA key", key))
				return
			}
			pub = rk
		} else if rk, err := x509.ParsePKCS1PublicKey(der); err == nil {
			pub = rk
		} else {
			f.fail(CodeDKIMInvalidKey, "p= is not an RSA public key (SubjectPublicKeyInfo or RSAPublicKey)")
			return
		}
		k.Bits = pub.N.BitLen()
		switch {
		case k.Bits < MinDKIMRSABits:
			f.fail(CodeDKIMWeakKey, fmt.Sprintf("the RSA key has %d bits, under the %d that receivers require (RFC 8301)", k.Bits, MinDKIMRSABits))
		case k.Bits < RecommendedDKIMRSABits:
			f.warn(CodeDKIMShortKey, fmt.Sprintf("the RSA key has %d bits; %d are recommended (RFC 8301)", k.Bits, RecommendedDKIMRSABits))
		}
	}
}
