package email_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/netip"
	"os"
	"slices"
	"strings"
	"time"

	gosmtp "github.com/emersion/go-smtp"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// exampleZone is what the examples' loopback DNS server answers.
const exampleZone = `
$ORIGIN example.test.
$TTL 300
@       IN SOA ns1 hostmaster 1 3600 600 86400 60
@       IN MX  10 mx1
mx1     IN A   192.0.2.10
@       IN TXT "v=spf1 mx -all"
_dmarc  IN TXT "v=DMARC1; p=reject; rua=mailto:dmarc@example.test"
shop    IN A   192.0.2.20
weak    IN MX  10 mx1.example.test.
weak    IN TXT "v=spf1 +all"
nomail  IN MX  0 .
listed  IN MX  10 mx9
mx9     IN A   192.0.2.99
; a DNSBL zone that lists 192.0.2.99
99.2.0.192.bl IN A   127.0.0.2
99.2.0.192.bl IN TXT "Listed: seen sending spam"
$ORIGIN 2.0.192.in-addr.arpa.
10      IN PTR mx1.example.test.
`

// newVerifier starts the loopback DNS server and a Verifier whose
// resolver asks it. A program would share one resolver.New(resolver.Config{}),
// which asks the servers of /etc/resolv.conf.
func newVerifier() (*resolvertest.Server, *email.Verifier) {
	srv, err := resolvertest.New(resolvertest.Config{Zone: exampleZone})
	if err != nil {
		log.Fatal(err)
	}
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	v, err := email.New(email.Config{Resolver: r})
	if err != nil {
		log.Fatal(err)
	}
	return srv, v
}

func ExampleNew() {
	ctx := context.Background()

	// The zero Config checks syntax and the lists, without DNS.
	offline, err := email.New(email.Config{})
	if err != nil {
		log.Fatal(err)
	}
	res := offline.Validate(ctx, "ana@example.test", email.Checks{})
	fmt.Println(res.IsValid, res.MX.Status)

	// With a resolver, the MX rules apply too.
	srv, err := resolvertest.New(resolvertest.Config{Zone: exampleZone})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	v, err := email.New(email.Config{
		Resolver:    r,
		Lists:       email.DefaultLists().WithAllowed("yopmail.com"),
		SMTP:        email.SMTPOptions{HeloName: "mail.example.org"},
		Concurrency: 16,
	})
	if err != nil {
		log.Fatal(err)
	}
	res = v.Validate(ctx, "ana@example.test", email.Checks{})
	fmt.Println(res.IsValid, res.MX.Status, res.MX.Hosts)

	_, err = email.New(email.Config{SMTP: email.SMTPOptions{HeloName: "mail\r\nRCPT TO:<x@y>"}})
	fmt.Println(err)
	// Output:
	// true skipped
	// true mx [mx1.example.test]
	// email: invalid configuration: SMTP.HeloName holds a line break or a space
}

func ExampleParse() {
	for _, in := range []string{"Jane.Doe@Example.COM", "用户@例子.广告", "jane..doe@example.com", "jane@example"} {
		a, reason := email.Parse(in, email.SyntaxOptions{})
		if reason != "" {
			fmt.Printf("%s: %s (%s)\n", in, reason, reason.Message())
			continue
		}
		fmt.Printf("%s -> %s [%s] smtputf8=%v\n", in, a, a.ASCIIDomain, a.SMTPUTF8)
	}
	// Output:
	// Jane.Doe@Example.COM -> Jane.Doe@example.com [example.com] smtputf8=false
	// 用户@例子.广告 -> 用户@例子.广告 [xn--fsqu00a.xn--4rr70v] smtputf8=true
	// jane..doe@example.com: local_invalid_dot (the part before the @ sign starts or ends with a dot, or has two dots in a row)
	// jane@example: domain_no_dot (the domain has no dot)
}

func ExampleReasons() {
	// Reasons lists every code a result may carry, for a program that
	// maps them to its own words.
	for _, r := range email.Reasons() {
		if r == email.ReasonNullMX || r == email.ReasonLocalTooLong {
			fmt.Printf("%s: %s\n", r, r.Message())
		}
	}
	// Output:
	// local_too_long: the part before the @ sign is longer than 64 octets
	// null_mx: the domain publishes a null MX: it accepts no mail (RFC 7505)
}

// Validate runs the offline checks: syntax, the lists and the typo
// suggestion.
func ExampleValidate() {
	res := email.Validate("Support+Billing@gmial.com")
	fmt.Println(res.IsValid, *res.Email, res.IsRoleAccount, *res.DidYouMean, res.MX.Status)
	// Output:
	// true Support+Billing@gmial.com true Support+Billing@gmail.com skipped
}

func ExampleVerifier_Validate() {
	srv, v := newVerifier()
	defer srv.Close()
	ctx := context.Background()

	for _, addr := range []string{"Ana@Example.test", "sales@shop.example.test", "ana@nomail.example.test", "ana@nowhere.example.test"} {
		res := v.Validate(ctx, addr, email.Checks{})
		if !res.IsValid {
			fmt.Printf("%s: invalid, %s\n", addr, *res.Reason)
			continue
		}
		fmt.Printf("%s: %s, MX %s %v, role %v\n", addr, *res.Email, res.MX.Status, res.MX.Hosts, res.IsRoleAccount)
	}
	// Output:
	// Ana@Example.test: Ana@example.test, MX mx [mx1.example.test], role false
	// sales@shop.example.test: sales@shop.example.test, MX implicit [shop.example.test], role true
	// ana@nomail.example.test: invalid, null_mx
	// ana@nowhere.example.test: invalid, domain_not_found
}

// ValidateEmail is the operation of the single-validation routes: its
// request is their JSON body.
func ExampleVerifier_ValidateEmail() {
	srv, v := newVerifier()
	defer srv.Close()

	res, err := v.ValidateEmail(context.Background(), email.ValidateRequest{Email: "ana@example.test"})
	fmt.Println(res.IsValid, res.HasMXRecords, res.SMTP == nil, err)
	_, err = v.ValidateEmail(context.Background(), email.ValidateRequest{})
	fmt.Println(err)
	// Output:
	// true true true <nil>
	// invalid request: email: is required
}

func ExampleVerifier_ValidateBulk() {
	srv, v := newVerifier()
	defer srv.Close()

	res, err := v.ValidateBulk(context.Background(), email.BulkRequest{Emails: []string{
		"ana@example.test", "ANA@EXAMPLE.TEST", "info@example.test", "bob@nomail.example.test", "not an address",
	}})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range res.Results {
		if r.Reason != nil {
			fmt.Printf("%s: invalid, %s\n", r.Input, *r.Reason)
			continue
		}
		fmt.Printf("%s: valid, MX %s\n", r.Input, r.MX.Status)
	}
	// The local part keeps its case (RFC 5321), so the second address is
	// not a duplicate of the first; example.test was looked up once.
	fmt.Printf("%+v\n", res.Summary)
	// Output:
	// ana@example.test: valid, MX mx
	// ANA@EXAMPLE.TEST: valid, MX mx
	// info@example.test: valid, MX mx
	// bob@nomail.example.test: invalid, null_mx
	// not an address: invalid, missing_at
	// {Total:5 Valid:3 Invalid:2 Disposable:0 RoleAccounts:1 DomainsWithMX:1 Duplicates:0}
}

func ExampleVerifier_ValidateCSV() {
	srv, v := newVerifier()
	defer srv.Close()

	file := "name,Email\nAna,ana@example.test\nBob,bob@nowhere.example.test\n"
	res, err := v.ValidateCSV(context.Background(), strings.NewReader(file))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Column, res.Rows, res.Summary.Valid, res.Summary.Invalid)

	_, err = v.ValidateCSV(context.Background(), strings.NewReader(""))
	fmt.Println(err)
	// Output:
	// Email 2 1 1
	// invalid request: file: is empty: a header row is required
}

func ExampleVerifier_DomainHealth() {
	srv, v := newVerifier()
	defer srv.Close()

	res, err := v.DomainHealth(context.Background(), email.DomainHealthRequest{Domains: []string{"example.test", "weak.example.test"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range res.Results {
		fmt.Println(h.Domain, h.Verdict, h.MX.Status)
		for _, p := range h.Problems {
			fmt.Printf("  %s %s\n", p.Severity, p.Code)
		}
	}
	// weak.example.test has no DMARC record of its own: that of its
	// organizational domain applies.
	weak := res.Results[1]
	fmt.Println(weak.SPF.All, weak.DMARC.Domain, weak.DMARC.Policy)
	// Output:
	// example.test ready mx
	// weak.example.test not_ready mx
	//   error spf_plus_all
	// +all example.test reject
}

func ExampleVerifier_CheckMXHosts() {
	srv, err := resolvertest.New(resolvertest.Config{Zone: exampleZone})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	// A DNSBL zone is asked only when configured; name public ones only
	// with a resolver of your own.
	v, err := email.New(email.Config{Resolver: r, DNSBLZones: []string{"bl.example.test"}})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for _, domain := range []string{"example.test", "listed.example.test"} {
		res, err := v.CheckMXHosts(ctx, email.MXHostsRequest{Domain: domain})
		if err != nil {
			log.Fatal(err)
		}
		for _, h := range res.Hosts {
			for _, a := range h.Addresses {
				fmt.Println(h.Host, a.IP, a.PTR, "fcrdns:", a.FCrDNS, "listed:", a.Listed)
			}
		}
		for _, p := range res.Problems {
			fmt.Println(" ", p.Severity, p.Code+":", p.Message)
		}
	}
	// Output:
	// mx1.example.test 192.0.2.10 [mx1.example.test] fcrdns: true listed: []
	// mx9.example.test 192.0.2.99 [] fcrdns: false listed: [bl.example.test]
	//   error mx_listed: 192.0.2.99 (mx9.example.test) is listed by bl.example.test (127.0.0.2): Listed: seen sending spam
	//   warning mx_no_fcrdns: 192.0.2.99 (mx9.example.test) has no PTR record: receivers check that a mail server's address has reverse DNS
}

func ExampleVerifier_CheckDNSBL() {
	srv, err := resolvertest.New(resolvertest.Config{Zone: exampleZone})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	v, err := email.New(email.Config{Resolver: r, DNSBLZones: []string{"bl.example.test"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, ip := range []string{"192.0.2.99", "192.0.2.10"} {
		listings, err := v.CheckDNSBL(context.Background(), netip.MustParseAddr(ip))
		if err != nil {
			log.Fatal(err)
		}
		for _, l := range listings {
			fmt.Println(ip, l.Zone, l.Listed, l.Codes, l.Reason, l.Err)
		}
	}
	// Output:
	// 192.0.2.99 bl.example.test true [127.0.0.2] Listed: seen sending spam <nil>
	// 192.0.2.10 bl.example.test false []  <nil>
}

// refuseAll is a go-smtp session that takes no mail.
type refuseAll struct{}

func (refuseAll) Mail(string, *gosmtp.MailOptions) error { return &gosmtp.SMTPError{Code: 550} }
func (refuseAll) Rcpt(string, *gosmtp.RcptOptions) error { return &gosmtp.SMTPError{Code: 550} }
func (refuseAll) Data(io.Reader) error                   { return &gosmtp.SMTPError{Code: 554} }
func (refuseAll) Reset()                                 {}
func (refuseAll) Logout() error                          { return nil }

// mailServer serves SMTP on loopback with go-smtp, without STARTTLS (a
// server with a TLSConfig offers it), and returns its port.
func mailServer() (port int, stop func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	s := gosmtp.NewServer(gosmtp.BackendFunc(func(*gosmtp.Conn) (gosmtp.Session, error) { return refuseAll{}, nil }))
	s.Domain = "mx.example.test"
	go s.Serve(ln)
	return ln.Addr().(*net.TCPAddr).Port, func() { s.Close() }
}

func ExampleVerifier_CheckSTARTTLS() {
	srv, err := resolvertest.New(resolvertest.Config{Zone: `
$ORIGIN example.test.
@   IN SOA ns1 hostmaster 1 3600 600 86400 60
@   IN MX  10 mx
mx  IN A   127.0.0.1
`})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	r, err := resolver.New(resolver.Config{Servers: []string{srv.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	port, stop := mailServer()
	defer stop()
	v, err := email.New(email.Config{Resolver: r, SMTP: email.SMTPOptions{
		Port:                  port,
		AllowPrivateAddresses: true, // the example's server is on loopback
	}})
	if err != nil {
		log.Fatal(err)
	}
	ok, err := v.CheckSTARTTLS(context.Background(), "mx.example.test")
	fmt.Println(ok, err)

	// Without AllowPrivateAddresses a loopback MX is not contacted.
	strict, err := email.New(email.Config{Resolver: r, SMTP: email.SMTPOptions{Port: port}})
	if err != nil {
		log.Fatal(err)
	}
	_, err = strict.CheckSTARTTLS(context.Background(), "mx.example.test")
	fmt.Println(err)
	// Output:
	// false <nil>
	// email: STARTTLS check of mx.example.test: the MX host resolves to the non-public address 127.0.0.1
}

func ExampleSMTPOptions() {
	o := email.SMTPOptions{
		HeloName: "verify.example.org",
		// Probe through a SOCKS5 proxy, as cloud hosts must.
		Proxy: "socks5://probe:s3cret@127.0.0.1:1080",
		// Pacing per mail server: one connection at a time, 2 s apart.
		HostConnections: 1,
		HostInterval:    2 * time.Second,
	}
	if _, err := email.New(email.Config{SMTP: o}); err != nil {
		log.Fatal(err)
	}
	// The proxy's credentials never show.
	fmt.Printf("%v\n", o.Proxy != "")
	fmt.Printf("%+v\n", o)
	b, _ := json.Marshal(o)
	fmt.Println(strings.Contains(string(b), "s3cret"))

	// A URL that cannot work is refused; the error does not quote it.
	_, err := email.New(email.Config{SMTP: email.SMTPOptions{Proxy: "http://probe:s3cret@127.0.0.1:3128"}})
	fmt.Println(errors.Is(err, email.ErrInvalidConfig), err)
	// Output:
	// true
	// {HeloName:verify.example.org MailFrom: Port:0 DialContext:<nil> Proxy:[redacted] ConnectTimeout:0s StepTimeout:0s SkipCatchAll:false MaxHosts:0 AllowPrivateAddresses:false HostConnections:1 HostInterval:2s}
	// false
	// true email: invalid configuration: SMTP.Proxy must use the scheme socks5 (socks5://user:password@host:port)
}

func ExampleVerifier_CheckDisposable() {
	v, err := email.New(email.Config{Lists: email.DefaultLists().WithAllowed("yopmail.com")})
	if err != nil {
		log.Fatal(err)
	}
	res, _ := v.CheckDisposable(context.Background(), email.ListRequest{Emails: []string{"a@mailinator.com", "a@inbox.mailinator.com", "a@yopmail.com", "a@gmail.com"}})
	for _, r := range res.Results {
		fmt.Println(r.Input, r.IsDisposable, r.IsFreeProvider)
	}
	fmt.Printf("%+v\n", res.Summary)
	// Output:
	// a@mailinator.com true false
	// a@inbox.mailinator.com true false
	// a@yopmail.com false false
	// a@gmail.com false true
	// {Total:4 Matched:2 Invalid:0}
}

func ExampleVerifier_CheckRoleAccounts() {
	v, err := email.New(email.Config{})
	if err != nil {
		log.Fatal(err)
	}
	res, _ := v.CheckRoleAccounts(context.Background(), email.ListRequest{Emails: []string{"Support+EU@example.com", "jane@example.com", "postmaster@example.com", "@example.com"}})
	for _, r := range res.Results {
		role := "-"
		if r.Role != nil {
			role = *r.Role
		}
		fmt.Println(r.Input, r.IsRoleAccount, role)
	}
	fmt.Printf("%+v\n", res.Summary)
	// Output:
	// Support+EU@example.com true support
	// jane@example.com false -
	// postmaster@example.com true postmaster
	// @example.com false -
	// {Total:4 Matched:2 Invalid:1}
}

// VerifyCSV streams a list of any size: each row is written back with
// its result columns, in input order, each distinct domain looked up
// once.
func ExampleVerifier_VerifyCSV() {
	srv, v := newVerifier()
	defer srv.Close()

	list := "name,email\nAna,ana@example.test\nBob,bob@\nInfo,info@nomail.example.test\n"
	stats, err := v.VerifyCSV(context.Background(), strings.NewReader(list), os.Stdout, email.StreamOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d rows, %d valid, %d role accounts\n", stats.Rows, stats.Valid, stats.RoleAccounts)
	// Output:
	// name,email,is_valid,reason,normalized_email,is_disposable,is_role_account,is_free_provider,has_mx_records,mx_status,did_you_mean,reachability,reachability_reasons
	// Ana,ana@example.test,true,,ana@example.test,false,false,false,true,mx,,unknown,not_probed
	// Bob,bob@,false,domain_empty,,false,false,false,false,,,invalid,invalid_syntax
	// Info,info@nomail.example.test,false,null_mx,,false,true,false,false,null_mx,,invalid,null_mx
	// 3 rows, 1 valid, 1 role accounts
}

// ValidateStream takes addresses from any sequence (a database cursor, a
// channel, a file) and yields the results in the same order.
func ExampleVerifier_ValidateStream() {
	srv, v := newVerifier()
	defer srv.Close()

	addrs := slices.Values([]string{"ana@example.test", "not-an-address", "support@nowhere.example.test"})
	for item, err := range v.ValidateStream(context.Background(), addrs, email.StreamOptions{}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(item.Input, item.IsValid, item.IsRoleAccount, item.MX != nil && item.MX.Status == email.MXFound)
	}
	// Output:
	// ana@example.test true false true
	// not-an-address false false false
	// support@nowhere.example.test false true false
}

func ExampleCSVResultHeader() {
	fmt.Println(strings.Join(email.CSVResultHeader(), ","))
	// Output:
	// is_valid,reason,normalized_email,is_disposable,is_role_account,is_free_provider,has_mx_records,mx_status,did_you_mean,reachability,reachability_reasons
}

func ExampleDefaultLists() {
	l := email.DefaultLists()
	fmt.Println(l.IsDisposable("mailinator.com"), l.IsDisposable("inbox.mailinator.com"), l.IsDisposable("example.com"))
	fmt.Println(l.IsFree("gmail.com"), l.IsRole("Abuse+spam"), l.IsRole("jane"))
	disposable, free, roles := l.Len()
	fmt.Println(disposable > 100000, free > 1000, roles > 30)
	// Output:
	// true true false
	// true true false
	// true true true
}

func ExampleLists_WithAllowed() {
	l := email.DefaultLists().WithAllowed("mailinator.com")
	fmt.Println(l.IsDisposable("mailinator.com"), email.DefaultLists().IsDisposable("mailinator.com"))
	// Output:
	// false true
}

func ExampleLists_WithDisposable() {
	l, err := email.DefaultLists().WithDisposable(strings.NewReader("# our own list\nthrowaway.example\n"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.IsDisposable("throwaway.example"), l.IsDisposable("mailinator.com"))
	_, err = email.DefaultLists().WithDisposable(strings.NewReader("not a domain\n"))
	fmt.Println(err)
	// Output:
	// true false
	// email: disposable list: line 1: "not a domain" is not a domain
}

func ExampleAddressColumn() {
	fmt.Println(email.AddressColumn([]string{"name", " E-Mail", "EMAIL"}))
	fmt.Println(email.AddressColumn([]string{"contact", "name"}))
	// Output:
	// 2
	// 0
}

// AppendCSVResult writes the result columns of verify-list for a result
// checked another way.
func ExampleAppendCSVResult() {
	v, err := email.New(email.Config{})
	if err != nil {
		log.Fatal(err)
	}
	r := v.Validate(context.Background(), "Info@Example.test", email.Checks{SkipMX: true})
	fields := email.AppendCSVResult([]string{"Info@Example.test"}, &r.Result)
	fmt.Println(strings.Join(fields, ","))
	// Output:
	// Info@Example.test,true,,Info@example.test,false,true,false,false,,,risky,role_account;not_probed;mx_not_checked
}

// Two items repeat each other when their duplicate keys are equal.
func ExampleBulkItem_DuplicateKey() {
	v, err := email.New(email.Config{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := v.ValidateBulk(context.Background(), email.BulkRequest{
		Emails: []string{"Ana@Example.test", "Ana@example.TEST", "nope", " nope "}, CheckMX: new(false),
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range res.Results {
		fmt.Printf("%q\n", it.DuplicateKey())
	}
	fmt.Println(res.Summary.Duplicates)
	// Output:
	// "\x00Ana@example.test"
	// "\x00Ana@example.test"
	// "nope"
	// "nope"
	// 2
}

// ClassifyReply reads a reply by its codes first, then its text: a
// blocklist refusal is the prober's problem, not a missing mailbox.
func ExampleClassifyReply() {
	for _, r := range []struct {
		code int
		text string
	}{
		{550, "5.1.1 <bob@example.test>: Recipient address rejected: User unknown in local recipient table"},
		{554, "5.7.1 Service unavailable; Client host [192.0.2.25] blocked using zen.spamhaus.org"},
		{552, "5.2.2 Mailbox full"},
		{450, "4.7.25 Client host rejected: cannot find your hostname, [192.0.2.25]"},
		{550, "User unknown"},
		{550, "Rejected"},
	} {
		c := email.ClassifyReply(r.code, r.text)
		fmt.Printf("%d %-17s by %-24s blames sender: %v\n", r.code, c.Class, c.Rule, c.Class.BlamesSender())
	}
	// Output:
	// 550 mailbox_not_found by 5.1.1                    blames sender: false
	// 554 blocked           by "blocked using"          blames sender: true
	// 552 mailbox_full      by 5.2.2                    blames sender: false
	// 450 needs_reverse_dns by 4.7.25                   blames sender: true
	// 550 mailbox_not_found by "user unknown"           blames sender: false
	// 550 unclassified      by 5xx                      blames sender: false
}

// ReachabilityOf is the verdict every result carries in its Reachability
// fields; without the probe nothing is safe.
func ExampleReachabilityOf() {
	srv, v := newVerifier()
	defer srv.Close()
	ctx := context.Background()

	for _, addr := range []string{"ana@example.test", "info@example.test", "ana@nomail.example.test"} {
		res := v.Validate(ctx, addr, email.Checks{})
		reach, why := email.ReachabilityOf(&res)
		fmt.Println(addr, reach, why)
	}
	// A probe that verified the mailbox (here built by hand).
	res := v.Validate(ctx, "ana@example.test", email.Checks{})
	res.SMTP, res.SMTPVerified = &email.SMTPResult{Status: email.SMTPVerified, Verified: true}, true
	fmt.Println(email.ReachabilityOf(&res))
	res.SMTP = &email.SMTPResult{Status: email.SMTPUnknown, Reason: email.SMTPMailboxFull, MailboxFull: true}
	fmt.Println(email.ReachabilityOf(&res))
	// Output:
	// ana@example.test unknown [not_probed]
	// info@example.test risky [role_account not_probed]
	// ana@nomail.example.test invalid [null_mx]
	// safe []
	// risky [mailbox_full]
}

func ExampleProviderOf() {
	for _, host := range []string{"smtp.google.com", "contoso-com.mail.protection.outlook.com", "mta5.am0.yahoodns.net.", "mx1.example.test"} {
		fmt.Println(host, email.ProviderOf(host))
	}
	// Output:
	// smtp.google.com google
	// contoso-com.mail.protection.outlook.com microsoft365
	// mta5.am0.yahoodns.net. yahoo
	// mx1.example.test other
}

func ExampleReachabilities() {
	fmt.Println(email.Reachabilities())
	// Output:
	// [safe risky invalid unknown]
}

func ExampleReachabilityReasons() {
	fmt.Println(email.ReachabilityReasons())
	// Output:
	// [invalid_syntax domain_not_found null_mx no_mail_server mailbox_not_found mailbox_disabled disposable role_account catch_all catch_all_unchecked mailbox_full provider_unverifiable not_probed probe_undecided dns_failed mx_not_checked]
}

func ExampleProviders() {
	fmt.Println(email.Providers())
	// Output:
	// [google microsoft365 outlook_consumer yahoo proofpoint mimecast other]
}

func ExampleReplyClasses() {
	for _, c := range email.ReplyClasses() {
		if c.BlamesSender() {
			fmt.Print(c, " ")
		}
	}
	fmt.Println()
	// Output:
	// blocked needs_reverse_dns rate_limited relay_denied sender_rejected
}

func ExampleMXStatuses() {
	fmt.Println(email.MXStatuses())
	// Output:
	// [mx implicit null_mx no_mail_server nxdomain servfail timeout error skipped ip_literal]
}

func ExampleSMTPStatuses() {
	fmt.Println(email.SMTPStatuses())
	// Output:
	// [verified rejected catch_all unknown]
}

func ExampleSMTPReasons() {
	fmt.Println(email.SMTPReasons())
	// Output:
	// [greylisted blocked port_unreachable timeout no_mail_server protocol_error catch_all_unchecked forbidden_address no_resolver smtputf8_unsupported proxy_error needs_reverse_dns rate_limited relay_denied sender_rejected unclassified mailbox_full provider_unverifiable]
}

func ExampleVerdicts() {
	fmt.Println(email.Verdicts())
	// Output:
	// [ready needs_attention not_ready unknown]
}

func ExampleProblemCodes() {
	codes := email.ProblemCodes()
	fmt.Println(len(codes), codes[0], codes[len(codes)-1])
	// Output:
	// 49 domain_not_found dnssec_bogus
}

func ExampleRequirementIDs() {
	fmt.Println(email.RequirementIDs())
	// Output:
	// [spf dkim dmarc dmarc_alignment forward_reverse_dns tls]
}

func ExampleRequirementStatuses() {
	fmt.Println(email.RequirementStatuses())
	// Output:
	// [pass fail unknown]
}

// A reply that refuses the prober, not the address, says nothing about
// the mailbox: BlamesSender tells the two apart.
func ExampleReplyClass_BlamesSender() {
	for _, text := range []string{
		"5.7.1 Service unavailable; client host blocked using zen.spamhaus.org",
		"5.1.1 The email account that you tried to reach does not exist",
	} {
		r := email.ClassifyReply(550, text)
		fmt.Println(r.Class, r.Class.BlamesSender())
	}
	// Output:
	// blocked true
	// mailbox_not_found false
}
