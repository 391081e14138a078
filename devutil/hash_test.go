package devutil_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
)

// hashVectors are published test vectors: FIPS 180-4 and FIPS 202 example
// values ("abc" and the empty message), RFC 7693 appendix A for BLAKE2,
// the RIPEMD-160 authors' page, the Keccak team's and Ethereum's
// Keccak-256 values, the CRC catalogue check value ("123456789"), and the
// FNV authors' reference values.
var hashVectors = []struct {
	algo, in, want string
}{
	{"md5", "", "d41d8cd98f00b204e9800998ecf8427e"},
	{"md5", "abc", "900150983cd24fb0d6963f7d28e17f72"},
	{"sha1", "", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
	{"sha1", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
	{"sha224", "", "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"},
	{"sha224", "abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"},
	{"sha256", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"sha256", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	{"sha384", "", "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"},
	{"sha384", "abc", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"},
	{"sha512", "", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"},
	{"sha512", "abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
	{"sha512-224", "", "6ed0dd02806fa89e25de060c19d3ac86cabb87d6a0ddd05c333b84f4"},
	{"sha512-224", "abc", "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa"},
	{"sha512-256", "", "c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a"},
	{"sha512-256", "abc", "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"},
	{"sha3-224", "", "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7"},
	{"sha3-224", "abc", "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf"},
	{"sha3-256", "", "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"},
	{"sha3-256", "abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
	{"sha3-384", "", "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004"},
	{"sha3-384", "abc", "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25"},
	{"sha3-512", "", "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"},
	{"sha3-512", "abc", "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"},
	{"keccak-256", "", "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"},
	{"keccak-256", "abc", "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"},
	{"keccak-512", "", "0eab42de4c3ceb9235fc91acffe746b29c29a8c366b7c60e4e67c466f36a4304c00fa9caf9d87976ba469bcbe06713b435f091ef2769fb160cdab33d3670680e"},
	{"shake128", "", "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"},
	{"shake128", "abc", "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8"},
	{"shake256", "", "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"},
	{"shake256", "abc", "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4"},
	{"blake2b-256", "", "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"},
	{"blake2b-256", "abc", "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319"},
	{"blake2b-384", "", "b32811423377f52d7862286ee1a72ee540524380fda1724a6f25d7978c6fd3244a6caf0498812673c5e05ef583825100"},
	{"blake2b-384", "abc", "6f56a82c8e7ef526dfe182eb5212f7db9df1317e57815dbda46083fc30f54ee6c66ba83be64b302d7cba6ce15bb556f4"},
	{"blake2b-512", "", "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce"},
	{"blake2b-512", "abc", "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"},
	{"blake2s-256", "", "69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9"},
	{"blake2s-256", "abc", "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982"},
	{"ripemd160", "", "9c1185a5c5e9fc54612808977ee8f548b2258d31"},
	{"ripemd160", "abc", "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"},
	{"crc32", "", "00000000"},
	{"crc32", "123456789", "cbf43926"},
	{"crc32c", "", "00000000"},
	{"crc32c", "123456789", "e3069283"},
	{"adler32", "", "00000001"},
	{"adler32", "Wikipedia", "11e60398"},
	{"fnv1a-32", "", "811c9dc5"},
	{"fnv1a-32", "a", "e40c292c"},
	{"fnv1a-64", "", "cbf29ce484222325"},
	{"fnv1a-64", "a", "af63dc4c8601ec8c"},
}

func TestHashVectors(t *testing.T) {
	covered := map[string]bool{}
	for _, v := range hashVectors {
		covered[v.algo] = true
		res, err := devutil.Hash(context.Background(), devutil.HashRequest{Value: v.in, Algorithms: []string{v.algo}})
		if err != nil {
			t.Fatalf("%s(%q): %v", v.algo, v.in, err)
		}
		if got := res.Hashes[v.algo]; got != v.want {
			t.Errorf("%s(%q) = %s, want %s", v.algo, v.in, got, v.want)
		}
	}
	for _, name := range devutil.HashAlgorithms() {
		if !covered[name] {
			t.Errorf("algorithm %s has no test vector", name)
		}
	}
}

func TestHashHMAC(t *testing.T) {
	// RFC 2104 examples as printed by Wikipedia's HMAC article.
	key := "key"
	res, err := devutil.Hash(context.Background(), devutil.HashRequest{
		Value:      "The quick brown fox jumps over the lazy dog",
		Algorithms: []string{"md5", "sha256", "crc32", "shake128"},
		HMACKey:    &key,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := devutil.HashResult{
		Hashes: map[string]string{
			"md5":    "80070713463e7749b90c2dc24911e275",
			"sha256": "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
		},
		UnsupportedAlgorithms: []string{"crc32", "shake128"},
		Encoding:              "hex",
		HMAC:                  true,
	}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("HMAC result (-want +got):\n%s", diff)
	}
}

func TestHashNamesAndEncodings(t *testing.T) {
	tests := []struct {
		name string
		req  devutil.HashRequest
		want devutil.HashResult
	}{
		{
			name: "defaults",
			req:  devutil.HashRequest{Value: "abc"},
			want: devutil.HashResult{Hashes: map[string]string{
				"md5":    "900150983cd24fb0d6963f7d28e17f72",
				"sha1":   "a9993e364706816aba3e25717850c26c9cd0d89d",
				"sha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
				"sha512": "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
			}, UnsupportedAlgorithms: []string{}, Encoding: "hex"},
		},
		{
			name: "each name keyed as given",
			req:  devutil.HashRequest{Value: "abc", Algorithms: []string{"SHA-256", "sha_256", "sha256", " Sha256 ", "SHA-512/256", "Keccak256", "CRC32-Castagnoli"}},
			want: devutil.HashResult{Hashes: map[string]string{
				"SHA-256":          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
				"sha_256":          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
				"sha256":           "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
				" Sha256 ":         "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
				"SHA-512/256":      "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
				"Keccak256":        "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
				"CRC32-Castagnoli": "364b3fb7",
			}, UnsupportedAlgorithms: []string{}, Encoding: "hex"},
		},
		{
			name: "unknown names reported once, as given",
			req:  devutil.HashRequest{Value: "abc", Algorithms: []string{"md4", "whirlpool", "md4", "", "md5"}},
			want: devutil.HashResult{Hashes: map[string]string{
				"md5": "900150983cd24fb0d6963f7d28e17f72",
			}, UnsupportedAlgorithms: []string{"md4", "whirlpool", ""}, Encoding: "hex"},
		},
		{
			name: "base64",
			req:  devutil.HashRequest{Value: "", Algorithms: []string{"md5"}, Encoding: "BASE64"},
			want: devutil.HashResult{Hashes: map[string]string{"md5": "1B2M2Y8AsgTpgAmY7PhCfg=="}, UnsupportedAlgorithms: []string{}, Encoding: "base64"},
		},
		{
			name: "base64url",
			req:  devutil.HashRequest{Value: "", Algorithms: []string{"md5"}, Encoding: "base64url"},
			want: devutil.HashResult{Hashes: map[string]string{"md5": "1B2M2Y8AsgTpgAmY7PhCfg"}, UnsupportedAlgorithms: []string{}, Encoding: "base64url"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := devutil.Hash(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestHashInvalid(t *testing.T) {
	tests := []struct {
		name  string
		req   devutil.HashRequest
		field string
	}{
		{"bad encoding", devutil.HashRequest{Value: "x", Encoding: "base32"}, "encoding"},
		{"too many algorithms", devutil.HashRequest{Value: "x", Algorithms: slices.Repeat([]string{"md5"}, devutil.MaxHashAlgorithms+1)}, "algorithms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := devutil.Hash(context.Background(), tt.req)
			var v *envelope.ValidationError
			if !errors.As(err, &v) {
				t.Fatalf("err = %v, want a ValidationError", err)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("err = %v, want it to name %s", err, tt.field)
			}
		})
	}
}

func BenchmarkHash1MB(b *testing.B) {
	value := strings.Repeat("quiver!\n", 1<<17) // 1 MiB
	b.Run("all_in_one_request", func(b *testing.B) {
		req := devutil.HashRequest{Value: value, Algorithms: devutil.HashAlgorithms()}
		b.SetBytes(int64(len(value)))
		for b.Loop() {
			if _, err := devutil.Hash(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, name := range devutil.HashAlgorithms() {
		b.Run(name, func(b *testing.B) {
			req := devutil.HashRequest{Value: value, Algorithms: []string{name}}
			b.SetBytes(int64(len(value)))
			for b.Loop() {
				if _, err := devutil.Hash(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
