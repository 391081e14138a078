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
// # Decisions on points the contract leaves open
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
//     or is disabled is smtp.status "rejected" (smtp.disabled says
//     which), a full one is "unknown" with reason mailbox_full
//     (smtp.mailbox_full); a refusal that blames the prober is "unknown"
//     with a reason naming which (see Reading SMTP replies).
//     smtp_verified is true only on a 250 for the address at a domain
//     that rejected a random recipient, or at gmail.com and
//     googlemail.com, which have no catch-all (see Mailbox providers). An
//     MX at a non-public address is not contacted unless
//     SMTPOptions.AllowPrivateAddresses is set.
//   - The SMTP probe can go through a SOCKS5 proxy (SMTPOptions.Proxy),
//     a secret.String, redacted wherever the options are printed.
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
//     policy, see [mailauth.MTASTSOptions]), TLS-RPT, DKIM keys at a list
//     of selectors ([mailauth.DefaultDKIMSelectors] and the caller's), BIMI and
//     DNSSEC, and judges the Gmail and Yahoo bulk-sender requirements
//     ([BulkSenderReadiness]). A record a domain need not publish is no
//     problem when absent, only when broken.
//
// # Reachability
//
// Every result carries a verdict, reachability, with coded
// reachability_reasons ([ReachabilityOf], [ReachabilityReasons]), as
// extensions: one field a sender can act on.
//
//   - invalid: the syntax is invalid (invalid_syntax), the domain does not
//     exist (domain_not_found), publishes a null MX (null_mx) or has no
//     mail server (no_mail_server), or the probe's server rejected the
//     mailbox (mailbox_not_found) or reported its account disabled
//     (mailbox_disabled). Do not send.
//   - safe: the probe verified the mailbox (smtp_verified: a 250 at a
//     domain that is not catch-all, from a provider whose 250 is
//     evidence), and the address is not disposable, not a role and its
//     mailbox not full. No reasons.
//   - risky: the address is disposable (disposable) or a role
//     (role_account), the domain is catch-all (catch_all), the mailbox is
//     full (mailbox_full), the catch-all test was switched off by
//     SMTPOptions.SkipCatchAll (catch_all_unchecked), or the server is one
//     whose 250 proves nothing (provider_unverifiable: Yahoo, Outlook.com).
//   - unknown: nothing proves the address good or bad: not probed
//     (not_probed), or the probe could not decide (probe_undecided;
//     smtp.reason says why: blocked, greylisted, timeout, ...).
//
// Without the SMTP probe nothing is safe: the probe is what shows a
// mailbox exists. Lists (bulk, CSV, stream, verify-list, bulk jobs) are
// never probed, so an address that passes every other check is unknown
// with not_probed, and one that is disposable or a role is risky with
// not_probed among its reasons; invalid needs no probe. Beside any
// verdict but safe, dns_failed says the MX lookup failed (SERVFAIL,
// timeout) and mx_not_checked that it was skipped.
//
// This is the verdict of Reacher (check-if-email-exists), whose
// is_reachable is "safe" (safe to send), "risky" (appears to exist, with
// quality issues: catch-all, disposable, role account or full inbox),
// "invalid" (does not exist or bad syntax: the server said it is not
// deliverable, or disabled) or "unknown" (no valid answer from the mail
// server). Quiver's differs where Quiver knows more or less:
//
//   - A mailbox the server rejected or reported disabled is invalid even
//     when the address is also a role or disposable; Reacher calls that
//     risky, because its risky test comes first. The rejection is the
//     stronger fact: mail to it bounces.
//   - A 250 from Yahoo or Outlook.com consumer servers is risky
//     (provider_unverifiable). Reacher does not ask these servers over
//     SMTP: it checks Yahoo and Hotmail addresses through their web
//     account-recovery pages or APIs, which Quiver does not drive.
//   - A refusal that blames the prober is unknown with a reason naming
//     which (the reply table below); a refusal whose text names no cause
//     Quiver can read is unknown with smtp.reason unclassified, as
//     Reacher leaves a reply its parser cannot read unknown.
//   - Without the probe, Quiver still answers (unknown or risky, with
//     not_probed); Reacher always probes.
//   - Every verdict but safe has coded reasons.
//
// # Reading SMTP replies
//
// [ClassifyReply] reads a reply by its structure first: the RFC 3463
// enhanced status code that opens the text (RFC 2034 section 4; one whose
// class is not the reply code's first digit is ignored), then the RFC
// 5321 reply code, and only then the text, through a table of phrases
// compared ignoring case, where the codes are absent or generic (X.0.0,
// X.1.0, X.2.0, X.3.0, X.5.0, or a reply code such as 550 or 554 that
// RFC 5321 gives several meanings). The text may also name which sender
// problem a policy refusal (X.7.x, 4xx) is, and a phrase that blames the
// sender overrules a code that speaks of the mailbox: a reply that blames
// the sender is never read as the address not existing. A 2xx reply is
// always accepted; a 4xx reply can say a mailbox is full but never that
// it does not exist or is disabled. The phrases are not looked for in the
// mail addresses the text quotes (a <...> path or a word with an "@"):
// servers echo the address asked for, and "<nobody@spamhaus.org>: User
// unknown" is not a blocklist refusal. First match wins in each part:
// provider rule, enhanced codes, reply codes, phrases.
//
//	code or phrase               class                source
//	5.4.1 "recipient address rejected" mailbox_not_found    [Exchange Online 5.4.1]
//	4.2.2                        mailbox_full         RFC 3463 3.3, [Gmail]
//	4.2.1                        rate_limited         RFC 3463 3.3, [Gmail]
//	4.7.25                       needs_reverse_dns    RFC 7372 3
//	4.x.x                        greylisted           RFC 3463 3.8
//	5.1.1                        mailbox_not_found    RFC 3463 3.2
//	5.1.2                        mailbox_not_found    RFC 3463 3.2
//	5.1.3                        mailbox_not_found    RFC 3463 3.2
//	5.1.6                        mailbox_not_found    RFC 3463 3.2
//	5.1.10                       mailbox_not_found    RFC 7505 4, [Exchange Online NDR]
//	5.1.7                        sender_rejected      RFC 3463 3.2
//	5.1.8                        sender_rejected      RFC 3463 3.2
//	5.1.x                        unclassified         RFC 3463 3.2
//	5.2.1                        mailbox_disabled     RFC 3463 3.3, [Gmail]
//	5.2.2                        mailbox_full         RFC 3463 3.3, [Gmail]
//	5.2.x                        unclassified         RFC 3463 3.3
//	5.3.x                        unclassified         RFC 3463 3.4
//	5.4.x                        unclassified         RFC 3463 3.5
//	5.5.x                        protocol_error       RFC 3463 3.6
//	5.6.x                        unclassified         RFC 3463 3.7
//	5.7.25                       needs_reverse_dns    RFC 7372 3
//	5.7.20                       sender_rejected      RFC 7372 3
//	5.7.21                       sender_rejected      RFC 7372 3
//	5.7.22                       sender_rejected      RFC 7372 3
//	5.7.23                       sender_rejected      RFC 7372 3
//	5.7.24                       sender_rejected      RFC 7372 3
//	5.7.26                       sender_rejected      RFC 7372 3, [Gmail]
//	5.7.27                       sender_rejected      RFC 7505 4
//	5.7.x                        blocked              RFC 3463 3.8
//
//	4xx                          greylisted           RFC 5321 4.2
//	500-504                      protocol_error       RFC 5321 4.2
//	555                          protocol_error       RFC 5321 4.2
//	530                          blocked              RFC 4954 6
//	551                          mailbox_not_found    RFC 5321 3.4, 4.2.3
//	552                          mailbox_full         RFC 5321 4.2
//	553                          mailbox_not_found    RFC 5321 4.2
//	556                          mailbox_not_found    RFC 7504 3
//	5xx                          unclassified         RFC 5321 4.2
//
//	"cannot find your hostname"  needs_reverse_dns    [Postfix reject_unknown_client_hostname]
//	"cannot find your reverse hostname" needs_reverse_dns    [Postfix reject_unknown_reverse_client_hostname]
//	"reverse dns"                needs_reverse_dns    [Gmail]
//	"ptr record"                 needs_reverse_dns    [Gmail]
//	"pointer (ptr)"              needs_reverse_dns    [Gmail]
//	"rate limit"                 rate_limited         [Gmail]
//	"unusual rate"               rate_limited         [Gmail]
//	"receiving mail too quickly" rate_limited         [Gmail]
//	"receiving mail at a rate"   rate_limited         [Gmail]
//	"too many connections"       rate_limited         [Postfix smtpd_client_connection_count_limit]
//	"unexpected volume"          rate_limited         [Yahoo]
//	"relay access denied"        relay_denied         [Postfix reject_unauth_destination]
//	"relaying denied"            relay_denied         [Sendmail relaying denied]
//	"relay not permitted"        relay_denied         [Exim default configuration]
//	"unable to relay"            relay_denied         [Exchange Online NDR]
//	"allowed rcpthosts"          relay_denied         [qmail-smtpd]
//	"sender address rejected"    sender_rejected      [Postfix reject_unknown_sender_domain]
//	"sender verify failed"       sender_rejected      [Exim verify]
//	"sender domain"              sender_rejected      RFC 3463 3.2
//	"helo command rejected"      sender_rejected      [Postfix reject_unknown_helo_hostname]
//	"unauthenticated"            sender_rejected      [Gmail]
//	"blocked using"              blocked              [Postfix default_rbl_reply]
//	"black list"                 blocked              [Exim dnslists]
//	"blacklist"                  blocked              [Exim dnslists]
//	"block list"                 blocked              [Outlook.com]
//	"blocklist"                  blocked              [Outlook.com]
//	"dnsbl"                      blocked              [Exim dnslists]
//	"spamhaus"                   blocked              [Spamhaus ZEN], [Yahoo], [Exchange Online NDR]
//	"barracuda"                  blocked              [Barracuda BRBL]
//	"spamcop"                    blocked              [SpamCop]
//	"banned sending ip"          blocked              [Exchange Online 5.7.606]
//	"not accepted from this ip"  blocked              [Exchange Online NDR]
//	"client host rejected"       blocked              [Postfix reject_unknown_client_hostname]
//	"reputation"                 blocked              [Gmail], [Barracuda BRBL]
//	"unsolicited"                blocked              [Gmail]
//	"administratively denied"    blocked              [Reacher parser]
//	"greylist"                   greylisted           RFC 6647 2
//	"graylist"                   greylisted           RFC 6647 2
//	"account that you tried to reach is disabled" mailbox_disabled [Gmail]
//	"account has been disabled"  mailbox_disabled     [Yahoo]
//	"account is disabled"        mailbox_disabled     RFC 3463 3.3
//	"account disabled"           mailbox_disabled     RFC 3463 3.3
//	"mailbox disabled"           mailbox_disabled     RFC 3463 3.3
//	"mailbox is disabled"        mailbox_disabled     RFC 3463 3.3
//	"mailbox has been disabled"  mailbox_disabled     RFC 3463 3.3
//	"discontinued"               mailbox_disabled     [Yahoo]
//	"mailbox full"               mailbox_full         RFC 3463 3.3
//	"mailbox is full"            mailbox_full         RFC 3463 3.3
//	"over quota"                 mailbox_full         [Gmail]
//	"quota exceeded"             mailbox_full         [Exchange Online NDR]
//	"exceeded storage allocation" mailbox_full         RFC 5321 4.2
//	"has too many messages"      mailbox_full         [Reacher parser]
//	"does not exist"             mailbox_not_found    [Gmail]
//	"user unknown"               mailbox_not_found    [Postfix LOCAL_RECIPIENT_README]
//	"unknown user"               mailbox_not_found    [Reacher parser]
//	"no such user"               mailbox_not_found    [Reacher parser]
//	"unknown recipient"          mailbox_not_found    [Reacher parser]
//	"invalid recipient"          mailbox_not_found    [Mimecast]
//	"recipient not found"        mailbox_not_found    [Exchange Online NDR]
//	"mailbox not found"          mailbox_not_found    [Reacher parser]
//	"no mailbox here"            mailbox_not_found    [qmail-smtpd]
//	"not a valid mailbox"        mailbox_not_found    [Reacher parser]
//	"unrouteable address"        mailbox_not_found    [Exim verify]
//	"mailbox unavailable"        unclassified         RFC 5321 3.4, 4.2.3
//	"user doesn't have"          mailbox_not_found    [Yahoo]
//	"user doesn’t have"          mailbox_not_found    [Yahoo]
//
// Sources: RFC 2034, 3463, 4954, 5321, 6647, 7372, 7504, 7505 (sections
// as shown); [Gmail] Gmail SMTP errors and codes,
// https://support.google.com/a/answer/3726730; [Exchange Online NDR]
// https://learn.microsoft.com/exchange/troubleshoot/email-delivery/ndr/non-delivery-reports-in-exchange-online;
// [Exchange Online 5.4.1] (directory-based edge blocking: no such
// recipient)
// https://learn.microsoft.com/exchange/troubleshoot/email-delivery/ndr/fix-error-code-550-5-4-1-in-exchange-online;
// [Exchange Online 5.7.606]
// https://learn.microsoft.com/exchange/troubleshoot/email-delivery/ndr/fix-error-code-5-7-606-649-in-exchange-online;
// [Outlook.com] https://sendersupport.olc.protection.outlook.com/pm/troubleshooting.aspx;
// [Yahoo] https://senders.yahooinc.com/smtp-error-codes/; [Postfix ...]
// the named parameter of https://www.postfix.org/postconf.5.html and
// https://www.postfix.org/LOCAL_RECIPIENT_README.html; [Exim ...] the
// Exim specification, chapters "Access control lists" and "The default
// configuration file"; [qmail-smtpd] https://cr.yp.to/qmail/man/qmail-smtpd.html;
// [Sendmail relaying denied] https://www.sendmail.org/~ca/email/relayingdenied.html;
// [Barracuda BRBL] https://www.barracudacentral.org/rbl; [Spamhaus ZEN]
// https://www.spamhaus.org/zen/; [SpamCop] https://www.spamcop.net/bl.shtml;
// [Mimecast] Mimecast SMTP error codes; [Reacher parser] the replies from
// the field Reacher's parser is built on,
// https://github.com/reacherhq/check-if-email-exists/blob/master/core/src/smtp/parser.rs.
//
// The probe reads the reply to RCPT TO the address this way:
// mailbox_not_found and mailbox_disabled are smtp.status rejected,
// mailbox_full is unknown with reason mailbox_full, any other class is
// unknown with the class as reason. Before RCPT (greeting, EHLO, MAIL
// FROM), a reply that blames the prober or is greylisted keeps its class,
// any other 5xx is blocked. The random recipient of the catch-all test
// proves the domain is not catch-all only when its refusal is permanent
// and of class mailbox_not_found or mailbox_disabled; any other refusal
// (the prober blamed, too many recipients, unclassified) leaves the
// probe undecided.
//
// # Mailbox providers
//
// mailbox_provider (an extension) is the provider of the domain's best MX
// host, or, when the SMTP probe talked to another one (the best had no
// usable address or did not answer), of that host, whose answer the
// provider's rules below read; by the suffix of its name ([ProviderOf]):
//
//	suffix                        provider          evidence
//	.google.com, .googlemail.com  google            Google Workspace MX values (smtp.google.com, aspmx.l.google.com, aspmx2.googlemail.com), https://support.google.com/a/answer/174125
//	.mail.protection.outlook.com  microsoft365      the MX record Microsoft 365 assigns a domain, https://learn.microsoft.com/microsoft-365/admin/get-help-with-domains/create-dns-records-at-any-dns-hosting-provider
//	.mx.microsoft                 microsoft365      Exchange Online's DNSSEC MX endpoints, https://learn.microsoft.com/microsoft-365/enterprise/urls-and-ip-address-ranges
//	.olc.protection.outlook.com   outlook_consumer  the MX hosts of outlook.com and hotmail.* (Reacher, core/src/mx)
//	.yahoodns.net                 yahoo             Yahoo's MX hosts (mta5.am0.yahoodns.net); AOL and AT&T mail moved there
//	.pphosted.com, .ppe-hosted.com proofpoint       Proofpoint and Proofpoint Essentials (Reacher, core/src/mx)
//	.mimecast.com                 mimecast          Mimecast's inbound hosts (Reacher, core/src/mx)
//	anything else                 other
//
// The providers are Reacher's (EmailProvider::from_mx_host); Reacher's
// "hotmail B2C" is outlook_consumer. How far each one's SMTP answer is
// trusted, and why:
//
//   - yahoo, outlook_consumer: a 250 is no proof (smtp.status unknown,
//     reason provider_unverifiable; verdict at most risky), and the
//     catch-all test is skipped, as it cannot prove more. Reacher states
//     that Yahoo addresses cannot be checked over SMTP
//     (https://github.com/reacherhq/check-if-email-exists/issues/1363)
//     and by default checks Yahoo and Hotmail consumer addresses through
//     their account-recovery pages instead (YahooVerifMethod and
//     HotmailB2CVerifMethod default to Headless); its FAQ names Hotmail
//     as a provider that does not allow real-time verification. Rejections
//     are still read: a 5xx for a missing user is evidence.
//   - google: at gmail.com and googlemail.com, whose servers reject
//     unknown accounts (550 5.1.1 "does not exist", [Gmail]), a 250 is
//     verified and the catch-all test is skipped, as Reacher does
//     (rules.json, SkipCatchAll for gmail.com, hotmail.* and yahoo.*):
//     it proves nothing there and spends a probe of a non-existent
//     address. Google Workspace domains may route unknown recipients to a
//     catch-all address (https://support.google.com/a/answer/33962), so
//     they get the test.
//   - microsoft365: a 250 is trusted after the catch-all test: a tenant
//     whose domain does not use directory-based edge blocking accepts
//     unknown recipients at the edge
//     (https://learn.microsoft.com/exchange/mail-flow-best-practices/use-directory-based-edge-blocking),
//     which the test shows as catch_all. Quiver asks the address before
//     the random recipient, so the extra RCPT cannot spoil the real
//     answer (Reacher dropped its random-first test for Microsoft after
//     servers answered 451 4.4.4 to the next recipient,
//     https://github.com/reacherhq/check-if-email-exists/issues/1334).
//   - proofpoint, mimecast, other: a 250 is trusted after the catch-all
//     test, as Reacher checks them over SMTP; a gateway that does not
//     validate recipients accepts any, which the test shows as catch_all.
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
