package devutil

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestFormatJSONLimit checks the bound on the formatted output at every
// size around it, including the case where only the closing brackets are
// left when the bound is reached.
func TestFormatJSONLimit(t *testing.T) {
	const src = `[[1,{"a":[2]}]]`
	var want bytes.Buffer
	if err := json.Indent(&want, []byte(src), "", "        "); err != nil {
		t.Fatal(err)
	}
	for limit := 1; limit <= want.Len()+1; limit++ {
		res, over := formatJSON(src, 8, false, limit)
		if over == 0 && res.Formatted != want.String() {
			t.Errorf("limit %d: formatted %q, want %q or the overflow", limit, res.Formatted, want.String())
		}
		if over != 0 && (over != limit || res.IsValid || res.Formatted != "") {
			t.Errorf("limit %d: overflow %d with valid %v, formatted %q; want overflow %d and no result", limit, over, res.IsValid, res.Formatted, limit)
		}
		// The bound is checked at each line break; the closing bracket
		// after the last one may pass it by one byte.
		if (limit < want.Len()-1) != (over != 0) {
			t.Errorf("limit %d for %d bytes: overflow %d", limit, want.Len(), over)
		}
	}
	// Text that is not JSON is reported invalid at every bound, never
	// too large.
	const invalid = `[[1,{"a":[2]}] x`
	for limit := 1; limit <= want.Len()+1; limit++ {
		res, over := formatJSON(invalid, 8, false, limit)
		if over != 0 || res.IsValid || res.Error == nil || *res.Error != "line 1, column 16: expected ',' or ']' after array element, found 'x'" {
			t.Errorf("limit %d, invalid text: overflow %d, valid %v, error %v", limit, over, res.IsValid, res.Error)
		}
	}
}
