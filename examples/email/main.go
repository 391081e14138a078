// Command email validates the addresses given as arguments (or one a line
// on standard input) and prints each result as JSON.
//
// By default it works offline: syntax, normalization, the disposable,
// free-provider and role lists, and typo suggestions. With -dns it also
// applies the MX rules through the given resolver, and with -domain-health
// it checks the MX, SPF and DMARC of each address's domain.
//
//	go run ./examples/email 'Jane.Doe@Example.COM' 'x@gmial.com' 'bad@@example.com'
//	go run ./examples/email -dns 1.1.1.1 someone@example.org
//	go run ./examples/email -dns 127.0.0.1:5353 -domain-health someone@example.org
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/resolver"
)

func main() {
	dns := flag.String("dns", "", "comma-separated DNS servers (host or host:port) for MX checks; empty: offline checks only")
	health := flag.Bool("domain-health", false, "also check the MX, SPF and DMARC of each domain (needs -dns)")
	literals := flag.Bool("allow-ip-literals", false, "accept [192.0.2.1] and [IPv6:...] domains")
	flag.Parse()
	if err := run(os.Stdout, *dns, *health, *literals, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "email:", err)
		os.Exit(1)
	}
}

func run(out io.Writer, dns string, health, literals bool, addrs []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := email.Config{Syntax: email.SyntaxOptions{AllowIPv4Literal: literals, AllowIPv6Literal: literals}}
	if dns != "" {
		r, err := resolver.New(resolver.Config{Servers: strings.Split(dns, ",")})
		if err != nil {
			return err
		}
		cfg.Resolver = r
	} else if health {
		return fmt.Errorf("-domain-health needs -dns")
	}
	v, err := email.New(cfg)
	if err != nil {
		return err
	}
	if len(addrs) == 0 {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); line != "" {
				addrs = append(addrs, line)
			}
		}
		if err := sc.Err(); err != nil {
			return err
		}
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	for _, a := range addrs {
		res := v.Validate(ctx, a, email.Checks{SkipMX: cfg.Resolver == nil})
		if err := enc.Encode(map[string]any{"input": a, "result": res}); err != nil {
			return err
		}
		if health && res.ASCIIDomain != nil {
			h, err := v.DomainHealth(ctx, email.DomainHealthRequest{Domains: []string{*res.ASCIIDomain}})
			if err != nil {
				return err
			}
			if err := enc.Encode(h.Results[0]); err != nil {
				return err
			}
		}
	}
	return nil
}
