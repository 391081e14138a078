package safehttp_test

import (
	"errors"
	"fmt"

	"github.com/quiverkit/quiver/internal/safehttp"
)

func ExampleParseHost() {
	for _, h := range []string{"2130706433", "%31%32%37.1", "EXAMPLE.com.", "a.localhost", "1.+1"} {
		host, err := safehttp.ParseHost(h)
		switch {
		case errors.Is(err, safehttp.ErrDestinationNotAllowed):
			fmt.Println(h, "refused")
		case err != nil:
			fmt.Println(h, "invalid")
		default:
			fmt.Println(h, host, host.IsIP())
		}
	}
	// Output:
	// 2130706433 127.0.0.1 true
	// %31%32%37.1 127.0.0.1 true
	// EXAMPLE.com. example.com. false
	// a.localhost refused
	// 1.+1 invalid
}
