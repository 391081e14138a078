package mailauth

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/resolver"
)

// A RecordStatus is the outcome of a record check: [CheckMTASTS],
// [CheckTLSRPT], [CheckDKIM], [CheckBIMI].
type RecordStatus string

// Statuses of the record checks.
const (
	RecordValid   RecordStatus = "valid"   // published, without errors
	RecordInvalid RecordStatus = "invalid" // published with errors, or several records where one is allowed
	RecordMissing RecordStatus = "missing" // not published
	RecordError   RecordStatus = "error"   // the lookup failed: nothing is known
)

// RecordStatuses returns the statuses of a record check.
func RecordStatuses() []RecordStatus {
	return []RecordStatus{RecordValid, RecordInvalid, RecordMissing, RecordError}
}

// DefaultMTASTSTimeout is the default of [MTASTSOptions.Timeout].
const DefaultMTASTSTimeout = 10 * time.Second

// MTASTSOptions configures the fetch of MTA-STS policies by
// [CheckMTASTS]. The fetch goes through Quiver's one SSRF-safe client:
// non-public addresses are refused, the name is resolved by the
// check's Resolver, redirects are refused (RFC 8461 section 3.3), the
// certificate must be valid for mta-sts.<domain>, and the body is read
// up to MaxMTASTSPolicyBytes (64 KiB). The zero value is the default.
type MTASTSOptions struct {
	// RootCAs are the roots the policy host's certificate is verified
	// against. Tests set the pool of their test CA.
	// Default: nil, the system roots.
	RootCAs *x509.CertPool
	// Timeout bounds one policy fetch: connection, TLS and body.
	// Default: DefaultMTASTSTimeout (10s); so does a negative value.
	Timeout time.Duration
	// Port is the HTTPS port of the policy host. RFC 8461 uses 443;
	// tests set the port of their loopback server.
	// Default: 443.
	Port int
	// AllowLoopback lets the fetch reach loopback addresses, for tests
	// and examples; every other non-public address stays refused.
	// Default: false.
	AllowLoopback bool
	// AllowPrivateAddresses lets the fetch reach loopback, private,
	// link-local and every other non-public address, for an internal
	// deployment checking domains whose policy hosts are on its own
	// network. Never set it on a service that checks the domains of
	// untrusted callers: a domain could aim the fetch at that network.
	// Default: false.
	AllowPrivateAddresses bool
}

// policyClient builds the client of one MTA-STS policy fetch.
func (o MTASTSOptions) policyClient(r Resolver) *safehttp.Client {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultMTASTSTimeout
	}
	opts := []safehttp.Option{
		safehttp.WithResolver(r),
		safehttp.WithTimeout(timeout),
		safehttp.WithDialTimeout(timeout),
		safehttp.WithMaxBodyBytes(MaxMTASTSPolicyBytes),
		safehttp.WithMaxRedirects(-1),
		safehttp.WithRootCAs(o.RootCAs),
	}
	switch {
	case o.AllowPrivateAddresses:
		opts = append(opts, safehttp.AllowPrefixes(netip.MustParsePrefix("0.0.0.0/0"), netip.MustParsePrefix("::/0")))
	case o.AllowLoopback:
		opts = append(opts, safehttp.AllowLoopback())
	}
	return safehttp.New(opts...)
}

// policyURL is where the MTA-STS policy of domain is served.
func (o MTASTSOptions) policyURL(domain string) string {
	host := "mta-sts." + domain
	if p := o.Port; p > 0 && p != 443 {
		host += ":" + strconv.Itoa(p)
	}
	return "https://" + host + "/.well-known/mta-sts.txt"
}

// MTASTS is the MTA-STS check of a domain (RFC 8461): its _mta-sts
// record and the policy that record announces.
type MTASTS struct {
	// Status is valid (record and policy valid), invalid (either has an
	// error, or the server's answer to the policy fetch is refused: HTTP
	// status, certificate, redirect, size), missing (no _mta-sts record)
	// or error (the lookup failed, or the policy fetch failed on the
	// network or on this service's side: timeout, refused connection, DNS
	// server failure, address refused; a warning, as nothing is known).
	Status RecordStatus `json:"status"`
	// Record is the _mta-sts record; null when missing.
	Record *MTASTSRecord `json:"record"`
	// PolicyURL is where the policy is fetched from.
	PolicyURL string `json:"policy_url"`
	// Policy is the fetched policy, with mode, max_age and mx; null when
	// the record is missing or invalid, or the fetch failed.
	Policy *MTASTSPolicy `json:"policy"`
	// MXMatch reports whether every MX host of the domain matches an mx
	// pattern of the policy (RFC 8461 section 4.1); null without a policy
	// or MX hosts.
	MXMatch *bool `json:"mx_match"`
	// UnmatchedMX are the MX hosts no pattern matches. Never nil.
	UnmatchedMX []string `json:"unmatched_mx"`
	// Error says why the lookup or the policy fetch failed; "" when they
	// did not.
	Error string `json:"error"`
	// Problems are the findings (record, policy fetch, policy, MX match),
	// the record's and the policy's with their messages prefixed. Never
	// nil. An extension beyond the contract in the answers of the HTTP
	// API.
	Problems []Problem `json:"problems" openapi:"extension"`
}

// TLSRPT is the SMTP TLS Reporting check of a domain (RFC 8460): its
// _smtp._tls record.
type TLSRPT struct {
	// Status is valid, invalid, missing or error.
	Status RecordStatus `json:"status"`
	// Record is the record with its rua; null when missing.
	Record *TLSRPTRecord `json:"record"`
	// Error says why the lookup failed; "" when it did not.
	Error string `json:"error"`
	// Problems are the findings, the record's with their messages
	// prefixed. Never nil. An extension beyond the contract in the
	// answers of the HTTP API.
	Problems []Problem `json:"problems" openapi:"extension"`
}

// BIMI is the BIMI check of a domain: its default._bimi record, and
// whether its DMARC policy lets receivers honour it.
type BIMI struct {
	// Status is valid, invalid, missing or error.
	Status RecordStatus `json:"status"`
	// Record is the record with l and a; null when missing.
	Record *BIMIRecord `json:"record"`
	// DMARCEnforced reports a DMARC policy of reject, or quarantine at
	// pct=100, without which receivers ignore BIMI.
	DMARCEnforced bool `json:"dmarc_enforced"`
	// Error says why the lookup failed; "" when it did not.
	Error string `json:"error"`
	// Problems are the findings, the record's with their messages
	// prefixed. Never nil. An extension beyond the contract in the
	// answers of the HTTP API.
	Problems []Problem `json:"problems" openapi:"extension"`
}

// DKIM is the DKIM check of a domain: the keys found at the probed
// selectors. DNS cannot list a domain's selectors, so a domain whose
// selectors are not probed shows none: pass them to [CheckDKIM].
type DKIM struct {
	// Status is valid (at least one usable key), invalid (keys found,
	// none usable: weak, revoked or malformed), missing (no key at any
	// probed selector) or error (no key found and a lookup failed).
	Status RecordStatus `json:"status"`
	// Selectors are the selectors probed, in order. Never nil.
	Selectors []string `json:"selectors"`
	// Keys are the keys found, in the order of Selectors. Never nil.
	Keys []DKIMSelectorKey `json:"keys"`
	// Error says why a lookup failed; "" when none did.
	Error string `json:"error"`
	// Problems are the findings, the keys' with their messages
	// prefixed by their selector. Never nil. An extension beyond the
	// contract in the answers of the HTTP API.
	Problems []Problem `json:"problems" openapi:"extension"`
}

// A DKIMSelectorKey is the key published at one selector.
type DKIMSelectorKey struct {
	// Selector is the selector ("google").
	Selector string `json:"selector"`
	// Name is where the key is published
	// ("google._domainkey.example.com").
	Name string `json:"name"`
	// Record is the TXT record, up to MaxRecordBytes.
	Record string `json:"record"`
	// RecordTruncated reports a record longer than MaxRecordBytes, of
	// which Record shows the first bytes. An extension beyond the
	// contract.
	RecordTruncated bool `json:"record_truncated,omitempty" openapi:"extension"`
	// KeyType is "rsa" or "ed25519" (k=); another value, up to
	// MaxValueBytes, is an error.
	KeyType string `json:"key_type"`
	// Bits is the key size; 0 when revoked or unparsable.
	Bits int `json:"bits"`
	// Revoked reports an empty p=.
	Revoked bool `json:"revoked"`
	// Valid reports a usable key: parsed, not weak, not revoked.
	Valid bool `json:"valid"`
	// Errors and Warnings are the messages of the key's findings. Never
	// nil.
	Errors   []string `json:"errors"`
	Warnings []string `json:"warnings"`
}

// DNSSEC is the DNSSEC state of a domain.
type DNSSEC struct {
	// Signed reports a DS record at the parent and a DNSKEY record at
	// the domain: the zone is signed and the chain of trust reaches it.
	Signed bool `json:"signed"`
	// DS reports a DS record for the domain (served by the parent zone).
	DS bool `json:"ds"`
	// DNSKEY reports a DNSKEY record at the domain, including one the
	// resolver refused as bogus (listed in Bogus).
	DNSKEY bool `json:"dnskey"`
	// Validated reports that the resolver set the AD bit on the DS and
	// DNSKEY answers (it validated them with DNSSEC) and that none of
	// the records the check asks for failed validation (Bogus is
	// empty). False from a resolver that does not validate, whatever
	// the zone.
	Validated bool `json:"validated"`
	// Bogus are the questions of the check whose answers failed DNSSEC
	// validation at the resolver (resolver.ErrDNSSECBogus: signatures
	// that do not match the data, have expired, or are missing), as
	// "name TYPE": "example.com MX". The check asks for the DS and
	// DNSKEY of the domain and for the records mail depends on most: its
	// MX, its TXT (SPF) and the TXT of _dmarc.<domain>. A validating
	// resolver answers SERVFAIL to these lookups, as it does to every
	// sender that validates DNSSEC; each is a dnssec_bogus problem.
	// Never nil. An extension beyond the contract.
	Bogus []string `json:"bogus" openapi:"extension"`
	// Error says why a lookup failed; "" when none did.
	Error string `json:"error"`
	// Problems are the findings. Never nil. An extension beyond the
	// contract in the answers of the HTTP API.
	Problems []Problem `json:"problems" openapi:"extension"`
}

// problemList collects the findings of a check.
type problemList []Problem

func (p *problemList) add(sev Severity, code Code, msg string) {
	*p = append(*p, Problem{Code: code, Severity: sev, Message: shownMessage(msg)})
}

// addRecord adds the findings of a parsed record, each message
// prefixed by what.
func (p *problemList) addRecord(what string, ps []Problem) {
	for _, x := range ps {
		p.add(x.Severity, x.Code, what+x.Message)
	}
}

// lookupVersioned returns the TXT records at name that start with
// v=<version>; a name that does not exist or has no TXT records has
// none.
func lookupVersioned(ctx context.Context, r Resolver, name, version string) ([]string, error) {
	txts, err := r.LookupTXT(ctx, name)
	if errors.Is(err, resolver.ErrNXDomain) || errors.Is(err, resolver.ErrNoData) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range txts {
		if RecordVersion(t) == version {
			out = append(out, t)
		}
	}
	return out, nil
}

// lookupRecord finds the record of a check: the first TXT record at name
// starting with v=<version>, and how many do. When there is none, or the
// lookup failed, status is missing or error (with errText, and a
// dns_error warning added to ps naming what); otherwise it is "".
func lookupRecord(ctx context.Context, r Resolver, name, version, what string, ps *problemList) (first string, n int, status RecordStatus, errText string) {
	recs, err := lookupVersioned(ctx, r, name, version)
	switch {
	case err != nil:
		*ps = append(*ps, LookupProblem(SeverityWarning, CodeDNSError, "the "+what+" lookup", err))
		return "", 0, RecordError, LookupText(err)
	case len(recs) == 0:
		return "", 0, RecordMissing, ""
	}
	return recs[0], len(recs), "", ""
}

// addError adds an error to the findings of a parsed record.
func addError(errs *[]string, probs *[]Problem, code Code, msg string) {
	*errs = append(*errs, msg)
	*probs = append(*probs, Problem{Code: code, Severity: SeverityError, Message: msg})
}

// validity is RecordValid or RecordInvalid.
func validity(valid bool) RecordStatus {
	if valid {
		return RecordValid
	}
	return RecordInvalid
}

// normalName is domain lowercased, without a final dot.
func normalName(domain string) string { return strings.ToLower(strings.TrimSuffix(domain, ".")) }

// CheckMTASTS checks the MTA-STS record of domain (_mta-sts) and, when
// it is valid, fetches the policy it announces (see [MTASTSOptions]) and
// matches mx, the domain's MX hosts, against it (none: no match is
// made). Its findings are in the result's Problems: those of the record
// and the policy, and CodeDNSError, CodeMTASTSPolicyUnavailable,
// CodeMTASTSPolicyContentType and CodeMTASTSMXMismatch. A DNS or fetch
// failure is reported in the result, never returned: the error is
// always nil today, kept for the shape of the other checks.
func CheckMTASTS(ctx context.Context, r Resolver, domain string, mx []string, opts MTASTSOptions) (*MTASTS, error) {
	domain = normalName(domain)
	m := &MTASTS{PolicyURL: opts.policyURL(domain), UnmatchedMX: []string{}, Problems: []Problem{}}
	ps := (*problemList)(&m.Problems)
	rec, n, status, errText := lookupRecord(ctx, r, "_mta-sts."+domain, "STSv1", "MTA-STS", ps)
	if status != "" {
		m.Status, m.Error = status, errText
		return m, nil
	}
	m.Record = ParseMTASTSRecord(rec)
	if n > 1 {
		addError(&m.Record.Errors, &m.Record.Problems, CodeMTASTSMultipleRecords, "more than one _mta-sts record starts with v=STSv1: senders assume no policy (RFC 8461 section 3.1)")
	}
	ps.addRecord("MTA-STS record: ", m.Record.Problems)
	if !m.Record.Valid() {
		m.Status = RecordInvalid
		return m, nil
	}
	client := opts.policyClient(r)
	policy, warn, err := fetchPolicy(ctx, client, m.PolicyURL)
	client.CloseIdleConnections()
	if err != nil && policyFetchTransient(err) {
		m.Status, m.Error = RecordError, LookupText(err)
		ps.add(SeverityWarning, CodeMTASTSPolicyUnavailable, "the MTA-STS policy could not be fetched from here, so whether senders can is not known: "+m.Error)
		return m, nil
	}
	if err != nil {
		m.Status, m.Error = RecordInvalid, LookupText(err)
		ps.add(SeverityError, CodeMTASTSPolicyUnavailable, "the MTA-STS record is published but its policy cannot be fetched, so senders apply none: "+m.Error)
		return m, nil
	}
	if warn != "" {
		ps.add(SeverityWarning, CodeMTASTSPolicyContentType, warn)
	}
	m.Policy = policy
	ps.addRecord("MTA-STS policy: ", policy.Problems)
	if m.Status = validity(policy.Valid()); m.Status == RecordInvalid {
		return m, nil
	}
	if len(mx) > 0 && policy.Mode != "none" {
		for _, h := range mx {
			if !policy.Matches(h) {
				m.UnmatchedMX = append(m.UnmatchedMX, h)
			}
		}
		match := len(m.UnmatchedMX) == 0
		m.MXMatch = &match
		if !match {
			sev, effect := SeverityWarning, "reports failures"
			if policy.Mode == "enforce" {
				sev, effect = SeverityError, "refuse to deliver"
			}
			ps.add(sev, CodeMTASTSMXMismatch, fmt.Sprintf("MX hosts %s match no mx pattern of the %s policy: senders that apply MTA-STS %s to them", strings.Join(m.UnmatchedMX, ", "), policy.Mode, effect))
		}
	}
	return m, nil
}

// policyFetchTransient reports whether a failed policy fetch says
// nothing about the domain: a timeout, a refused or reset connection, an
// unreachable network, a DNS server failure for mta-sts.<domain>, or the
// address policy of this service refusing the host. A certificate
// error, a name that does not exist (NXDOMAIN, no address) and every
// answer the server gave (status, redirect, size, media type, content)
// are the domain's own and stay errors.
func policyFetchTransient(err error) bool {
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	if errors.As(err, &certErr) || errors.As(err, &unknownCA) || errors.As(err, &hostErr) || errors.As(err, &invalidCert) {
		return false
	}
	if errors.Is(err, resolver.ErrNXDomain) || errors.Is(err, resolver.ErrNoData) {
		return false
	}
	if dnsErr := (*net.DNSError)(nil); errors.As(err, &dnsErr) {
		return !dnsErr.IsNotFound
	}
	var netErr net.Error
	return errors.Is(err, safehttp.ErrDestinationNotAllowed) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.As(err, &netErr) && netErr.Timeout() ||
		errors.Is(err, resolver.ErrServFail) || errors.Is(err, resolver.ErrTimeout) ||
		errors.Is(err, resolver.ErrUnreachable) || errors.Is(err, resolver.ErrRefused) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH)
}

// fetchPolicy fetches and parses the MTA-STS policy at url with client,
// without following redirects. warn is set when the media type is not
// text/plain.
func fetchPolicy(ctx context.Context, client *safehttp.Client, url string) (p *MTASTSPolicy, warn string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, "", err
	}
	resp, err := client.RoundTrip(req)
	if err != nil {
		if strings.Contains(err.Error(), req.URL.Hostname()) {
			return nil, "", err // it names the host already (a refused destination, a DNS failure)
		}
		return nil, "", fmt.Errorf("fetching %s: %w", url, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return nil, "", fmt.Errorf("%s answers %d, a redirect, which RFC 8461 section 3.3 forbids senders to follow", url, resp.StatusCode)
	case resp.StatusCode != http.StatusOK:
		return nil, "", fmt.Errorf("%s answers %d", url, resp.StatusCode)
	}
	body, err := io.ReadAll(resp.Body)
	if errors.Is(err, safehttp.ErrResponseTooLarge) {
		return nil, "", fmt.Errorf("the policy at %s is larger than %d bytes", url, MaxMTASTSPolicyBytes)
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", url, err)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/plain" {
		warn = fmt.Sprintf("the policy is served as %s; RFC 8461 section 3.2 requires text/plain", textcut.Quote(resp.Header.Get("Content-Type")))
	}
	return ParseMTASTSPolicy(string(body)), warn, nil
}

// CheckTLSRPT checks the SMTP TLS Reporting record of domain
// (_smtp._tls). A DNS failure is reported in the result (status error,
// a CodeDNSError warning); the error is always nil today.
func CheckTLSRPT(ctx context.Context, r Resolver, domain string) (*TLSRPT, error) {
	domain = normalName(domain)
	t := &TLSRPT{Problems: []Problem{}}
	ps := (*problemList)(&t.Problems)
	rec, n, status, errText := lookupRecord(ctx, r, "_smtp._tls."+domain, "TLSRPTv1", "TLS-RPT", ps)
	if status != "" {
		t.Status, t.Error = status, errText
		return t, nil
	}
	t.Record = ParseTLSRPT(rec)
	if n > 1 {
		addError(&t.Record.Errors, &t.Record.Problems, CodeTLSRPTMultipleRecords, "more than one _smtp._tls record starts with v=TLSRPTv1: senders send no reports (RFC 8460 section 3)")
	}
	ps.addRecord("TLS-RPT: ", t.Record.Problems)
	t.Status = validity(t.Record.Valid())
	return t, nil
}

// CheckBIMI checks the BIMI record of domain (default._bimi) and, with
// [CheckDMARC] run beside it, whether the domain's DMARC policy lets
// receivers honour it (CodeBIMIDMARCNotEnforced when not). A DNS
// failure is reported in the result; the error is always nil today.
func CheckBIMI(ctx context.Context, r Resolver, domain string) (*BIMI, error) {
	domain = normalName(domain)
	var dmarc *DMARC
	var wg sync.WaitGroup
	wg.Go(func() { dmarc, _ = CheckDMARC(ctx, r, domain) })
	b := &BIMI{Problems: []Problem{}}
	ps := (*problemList)(&b.Problems)
	rec, n, status, errText := lookupRecord(ctx, r, "default._bimi."+domain, "BIMI1", "BIMI", ps)
	if status != "" {
		b.Status, b.Error = status, errText
	} else {
		b.Record = ParseBIMI(rec)
		if n > 1 {
			addError(&b.Record.Errors, &b.Record.Problems, CodeBIMIMultipleRecords, "more than one default._bimi record starts with v=BIMI1: receivers use none")
		}
		ps.addRecord("BIMI: ", b.Record.Problems)
		b.Status = validity(b.Record.Valid())
	}
	wg.Wait()
	b.DMARCEnforced = dmarc != nil && dmarc.Valid() && (dmarc.Policy == "reject" || dmarc.Policy == "quarantine" && dmarc.Percent == 100)
	if !b.DMARCEnforced && b.Record != nil && b.Record.Logo != "" {
		ps.add(SeverityWarning, CodeBIMIDMARCNotEnforced, "BIMI is only honoured under a DMARC policy of quarantine (pct=100) or reject; receivers ignore this record")
	}
	return b, nil
}

// dkimSelectors are the selectors probed by default: those the large
// mail providers document, then common generic names. Amazon SES Easy
// DKIM and Postmark use per-domain random selectors, which cannot be
// guessed.
//
//   - google: Google Workspace,
//     https://support.google.com/a/answer/174124
//   - selector1, selector2: Microsoft 365,
//     https://learn.microsoft.com/defender-office-365/email-authentication-dkim-configure
//   - k1, k2, k3: Mailchimp and Mandrill (k1), mandrill: Mandrill,
//     https://mailchimp.com/help/set-up-email-domain-authentication/
//   - s1, s2: SendGrid automated security; m1: SendGrid manual setup,
//     https://www.twilio.com/docs/sendgrid/ui/account-and-settings/how-to-set-up-domain-authentication
//     and https://docs.sendgrid.com/ui/account-and-settings/troubleshooting-sender-authentication
//   - fm1, fm2, fm3: Fastmail,
//     https://www.fastmail.help/hc/en-us/articles/360060591153
//   - protonmail, protonmail2, protonmail3: Proton Mail,
//     https://proton.me/support/cname-problems
//   - zmail: Zoho Mail's suggested selector,
//     https://www.zoho.com/mail/help/adminconsole/dkim-configuration.html
//   - default, dkim, mail: common defaults of self-hosted signers
//     (OpenDKIM, cPanel) and hosting panels.
var dkimSelectors = []string{
	"google", "selector1", "selector2", "k1", "k2", "k3", "mandrill", "s1", "s2", "m1",
	"fm1", "fm2", "fm3", "protonmail", "protonmail2", "protonmail3", "zmail",
	"default", "dkim", "mail",
}

// DefaultDKIMSelectors returns the DKIM selectors [CheckDKIM] probes
// besides the caller's: google (Google Workspace), selector1 and
// selector2 (Microsoft 365), k1, k2, k3 and mandrill (Mailchimp,
// Mandrill), s1, s2 and m1 (SendGrid), fm1 to fm3 (Fastmail),
// protonmail to protonmail3 (Proton Mail), zmail (Zoho Mail), and
// default, dkim and mail. Providers that draw random selectors (Amazon
// SES, Postmark) cannot be probed.
func DefaultDKIMSelectors() []string { return append([]string(nil), dkimSelectors...) }

// MaxDKIMSelectors bounds the selectors a caller adds to the default ones.
const MaxDKIMSelectors = 10

// ErrInvalidSelector is wrapped by the [SelectorError] of a selector
// list [CheckDKIM] refuses.
var ErrInvalidSelector = errors.New("invalid DKIM selector")

// A SelectorError says why [CheckSelectors] refuses a list of DKIM
// selectors. It wraps ErrInvalidSelector.
type SelectorError struct {
	// Index is the position of the selector refused; -1 when the list
	// has more than MaxDKIMSelectors items.
	Index int
	// Reason says what is wrong ("it is empty").
	Reason string
}

func (e *SelectorError) Error() string {
	if e.Index < 0 {
		return e.Reason
	}
	return fmt.Sprintf("selector %d is not a DKIM selector: %s", e.Index, e.Reason)
}

// Unwrap returns ErrInvalidSelector.
func (e *SelectorError) Unwrap() error { return ErrInvalidSelector }

// CheckSelectors validates DKIM selectors: at most MaxDKIMSelectors,
// each dot-separated DNS labels of letters, digits, hyphens and
// underscores, at most 63 characters per label and 200 in all. It
// returns them trimmed and lowercased, or a *SelectorError.
func CheckSelectors(sels []string) ([]string, error) {
	if len(sels) > MaxDKIMSelectors {
		return nil, &SelectorError{Index: -1, Reason: fmt.Sprintf("has %d items; at most %d are allowed", len(sels), MaxDKIMSelectors)}
	}
	out := make([]string, 0, len(sels))
	for i, s := range sels {
		s = strings.ToLower(strings.TrimSpace(s))
		if reason := selectorProblem(s); reason != "" {
			return nil, &SelectorError{Index: i, Reason: reason}
		}
		out = append(out, s)
	}
	return out, nil
}

func selectorProblem(s string) string {
	if s == "" {
		return "it is empty"
	}
	if len(s) > 200 {
		return "it is longer than 200 characters"
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 {
			return "each label must have 1 to 63 characters"
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return "a label starts or ends with a hyphen"
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "only letters, digits, hyphens, underscores and dots are allowed"
			}
		}
	}
	return ""
}

// selectorList is the default selectors followed by the caller's, each
// once.
func selectorList(extra []string) []string {
	out := DefaultDKIMSelectors()
	for _, s := range extra {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// CheckDKIM probes DefaultDKIMSelectors and the given selectors of
// domain, all at once, and reports the key found at each. The error is
// a *SelectorError (wrapping ErrInvalidSelector) when [CheckSelectors]
// refuses selectors; a DNS failure is reported in the result.
func CheckDKIM(ctx context.Context, r Resolver, domain string, selectors []string) (*DKIM, error) {
	sels, err := CheckSelectors(selectors)
	if err != nil {
		return nil, err
	}
	domain = normalName(domain)
	selectors = selectorList(sels)
	d := &DKIM{Selectors: selectors, Keys: []DKIMSelectorKey{}, Problems: []Problem{}}
	type found struct {
		key *DKIMSelectorKey
		err error
		ps  []Problem
	}
	res := make([]found, len(selectors))
	var wg sync.WaitGroup
	for i, sel := range selectors {
		wg.Go(func() {
			name := sel + "._domainkey." + domain
			txts, err := r.LookupTXT(ctx, name)
			if errors.Is(err, resolver.ErrNXDomain) || errors.Is(err, resolver.ErrNoData) {
				return
			}
			if err != nil {
				res[i].err = err
				return
			}
			k := ParseDKIM(txts[0])
			if len(txts) > 1 {
				addError(&k.Errors, &k.Problems, CodeDKIMMultipleRecords, fmt.Sprintf("%d TXT records are published at the selector; verifiers may use any", len(txts)))
			}
			res[i] = found{key: &DKIMSelectorKey{
				Selector: sel, Name: name, Record: k.Record, RecordTruncated: k.RecordTruncated, KeyType: k.KeyType, Bits: k.Bits,
				Revoked: k.Revoked, Valid: k.Valid(), Errors: k.Errors, Warnings: k.Warnings,
			}, ps: k.Problems}
		})
	}
	wg.Wait()
	ps := (*problemList)(&d.Problems)
	valid, failed := false, 0
	var firstErr error
	for i, r := range res {
		switch {
		case r.err != nil:
			failed++
			if firstErr == nil {
				firstErr = r.err
				d.Error = LookupText(r.err)
			}
		case r.key != nil:
			d.Keys = append(d.Keys, *r.key)
			valid = valid || r.key.Valid
			ps.addRecord("DKIM selector "+selectors[i]+": ", r.ps)
		}
	}
	switch {
	case valid:
		d.Status = RecordValid
	case len(d.Keys) > 0:
		d.Status = RecordInvalid
	case failed > 0:
		d.Status = RecordError
	default:
		d.Status = RecordMissing
	}
	if failed > 0 {
		*ps = append(*ps, LookupProblem(SeverityWarning, CodeDNSError, fmt.Sprintf("%d of %d DKIM selector lookups", failed, len(selectors)), firstErr))
	}
	return d, nil
}

// CheckDNSSEC reports whether domain is the apex of a signed zone (a DS
// record at the parent and a DNSKEY at the domain) and whether the
// resolver validated the answers (their AD bit: see resolver.Answer). It
// asks, all at once, for the DS and DNSKEY records and for the records
// mail depends on most (MX, TXT, the TXT of _dmarc), and lists in Bogus
// those whose answers a validating resolver refused
// (resolver.ErrDNSSECBogus), each a CodeDNSSECBogus error: a zone signed
// correctly whose data was changed after signing, or whose signatures
// have expired, is then not Validated. A DS without DNSKEY is a
// CodeDNSSECBroken error, a DNSKEY without DS a CodeDNSSECNoDS warning.
// A name inside a zone, with no zone of its own, has neither DS nor
// DNSKEY and is reported unsigned whatever its zone. It takes the
// resolver itself, whose answers carry the AD bit and the Extended DNS
// Errors. A DNS failure is reported in the result; the error is always
// nil today.
func CheckDNSSEC(ctx context.Context, r *resolver.Resolver, domain string) (*DNSSEC, error) {
	domain = normalName(domain)
	d := &DNSSEC{Bogus: []string{}, Problems: []Problem{}}
	questions := []struct {
		what, name string
		qtype      uint16
	}{{"DS", domain, dns.TypeDS}, {"DNSKEY", domain, dns.TypeDNSKEY}, {"MX", domain, dns.TypeMX}, {"SPF", domain, dns.TypeTXT}, {"DMARC", "_dmarc." + domain, dns.TypeTXT}}
	answers := make([]*resolver.Answer, len(questions))
	errs := make([]error, len(questions))
	var wg sync.WaitGroup
	for i, q := range questions {
		wg.Go(func() { answers[i], errs[i] = r.Lookup(ctx, q.name, q.qtype) })
	}
	wg.Wait()
	ps := (*problemList)(&d.Problems)
	for i, err := range errs {
		switch {
		case errors.Is(err, resolver.ErrDNSSECBogus):
			q := questions[i].name + " " + dns.TypeToString[questions[i].qtype]
			d.Bogus = append(d.Bogus, q)
			*ps = append(*ps, LookupProblem("", "", "the "+questions[i].what+" lookup", err))
			d.Error = cmp.Or(d.Error, LookupText(err))
		case err != nil && !errors.Is(err, resolver.ErrNXDomain) && i < 2:
			// The other questions are the other checks' own.
			d.Error = cmp.Or(d.Error, LookupText(err))
			*ps = append(*ps, LookupProblem(SeverityWarning, CodeDNSError, "the DNSSEC lookup", err))
		}
	}
	if d.Error != "" && len(d.Bogus) == 0 {
		return d, nil
	}
	ds, key := answers[0], answers[1]
	d.DS = errs[0] == nil && hasRR(ds, dns.TypeDS)
	d.DNSKEY = errs[1] == nil && hasRR(key, dns.TypeDNSKEY) || errors.Is(errs[1], resolver.ErrDNSSECBogus)
	d.Signed = d.DS && d.DNSKEY
	d.Validated = d.Signed && len(d.Bogus) == 0 && ds.AuthenticatedData && key.AuthenticatedData
	switch {
	case d.DS && !d.DNSKEY && errs[1] == nil:
		ps.add(SeverityError, CodeDNSSECBroken, "the parent publishes a DS record but the domain serves no DNSKEY: validating resolvers fail every lookup of the domain")
	case d.DNSKEY && !d.DS && errs[0] == nil:
		ps.add(SeverityWarning, CodeDNSSECNoDS, "the zone is signed (DNSKEY) but the parent has no DS record: resolvers cannot validate it")
	}
	return d, nil
}

// Covers reports whether err is the failure of a lookup that d lists in
// Bogus, and so reports; false for a nil d.
func (d *DNSSEC) Covers(err error) bool {
	var le *resolver.LookupError
	return d != nil && errors.As(err, &le) && d.Failed(strings.TrimSuffix(le.Name, ".")+" "+dns.TypeToString[le.Type])
}

// Failed reports whether d lists the question q ("example.com MX") in
// Bogus; false for a nil d.
func (d *DNSSEC) Failed(q string) bool { return d != nil && slices.Contains(d.Bogus, q) }

func hasRR(a *resolver.Answer, qtype uint16) bool {
	if a == nil {
		return false
	}
	for _, rr := range a.RRs {
		if rr.Header().Rrtype == qtype {
			return true
		}
	}
	return false
}
