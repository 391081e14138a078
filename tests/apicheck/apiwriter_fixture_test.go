package apicheck

import (
	"slices"
	"strings"
	"testing"
)

// TestAPIWritesEveryKind runs the writer on a fixture module that
// declares one exported identifier of every kind, beside an internal
// package, a command and a package with tests only, which have no lines.
func TestAPIWritesEveryKind(t *testing.T) {
	got, err := API("testdata/apifixture", "./...")
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "pkg example.com/apifixture/kinds, "
	for i, line := range got {
		rest, ok := strings.CutPrefix(line, prefix)
		if !ok {
			t.Fatalf("line of another package than kinds: %s", line)
		}
		got[i] = rest
	}
	want := []string{
		`const Name = "kinds"`,
		`const Name ideal-string`,
		`const Pi = 13/4`,
		`const Pi ideal-float`,
		`const StatusOK = "ok"`,
		`const StatusOK Status`,
		`const Timeout = 2000000000`,
		`const Timeout time.Duration`,
		`const Untyped = 10`,
		`const Untyped ideal-int`,
		`func Bytes([]uint8, int32) [4]uint8`,
		`func Chans(chan int, <-chan string, chan<- bool, chan (<-chan int))`,
		`func Leak() unexported`,
		`func Map[$0 comparable, $1 any](map[$0]$1, func($0) $1) []$1`,
		`func Min[$0 Number]($0, $0) $0`,
		`func New(Config) (*Client, error)`,
		`method (*Client) Do(context.Context, []uint8) error`,
		`method (*Embedded) Close() error`,
		`method (*List) Add(int)`,
		`method (*Set[$0]) Add($0)`,
		`method (Client) Name() string`,
		`method (Config) Close() error`,
		`method (List) Has(int) bool`,
		`method (Set[$0]) Has($0) bool`,
		`type Client struct`,
		`type Config struct`,
		`type Config struct, Alias Status`,
		`type Config struct, Anon struct{ A int; b string }`,
		`type Config struct, Any any`,
		`type Config struct, Promoted string`,
		`type Config struct, Timeout time.Duration`,
		`type Config struct, embedded *Embedded`,
		`type Doer interface { Do, Read }`,
		`type Doer interface, Do(context.Context) error`,
		`type Doer interface, Read([]uint8) (int, error)`,
		`type Embedded struct`,
		`type Embedded struct, Inner int`,
		`type Empty interface {}`,
		`type List struct`,
		`type List struct, embedded Set[int]`,
		`type Number interface { ~int | ~float64 }`,
		`type Other = Status`,
		`type Pair[$0 comparable, $1 any] struct`,
		`type Pair[$0 comparable, $1 any] struct, Key $0`,
		`type Sealed interface { Public, unexported methods }`,
		`type Sealed interface, Public()`,
		`type Set[$0 comparable] struct`,
		`type Set[$0 comparable] struct, Items map[$0]bool`,
		`type Status string`,
		`var ErrClosed error`,
		`var Hook func(context.Context, ...string) (int, error)`,
	}
	if !slices.Equal(got, want) {
		added, removed := lineDiff(want, got)
		t.Errorf("API of the fixture (+ written, - expected):\n%s", formatDiff(added, removed, 100))
	}
}
