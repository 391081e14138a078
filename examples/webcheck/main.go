// Command webcheck runs Quiver's web checks on a site from the command
// line: URL parsing, robots.txt, the TLS certificate, URL safety and
// DNS records.
//
//	go run ./examples/webcheck https://example.com/some/page
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/quiverkit/quiver/webcheck"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: webcheck <url>")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	parsed, err := webcheck.ParseURL(ctx, webcheck.URLParseRequest{URL: os.Args[1]})
	if err != nil {
		log.Fatal(err)
	}
	show("url", parsed)

	// The zero Config refuses private and loopback destinations and uses
	// the system's DNS servers and certificate roots.
	c, err := webcheck.New(webcheck.Config{})
	if err != nil {
		log.Fatal(err)
	}
	if res, err := c.AnalyzeRobots(ctx, webcheck.RobotsRequest{URL: parsed.NormalizedURL}); err == nil {
		show("robots", res)
	} else {
		log.Print(err)
	}
	if res, err := c.CheckSSL(ctx, webcheck.SSLRequest{Domain: parsed.Host}); err == nil {
		show("ssl", res)
	} else {
		log.Print(err)
	}
	if res, err := c.CheckURLSafety(ctx, webcheck.URLSafetyRequest{URL: parsed.NormalizedURL}); err == nil {
		show("safety", res)
	} else {
		log.Print(err)
	}
	if res, err := c.AnalyzeDNS(ctx, webcheck.DNSRequest{Domain: parsed.Host}); err == nil {
		show("dns", res)
	} else {
		log.Print(err)
	}
}

func show(name string, v any) {
	b, _ := json.MarshalIndent(v, "", "  ")
	fmt.Printf("== %s\n%s\n", name, b)
}
