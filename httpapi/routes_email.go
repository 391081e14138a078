package httpapi

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"net"
	"net/http"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/llm"
)

// emailRoutes returns the routes served by package email.
func (s *server) emailRoutes() ([]route, error) {
	v := s.cfg.Email
	var err error
	if v == nil {
		v, err = email.New(email.Config{}) // syntax and lists only: no resolver
	}
	return []route{
		post(groupEmail, "/v1/email/bulk/validate", "Validate 1 to 500 email addresses", v.ValidateBulk).describe(listReachability).
			example(`{"emails":["ana.torres@example.com","info@example.com","someone@mailinator.com","not-an-address"],"check_mx":false}`).
			// The result does not follow the small body: 500 addresses,
			// each domain's MX hosts up to email.MaxMXHostsListed names
			// of 253 bytes: about 4 MiB.
			weigh(resultKind(4 << 20)),
		{
			method: http.MethodPost, path: "/v1/email/bulk/validate-csv", group: groupEmail,
			summary: "Validate the addresses of an uploaded CSV file (header row, at most 1,000 rows and 512 KB)",
			form:    true, response: typeOf[email.CSVResult](), description: listReachability,
			requestExample: `{"file":"email\nana.torres@example.com\ninfo@example.com\nsomeone@mailinator.com\n"}`,
			weight:         heavyKind,
			op: func(r *http.Request) (any, *llm.Usage, error) {
				file, err := csvUpload(r)
				if err != nil {
					return nil, nil, err
				}
				res, err := v.ValidateCSV(r.Context(), bytes.NewReader(file))
				return res, nil, err
			},
		},
		post(groupEmail, "/v1/email/domain/health", "Check the MX, SPF and DMARC readiness of 1 to 500 domains, and their MX hosts (extension: mx_hosts, check_starttls)", v.DomainHealth).describe(
			"Domains are normalized (lowercase A-labels, without a final dot) and de-duplicated: results has one result per distinct domain, in the order of first appearance, " +
				"and each result's inputs (an extension) are the zero-based indexes in domains that it answers. " +
				"Extensions beyond the contract: the request fields check_starttls and dkim_selectors (at most 10 DKIM selectors to probe besides the default list), " +
				"and per result mx_hosts (addresses, forward-confirmed reverse DNS, DNSBL listings, STARTTLS when asked: null with an mx_starttls_unreachable warning giving the reason when a host could not be checked), mta_sts (RFC 8461 record and policy, with mx_match), tls_rpt (RFC 8460), dkim (keys found at the probed selectors, key type and bits), " +
				"bimi (record, and whether DMARC enforcement lets receivers honour it), dnssec (DS, DNSKEY, the resolver's AD bit, and bogus: the lookups whose answers failed DNSSEC validation at the resolver) and bulk_sender " +
				"(Gmail and Yahoo bulk-sender requirements that DNS can show: pass, fail or unknown with a reason each, and those it cannot show), " +
				"with the problem codes they add (mx_*, dnsbl_error, mta_sts_*, tlsrpt_*, dkim_*, bimi_*, dnssec_*). " +
				"Each sub-result (spf, dmarc, mta_sts with its record and policy, tls_rpt, dkim, bimi, dnssec) also lists its own findings in problems, each with code, severity and message, as a library caller gets them; the result's problems remain the union, under the codes above. " +
				"A lookup that the resolver fails because its data does not pass DNSSEC validation (SERVFAIL with an Extended DNS Error 6 to 12, or answered when asked again with the CD bit) is a dnssec_bogus error naming the lookup and the resolver's EDE, not a dns_error: " +
				"every sender that validates DNSSEC fails it too, so the verdict is not_ready (not unknown), and the spf, dmarc and dmarc_alignment lines of bulk_sender fail when their records are bogus.").
			example(`{"domains":["example.com"]}`),
		post(groupEmail, "/v1/email/disposable/check", "Classify 1 to 500 addresses as disposable or not", v.CheckDisposable).
			example(`{"emails":["someone@mailinator.com","ana.torres@example.com"]}`),
		post(groupEmail, "/v1/email/role-account/check", "Classify 1 to 500 addresses as role accounts or not", v.CheckRoleAccounts).
			example(`{"emails":["support@example.com","ana.torres@example.com"]}`),
		post(groupDev, "/v1/dev/email/validate", "Validate and normalize one email address, optionally probing SMTP", v.ValidateEmail).describe(validateReachability).
			example(`{"email":"ana.torres@example.com","check_smtp":false}`),
		post(groupUtility, "/v1/utility/email/validate", "Validate and normalize one email address, optionally probing SMTP", v.ValidateEmail).describe(validateReachability).
			example(`{"email":"ana.torres@example.com","check_smtp":false}`),
	}, err
}

// Descriptions of the verdict the validation routes add (extensions).
const (
	validateReachability = "Extensions beyond the contract: reachability (safe, risky, invalid or unknown) with coded reachability_reasons, " +
		"and mailbox_provider (google, microsoft365, outlook_consumer, yahoo, proofpoint, mimecast or other, from the best MX host, or the one the SMTP probe talked to). " +
		"Without check_smtp nothing is safe: reachability is unknown with not_probed, or risky for a disposable or role address. " +
		"With check_smtp, the server's replies are read by their RFC 3463 enhanced code, then the reply code, then a documented table of phrases: " +
		"a refusal that blames the prober (blocklist, reputation, reverse DNS, relay policy, rate) is smtp.status unknown with smtp.reason " +
		"blocked, needs_reverse_dns, rate_limited, relay_denied or sender_rejected, never rejected; a full mailbox is unknown with reason mailbox_full " +
		"and smtp.mailbox_full, a disabled one rejected with smtp.disabled; smtp.enhanced_code shows the code. " +
		"A 250 from Yahoo or Outlook.com consumer hosts proves nothing (reason provider_unverifiable, reachability at most risky). " +
		"The reply table, with the source of each rule, is in the documentation of Go package email."
	listReachability = "Extensions beyond the contract: each result has reachability (safe, risky, invalid or unknown) with coded reachability_reasons, " +
		"and mailbox_provider. Lists are never probed over SMTP, so no result is safe: an address that passes every check is unknown with not_probed, " +
		"a disposable or role address risky."
)

// csvUpload returns the first file part of a multipart/form-data body,
// whatever its form name, or the field named file even without a file
// name (as curl -F 'file=<list.csv' sends it), read up to one byte past the CSV limit so that
// package email can name the limit.
func csvUpload(r *http.Request) ([]byte, error) {
	mr, err := multipartBody(r)
	if err != nil {
		return nil, err
	}
	for {
		part, err := nextPart(mr)
		if err != nil {
			return nil, err
		}
		if !isFilePart(part) {
			continue // an ordinary form field
		}
		data, err := io.ReadAll(io.LimitReader(part, email.MaxCSVBytes+1))
		if err != nil {
			return nil, multipartError(err)
		}
		return data, nil
	}
}

// multipartBody checks that r is a multipart/form-data upload with no
// query string, and returns the reader of its parts.
func multipartBody(r *http.Request) (*multipart.Reader, error) {
	if err := requireMediaType(r, "multipart/form-data"); err != nil {
		return nil, err
	}
	if err := noQuery(r); err != nil {
		return nil, err
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, envelope.Invalid("file", "the multipart body is malformed: "+err.Error())
	}
	return mr, nil
}

// nextPart returns the next part of an upload. The end of the body
// before a file part is the error that the file is required.
func nextPart(mr *multipart.Reader) (*multipart.Part, error) {
	part, err := mr.NextPart()
	if errors.Is(err, io.EOF) {
		return nil, envelope.Invalid("file", "is required: send the CSV as a file part of the multipart/form-data body")
	}
	if err != nil {
		return nil, multipartError(err)
	}
	return part, nil
}

// isFilePart reports whether part is the upload's file: any part with a
// file name, or the field named file without one (curl -F 'file=<x.csv').
func isFilePart(part *multipart.Part) bool {
	return part.FileName() != "" || part.FormName() == "file"
}

// multipartError classifies a failure to read the multipart body: over
// the body limit is 413, a body that stalled past the read deadline 408,
// one whose connection failed or ended early a fixed 400 (the error's
// text would name the addresses of the connection), anything else a
// malformed request.
func multipartError(err error) error {
	var tooBig *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &tooBig), isTimeout(err):
		return bodyReadError(err)
	case errors.As(err, &ne), errors.Is(err, io.ErrUnexpectedEOF):
		return envelope.Invalid("file", "the upload ended before its closing boundary: it was cut short or is malformed")
	}
	return envelope.Invalid("file", "the multipart body is malformed: "+err.Error())
}
