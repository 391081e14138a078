package devutil

import (
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"hash/adler32"
	"hash/crc32"
	"hash/fnv"
	"strings"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
	"golang.org/x/crypto/ripemd160" //nolint:staticcheck // RIPEMD-160 is asked for by name; it is not used for security here.
	xsha3 "golang.org/x/crypto/sha3"

	"github.com/quiverkit/quiver/envelope"
)

// DefaultHashAlgorithms are the algorithms [Hash] computes when the
// request names none.
var DefaultHashAlgorithms = []string{"md5", "sha1", "sha256", "sha512"}

// MaxHashAlgorithms bounds the number of names a [HashRequest] may list.
const MaxHashAlgorithms = 64

// Output lengths of the extendable-output functions, in bytes. SHAKE128
// gives 256 bits and SHAKE256 512 bits: twice their security strength,
// the lengths FIPS 202 uses for its examples and most tools print.
const (
	shake128Len = 32
	shake256Len = 64
)

// HashRequest is the request of [Hash].
type HashRequest struct {
	// Value is the text to hash, as UTF-8 bytes. The empty string is a
	// value like any other.
	Value string `json:"value" openapi:"required"`
	// Algorithms names the algorithms to compute: the names of
	// [HashAlgorithms], case-insensitively and with the separators - _
	// space / and . ignored (SHA-256, sha_256 and sha256 are one
	// algorithm, as are keccak256 and keccak-256), and these aliases:
	// sha2-224, sha2-256, sha2-384, sha2-512, sha2-512/224 and
	// sha2-512/256 for the SHA-2 names without "2"; keccak for
	// keccak-256; shake for shake128; blake2b for blake2b-512; blake2s
	// for blake2s-256; ripemd and rmd160 for ripemd160; crc and
	// crc32-ieee for crc32; crc32-castagnoli and castagnoli for crc32c;
	// adler for adler32; fnv1a and fnv64a for fnv1a-64; fnv32a for
	// fnv1a-32. Each digest is keyed in HashResult.Hashes by the name
	// given here. Default md5, sha1, sha256, sha512. At most
	// MaxHashAlgorithms.
	Algorithms []string `json:"algorithms,omitempty"`
	// Encoding is how digests are written: "hex" (default, lower case),
	// "base64" (padded, standard alphabet) or "base64url" (unpadded,
	// URL-safe alphabet).
	Encoding string `json:"encoding,omitempty"`
	// HMACKey, when set, turns each hash into its HMAC (RFC 2104) keyed
	// with the key's UTF-8 bytes. Checksums and SHAKE have no HMAC and
	// are then reported unsupported.
	HMACKey *string `json:"hmac_key,omitempty"`
}

// HashResult is the result of [Hash].
type HashResult struct {
	// Hashes maps each name of the request's Algorithms (or of
	// DefaultHashAlgorithms) that names an algorithm, exactly as the
	// request spells it, to its digest in the requested encoding: asked
	// for "SHA-256", the digest is Hashes["SHA-256"]. Names that denote
	// one algorithm share one digest, computed once.
	Hashes map[string]string `json:"hashes"`
	// UnsupportedAlgorithms lists, as given, the names that are not
	// algorithms this package computes (or that have no HMAC when a key
	// was given). Never null.
	UnsupportedAlgorithms []string `json:"unsupported_algorithms"`
	// Encoding is the encoding of the digests.
	Encoding string `json:"encoding"`
	// HMAC reports whether the digests are HMACs.
	HMAC bool `json:"hmac"`
}

// hashAlgo is one algorithm: its canonical name and a constructor. mac
// reports whether HMAC is defined for it.
type hashAlgo struct {
	name string
	new  func() hash.Hash
	mac  bool
}

// hashAlgorithms is every algorithm, in the order HashAlgorithms lists
// them.
var hashAlgorithms = []hashAlgo{
	{"md5", md5.New, true},
	{"sha1", sha1.New, true},
	{"sha224", sha256.New224, true},
	{"sha256", sha256.New, true},
	{"sha384", sha512.New384, true},
	{"sha512", sha512.New, true},
	{"sha512-224", sha512.New512_224, true},
	{"sha512-256", sha512.New512_256, true},
	{"sha3-224", func() hash.Hash { return sha3.New224() }, true},
	{"sha3-256", func() hash.Hash { return sha3.New256() }, true},
	{"sha3-384", func() hash.Hash { return sha3.New384() }, true},
	{"sha3-512", func() hash.Hash { return sha3.New512() }, true},
	{"keccak-256", xsha3.NewLegacyKeccak256, true},
	{"keccak-512", xsha3.NewLegacyKeccak512, true},
	{"shake128", func() hash.Hash { return newShake(sha3.NewSHAKE128, shake128Len) }, false},
	{"shake256", func() hash.Hash { return newShake(sha3.NewSHAKE256, shake256Len) }, false},
	{"blake2b-256", func() hash.Hash { h, _ := blake2b.New256(nil); return h }, true},
	{"blake2b-384", func() hash.Hash { h, _ := blake2b.New384(nil); return h }, true},
	{"blake2b-512", func() hash.Hash { h, _ := blake2b.New512(nil); return h }, true},
	{"blake2s-256", func() hash.Hash { h, _ := blake2s.New256(nil); return h }, true},
	{"ripemd160", ripemd160.New, true},
	{"crc32", func() hash.Hash { return crc32.NewIEEE() }, false},
	{"crc32c", func() hash.Hash { return crc32.New(crc32.MakeTable(crc32.Castagnoli)) }, false},
	{"adler32", func() hash.Hash { return adler32.New() }, false},
	{"fnv1a-32", func() hash.Hash { return fnv.New32a() }, false},
	{"fnv1a-64", func() hash.Hash { return fnv.New64a() }, false},
}

// hashAliases maps folded names (see foldAlgorithm) that are not simply
// the folded canonical name to the canonical name.
var hashAliases = map[string]string{
	"sha2224":         "sha224",
	"sha2256":         "sha256",
	"sha2384":         "sha384",
	"sha2512":         "sha512",
	"sha2512224":      "sha512-224",
	"sha2512256":      "sha512-256",
	"keccak":          "keccak-256",
	"shake":           "shake128",
	"blake2b":         "blake2b-512",
	"blake2s":         "blake2s-256",
	"ripemd":          "ripemd160",
	"rmd160":          "ripemd160",
	"crc32ieee":       "crc32",
	"crc":             "crc32",
	"crc32castagnoli": "crc32c",
	"castagnoli":      "crc32c",
	"adler":           "adler32",
	"fnv1a":           "fnv1a-64",
	"fnv32a":          "fnv1a-32",
	"fnv64a":          "fnv1a-64",
}

// hashByFolded indexes hashAlgorithms by folded name, aliases included.
var hashByFolded = func() map[string]*hashAlgo {
	m := make(map[string]*hashAlgo, len(hashAlgorithms)+len(hashAliases))
	for i := range hashAlgorithms {
		m[foldAlgorithm(hashAlgorithms[i].name)] = &hashAlgorithms[i]
	}
	for alias, name := range hashAliases {
		m[alias] = m[foldAlgorithm(name)]
	}
	return m
}()

// foldAlgorithm folds an algorithm name for lookup: lower case, without
// the separators people put in names (SHA-512/256, sha_256, "SHA 1").
func foldAlgorithm(name string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(name) {
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		case r == '-' || r == '_' || r == ' ' || r == '/' || r == '.':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// HashAlgorithms returns the canonical names of every algorithm [Hash]
// computes.
func HashAlgorithms() []string {
	names := make([]string, len(hashAlgorithms))
	for i, a := range hashAlgorithms {
		names[i] = a.name
	}
	return names
}

// Hash computes the digests of req.Value with the requested algorithms,
// each keyed by the name the request gives it. Names it does not know go
// to UnsupportedAlgorithms and are never an error; names that denote the
// same algorithm are computed once.
func Hash(_ context.Context, req HashRequest) (HashResult, error) {
	var v envelope.ValidationError
	if len(req.Algorithms) > MaxHashAlgorithms {
		v.Add("algorithms", "must list at most 64 names")
	}
	encode, encName := digestEncoder(req.Encoding)
	if encode == nil {
		v.Add("encoding", `must be "hex", "base64" or "base64url"`)
	}
	if err := v.Err(); err != nil {
		return HashResult{}, err
	}
	names := req.Algorithms
	if len(names) == 0 {
		names = DefaultHashAlgorithms
	}
	res := HashResult{
		Hashes:                make(map[string]string, len(names)),
		UnsupportedAlgorithms: []string{},
		Encoding:              encName,
		HMAC:                  req.HMACKey != nil,
	}
	seenUnsupported := map[string]bool{}
	digests := make(map[*hashAlgo]string, len(names)) // each algorithm computed once
	data := []byte(req.Value)
	for _, name := range names {
		algo := hashByFolded[foldAlgorithm(name)]
		if algo == nil || (res.HMAC && !algo.mac) {
			if !seenUnsupported[name] {
				seenUnsupported[name] = true
				res.UnsupportedAlgorithms = append(res.UnsupportedAlgorithms, name)
			}
			continue
		}
		d, done := digests[algo]
		if !done {
			var h hash.Hash
			if res.HMAC {
				h = hmac.New(algo.new, []byte(*req.HMACKey))
			} else {
				h = algo.new()
			}
			h.Write(data)
			d = encode(h.Sum(nil))
			digests[algo] = d
		}
		res.Hashes[name] = d
	}
	return res, nil
}

// digestEncoder returns the encoder named by enc and its canonical name,
// or nil when enc names none.
func digestEncoder(enc string) (func([]byte) string, string) {
	switch strings.ToLower(enc) {
	case "", "hex":
		return hex.EncodeToString, "hex"
	case "base64":
		return base64.StdEncoding.EncodeToString, "base64"
	case "base64url":
		return base64.RawURLEncoding.EncodeToString, "base64url"
	}
	return nil, ""
}

// shake adapts a SHAKE function to hash.Hash with a fixed output length.
type shake struct {
	*sha3.SHAKE
	fresh func() *sha3.SHAKE
	size  int
}

func newShake(fresh func() *sha3.SHAKE, size int) *shake {
	return &shake{SHAKE: fresh(), fresh: fresh, size: size}
}

func (s *shake) Size() int { return s.size }

func (s *shake) Sum(b []byte) []byte {
	// Reading from a SHAKE finalizes it; read from a copy so that Sum,
	// as hash.Hash requires, leaves the state unchanged.
	state, err := s.SHAKE.MarshalBinary()
	if err != nil {
		panic("devutil: SHAKE state: " + err.Error())
	}
	c := s.fresh()
	if err := c.UnmarshalBinary(state); err != nil {
		panic("devutil: SHAKE state: " + err.Error())
	}
	out := make([]byte, s.size)
	c.Read(out)
	return append(b, out...)
}
