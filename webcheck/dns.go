package webcheck

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"sync"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/internal/weburl"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/resolver"
)

// DNSRequest is the request of [Checker.AnalyzeDNS].
type DNSRequest struct {
	// Domain is the domain name to analyze. Required.
	Domain string `json:"domain" openapi:"required"`
}

// MaxDNSRecordsListed bounds each record list of a [DNSResult]: one DNS
// answer may carry thousands of records. A warning counts the records
// not listed.
const MaxDNSRecordsListed = 32

// DNSResult is the result of [Checker.AnalyzeDNS]. Each record list holds
// at most MaxDNSRecordsListed records.
type DNSResult struct {
	// Domain is the analyzed domain in ASCII, lower case.
	Domain string `json:"domain"`
	// ARecords are the IPv4 addresses.
	ARecords []string `json:"a_records"`
	// AAAARecords are the IPv6 addresses.
	AAAARecords []string `json:"aaaa_records"`
	// MXRecords are the mail exchangers as "<pref> <host>", by preference;
	// a null MX (RFC 7505) is "0 .".
	MXRecords []string `json:"mx_records"`
	// TXTRecords are the TXT records, each one's strings joined; a record
	// longer than mailauth.MaxRecordBytes shows its first bytes followed
	// by "…".
	TXTRecords []string `json:"txt_records"`
	// NSRecords are the name servers.
	NSRecords []string `json:"ns_records"`
	// CNAMERecords is the CNAME target when the domain is an alias.
	CNAMERecords []string `json:"cname_records"`
	// SPF is the domain's SPF policy, parsed and evaluated by the mail
	// authentication parser that email's domain health shares; nil (JSON
	// null) when the domain publishes none.
	SPF *mailauth.SPF `json:"spf"`
	// DMARC is the DMARC policy that applies to the domain; nil (JSON
	// null) when none does.
	DMARC *mailauth.DMARC `json:"dmarc"`
	// Warnings note lookups that failed (SERVFAIL, time-out), a domain
	// that does not exist, and records not listed past
	// MaxDNSRecordsListed.
	Warnings []string `json:"warnings"`
}

// AnalyzeDNS queries the A, AAAA, MX, TXT, NS and CNAME records of a
// domain in parallel and evaluates its SPF and DMARC policies. A domain
// that does not exist gives empty lists and a warning; when every lookup
// fails the error is UPSTREAM_TIMEOUT or UPSTREAM_ERROR.
func (c *Checker) AnalyzeDNS(ctx context.Context, req DNSRequest) (DNSResult, error) {
	ctx, cancel := c.operation(ctx)
	defer cancel()
	domain, err := dnsDomain(req.Domain)
	if err != nil {
		return DNSResult{}, err
	}
	r := c.cfg.Resolver
	res := DNSResult{Domain: domain, ARecords: []string{}, AAAARecords: []string{}, MXRecords: []string{},
		TXTRecords: []string{}, NSRecords: []string{}, CNAMERecords: []string{}, Warnings: []string{}}

	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		failures []error // of the six record lookups
		nx       bool
	)
	run := func(kind string, fn func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := fn()
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil, errors.Is(err, resolver.ErrNoData), errors.Is(err, mailauth.ErrNoRecord):
			case errors.Is(err, resolver.ErrNXDomain):
				nx = true
			default:
				if kind != "SPF" && kind != "DMARC" {
					failures = append(failures, err)
				}
				res.Warnings = append(res.Warnings, kind+" lookup failed: "+err.Error())
			}
		}()
	}
	addrs := func(dst *[]string, lookup func(context.Context, string) ([]netip.Addr, error)) func() error {
		return func() error {
			as, err := lookup(ctx, domain)
			for _, a := range as {
				*dst = append(*dst, a.String())
			}
			return err
		}
	}
	run("A", addrs(&res.ARecords, func(ctx context.Context, d string) ([]netip.Addr, error) { return r.LookupA(ctx, d) }))
	run("AAAA", addrs(&res.AAAARecords, func(ctx context.Context, d string) ([]netip.Addr, error) { return r.LookupAAAA(ctx, d) }))
	run("MX", func() error {
		mx, err := r.LookupMX(ctx, domain)
		for _, m := range mx {
			host := m.Host
			if host == "" {
				host = "."
			}
			res.MXRecords = append(res.MXRecords, strconv.Itoa(int(m.Pref))+" "+host)
		}
		return err
	})
	run("TXT", func() error {
		txt, err := r.LookupTXT(ctx, domain)
		res.TXTRecords = append(res.TXTRecords, txt...)
		return err
	})
	run("NS", func() error {
		ns, err := r.LookupNS(ctx, domain)
		res.NSRecords = append(res.NSRecords, ns...)
		return err
	})
	run("CNAME", func() error {
		cn, err := r.LookupCNAME(ctx, domain)
		if cn != "" {
			res.CNAMERecords = append(res.CNAMERecords, cn)
		}
		return err
	})
	run("SPF", func() error {
		s, err := mailauth.CheckSPF(ctx, r, domain)
		res.SPF = s
		return err
	})
	run("DMARC", func() error {
		d, err := mailauth.CheckDMARC(ctx, r, domain)
		res.DMARC = d
		return err
	})
	wg.Wait()
	for _, l := range []struct {
		kind string
		list *[]string
	}{{"A", &res.ARecords}, {"AAAA", &res.AAAARecords}, {"MX", &res.MXRecords}, {"TXT", &res.TXTRecords}, {"NS", &res.NSRecords}} {
		if n := len(*l.list) - MaxDNSRecordsListed; n > 0 {
			*l.list = (*l.list)[:MaxDNSRecordsListed]
			res.Warnings = append(res.Warnings, fmt.Sprintf("%d more %s records are not listed", n, l.kind))
		}
	}
	for i, t := range res.TXTRecords {
		res.TXTRecords[i] = textcut.Mark(t, mailauth.MaxRecordBytes, "…")
	}
	if len(failures) == 6 {
		// The cause, a *resolver.LookupError, names the domain and the
		// query: the message does not repeat them.
		for _, f := range failures {
			if errors.Is(f, resolver.ErrTimeout) || errors.Is(f, context.DeadlineExceeded) {
				return DNSResult{}, envelope.Wrap(envelope.CodeUpstreamTimeout, f, "the DNS lookups of the domain timed out")
			}
		}
		return DNSResult{}, envelope.Wrap(envelope.CodeUpstreamError, failures[0], "the DNS lookups of the domain failed")
	}
	if nx && len(res.ARecords)+len(res.AAAARecords)+len(res.MXRecords)+len(res.TXTRecords)+len(res.NSRecords) == 0 {
		res.Warnings = append(res.Warnings, "the domain does not exist (NXDOMAIN)")
	}
	return res, nil
}

// dnsDomain validates a domain name and returns it in ASCII, lower case,
// without a trailing dot.
func dnsDomain(raw string) (string, error) {
	d := strings.TrimSpace(raw)
	if d == "" {
		return "", envelope.Invalid("domain", "is required")
	}
	if isWebURL(d) {
		u, err := weburl.Parse(d)
		if err != nil || u.Host == "" {
			return "", envelope.Invalid("domain", "must be a domain name like example.com")
		}
		d = u.Host
	}
	h, err := safehttp.ParseHost(d)
	switch {
	case err != nil && !errors.Is(err, safehttp.ErrDestinationNotAllowed):
		return "", envelope.Invalid("domain", "is not a valid domain name: "+strings.TrimPrefix(err.Error(), safehttp.ErrInvalidHost.Error()+": "))
	case err == nil && h.IsIP():
		return "", envelope.Invalid("domain", "must be a domain name, not an IP address")
	}
	name := strings.TrimSuffix(strings.ToLower(d), ".")
	if err == nil {
		name = strings.TrimSuffix(h.Name, ".")
	}
	if !strings.Contains(name, ".") {
		return "", envelope.Invalid("domain", "must have at least two labels, like example.com")
	}
	for _, l := range strings.Split(name, ".") {
		if len(l) > 63 {
			return "", envelope.Invalid("domain", "has a label longer than 63 characters")
		}
	}
	return name, nil
}
