package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// applyEmail parses the email and DNS flags from args and the
// environment env, as serve and every email command do, and returns the
// email.Config of their verifier, or why it cannot be built.
func applyEmail(t *testing.T, env map[string]string, args ...string) (email.Config, error) {
	t.Helper()
	s, err := parseServices(t, emailServices, env, args...)
	if err != nil {
		t.Fatal(err)
	}
	ec, err := s.emailConfig(0)
	if err == nil {
		_, err = s.Email()
	}
	return ec, err
}

// privateCA starts an HTTPS server for host with a certificate from a CA
// of its own, writes the CA to a PEM file and returns the server, the
// file and the CA.
func privateCA(t *testing.T, h http.Handler, host string) (srv *url.URL, pemFile string, ca *x509.Certificate) {
	t.Helper()
	https, ca, err := testutil.NewTLSServerCA(h, testutil.Cert{Names: []string{host}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(https.Close)
	pemFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(pemFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(https.URL)
	return u, pemFile, ca
}

// Every email and resolver setting has a flag and an environment twin
// that reach its field, for serve and for the commands, which build their
// verifier in the same place (services).
func TestEmailSettingsReachTheirFields(t *testing.T) {
	dnsSrv := resolvertest.Start(t, resolvertest.Config{Zone: cliZone})
	_, roots, ca := privateCA(t, http.NotFoundHandler(), "mta-sts.secure.test")
	flagArgs := []string{"-dns-servers", dnsSrv.Addr, "-dns-dnssec-ok", "-smtp-allow-private-addresses", "-smtp-skip-catch-all", "-smtp-max-hosts", "5",
		"-mta-sts-roots", roots, "-mta-sts-port", "8443", "-mta-sts-timeout", "3s", "-mta-sts-allow-loopback", "-mta-sts-allow-private-addresses"}
	envVars := map[string]string{"QUIVER_DNS_SERVERS": dnsSrv.Addr, "QUIVER_DNS_DNSSEC_OK": "true", "QUIVER_SMTP_ALLOW_PRIVATE_ADDRESSES": "true",
		"QUIVER_SMTP_SKIP_CATCH_ALL": "true", "QUIVER_SMTP_MAX_HOSTS": "5",
		"QUIVER_MTA_STS_ROOTS": roots, "QUIVER_MTA_STS_PORT": "8443", "QUIVER_MTA_STS_TIMEOUT": "3s", "QUIVER_MTA_STS_ALLOW_LOOPBACK": "1",
		"QUIVER_MTA_STS_ALLOW_PRIVATE_ADDRESSES": "true"}
	for name, run := range map[string]func() (email.Config, error){
		"flags":       func() (email.Config, error) { return applyEmail(t, nil, flagArgs...) },
		"environment": func() (email.Config, error) { return applyEmail(t, envVars) },
	} {
		cfg, err := run()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m := cfg.MTASTS
		if m.Port != 8443 || m.Timeout != 3*time.Second || !m.AllowLoopback || !m.AllowPrivateAddresses || m.RootCAs == nil {
			t.Errorf("%s: MTA-STS options %+v", name, m)
		}
		if m.RootCAs != nil {
			if _, err := ca.Verify(x509.VerifyOptions{Roots: m.RootCAs}); err != nil {
				t.Errorf("%s: the roots do not hold the CA of the file: %v", name, err)
			}
		}
		if o := cfg.SMTP; !o.AllowPrivateAddresses || !o.SkipCatchAll || o.MaxHosts != 5 {
			t.Errorf("%s: SMTP options %+v", name, o)
		}
		if _, err := cfg.Resolver.Lookup(context.Background(), "mx.test", dns.TypeMX); err != nil || !dnsSrv.LastFlags().DO {
			t.Errorf("%s: lookup %v, DO bit %v: -dns-dnssec-ok did not reach the resolver", name, err, dnsSrv.LastFlags().DO)
		}
	}
}

// Each field of resolver.Config has a flag and an environment twin.
func TestDNSFlagsReachResolverConfig(t *testing.T) {
	want := resolver.Config{Servers: []string{"192.0.2.53", "192.0.2.54:5353"}, Timeout: 3 * time.Second, Attempts: 4, CacheSize: 50,
		MaxTTL: time.Minute, NegativeTTL: 7 * time.Second, UDPSize: 4096, MaxInFlight: 9, DNSSECOK: true}
	if n := reflect.TypeOf(want).NumField(); n != 9 {
		t.Fatalf("resolver.Config has %d fields: give the new ones a flag", n)
	}
	args := []string{"-dns-servers", "192.0.2.53,192.0.2.54:5353", "-dns-timeout", "3s", "-dns-attempts", "4", "-dns-cache-size", "50",
		"-dns-max-ttl", "1m", "-dns-negative-ttl", "7s", "-dns-udp-size", "4096", "-dns-max-in-flight", "9", "-dns-dnssec-ok"}
	env := map[string]string{"QUIVER_DNS_SERVERS": "192.0.2.53,192.0.2.54:5353", "QUIVER_DNS_TIMEOUT": "3s", "QUIVER_DNS_ATTEMPTS": "4",
		"QUIVER_DNS_CACHE_SIZE": "50", "QUIVER_DNS_MAX_TTL": "1m", "QUIVER_DNS_NEGATIVE_TTL": "7s", "QUIVER_DNS_UDP_SIZE": "4096",
		"QUIVER_DNS_MAX_IN_FLIGHT": "9", "QUIVER_DNS_DNSSEC_OK": "true"}
	for name, tc := range map[string]struct {
		args []string
		env  map[string]string
	}{"flags": {args, nil}, "environment": {nil, env}} {
		s, err := parseServices(t, []setup{dnsSetup}, tc.env, tc.args...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.cfg.resolverConfig()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, %v; want %+v", name, got, err, want)
		}
	}
}

// A setting that cannot work stops serve and the commands with an error
// that names its flag (and its environment twin) and wraps the
// package's invalid-configuration sentinel.
func TestEmailSettingsRefuseWhatCannotWork(t *testing.T) {
	notPEM := filepath.Join(t.TempDir(), "roots.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args     []string
		flag     string
		sentinel error
	}{
		{[]string{"-mta-sts-port", "70000"}, "-mta-sts-port (QUIVER_MTA_STS_PORT)", email.ErrInvalidConfig},
		{[]string{"-mta-sts-roots", filepath.Join(t.TempDir(), "missing.pem")}, "-mta-sts-roots (QUIVER_MTA_STS_ROOTS)", email.ErrInvalidConfig},
		{[]string{"-mta-sts-roots", notPEM}, "-mta-sts-roots (QUIVER_MTA_STS_ROOTS)", email.ErrInvalidConfig},
		{[]string{"-smtp-port", "70000"}, "-smtp-port (QUIVER_SMTP_PORT)", email.ErrInvalidConfig},
		{[]string{"-smtp-helo", "two words"}, "-smtp-helo (QUIVER_SMTP_HELO)", email.ErrInvalidConfig},
		{[]string{"-dnsbl-zones", "not a zone"}, "-dnsbl-zones (QUIVER_DNSBL_ZONES)", email.ErrInvalidConfig},
		{[]string{"-dns-servers", "127.0.0.1:99999"}, "-dns-servers (QUIVER_DNS_SERVERS)", resolver.ErrInvalidConfig},
		{[]string{"-dns-servers", "http://1.1.1.1"}, "-dns-servers (QUIVER_DNS_SERVERS)", resolver.ErrInvalidConfig},
		{[]string{"-dns-udp-size", "100", "-dns-servers", "127.0.0.1"}, "-dns-udp-size (QUIVER_DNS_UDP_SIZE)", resolver.ErrInvalidConfig},
		{[]string{"-dns-udp-size", "70000", "-dns-servers", "127.0.0.1"}, "-dns-udp-size (QUIVER_DNS_UDP_SIZE)", resolver.ErrInvalidConfig},
	} {
		args := tc.args
		if tc.flag[:4] != "-dns" {
			args = append(args, "-dns-servers", "127.0.0.1")
		}
		_, err := applyEmail(t, nil, args...)
		if !errors.Is(err, tc.sentinel) || !strings.HasPrefix(fmt.Sprint(err), tc.flag+": ") {
			t.Errorf("%q: err = %v; want %v, naming %s", tc.args, err, tc.sentinel, tc.flag)
		}
	}
}

// secureZone publishes an MTA-STS policy whose host is on loopback.
const secureZone = `
$ORIGIN test.
$TTL 300
@                SOA ns hostmaster 1 3600 600 86400 60
secure           MX 10 mx.secure.test.
mx.secure        A 192.0.2.10
_mta-sts.secure  TXT "v=STSv1; id=20260101"
mta-sts.secure   A 127.0.0.1
`

// policyHandler serves the MTA-STS policy of secure.test.
var policyHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	fmt.Fprint(w, "version: STSv1\nmode: enforce\nmx: mx.secure.test\nmax_age: 604800\n")
})

// An MTA-STS policy host with a certificate from a private CA, on
// loopback, validates through the CLI and the server once given the CA
// (-mta-sts-roots), the port and loopback; without the CA the policy is
// refused for its certificate.
func TestPrivateCAMTASTSThroughCLIAndServer(t *testing.T) {
	dnsSrv := resolvertest.Start(t, resolvertest.Config{Zone: secureZone})
	u, roots, _ := privateCA(t, policyHandler, "mta-sts.secure.test")
	mtasts := func(t *testing.T, data []byte) string {
		t.Helper()
		var res struct {
			Results []struct {
				MTASTS struct {
					Status string `json:"status"`
					Error  string `json:"error"`
				} `json:"mta_sts"`
			} `json:"results"`
		}
		if err := json.Unmarshal(data, &res); err != nil || len(res.Results) != 1 {
			t.Fatalf("%v: %s", err, data)
		}
		return res.Results[0].MTASTS.Status + " " + res.Results[0].MTASTS.Error
	}

	bin := quiverBinary(t)
	env := []string{"QUIVER_DNS_SERVERS=" + dnsSrv.Addr}
	stdout, stderr, _ := runBinary(t, bin, env, "", "email", "domain-health",
		"-mta-sts-roots", roots, "-mta-sts-port", u.Port(), "-mta-sts-allow-loopback", "secure.test")
	if got := mtasts(t, []byte(stdout)); got != "valid " {
		t.Errorf("CLI with the private CA: mta_sts %q\nstderr: %s", got, stderr)
	}
	stdout, _, _ = runBinary(t, bin, append(env, "QUIVER_MTA_STS_PORT="+u.Port(), "QUIVER_MTA_STS_ALLOW_LOOPBACK=true"), "", "email", "domain-health", "secure.test")
	if got := mtasts(t, []byte(stdout)); !strings.HasPrefix(got, "invalid ") || !strings.Contains(got, "certificate") {
		t.Errorf("CLI without the CA: mta_sts %q, want invalid for the certificate", got)
	}

	s := startServer(t, nil, map[string]string{"QUIVER_RATE_LIMIT": "-1", "QUIVER_DNS_SERVERS": dnsSrv.Addr,
		"QUIVER_MTA_STS_ROOTS": roots, "QUIVER_MTA_STS_PORT": u.Port(), "QUIVER_MTA_STS_ALLOW_LOOPBACK": "true"})
	defer s.stop(t, 10*time.Second)
	req, _ := http.NewRequest(http.MethodPost, s.base+"/v1/email/domain/health", strings.NewReader(`{"domains":["secure.test"]}`))
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "test")
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var envl struct{ Data json.RawMessage }
	if err := json.NewDecoder(res.Body).Decode(&envl); err != nil || res.StatusCode != 200 {
		t.Fatalf("status %d, %v", res.StatusCode, err)
	}
	if got := mtasts(t, envl.Data); got != "valid " {
		t.Errorf("server with the private CA: mta_sts %q", got)
	}
}
