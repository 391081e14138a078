package testutil

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"time"
)

// A Cert describes a leaf certificate of [NewTLSServer].
type Cert struct {
	// Names are the DNS names the certificate is valid for.
	Names []string
	// NotBefore and NotAfter bound its validity; zero: from an hour ago
	// to a year ahead.
	NotBefore, NotAfter time.Time
}

// NewTLSServer starts an HTTPS server on 127.0.0.1 serving h. Each
// certificate of certs is issued by a CA made for the server, whose pool
// is returned for clients to trust. The server presents the certificate
// whose Names hold the name the client asks for (SNI), else the first
// one, so that a client asking for another name sees a wrong-host
// certificate. Close the server when done.
func NewTLSServer(h http.Handler, certs ...Cert) (*httptest.Server, *x509.CertPool, error) {
	srv, ca, err := NewTLSServerCA(h, certs...)
	if err != nil {
		return nil, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return srv, pool, nil
}

// NewTLSServerCA is NewTLSServer returning the CA's certificate itself,
// for a program that reads its roots from a PEM file.
func NewTLSServerCA(h http.Handler, certs ...Cert) (*httptest.Server, *x509.Certificate, error) {
	if len(certs) == 0 {
		return nil, nil, fmt.Errorf("testutil: NewTLSServer needs a certificate")
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Quiver Test CA"},
		NotBefore: now.Add(-48 * time.Hour), NotAfter: now.Add(10 * 365 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, nil, err
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, nil, err
	}
	leaves := make([]tls.Certificate, len(certs))
	for i, c := range certs {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, nil, err
		}
		nb, na := c.NotBefore, c.NotAfter
		if nb.IsZero() {
			nb = now.Add(-time.Hour)
		}
		if na.IsZero() {
			na = now.Add(365 * 24 * time.Hour)
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(int64(i + 2)), Subject: pkix.Name{CommonName: c.Names[0]},
			DNSNames: c.Names, NotBefore: nb, NotAfter: na,
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			return nil, nil, err
		}
		leaves[i] = tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // clients refusing a certificate are the point
	srv.TLS = &tls.Config{GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		for i, c := range certs {
			if slices.Contains(c.Names, hello.ServerName) {
				return &leaves[i], nil
			}
		}
		return &leaves[0], nil
	}}
	srv.StartTLS()
	return srv, ca, nil
}
