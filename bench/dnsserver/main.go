// Command dnsserver serves a fixture zone on a loopback port for the
// benchmarks of bench/run.sh, so that the DNS-backed routes are measured
// against a real DNS server without the network. It prints the
// "127.0.0.1:port" it listens on (UDP and TCP), then serves until
// interrupted.
//
//	go run ./bench/dnsserver -domains 1000
//
// serves example.test (MX, SPF, DMARC) and d0.test ... d999.test (MX).
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/quiverkit/quiver/resolver/resolvertest"
)

func main() {
	domains := flag.Int("domains", 1000, "number of extra domains d0.test ... with an MX record")
	ttl := flag.Duration("ttl", time.Hour, "TTL of the records")
	delay := flag.Duration("delay", 0, "delay before each answer, to mimic a remote resolver")
	flag.Parse()

	var zone strings.Builder
	fmt.Fprintf(&zone, "$ORIGIN test.\n$TTL %d\n@ SOA ns hostmaster 1 3600 600 86400 60\n", int(ttl.Seconds()))
	zone.WriteString(`example  MX 10 mail.example.test.
mail.example A 192.0.2.10
example  TXT "v=spf1 mx -all"
_dmarc.example TXT "v=DMARC1; p=reject; rua=mailto:dmarc@example.test"
`)
	for i := range *domains {
		fmt.Fprintf(&zone, "d%d MX 10 mail.example.test.\n", i)
	}
	s, err := resolvertest.New(resolvertest.Config{Zone: zone.String(), Delay: *delay})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	fmt.Println(s.Addr)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	fmt.Fprintf(os.Stderr, "dnsserver: %d queries\n", s.Queries())
}
