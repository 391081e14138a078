package webcheck

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testCA is a certificate authority made in the test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newCA(t *testing.T, name string) testCA {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name, Organization: []string{"Quiver Test"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(10 * 365 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return testCA{cert, key}
}

type leafSpec struct {
	names               []string
	notBefore, notAfter time.Time
	selfSigned          bool
	rsaBits             int
}

// issue makes the leaf certificate leafSpec describes, signed by ca (or by
// itself).
func (ca testCA) issue(t *testing.T, spec leafSpec) tls.Certificate {
	t.Helper()
	var pub, priv any
	if spec.rsaBits > 0 {
		k, _ := rsa.GenerateKey(rand.Reader, spec.rsaBits)
		pub, priv = &k.PublicKey, k
	} else {
		k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		pub, priv = &k.PublicKey, k
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(0xC0FFEE), Subject: pkix.Name{CommonName: spec.names[0], Organization: []string{"Example Org"}, Country: []string{"NL"}},
		DNSNames: spec.names, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore: spec.notBefore, NotAfter: spec.notAfter,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	parent, signer := ca.cert, any(ca.key)
	if spec.selfSigned {
		parent, signer = tmpl, priv
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, signer)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: priv}
}

// tlsServer serves cert on 127.0.0.1 and returns its port.
func tlsServer(t *testing.T, cert tls.Certificate) int {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().(*net.TCPAddr).Port
}

func TestCheckSSL(t *testing.T) {
	now := time.Now()
	ca, rogue := newCA(t, "Quiver Test Root"), newCA(t, "Rogue Root")
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)
	valid := leafSpec{names: []string{"site.test", "www.site.test"}, notBefore: now.Add(-time.Hour), notAfter: now.Add(90 * 24 * time.Hour)}
	tests := []struct {
		name    string
		cert    tls.Certificate
		valid   bool
		errWant string
		check   func(t *testing.T, r SSLResult)
	}{
		{"valid", ca.issue(t, valid), true, "", func(t *testing.T, r SSLResult) {
			if r.Subject.CommonName != "site.test" || r.Subject.Organization != "Example Org" || r.Subject.Country != "NL" || r.Issuer.CommonName != "Quiver Test Root" {
				t.Errorf("subject=%+v issuer=%+v", r.Subject, r.Issuer)
			}
			if r.Version != 3 || r.SerialNumber != "C0FFEE" || r.DaysRemaining < 88 || r.DaysRemaining > 90 {
				t.Errorf("version=%d serial=%s days=%d", r.Version, r.SerialNumber, r.DaysRemaining)
			}
			if strings.Join(r.SANs, ",") != "site.test,www.site.test,127.0.0.1" {
				t.Errorf("sans=%q", r.SANs)
			}
			if r.KeyType != "ECDSA" || r.KeyBits != 256 || r.SignatureAlgorithm != "ECDSA-SHA256" || r.TLSVersion != "TLS 1.3" || r.CipherSuite == "" || r.SelfSigned || r.WeakKey {
				t.Errorf("fields beyond the contract: %+v", r)
			}
			if _, err := time.Parse(time.RFC3339, r.NotAfter); err != nil || !strings.HasSuffix(r.NotAfter, "Z") {
				t.Errorf("not_after=%q", r.NotAfter)
			}
		}},
		{"expired", ca.issue(t, leafSpec{names: valid.names, notBefore: now.Add(-60 * 24 * time.Hour), notAfter: now.Add(-24 * time.Hour)}), false, "certificate expired on", func(t *testing.T, r SSLResult) {
			if r.DaysRemaining >= 0 {
				t.Errorf("days_remaining=%d; want negative", r.DaysRemaining)
			}
			if strings.Contains(*r.Error, "untrusted") {
				t.Errorf("an expired but well-chained certificate was called untrusted: %s", *r.Error)
			}
		}},
		{"not yet valid", ca.issue(t, leafSpec{names: valid.names, notBefore: now.Add(24 * time.Hour), notAfter: now.Add(48 * time.Hour)}), false, "not yet valid", nil},
		{"wrong host", ca.issue(t, leafSpec{names: []string{"other.test"}, notBefore: valid.notBefore, notAfter: valid.notAfter}), false, "host name mismatch", nil},
		{"self-signed", ca.issue(t, leafSpec{names: valid.names, notBefore: valid.notBefore, notAfter: valid.notAfter, selfSigned: true}), false, "self-signed", func(t *testing.T, r SSLResult) {
			if !r.SelfSigned {
				t.Error("self_signed = false")
			}
		}},
		{"untrusted root", rogue.issue(t, valid), false, "does not lead to a trusted root", nil},
		{"expiring soon, weak key", ca.issue(t, leafSpec{names: valid.names, notBefore: valid.notBefore, notAfter: now.Add(20 * 24 * time.Hour), rsaBits: 1024}), true, "", func(t *testing.T, r SSLResult) {
			if !r.WeakKey || r.KeyType != "RSA" || r.KeyBits != 1024 {
				t.Errorf("weak_key=%v key=%s/%d", r.WeakKey, r.KeyType, r.KeyBits)
			}
			assertWarning(t, r.Warnings, "expires within 30 days")
			assertWarning(t, r.Warnings, "weak RSA key")
		}},
	}
	c := newTestChecker(t, "site.test. 60 IN A 127.0.0.1\n", func(c *Config) { c.RootCAs = roots })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			port := tlsServer(t, tt.cert)
			r, err := c.CheckSSL(context.Background(), SSLRequest{Domain: "site.test", Port: port})
			if err != nil {
				t.Fatal(err)
			}
			if r.IsValid != tt.valid {
				t.Fatalf("is_valid=%v; want %v (error %v)", r.IsValid, tt.valid, deref(r.Error))
			}
			if tt.errWant != "" && (r.Error == nil || !strings.Contains(*r.Error, tt.errWant)) {
				t.Errorf("error=%q; want it to contain %q", deref(r.Error), tt.errWant)
			}
			if tt.valid && r.Error != nil {
				t.Errorf("error=%q on a valid certificate", *r.Error)
			}
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}

func TestCheckSSLTargetForms(t *testing.T) {
	ca := newCA(t, "Quiver Test Root")
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)
	port := tlsServer(t, ca.issue(t, leafSpec{names: []string{"site.test"}, notBefore: time.Now().Add(-time.Hour), notAfter: time.Now().Add(time.Hour)}))
	c := newTestChecker(t, "site.test. 60 IN A 127.0.0.1\n", func(c *Config) { c.RootCAs = roots })
	p := strconv.Itoa(port)
	for _, d := range []string{"https://site.test:" + p + "/path", "site.test:" + p, "SITE.test.:" + p} {
		r, err := c.CheckSSL(context.Background(), SSLRequest{Domain: d})
		if err != nil || !r.IsValid {
			t.Errorf("%s: %+v, %v", d, r, err)
		}
	}
}

func TestCheckSSLFailuresAreResults(t *testing.T) {
	plain := httptest.NewServer(http.NotFoundHandler()) // speaks no TLS
	defer plain.Close()
	plainPort := plain.Listener.Addr().(*net.TCPAddr).Port
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	closedPort := l.Addr().(*net.TCPAddr).Port
	l.Close()
	c := newTestChecker(t, "site.test. 60 IN A 127.0.0.1\n")
	for name, port := range map[string]int{"handshake failure": plainPort, "connection refused": closedPort} {
		r, err := c.CheckSSL(context.Background(), SSLRequest{Domain: "site.test", Port: port})
		if err != nil || r.IsValid || r.Error == nil {
			t.Errorf("%s: %+v, %v; want a result with is_valid false and an error", name, r, err)
		}
	}
	r, err := c.CheckSSL(context.Background(), SSLRequest{Domain: "nxdomain.test"})
	if err != nil || r.IsValid || r.Error == nil || !strings.Contains(*r.Error, "unreachable") {
		t.Errorf("NXDOMAIN: %+v, %v", r, err)
	}
}

func TestCheckSSLInvalidRequests(t *testing.T) {
	c := newTestChecker(t, "private.test. 60 IN A 10.1.2.3\n", func(c *Config) { c.AllowLoopback = false })
	bad := 70000
	for _, tt := range []struct {
		req  SSLRequest
		want string
	}{
		{SSLRequest{}, "domain: is required"},
		{SSLRequest{Domain: "site.test", Port: bad}, "port: must be from 1 to 65535, or 0 for the default"},
		{SSLRequest{Domain: "exa mple.test"}, "not a valid host name"},
		{SSLRequest{Domain: "127.0.0.1"}, "destination not allowed"},
		{SSLRequest{Domain: "localhost"}, "destination not allowed"},
		{SSLRequest{Domain: "private.test"}, "destination not allowed"},
	} {
		_, err := c.CheckSSL(context.Background(), tt.req)
		assertInvalid(t, err, tt.want)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
