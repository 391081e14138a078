// Package email validates email addresses and checks the mail readiness of
// domains: syntax and normalization, disposable and role-account lists, MX
// rules, an optional SMTP mailbox probe (directly or through a SOCKS5
// proxy, paced per mail server), bulk and CSV validation, and domain
// health (MX, SPF, DMARC, the MX hosts: forward-confirmed reverse DNS,
// DNSBL listings, STARTTLS; MTA-STS, TLS-RPT, DKIM, BIMI, DNSSEC and
// bulk-sender readiness).
//
// [Parse] checks syntax only, without I/O; [Validate] adds the embedded
// lists and the typo suggestion, still without I/O. The methods of a
// [Verifier], built by [New] from a [Config], run every check: a Config
// holds the dependencies (a *resolver.Resolver for DNS, the lists, SMTP
// settings). The zero Config works offline: syntax and lists, with MX
// reported as "skipped". The DNS resolver is package resolver's, shared
// with the rest of a program; the SPF and DMARC results of domain health
// are package mailauth's.
//
// Every operation has a runnable example; those that need DNS ask a
// resolvertest server on loopback.
//
// # Syntax
//
// Addresses are checked as mail servers accept them (RFC 5321 and 5322,
// RFC 6531 for UTF-8): dot-atom and quoted local parts; IP literals
// ([192.0.2.1], [IPv6:2001:db8::1]) only with [SyntaxOptions]; local part
// at most 64 octets, address at most 254, labels at most 63, domain at
// most 253; LDH labels without leading or trailing hyphens nor "--" in
// positions 3-4 except A-labels; a dot in the domain; a TLD that is not
// all digits. Comments, folding whitespace, display names and obsolete
// forms are rejected. Control, format (zero-width, bidi overrides) and
// whitespace characters are rejected everywhere, so that a valid address
// is safe to log and to put on an SMTP command line.
//
// Normalization: surrounding whitespace is dropped; the address is NFC;
// the domain is mapped per UTS #46 (IDNA2008, nontransitional), lowercased
// and returned both in Unicode (in the normalized email) and in ASCII
// A-labels (ascii_domain); the local part keeps its case; a quoted local
// part whose content is a valid dot-atom loses its quotes. A UTF-8 local
// part sets smtputf8.
//
// Invalid addresses get a [Reason] from a fixed set (see [Reasons]), each
// with a message.
//
// # Decisions on points the specification leaves open
//
//   - is_valid is false for a syntax error and, when MX is checked, for a
//     domain that does not exist (domain_not_found), publishes a null MX
//     (null_mx), or has neither MX nor address records (no_mail_server).
//     A SERVFAIL or timeout proves nothing: the address stays valid and
//     mx.status says what happened.
//   - has_mx_records is true only for real MX records; the implicit MX of
//     RFC 5321 section 5.1 (no MX, an A or AAAA record) is reported as
//     mx.status "implicit" and keeps the address valid.
//   - local_part and domain are filled whenever the syntax is valid, email
//     only when the address is valid.
//   - The SMTP probe never changes is_valid: a mailbox that does not exist
//     is smtp.status "rejected"; smtp_verified is true only on a 250 for
//     the address at a domain that rejected a random recipient. An MX at
//     a non-public address is not contacted unless
//     SMTPOptions.AllowPrivateAddresses is set.
//   - The SMTP probe can go through a SOCKS5 proxy (SMTPOptions.Proxy),
//     whose credentials are redacted wherever the options are printed.
//     The probes and STARTTLS checks of one Verifier are paced per mail
//     server address: at most SMTPOptions.HostConnections at once,
//     starts SMTPOptions.HostInterval apart.
//   - The MX hosts check ([Verifier.CheckMXHosts], mx_hosts of domain
//     health) looks at the first MaxMXHostsChecked hosts and
//     MaxMXAddresses addresses of each; it connects (STARTTLS) only
//     when asked. DNSBL zones are asked only when configured
//     (Config.DNSBLZones): public ones refuse large public resolvers.
//   - Bulk duplicates compare normalized addresses (local part case kept,
//     as RFC 5321 requires); domains_with_mx counts distinct domains.
//   - The CSV file is the first file part of the multipart body whatever
//     its form name (documented as "file"); short rows give an empty
//     address (reason "empty"); blank lines are skipped.
//   - Disposable and role checks classify addresses whose syntax is valid;
//     others carry their reason.
//   - Domain health answers a verdict of ready, needs_attention, not_ready
//     or unknown (DNS failed) with every problem found, and SPF and DMARC
//     as parsed objects (null when not published). Data that a
//     validating resolver refuses as bogus (resolver.ErrDNSSECBogus) is
//     a dnssec_bogus error and makes the verdict not_ready, not unknown:
//     every sender that validates DNSSEC fails those lookups too.
//   - Domain health also checks, as extensions, MTA-STS (record and
//     policy, see [MTASTSOptions]), TLS-RPT, DKIM keys at a list of
//     selectors ([DefaultDKIMSelectors] and the caller's), BIMI and
//     DNSSEC, and judges the Gmail and Yahoo bulk-sender requirements
//     ([BulkSenderReadiness]). A record a domain need not publish is no
//     problem when absent, only when broken.
//
// # Lists
//
// The disposable (about 146,000 domains), free-provider and role lists are
// generated by `go generate` from published npm data packages and
// embedded; data/NOTICE.md names the sources and their licenses. A domain
// is disposable when it or a parent domain is listed and neither is on
// the allowlist. [Lists.WithDisposable] loads a newer list at run time;
// [Lists.WithAllowed] adds exceptions. Role names are compared ignoring
// case and a +tag.
//
// # Lists of any size
//
// [Verifier.ValidateBulk] and [Verifier.ValidateCSV] hold a request of at
// most 500 addresses or 1,000 rows in memory. [Verifier.VerifyCSV] streams
// a CSV file of any size from a reader to a writer, each row followed by
// its result columns, and [Verifier.ValidateStream] does the same for any
// sequence of addresses (an iter.Seq). Both keep the input order, hold at
// most StreamOptions.Window rows in flight (memory does not grow with the
// list), check at most Concurrency rows at once, and share the Verifier's
// one resolver and its cache; each distinct domain is looked up once per
// list, and a domain whose servers time out costs one timeout, not one
// per row. When the
// context ends they hand back every row checked before, in order, then
// the context's error: what was written is complete, and nothing after a
// gap. The duplicate count of the bulk summary is left out, as it would
// need memory proportional to the list.
package email
