package stopwords

import "testing"

func TestIs(t *testing.T) {
	for w, want := range map[string]bool{
		"the": true, "don't": true, "dont": true, "rt": true, "amp": true,
		"coffee": false, "golang": false, "The": false, "": false,
	} {
		if got := Is(w); got != want {
			t.Errorf("Is(%q) = %v, want %v", w, got, want)
		}
	}
}
