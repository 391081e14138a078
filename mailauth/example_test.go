package mailauth_test

import (
	"fmt"

	"github.com/quiverkit/quiver/mailauth"
)

func ExampleParseSPF() {
	terms, err := mailauth.ParseSPF("v=spf1 ip4:192.0.2.0/24 include:_spf.example.com ~all")
	for _, t := range terms {
		fmt.Printf("%s %s%s:%s\n", t.Type, t.Qualifier, t.Name, t.Value)
	}
	fmt.Println(err)
	// Output:
	// mechanism +ip4:192.0.2.0/24
	// mechanism +include:_spf.example.com
	// mechanism ~all:
	// <nil>
}

func ExampleParseDMARC() {
	d := mailauth.ParseDMARC("v=DMARC1; p=none; pct=50")
	fmt.Println(d.Policy, d.Percent, d.ADKIM, d.Errors)
	for _, w := range d.Warnings {
		fmt.Println("warning:", w)
	}
	// Output:
	// none 50 r []
	// warning: p=none only monitors: failing mail is delivered
	// warning: pct=50 applies the policy to part of the failing mail only
	// warning: no rua: the domain receives no aggregate reports
}
