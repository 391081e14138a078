package envelope_test

import (
	"fmt"
	"strings"

	"github.com/quiverkit/quiver/envelope"
)

func ExampleQuote() {
	fmt.Println(envelope.Quote("no-such-host"))
	fmt.Println(envelope.Quote(strings.Repeat("a", 1<<20))[95:])
	// Output:
	// "no-such-host"
	// aaaaaa"... (1048576 bytes)
}
