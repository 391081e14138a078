package webcheck

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/safehttp"
)

// SSLRequest is the request of [Checker.CheckSSL].
type SSLRequest struct {
	// Domain is the host name to connect to and verify (an https URL is
	// accepted and its host used). Required.
	Domain string `json:"domain" openapi:"required"`
	// Port is the TCP port, 1 to 65535; 0 means the default: the port
	// of Domain when it carries one ("host:8443", "https://host:8443"),
	// else 443. A non-zero Port wins over the port of Domain.
	Port int `json:"port"`
}

// CertName is the subject or issuer of a certificate. Multi-valued
// attributes are joined with ", ".
type CertName struct {
	// CommonName is the CN attribute.
	CommonName string `json:"common_name"`
	// Organization is the O attribute.
	Organization string `json:"organization"`
	// OrganizationalUnit is the OU attribute.
	OrganizationalUnit string `json:"organizational_unit"`
	// Country is the C attribute.
	Country string `json:"country"`
	// Locality is the L attribute.
	Locality string `json:"locality"`
	// Province is the ST attribute.
	Province string `json:"province"`
}

// ChainCert is one certificate of the served chain.
type ChainCert struct {
	// Subject is the certificate's subject.
	Subject CertName `json:"subject"`
	// Issuer is the certificate's issuer.
	Issuer CertName `json:"issuer"`
	// NotAfter is the end of validity, ISO 8601 UTC.
	NotAfter string `json:"not_after"`
}

// SSLResult is the result of [Checker.CheckSSL].
type SSLResult struct {
	// IsValid reports whether the chain verifies against the trusted
	// roots, the host name matches, and the current time is within the
	// leaf's validity.
	IsValid bool `json:"is_valid"`
	// Subject is the leaf certificate's subject; nil (JSON null) when no
	// certificate was obtained (the host was unreachable or the handshake
	// failed: Error says which). Check it, or Error, before reading it.
	Subject *CertName `json:"subject"`
	// Issuer is the leaf certificate's issuer; nil (JSON null) when no
	// certificate was obtained, like Subject.
	Issuer *CertName `json:"issuer"`
	// Version is the X.509 version (3).
	Version int `json:"version"`
	// SerialNumber is the serial number in upper-case hex.
	SerialNumber string `json:"serial_number"`
	// NotBefore is the start of validity, ISO 8601 UTC.
	NotBefore string `json:"not_before"`
	// NotAfter is the end of validity, ISO 8601 UTC.
	NotAfter string `json:"not_after"`
	// DaysRemaining is the number of whole days until NotAfter; negative
	// once expired.
	DaysRemaining int `json:"days_remaining"`
	// SANs are the subject alternative names: DNS names, IP addresses,
	// emails and URIs.
	SANs []string `json:"sans"`
	// Error says which checks failed, "; "-separated; null when valid.
	Error *string `json:"error"`

	// SignatureAlgorithm is the leaf's signature algorithm, e.g.
	// "SHA256-RSA".
	SignatureAlgorithm string `json:"signature_algorithm"`
	// KeyType is "RSA", "ECDSA", "Ed25519" or "unknown".
	KeyType KeyType `json:"key_type"`
	// KeyBits is the key size in bits.
	KeyBits int `json:"key_bits"`
	// TLSVersion is the negotiated protocol, e.g. "TLS 1.3".
	TLSVersion string `json:"tls_version"`
	// CipherSuite is the negotiated cipher suite.
	CipherSuite string `json:"cipher_suite"`
	// Chain is the chain the server sent, leaf first.
	Chain []ChainCert `json:"chain"`
	// SelfSigned reports whether the leaf is signed by its own key.
	SelfSigned bool `json:"self_signed"`
	// OCSPStapled reports whether the server stapled an OCSP response.
	OCSPStapled bool `json:"ocsp_stapled"`
	// WeakKey flags RSA keys under 2048 bits and EC keys under 256 bits.
	WeakKey bool `json:"weak_key"`
	// SHA1Signature flags a leaf or intermediate signed with SHA-1 (or
	// MD5).
	SHA1Signature bool `json:"sha1_signature"`
	// Warnings lists expiry (within 30 or 60 days) and weakness notes.
	Warnings []string `json:"warnings"`
}

// CheckSSL connects to domain:port with SNI, reads the certificate chain
// the server presents, and verifies it. A host that cannot be reached or
// whose handshake fails gives a result with IsValid false and Error set,
// not an error; a host that resolves to a refused address is an
// INVALID_REQUEST.
func (c *Checker) CheckSSL(ctx context.Context, req SSLRequest) (SSLResult, error) {
	host, port, err := sslTarget(req)
	if err != nil {
		return SSLResult{}, err
	}
	res := SSLResult{SANs: []string{}, Chain: []ChainCert{}, Warnings: []string{}}
	fail := func(msg string) (SSLResult, error) {
		res.Error = &msg
		return res, nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	conn, err := c.client.Dialer().DialContext(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		if isRefused(err) {
			return SSLResult{}, fetchError("domain", err)
		}
		return fail("unreachable: " + fetchFailure(err))
	}
	defer conn.Close()
	// The chain is verified below, check by check, so that every failure
	// is named; the handshake itself accepts any certificate.
	tc := tls.Client(conn, &tls.Config{ServerName: sniName(host), InsecureSkipVerify: true, MinVersion: tls.VersionTLS10}) //nolint:gosec // verified by hand below
	if dl, ok := ctx.Deadline(); ok {
		tc.SetDeadline(dl)
	}
	if err := tc.HandshakeContext(ctx); err != nil {
		return fail("TLS handshake failed: " + err.Error())
	}
	st := tc.ConnectionState()
	if len(st.PeerCertificates) == 0 {
		return fail("the server presented no certificate")
	}
	res.TLSVersion = tls.VersionName(st.Version)
	res.CipherSuite = tls.CipherSuiteName(st.CipherSuite)
	res.OCSPStapled = len(st.OCSPResponse) > 0
	c.describe(&res, st.PeerCertificates)
	if problems := c.verify(host, st.PeerCertificates); len(problems) > 0 {
		return fail(strings.Join(problems, "; "))
	}
	res.IsValid = true
	return res, nil
}

// sslTarget validates the request and returns the ASCII host and port.
func sslTarget(req SSLRequest) (string, int, error) {
	var v envelope.ValidationError
	port := 443
	if req.Port != 0 {
		port = req.Port
		if port < 1 || port > 65535 {
			v.Add("port", "must be from 1 to 65535, or 0 for the default")
		}
	}
	d := strings.TrimSpace(req.Domain)
	if isWebURL(d) {
		u, err := parseHTTPURL("domain", d)
		if err != nil {
			return "", 0, err
		}
		d = u.Hostname()
		if p := u.Port(); p != "" && req.Port == 0 {
			port, _ = strconv.Atoi(p)
		}
	} else if h, p, err := net.SplitHostPort(d); err == nil && req.Port == 0 {
		d = h
		if n, err := strconv.Atoi(p); err == nil && n >= 1 && n <= 65535 {
			port = n
		} else {
			v.Add("domain", "has an invalid port")
		}
	}
	if d == "" {
		v.Add("domain", "is required")
		return "", 0, v.Err()
	}
	h, err := safehttp.ParseHost(d)
	if err != nil && !isRefused(err) {
		v.Add("domain", "is not a valid host name: "+strings.TrimPrefix(err.Error(), safehttp.ErrInvalidHost.Error()+": "))
	}
	if err := v.Err(); err != nil {
		return "", 0, err
	}
	if isRefused(err) {
		return "", 0, fetchError("domain", err)
	}
	return strings.TrimSuffix(h.String(), "."), port, nil
}

// sniName is the TLS server name for host: none for IP literals.
func sniName(host string) string {
	if net.ParseIP(host) != nil {
		return ""
	}
	return host
}

// verify runs the three checks and returns the failures, each naming the
// check.
func (c *Checker) verify(host string, certs []*x509.Certificate) []string {
	leaf := certs[0]
	now := c.cfg.Now()
	var problems []string
	switch {
	case now.Before(leaf.NotBefore):
		problems = append(problems, "certificate is not yet valid (valid from "+utc(leaf.NotBefore)+")")
	case now.After(leaf.NotAfter):
		problems = append(problems, "certificate expired on "+utc(leaf.NotAfter))
	}
	if err := leaf.VerifyHostname(host); err != nil {
		problems = append(problems, "host name mismatch: "+err.Error())
	}
	inter := x509.NewCertPool()
	for _, ic := range certs[1:] {
		inter.AddCert(ic)
	}
	// Chain trust is judged at a time the leaf is valid, so that an
	// expired certificate is reported as expired, not as untrusted.
	at := now
	if now.Before(leaf.NotBefore) || now.After(leaf.NotAfter) {
		at = leaf.NotBefore.Add(leaf.NotAfter.Sub(leaf.NotBefore) / 2)
	}
	_, err := leaf.Verify(x509.VerifyOptions{Roots: c.cfg.RootCAs, Intermediates: inter, CurrentTime: at})
	if err != nil {
		var ua x509.UnknownAuthorityError
		switch {
		case errors.As(err, &ua) && isSelfSigned(leaf):
			problems = append(problems, "untrusted: the certificate is self-signed")
		case errors.As(err, &ua):
			problems = append(problems, "untrusted: the chain does not lead to a trusted root ("+err.Error()+")")
		default:
			problems = append(problems, "chain verification failed: "+err.Error())
		}
	}
	return problems
}

// describe fills the certificate fields of res from the served chain.
func (c *Checker) describe(res *SSLResult, certs []*x509.Certificate) {
	leaf := certs[0]
	subj, iss := certName(leaf.Subject), certName(leaf.Issuer)
	res.Subject, res.Issuer = &subj, &iss
	res.Version = leaf.Version
	res.SerialNumber = strings.ToUpper(leaf.SerialNumber.Text(16))
	res.NotBefore, res.NotAfter = utc(leaf.NotBefore), utc(leaf.NotAfter)
	res.DaysRemaining = int(math.Floor(leaf.NotAfter.Sub(c.cfg.Now()).Hours() / 24))
	res.SANs = append(res.SANs, leaf.DNSNames...)
	for _, ip := range leaf.IPAddresses {
		res.SANs = append(res.SANs, ip.String())
	}
	res.SANs = append(res.SANs, leaf.EmailAddresses...)
	for _, u := range leaf.URIs {
		res.SANs = append(res.SANs, u.String())
	}
	res.SignatureAlgorithm = leaf.SignatureAlgorithm.String()
	res.KeyType, res.KeyBits = keyInfo(leaf)
	res.SelfSigned = isSelfSigned(leaf)
	for _, ct := range certs {
		res.Chain = append(res.Chain, ChainCert{Subject: certName(ct.Subject), Issuer: certName(ct.Issuer), NotAfter: utc(ct.NotAfter)})
		switch ct.SignatureAlgorithm {
		case x509.SHA1WithRSA, x509.ECDSAWithSHA1, x509.DSAWithSHA1, x509.MD5WithRSA, x509.MD2WithRSA:
			if !(ct != leaf && isSelfSigned(ct)) { // a root's own signature does not matter
				res.SHA1Signature = true
			}
		}
	}
	if res.SHA1Signature {
		res.Warnings = append(res.Warnings, "the chain uses a SHA-1 or MD5 signature, which browsers reject")
	}
	switch {
	case res.KeyType == KeyRSA && res.KeyBits < 2048, res.KeyType == KeyECDSA && res.KeyBits < 256:
		res.WeakKey = true
		res.Warnings = append(res.Warnings, fmt.Sprintf("weak %s key of %d bits", res.KeyType, res.KeyBits))
	}
	switch d := res.DaysRemaining; {
	case d < 0:
	case d <= 30:
		res.Warnings = append(res.Warnings, fmt.Sprintf("the certificate expires within 30 days (%d left)", d))
	case d <= 60:
		res.Warnings = append(res.Warnings, fmt.Sprintf("the certificate expires within 60 days (%d left)", d))
	}
	if res.TLSVersion == "TLS 1.0" || res.TLSVersion == "TLS 1.1" {
		res.Warnings = append(res.Warnings, "the server negotiated "+res.TLSVersion+", which is deprecated (RFC 8996)")
	}
}

func isSelfSigned(c *x509.Certificate) bool {
	return string(c.RawIssuer) == string(c.RawSubject) &&
		c.CheckSignature(c.SignatureAlgorithm, c.RawTBSCertificate, c.Signature) == nil
}

// A KeyType is the kind of a certificate's public key.
type KeyType string

// The key types of [SSLResult.KeyType].
const (
	KeyRSA     KeyType = "RSA"
	KeyECDSA   KeyType = "ECDSA"
	KeyEd25519 KeyType = "Ed25519"
	KeyUnknown KeyType = "unknown" // another algorithm
)

// KeyTypes returns the key types.
func KeyTypes() []KeyType { return []KeyType{KeyRSA, KeyECDSA, KeyEd25519, KeyUnknown} }

func keyInfo(c *x509.Certificate) (KeyType, int) {
	switch k := c.PublicKey.(type) {
	case *rsa.PublicKey:
		return KeyRSA, k.N.BitLen()
	case *ecdsa.PublicKey:
		return KeyECDSA, k.Curve.Params().BitSize
	case ed25519.PublicKey:
		return KeyEd25519, 256
	}
	return KeyUnknown, 0
}

func certName(n pkix.Name) CertName {
	j := func(s []string) string { return strings.Join(s, ", ") }
	return CertName{
		CommonName: n.CommonName, Organization: j(n.Organization), OrganizationalUnit: j(n.OrganizationalUnit),
		Country: j(n.Country), Locality: j(n.Locality), Province: j(n.Province),
	}
}

func utc(t time.Time) string { return t.UTC().Format(time.RFC3339) }
