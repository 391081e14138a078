package devutil_test

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
)

func TestBase64(t *testing.T) {
	tests := []struct {
		name      string
		decode    bool
		req       devutil.Base64Request
		out       string
		valid     bool
		errSubstr string
	}{
		// RFC 4648 section 10 vectors.
		{"encode f", false, devutil.Base64Request{Value: "f"}, "Zg==", true, ""},
		{"encode fo", false, devutil.Base64Request{Value: "fo"}, "Zm8=", true, ""},
		{"encode foo", false, devutil.Base64Request{Value: "foo"}, "Zm9v", true, ""},
		{"encode foobar", false, devutil.Base64Request{Value: "foobar"}, "Zm9vYmFy", true, ""},
		{"encode utf-8", false, devutil.Base64Request{Value: "héllo"}, "aMOpbGxv", true, ""},
		{"encode url-safe", false, devutil.Base64Request{Value: "\xff\xfe?>", URLSafe: true}, "__4_Pg==", true, ""},
		{"encode standard", false, devutil.Base64Request{Value: "??>"}, "Pz8+", true, ""},
		{"decode padded", true, devutil.Base64Request{Value: "Zm9vYg=="}, "foob", true, ""},
		{"decode unpadded", true, devutil.Base64Request{Value: "Zm9vYg"}, "foob", true, ""},
		{"decode MIME-wrapped", true, devutil.Base64Request{Value: "Zm9v\r\nYmFy"}, "foobar", true, ""},
		{"decode url-safe", true, devutil.Base64Request{Value: "PD8_Pg==", URLSafe: true}, "<?\x3f>", true, ""},
		{"decode url-safe char without urlsafe", true, devutil.Base64Request{Value: "PD8_Pg=="}, "", false, "set urlsafe to true"},
		{"decode standard char with urlsafe", true, devutil.Base64Request{Value: "PD8/Pg==", URLSafe: true}, "", false, "set urlsafe to false"},
		{"decode bad char", true, devutil.Base64Request{Value: "Zm9v*mFy"}, "", false, "unexpected '*' at offset 4"},
		{"decode bad padding", true, devutil.Base64Request{Value: "Zm9=v"}, "", false, "invalid Base64"},
		{"decode truncated", true, devutil.Base64Request{Value: "Zm9vY"}, "", false, "invalid Base64"},
		{"decode non-zero trailing bits", true, devutil.Base64Request{Value: "Zh=="}, "", false, "invalid Base64"},
		{"decode binary", true, devutil.Base64Request{Value: "//79"}, "", false, "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := devutil.EncodeBase64
			if tt.decode {
				op = devutil.DecodeBase64
			}
			res, err := op(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Output != tt.out || res.IsValid != tt.valid || res.Input != tt.req.Value {
				t.Errorf("got %+v", res)
			}
			if tt.valid != (res.Error == nil) {
				t.Fatalf("valid %v with error %v", res.IsValid, res.Error)
			}
			if res.Error != nil && !strings.Contains(*res.Error, tt.errSubstr) {
				t.Errorf("error %q, want it to contain %q", *res.Error, tt.errSubstr)
			}
			wantOp := devutil.Base64Encode
			if tt.decode {
				wantOp = devutil.Base64Decode
			}
			if res.Operation != wantOp {
				t.Errorf("operation %q", res.Operation)
			}
		})
	}
}

func TestBase64EmptyValue(t *testing.T) {
	for _, op := range []func(context.Context, devutil.Base64Request) (devutil.Base64Result, error){devutil.EncodeBase64, devutil.DecodeBase64} {
		_, err := op(context.Background(), devutil.Base64Request{})
		var v *envelope.ValidationError
		if !errors.As(err, &v) {
			t.Errorf("err = %v, want a ValidationError", err)
		}
	}
}

func FuzzBase64(f *testing.F) {
	for _, s := range []string{"foobar", "Zm9vYg==", "PD8_Pg", "\xff", "a\r\nb", "===="} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, urlSafe bool) {
		if s == "" {
			return
		}
		ctx := context.Background()
		dec, err := devutil.DecodeBase64(ctx, devutil.Base64Request{Value: s, URLSafe: urlSafe})
		if err != nil || dec.IsValid == (dec.Error != nil) {
			t.Fatalf("decode %q: %+v %v", s, dec, err)
		}
		if dec.IsValid {
			// What decoded must be exactly what the standard library decodes.
			enc := base64.StdEncoding
			if urlSafe {
				enc = base64.URLEncoding
			}
			clean := strings.TrimRight(strings.NewReplacer("\r", "", "\n", "").Replace(s), "=")
			want, err := enc.WithPadding(base64.NoPadding).DecodeString(clean)
			if err != nil || string(want) != dec.Output {
				t.Fatalf("decode %q = %q, stdlib %q %v", s, dec.Output, want, err)
			}
		}
		if !utf8.ValidString(s) {
			return
		}
		enc, err := devutil.EncodeBase64(ctx, devutil.Base64Request{Value: s, URLSafe: urlSafe})
		if err != nil || !enc.IsValid {
			t.Fatalf("encode %q: %+v %v", s, enc, err)
		}
		back, err := devutil.DecodeBase64(ctx, devutil.Base64Request{Value: enc.Output, URLSafe: urlSafe})
		if err != nil || !back.IsValid || back.Output != s {
			t.Fatalf("round trip of %q gave %+v %v", s, back, err)
		}
	})
}
