// Package dnssectest runs real, independently written DNSSEC peers on
// loopback for tests: NSD serving zones signed by ldns-signzone, and
// Unbound validating them from a trust anchor set to the parent zone's
// key. It is how Quiver's DNSSEC handling meets a real validating
// resolver rather than a fixture of its own.
//
// The namespace is self-contained: NSD serves an unsigned root zone, the
// signed zone "example." (the trust anchor) and its signed child zones,
// each delegated with a DS record; Unbound reaches every zone through
// stub zones on NSD's port, so no query leaves the machine. A child zone
// can be signed correctly, have records changed after signing (their
// signatures no longer match: bogus), or carry signatures that have
// expired.
//
// The binaries come from the system: Debian's unbound, nsd and ldnsutils
// packages (.ci/run installs them). When one is missing, [Start] skips
// the test with a message naming the packages, except when the CI
// environment variable is set: there it fails the test.
package dnssectest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/internal/testutil"
)

// Parent is the signed zone the child zones are delegated from, and the
// trust anchor of the validating resolvers.
const Parent = "example"

// A Zone is a child zone of Parent.
type Zone struct {
	// Name is the zone's apex, a child of Parent: "good.example".
	Name string
	// Records are zone-file records relative to the zone ("@ MX 10 mx",
	// "mx A 127.0.0.1", `@ TXT "v=spf1 -all"`). The SOA, the NS and the
	// zone's key are added.
	Records []string
	// Tampered are records that replace, after signing, the records of
	// the same owner and type, keeping their signatures: validation of
	// those records fails (bogus).
	Tampered []string
	// Expired signs the zone with signatures valid from 2020 to 2021
	// only: validation of every record of the zone fails.
	Expired bool
}

// MailRecords are the records of the zones of MailZones: an MX host on
// loopback (whose reverse name Unbound answers as localhost, so that it
// is forward-confirmed), SPF and DMARC.
var MailRecords = []string{
	"@ MX 10 mx",
	`@ TXT "v=spf1 ip4:192.0.2.1 -all"`,
	`_dmarc TXT "v=DMARC1; p=reject; rua=mailto:dmarc@example.org"`,
	"mx A 127.0.0.1",
}

// MailZones are three zones of MailRecords: good.example, signed
// correctly; bogus.example, whose MX and SPF records were changed after
// signing; and expired.example, whose signatures have expired.
func MailZones() []Zone {
	return []Zone{
		{Name: "good.example", Records: MailRecords},
		{Name: "bogus.example", Records: MailRecords, Tampered: []string{"@ MX 20 mx", `@ TXT "v=spf1 +all"`}},
		{Name: "expired.example", Records: MailRecords, Expired: true},
	}
}

// Peers are a running NSD with the signed zones, and the validating
// Unbound servers started on it.
type Peers struct {
	// Authoritative is NSD's "127.0.0.1:port", UDP and TCP.
	Authoritative string

	dir    string
	zones  []string // the zones NSD serves, parent and children
	anchor string   // the DS of Parent, the trust anchor
}

// binaries are the programs the package runs, and the Debian package
// of each.
var binaries = [][2]string{
	{"nsd", "nsd"},
	{"unbound", "unbound"},
	{"ldns-keygen", "ldnsutils"},
	{"ldns-signzone", "ldnsutils"},
}

// lookPath is the path of the program name, or "" when it is not
// installed. Debian puts nsd and unbound in /usr/sbin, which a user's
// PATH may lack.
func lookPath(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		if p, err := exec.LookPath(filepath.Join(dir, name)); err == nil {
			return p
		}
	}
	return ""
}

// Start signs the zones and starts NSD serving them. It skips the test
// (fails it under CI) when a binary is missing. NSD is stopped at the end
// of the test.
func Start(t testing.TB, zones ...Zone) *Peers {
	t.Helper()
	for _, b := range binaries {
		if lookPath(b[0]) == "" {
			msg := "needs the Debian packages unbound, nsd and ldnsutils (apt-get install -y unbound nsd ldnsutils): " + b[0] + " (from " + b[1] + ") is not installed"
			if os.Getenv("CI") != "" {
				t.Fatal(msg + "; .ci/run installs them")
			}
			t.Skip(msg)
		}
	}
	p := &Peers{dir: t.TempDir()}
	if err := p.sign(zones); err != nil {
		t.Fatal(err)
	}
	var conf strings.Builder
	fmt.Fprintf(&conf, "server:\n  ip-address: 127.0.0.1@%%PORT%%\n  do-ip6: no\n  username: \"\"\n  chroot: \"\"\n  zonesdir: %q\n", p.dir)
	for _, f := range []string{"pidfile: nsd.pid", "database: \"\"", "zonelistfile: zone.list", "xfrdfile: xfrd.state", "xfrdir: ."} {
		fmt.Fprintf(&conf, "  %s\n", f)
	}
	conf.WriteString("  server-count: 1\n  verbosity: 1\nremote-control:\n  control-enable: no\n")
	conf.WriteString("zone:\n  name: \".\"\n  zonefile: root.zone\n")
	for _, z := range p.zones {
		fmt.Fprintf(&conf, "zone:\n  name: %q\n  zonefile: %q\n", z+".", z+".zone.signed")
	}
	p.Authoritative = run(t, p.dir, "nsd", conf.String(), func(path string) []string { return []string{"-d", "-c", path} }, false)
	return p
}

// Validator starts an Unbound that validates from the trust anchor of
// Parent, reaching every zone on NSD, and returns its "127.0.0.1:port".
// With ede, it sends Extended DNS Errors (RFC 8914, its "ede: yes"),
// such as 6 (DNSSEC Bogus) and 7 (Signature Expired) with a SERVFAIL.
// It is stopped at the end of the test.
func (p *Peers) Validator(t testing.TB, ede bool) string {
	t.Helper()
	dir := t.TempDir()
	host, port, _ := net.SplitHostPort(p.Authoritative)
	var conf strings.Builder
	conf.WriteString("server:\n  interface: 127.0.0.1@%PORT%\n  do-ip6: no\n  username: \"\"\n  chroot: \"\"\n")
	fmt.Fprintf(&conf, "  directory: %q\n  pidfile: %q\n", dir, filepath.Join(dir, "unbound.pid"))
	conf.WriteString("  use-syslog: no\n  logfile: \"\"\n  verbosity: 1\n  num-threads: 1\n  do-not-query-localhost: no\n")
	conf.WriteString("  module-config: \"validator iterator\"\n  val-log-level: 2\n")
	fmt.Fprintf(&conf, "  ede: %s\n  trust-anchor: %q\nremote-control:\n  control-enable: no\n", map[bool]string{true: "yes", false: "no"}[ede], p.anchor)
	for _, z := range append([]string{"."}, p.zones...) {
		fmt.Fprintf(&conf, "stub-zone:\n  name: %q\n  stub-addr: %s@%s\n", strings.TrimSuffix(z, ".")+".", host, port)
	}
	return run(t, dir, "unbound", conf.String(), func(path string) []string { return []string{"-d", "-c", path} }, true)
}

// sign writes the root zone, signs the children and then Parent (which
// holds their DS records) with keys made for them, and applies the
// tampering.
func (p *Peers) sign(zones []Zone) error {
	root := "$TTL 300\n. SOA ns.root. hostmaster.root. 1 3600 600 86400 300\n. NS ns.root.\n"
	if err := os.WriteFile(filepath.Join(p.dir, "root.zone"), []byte(root), 0o600); err != nil {
		return err
	}
	now := time.Now().UTC()
	valid := [2]string{now.Add(-24 * time.Hour).Format("20060102150405"), now.Add(30 * 24 * time.Hour).Format("20060102150405")}
	parent := []string{"ns A 127.0.0.1"}
	for _, z := range zones {
		child, ok := strings.CutSuffix(z.Name, "."+Parent)
		if !ok || child == "" || strings.Contains(child, ".") {
			return fmt.Errorf("dnssectest: zone %q is not a child of %q", z.Name, Parent)
		}
		key, err := p.keygen(z.Name)
		if err != nil {
			return err
		}
		ds, err := os.ReadFile(filepath.Join(p.dir, key+".ds"))
		if err != nil {
			return err
		}
		parent = append(parent, child+" NS ns."+Parent+".", strings.TrimSpace(string(ds)))
		dates := valid
		if z.Expired {
			dates = [2]string{"20200101000000", "20210101000000"}
		}
		if err := p.signZone(z.Name, key, z.Records, dates); err != nil {
			return err
		}
		if err := p.tamper(z.Name, z.Tampered); err != nil {
			return err
		}
		p.zones = append(p.zones, z.Name)
	}
	key, err := p.keygen(Parent)
	if err != nil {
		return err
	}
	ds, err := os.ReadFile(filepath.Join(p.dir, key+".ds"))
	if err != nil {
		return err
	}
	// The .ds file reads "example.	IN	DS	8964 13 2 1dc5...".
	f := strings.Fields(string(ds))
	if len(f) != 7 {
		return fmt.Errorf("dnssectest: unexpected DS file %q", ds)
	}
	p.anchor = strings.Join([]string{f[0], f[2], f[3], f[4], f[5], f[6]}, " ")
	p.zones = append([]string{Parent}, p.zones...)
	return p.signZone(Parent, key, parent, valid)
}

// keygen makes an ECDSA P-256 key-signing key for zone, and returns the
// base name of its files.
func (p *Peers) keygen(zone string) (string, error) {
	cmd := exec.Command(lookPath("ldns-keygen"), "-a", "ECDSAP256SHA256", "-k", "-r", "/dev/urandom", zone+".")
	cmd.Dir = p.dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("dnssectest: ldns-keygen %s: %w: %s", zone, err, stderr(err))
	}
	return strings.TrimSpace(string(out)), nil
}

// signZone writes zone's file, with its SOA, NS and key, and signs it
// with ldns-signzone, signatures valid between dates.
func (p *Peers) signZone(zone, key string, records []string, dates [2]string) error {
	dnskey, err := os.ReadFile(filepath.Join(p.dir, key+".key"))
	if err != nil {
		return err
	}
	text := fmt.Sprintf("$ORIGIN %s.\n$TTL 300\n@ SOA ns.%s. hostmaster 1 3600 600 86400 300\n@ NS ns.%s.\n%s\n%s\n",
		zone, Parent, Parent, strings.Join(records, "\n"), dnskey)
	file := filepath.Join(p.dir, zone+".zone")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		return err
	}
	cmd := exec.Command(lookPath("ldns-signzone"), "-i", dates[0], "-e", dates[1], "-f", file+".signed", file, key)
	cmd.Dir = p.dir
	if _, err := cmd.Output(); err != nil {
		return fmt.Errorf("dnssectest: ldns-signzone %s: %w: %s", zone, err, stderr(err))
	}
	return nil
}

// tamper replaces, in the signed zone, the records of the owners and
// types of records by records, keeping the signatures.
func (p *Peers) tamper(zone string, records []string) error {
	if len(records) == 0 {
		return nil
	}
	parse := func(text, origin string) ([]dns.RR, error) {
		var out []dns.RR
		zp := dns.NewZoneParser(strings.NewReader(text), origin, "")
		for rr, ok := zp.Next(); ok; rr, ok = zp.Next() {
			out = append(out, rr)
		}
		return out, zp.Err()
	}
	changed, err := parse("$TTL 300\n"+strings.Join(records, "\n")+"\n", zone+".")
	if err != nil {
		return fmt.Errorf("dnssectest: tampered records of %s: %w", zone, err)
	}
	file := filepath.Join(p.dir, zone+".zone.signed")
	signed, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	rrs, err := parse(string(signed), zone+".")
	if err != nil {
		return err
	}
	replaced := func(rr dns.RR) bool {
		for _, c := range changed {
			if strings.EqualFold(rr.Header().Name, c.Header().Name) && rr.Header().Rrtype == c.Header().Rrtype {
				return true
			}
		}
		return false
	}
	var out strings.Builder
	for _, rr := range rrs {
		if !replaced(rr) {
			out.WriteString(rr.String() + "\n")
		}
	}
	for _, rr := range changed {
		out.WriteString(rr.String() + "\n")
	}
	return os.WriteFile(file, []byte(out.String()), 0o600)
}

func stderr(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}

// run starts the server bin on a free loopback port (the %PORT% of
// conf), with the arguments args gives for the configuration file, and
// waits until it answers a query for Parent's SOA (validated, with
// validating). It tries three ports: another process may take a free
// port before the server binds it. The server is stopped at the end of
// the test.
func run(t testing.TB, dir, bin, conf string, args func(path string) []string, validating bool) string {
	t.Helper()
	var lastErr error
	for range 3 {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, bin+".conf")
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(conf, "%PORT%", strconv.Itoa(port))), 0o600); err != nil {
			t.Fatal(err)
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		if lastErr = start(t, bin, args(path), addr, validating); lastErr == nil {
			return addr
		}
	}
	t.Fatalf("dnssectest: starting %s: %v", bin, lastErr)
	return ""
}

// freePort returns a loopback port free for both UDP and TCP just now.
func freePort() (int, error) {
	for range 10 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := ln.Addr().(*net.TCPAddr).Port
		pc, err := net.ListenPacket("udp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		ln.Close()
		if err == nil {
			pc.Close()
			return port, nil
		}
	}
	return 0, errors.New("dnssectest: no loopback port free for UDP and TCP")
}

// readyWithin bounds the wait for a server to answer: generous, for a
// loaded machine.
const readyWithin = 60 * time.Second

// start runs bin and waits until it answers at addr, or fails when it
// exits first or does not answer within readyWithin.
func start(t testing.TB, bin string, args []string, addr string, validating bool) error {
	cmd := exec.Command(lookPath(bin), args...)
	var logs testutil.SyncBuffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyWithin)
	defer cancel()
	q := new(dns.Msg)
	q.SetQuestion(Parent+".", dns.TypeSOA)
	q.SetEdns0(1232, true)
	c := &dns.Client{Timeout: time.Second}
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		reply, _, err := c.ExchangeContext(ctx, q, addr)
		if err == nil && reply.Rcode == dns.RcodeSuccess && (!validating || reply.AuthenticatedData) {
			break
		}
		select {
		case err := <-exited:
			return fmt.Errorf("%s exited (%v) before answering: %s", bin, err, logs.String())
		case <-ctx.Done():
			stop()
			return fmt.Errorf("%s did not answer a validated SOA query for %s at %s within %s: %s", bin, Parent, addr, readyWithin, logs.String())
		case <-time.After(wait):
		}
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("%s logs:\n%s", bin, logs.String())
		}
	})
	return nil
}
