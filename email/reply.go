package email

import (
	"strings"
)

// A ReplyClass is what an SMTP reply says about the address asked for, or
// about the prober that asked: one of the ReplyClass constants. Only
// three classes speak against the address (mailbox_not_found,
// mailbox_disabled, and mailbox_full, which proves the mailbox exists);
// five blame the sender (see [ReplyClass.BlamesSender]).
type ReplyClass string

// Reply classes. The package documentation has the table of rules that
// choose them, each with its source.
const (
	// ReplyAccepted: a 2xx reply (RFC 5321 section 4.2.1).
	ReplyAccepted ReplyClass = "accepted"
	// ReplyMailboxNotFound: the address does not exist, or is not one the
	// server delivers to (RFC 3463 X.1.1, X.1.2, X.1.3, X.1.6, X.1.10).
	ReplyMailboxNotFound ReplyClass = "mailbox_not_found"
	// ReplyMailboxDisabled: the mailbox exists but its account is
	// disabled and takes no mail (RFC 3463 X.2.1, permanent).
	ReplyMailboxDisabled ReplyClass = "mailbox_disabled"
	// ReplyMailboxFull: the mailbox exists and is over its quota (RFC 3463
	// X.2.2, RFC 5321 reply 552).
	ReplyMailboxFull ReplyClass = "mailbox_full"
	// ReplyBlocked: the server refuses the prober itself: its IP address
	// is on a blocklist, its reputation is poor, or a policy excludes it
	// (RFC 3463 X.7.x).
	ReplyBlocked ReplyClass = "blocked"
	// ReplyNeedsReverseDNS: the server wants the prober's IP address to
	// have forward-confirmed reverse DNS (RFC 7372 X.7.25).
	ReplyNeedsReverseDNS ReplyClass = "needs_reverse_dns"
	// ReplyRateLimited: too many connections, messages or probes from the
	// prober, or for the mailbox, in too short a time: try later.
	ReplyRateLimited ReplyClass = "rate_limited"
	// ReplyRelayDenied: the server refuses to relay: it does not consider
	// itself the destination of the domain, or wants the client to log in.
	ReplyRelayDenied ReplyClass = "relay_denied"
	// ReplySenderRejected: the server refuses the envelope sender (MAIL
	// FROM), its domain, its authentication or the EHLO name (RFC 3463
	// X.1.7, X.1.8; RFC 7372 X.7.20 to X.7.26; RFC 7505 X.7.27).
	ReplySenderRejected ReplyClass = "sender_rejected"
	// ReplyGreylisted: a temporary failure that names no more precise
	// cause: try again later (greylisting, RFC 6647, is the common one).
	ReplyGreylisted ReplyClass = "greylisted"
	// ReplyProtocolError: the reply is about the conversation itself (a
	// command or its syntax, RFC 3463 X.5.x), or is not a valid final
	// reply code.
	ReplyProtocolError ReplyClass = "protocol_error"
	// ReplyUnclassified: a refusal that names neither the address nor the
	// sender in a way the table can read: it proves nothing.
	ReplyUnclassified ReplyClass = "unclassified"
)

// ReplyClasses returns every ReplyClass, in the order of the constants.
func ReplyClasses() []ReplyClass {
	return []ReplyClass{ReplyAccepted, ReplyMailboxNotFound, ReplyMailboxDisabled, ReplyMailboxFull,
		ReplyBlocked, ReplyNeedsReverseDNS, ReplyRateLimited, ReplyRelayDenied, ReplySenderRejected,
		ReplyGreylisted, ReplyProtocolError, ReplyUnclassified}
}

// BlamesSender reports whether the class blames the sender (the prober's
// IP address, reputation, reverse DNS, envelope sender, rate, or the
// relay policy) rather than the address: blocked, needs_reverse_dns,
// rate_limited, relay_denied or sender_rejected. Such a reply says nothing
// about whether the address exists.
func (c ReplyClass) BlamesSender() bool {
	switch c {
	case ReplyBlocked, ReplyNeedsReverseDNS, ReplyRateLimited, ReplyRelayDenied, ReplySenderRejected:
		return true
	}
	return false
}

// speaksOfMailbox reports whether the class is a statement about the
// mailbox asked for.
func (c ReplyClass) speaksOfMailbox() bool {
	return c == ReplyMailboxNotFound || c == ReplyMailboxDisabled || c == ReplyMailboxFull
}

// Reply is an SMTP reply as [ClassifyReply] read it.
type Reply struct {
	// Class is what the reply says.
	Class ReplyClass `json:"class"`
	// Enhanced is the RFC 3463 enhanced status code that opens the reply
	// text ("5.1.1"), or "" when there is none or it contradicts the reply
	// code.
	Enhanced string `json:"enhanced,omitempty"`
	// Rule names the entry of the table that decided: a reply code
	// ("552"), an enhanced code pattern ("5.7.x") or a quoted phrase.
	Rule string `json:"rule"`
	// Source is where that rule comes from: an RFC section, or a mail
	// provider's or mail server's documentation.
	Source string `json:"source"`
}

// maxReplyText bounds the bytes of reply text the phrase table reads: the
// phrases that matter open the reply, and a hostile server may send a
// line of any length.
const maxReplyText = 1024

// ClassifyReply reads the SMTP reply code and text a mail server answered,
// by their structure first: the RFC 3463 enhanced status code that opens
// the text (RFC 2034 section 4), then the RFC 5321 reply code, and only
// then the text, through a table of phrases, where the codes are absent
// or generic; the mail addresses the text quotes are not read, since a
// server echoes the address asked for ("<nobody@spamhaus.org>: User
// unknown" is not a blocklist refusal). A phrase may also name which sender problem a policy
// refusal is (X.7.x), or overrule a code that speaks of the mailbox when
// it blames the sender: a reply that blames the sender is never read as
// the address not existing. A 2xx reply is always accepted, a 4xx reply
// never says that a mailbox does not exist or is disabled. The package
// documentation has the whole table with the source of each rule.
//
// It reads at most the first 1,024 bytes of text, does no I/O and never
// fails: text may be anything a server sent.
func ClassifyReply(code int, text string) Reply {
	if code >= 200 && code <= 299 {
		return Reply{Class: ReplyAccepted, Enhanced: enhancedCode(code, text), Rule: "2xx", Source: srcRFC5321Replies}
	}
	if code < 400 || code > 599 {
		return Reply{Class: ReplyProtocolError, Rule: "not 2xx, 4xx or 5xx", Source: srcRFC5321Replies}
	}
	enh := enhancedCode(code, text)
	if len(text) > maxReplyText {
		text = text[:maxReplyText]
	}
	lower := withoutAddresses(lowerASCII(text))
	r, specific := structure(code, enh, lower)
	r.Enhanced = enh
	p, ok := findPhrase(lower)
	if ok && refines(r.Class, specific, code, p.class) {
		r.Class, r.Rule, r.Source = p.class, p.rule, p.source
	}
	return r
}

// refines reports whether a phrase of class phrase replaces what the codes
// said (class, and whether a code named it precisely).
func refines(class ReplyClass, specific bool, code int, phrase ReplyClass) bool {
	temporary := code < 500
	switch {
	case phrase.BlamesSender():
		// The sender's fault is never the mailbox's absence, and names
		// which sender problem an unspecific refusal is; only a code that
		// names a sender problem precisely stands.
		return !specific || !class.BlamesSender()
	case specific:
		return false
	case phrase == ReplyGreylisted:
		return temporary
	case temporary:
		// A temporary reply may tell a full mailbox, never a missing or
		// disabled one.
		return phrase == ReplyMailboxFull
	}
	// An unspecific permanent refusal: the phrase names what it is about.
	return class == ReplyUnclassified || class.speaksOfMailbox()
}

// Sources of the rules. Every rule of the reply table names one of them.
const (
	srcRFC5321Replies   = "RFC 5321 section 4.2"
	srcRFC5321User      = "RFC 5321 sections 3.4 and 4.2.3"
	srcRFC3463Addr      = "RFC 3463 section 3.2"
	srcRFC3463Mailbox   = "RFC 3463 section 3.3"
	srcRFC3463System    = "RFC 3463 section 3.4"
	srcRFC3463Network   = "RFC 3463 section 3.5"
	srcRFC3463Protocol  = "RFC 3463 section 3.6"
	srcRFC3463Content   = "RFC 3463 section 3.7"
	srcRFC3463Policy    = "RFC 3463 section 3.8"
	srcRFC7372          = "RFC 7372 section 3"
	srcRFC7504          = "RFC 7504 section 3"
	srcRFC7505          = "RFC 7505 section 4"
	srcRFC6647          = "RFC 6647 section 2"
	srcRFC4954          = "RFC 4954 section 6"
	srcGoogle           = "https://support.google.com/a/answer/3726730 (Gmail SMTP errors and codes)"
	srcMicrosoftNDR     = "https://learn.microsoft.com/exchange/troubleshoot/email-delivery/ndr/non-delivery-reports-in-exchange-online"
	srcMicrosoftDBEB    = "https://learn.microsoft.com/exchange/troubleshoot/email-delivery/ndr/fix-error-code-550-5-4-1-in-exchange-online"
	srcMicrosoftBanned  = "https://learn.microsoft.com/exchange/troubleshoot/email-delivery/ndr/fix-error-code-5-7-606-649-in-exchange-online"
	srcOutlookConsumer  = "https://sendersupport.olc.protection.outlook.com/pm/troubleshooting.aspx"
	srcYahoo            = "https://senders.yahooinc.com/smtp-error-codes/"
	srcPostfixRBL       = "https://www.postfix.org/postconf.5.html#default_rbl_reply"
	srcPostfixClient    = "https://www.postfix.org/postconf.5.html#reject_unknown_client_hostname"
	srcPostfixRevClient = "https://www.postfix.org/postconf.5.html#reject_unknown_reverse_client_hostname"
	srcPostfixRelay     = "https://www.postfix.org/postconf.5.html#reject_unauth_destination"
	srcPostfixSender    = "https://www.postfix.org/postconf.5.html#reject_unknown_sender_domain"
	srcPostfixHelo      = "https://www.postfix.org/postconf.5.html#reject_unknown_helo_hostname"
	srcPostfixAnvil     = "https://www.postfix.org/postconf.5.html#smtpd_client_connection_count_limit"
	srcPostfixUnknown   = "https://www.postfix.org/LOCAL_RECIPIENT_README.html"
	srcEximDNSList      = "https://www.exim.org/exim-html-current/doc/html/spec_html/ch-access_control_lists.html (dnslists)"
	srcEximRoute        = "https://www.exim.org/exim-html-current/doc/html/spec_html/ch-access_control_lists.html (verify = recipient, verify = sender)"
	srcEximRelay        = "https://www.exim.org/exim-html-current/doc/html/spec_html/ch-the_default_configuration_file.html"
	srcQmail            = "https://cr.yp.to/qmail/man/qmail-smtpd.html"
	srcSendmailRelay    = "https://www.sendmail.org/~ca/email/relayingdenied.html"
	srcBarracuda        = "https://www.barracudacentral.org/rbl (Barracuda Reputation Block List)"
	srcSpamhaus         = "https://www.spamhaus.org/zen/ (Spamhaus ZEN, named in blocklist refusals)"
	srcSpamCop          = "https://www.spamcop.net/bl.shtml"
	srcMimecast         = "https://community.mimecast.com/s/article/Mimecast-SMTP-Error-Codes-842605754"
	srcReacher          = "https://github.com/reacherhq/check-if-email-exists/blob/master/core/src/smtp/parser.rs"
)

// codeRule reads an enhanced status code: class 4 or 5 (0: either),
// subject and detail (-1: any).
type codeRule struct {
	class, subject, detail int
	out                    ReplyClass
	// specific: the code names the class precisely; phrases do not
	// change it, except a sender's fault overruling a mailbox class.
	specific bool
	rule     string
	source   string
}

// enhancedRules is the first part of the reply table: the RFC 3463
// enhanced status codes, first match wins. The generic codes (X.0.0,
// X.1.0, X.2.0, X.3.0, X.5.0) are not here: the reply code reads them.
var enhancedRules = []codeRule{
	// Temporary replies never say that a mailbox does not exist.
	{4, 2, 2, ReplyMailboxFull, true, "4.2.2", srcRFC3463Mailbox + "; " + srcGoogle},
	{4, 2, 1, ReplyRateLimited, true, "4.2.1", srcRFC3463Mailbox + "; " + srcGoogle},
	{4, 7, 25, ReplyNeedsReverseDNS, true, "4.7.25", srcRFC7372},
	{4, -1, -1, ReplyGreylisted, false, "4.x.x", srcRFC3463Policy},

	{5, 1, 1, ReplyMailboxNotFound, true, "5.1.1", srcRFC3463Addr},
	{5, 1, 2, ReplyMailboxNotFound, true, "5.1.2", srcRFC3463Addr},
	{5, 1, 3, ReplyMailboxNotFound, true, "5.1.3", srcRFC3463Addr},
	{5, 1, 6, ReplyMailboxNotFound, true, "5.1.6", srcRFC3463Addr},
	{5, 1, 10, ReplyMailboxNotFound, true, "5.1.10", srcRFC7505 + "; " + srcMicrosoftNDR},
	{5, 1, 7, ReplySenderRejected, true, "5.1.7", srcRFC3463Addr},
	{5, 1, 8, ReplySenderRejected, true, "5.1.8", srcRFC3463Addr},
	{5, 1, -1, ReplyUnclassified, false, "5.1.x", srcRFC3463Addr},
	{5, 2, 1, ReplyMailboxDisabled, true, "5.2.1", srcRFC3463Mailbox + "; " + srcGoogle},
	{5, 2, 2, ReplyMailboxFull, true, "5.2.2", srcRFC3463Mailbox + "; " + srcGoogle},
	{5, 2, -1, ReplyUnclassified, false, "5.2.x", srcRFC3463Mailbox},
	{5, 3, -1, ReplyUnclassified, false, "5.3.x", srcRFC3463System},
	// Microsoft 365 answers 5.4.1 "Recipient address rejected: Access
	// denied" when directory-based edge blocking finds no such recipient:
	// see recipientRules.
	{5, 4, -1, ReplyUnclassified, false, "5.4.x", srcRFC3463Network},
	{5, 5, -1, ReplyProtocolError, true, "5.5.x", srcRFC3463Protocol},
	{5, 6, -1, ReplyUnclassified, false, "5.6.x", srcRFC3463Content},
	{5, 7, 25, ReplyNeedsReverseDNS, true, "5.7.25", srcRFC7372},
	{5, 7, 20, ReplySenderRejected, true, "5.7.20", srcRFC7372},
	{5, 7, 21, ReplySenderRejected, true, "5.7.21", srcRFC7372},
	{5, 7, 22, ReplySenderRejected, true, "5.7.22", srcRFC7372},
	{5, 7, 23, ReplySenderRejected, true, "5.7.23", srcRFC7372},
	{5, 7, 24, ReplySenderRejected, true, "5.7.24", srcRFC7372},
	{5, 7, 26, ReplySenderRejected, true, "5.7.26", srcRFC7372 + "; " + srcGoogle},
	{5, 7, 27, ReplySenderRejected, true, "5.7.27", srcRFC7505},
	{5, 7, -1, ReplyBlocked, false, "5.7.x", srcRFC3463Policy},
}

// recipientRules are provider-documented uses of an enhanced code beside
// its RFC 3463 meaning, matched with the phrase they come with.
var recipientRules = []struct {
	enhanced, phrase string
	out              ReplyClass
	source           string
}{
	{"5.4.1", "recipient address rejected", ReplyMailboxNotFound, srcMicrosoftDBEB},
}

// basicRules is the second part of the reply table: the RFC 5321 reply
// code, when the text has no enhanced code or a generic one. First match
// wins; every 4xx is greylisted until a phrase says more.
var basicRules = []struct {
	lo, hi   int
	out      ReplyClass
	specific bool
	rule     string
	source   string
}{
	{400, 499, ReplyGreylisted, false, "4xx", srcRFC5321Replies},
	{500, 504, ReplyProtocolError, true, "500-504", srcRFC5321Replies},
	{555, 555, ReplyProtocolError, true, "555", srcRFC5321Replies},
	{530, 530, ReplyBlocked, false, "530", srcRFC4954},
	{551, 551, ReplyMailboxNotFound, false, "551", srcRFC5321User},
	{552, 552, ReplyMailboxFull, false, "552", srcRFC5321Replies},
	{553, 553, ReplyMailboxNotFound, false, "553", srcRFC5321Replies},
	{556, 556, ReplyMailboxNotFound, false, "556", srcRFC7504},
	{500, 599, ReplyUnclassified, false, "5xx", srcRFC5321Replies},
}

// phraseRule is an entry of the phrase table: a lowercase substring of
// the reply text.
type phraseRule struct {
	phrase string
	class  ReplyClass
	rule   string // the phrase, quoted
	source string
}

// phrases is the third part of the reply table, first match wins: the
// sender's faults first, so that a reply naming one is never read as a
// missing mailbox, then the mailbox's states.
var phrases = quotePhrases([]phraseRule{
	{phrase: "cannot find your hostname", class: ReplyNeedsReverseDNS, source: srcPostfixClient},
	{phrase: "cannot find your reverse hostname", class: ReplyNeedsReverseDNS, source: srcPostfixRevClient},
	{phrase: "reverse dns", class: ReplyNeedsReverseDNS, source: srcGoogle},
	{phrase: "ptr record", class: ReplyNeedsReverseDNS, source: srcGoogle},
	{phrase: "pointer (ptr)", class: ReplyNeedsReverseDNS, source: srcGoogle},

	{phrase: "rate limit", class: ReplyRateLimited, source: srcGoogle},
	{phrase: "unusual rate", class: ReplyRateLimited, source: srcGoogle},
	{phrase: "receiving mail too quickly", class: ReplyRateLimited, source: srcGoogle},
	{phrase: "receiving mail at a rate", class: ReplyRateLimited, source: srcGoogle},
	{phrase: "too many connections", class: ReplyRateLimited, source: srcPostfixAnvil},
	{phrase: "unexpected volume", class: ReplyRateLimited, source: srcYahoo},

	{phrase: "relay access denied", class: ReplyRelayDenied, source: srcPostfixRelay},
	{phrase: "relaying denied", class: ReplyRelayDenied, source: srcSendmailRelay},
	{phrase: "relay not permitted", class: ReplyRelayDenied, source: srcEximRelay},
	{phrase: "unable to relay", class: ReplyRelayDenied, source: srcMicrosoftNDR},
	{phrase: "allowed rcpthosts", class: ReplyRelayDenied, source: srcQmail},

	{phrase: "sender address rejected", class: ReplySenderRejected, source: srcPostfixSender},
	{phrase: "sender verify failed", class: ReplySenderRejected, source: srcEximRoute},
	{phrase: "sender domain", class: ReplySenderRejected, source: srcRFC3463Addr},
	{phrase: "helo command rejected", class: ReplySenderRejected, source: srcPostfixHelo},
	{phrase: "unauthenticated", class: ReplySenderRejected, source: srcGoogle},

	{phrase: "blocked using", class: ReplyBlocked, source: srcPostfixRBL},
	{phrase: "black list", class: ReplyBlocked, source: srcEximDNSList},
	{phrase: "blacklist", class: ReplyBlocked, source: srcEximDNSList},
	{phrase: "block list", class: ReplyBlocked, source: srcOutlookConsumer},
	{phrase: "blocklist", class: ReplyBlocked, source: srcOutlookConsumer},
	{phrase: "dnsbl", class: ReplyBlocked, source: srcEximDNSList},
	{phrase: "spamhaus", class: ReplyBlocked, source: srcSpamhaus + "; " + srcYahoo + "; " + srcMicrosoftNDR},
	{phrase: "barracuda", class: ReplyBlocked, source: srcBarracuda},
	{phrase: "spamcop", class: ReplyBlocked, source: srcSpamCop},
	{phrase: "banned sending ip", class: ReplyBlocked, source: srcMicrosoftBanned},
	{phrase: "not accepted from this ip", class: ReplyBlocked, source: srcMicrosoftNDR},
	{phrase: "client host rejected", class: ReplyBlocked, source: srcPostfixClient},
	{phrase: "reputation", class: ReplyBlocked, source: srcGoogle + "; " + srcBarracuda},
	{phrase: "unsolicited", class: ReplyBlocked, source: srcGoogle},
	{phrase: "administratively denied", class: ReplyBlocked, source: srcReacher},

	{phrase: "greylist", class: ReplyGreylisted, source: srcRFC6647},
	{phrase: "graylist", class: ReplyGreylisted, source: srcRFC6647},

	// "disabled" alone also ends refusals of the sender ("Your access to
	// this mail system has been disabled"): the account or mailbox must
	// be named.
	{phrase: "account that you tried to reach is disabled", class: ReplyMailboxDisabled, source: srcGoogle},
	{phrase: "account has been disabled", class: ReplyMailboxDisabled, source: srcYahoo},
	{phrase: "account is disabled", class: ReplyMailboxDisabled, source: srcRFC3463Mailbox},
	{phrase: "account disabled", class: ReplyMailboxDisabled, source: srcRFC3463Mailbox},
	{phrase: "mailbox disabled", class: ReplyMailboxDisabled, source: srcRFC3463Mailbox},
	{phrase: "mailbox is disabled", class: ReplyMailboxDisabled, source: srcRFC3463Mailbox},
	{phrase: "mailbox has been disabled", class: ReplyMailboxDisabled, source: srcRFC3463Mailbox},
	{phrase: "discontinued", class: ReplyMailboxDisabled, source: srcYahoo},

	{phrase: "mailbox full", class: ReplyMailboxFull, source: srcRFC3463Mailbox},
	{phrase: "mailbox is full", class: ReplyMailboxFull, source: srcRFC3463Mailbox},
	{phrase: "over quota", class: ReplyMailboxFull, source: srcGoogle},
	{phrase: "quota exceeded", class: ReplyMailboxFull, source: srcRFC3463Mailbox},
	{phrase: "exceeded storage allocation", class: ReplyMailboxFull, source: srcRFC5321Replies},
	{phrase: "has too many messages", class: ReplyMailboxFull, source: srcReacher},

	{phrase: "does not exist", class: ReplyMailboxNotFound, source: srcGoogle},
	{phrase: "user unknown", class: ReplyMailboxNotFound, source: srcPostfixUnknown},
	{phrase: "unknown user", class: ReplyMailboxNotFound, source: srcReacher},
	{phrase: "no such user", class: ReplyMailboxNotFound, source: srcReacher},
	{phrase: "unknown recipient", class: ReplyMailboxNotFound, source: srcReacher},
	{phrase: "invalid recipient", class: ReplyMailboxNotFound, source: srcMimecast},
	{phrase: "recipient not found", class: ReplyMailboxNotFound, source: srcMicrosoftNDR},
	{phrase: "mailbox not found", class: ReplyMailboxNotFound, source: srcReacher},
	{phrase: "no mailbox here", class: ReplyMailboxNotFound, source: srcReacher},
	{phrase: "not a valid mailbox", class: ReplyMailboxNotFound, source: srcReacher},
	{phrase: "unrouteable address", class: ReplyMailboxNotFound, source: srcEximRoute},
	// RFC 5321's own text for 550, "mailbox unavailable (e.g., mailbox
	// not found, no access, or command rejected for policy reasons)",
	// names no single cause.
	{phrase: "mailbox unavailable", class: ReplyUnclassified, source: srcRFC5321User},
	{phrase: "user doesn't have", class: ReplyMailboxNotFound, source: srcYahoo},
	{phrase: "user doesn\u2019t have", class: ReplyMailboxNotFound, source: srcYahoo},
})

func quotePhrases(rules []phraseRule) []phraseRule {
	for i := range rules {
		rules[i].rule = `"` + rules[i].phrase + `"`
	}
	return rules
}

// structure reads the codes: the enhanced status code enh when there is a
// specific one, else the reply code. specific reports whether the code
// named the class precisely.
func structure(code int, enh, lower string) (r Reply, specific bool) {
	if enh != "" {
		for _, rr := range recipientRules {
			if rr.enhanced == enh && strings.Contains(lower, rr.phrase) {
				return Reply{Class: rr.out, Rule: enh + ` "` + rr.phrase + `"`, Source: rr.source}, true
			}
		}
		class, subject, detail := splitEnhanced(enh)
		if !generic(subject, detail) {
			for _, c := range enhancedRules {
				if c.class == class && (c.subject < 0 || c.subject == subject) && (c.detail < 0 || c.detail == detail) {
					return Reply{Class: c.out, Rule: c.rule, Source: c.source}, c.specific
				}
			}
		}
	}
	for _, b := range basicRules {
		if code >= b.lo && code <= b.hi {
			return Reply{Class: b.out, Rule: b.rule, Source: b.source}, b.specific
		}
	}
	return Reply{Class: ReplyUnclassified, Rule: "5xx", Source: srcRFC5321Replies}, false
}

// generic reports whether an enhanced code says no more than its class
// (RFC 3463: X.0.0 and the "other or undefined" X.Y.0 of the address,
// mailbox, mail system and protocol subjects), or has a subject RFC 3463
// does not define: the reply code then decides.
func generic(subject, detail int) bool {
	if subject > 7 {
		return true
	}
	return detail == 0 && subject != 4 && subject != 6 && subject != 7
}

// findPhrase returns the first entry of the phrase table found in lower,
// a reply text with its ASCII letters lowercased.
func findPhrase(lower string) (phraseRule, bool) {
	for _, p := range phrases {
		if strings.Contains(lower, p.phrase) {
			return p, true
		}
	}
	return phraseRule{}, false
}

// maxPath bounds the <...> span withoutAddresses reads as one path
// (RFC 5321 section 4.5.3.1.3: a path is at most 256 octets).
const maxPath = 256

// withoutAddresses returns lower without the mail addresses it quotes:
// each <...> path with an "@" (RFC 5321 section 4.1.2) and each word with
// an "@", together with the space that follows, so that the words around
// one still read as a phrase ("recipient bob@example.net not found").
func withoutAddresses(lower string) string {
	if strings.IndexByte(lower, '@') < 0 {
		return lower
	}
	b := make([]byte, 0, len(lower))
	for i := 0; i < len(lower); {
		end := -1 // the end of an address starting at i
		if lower[i] == '<' {
			if j := strings.IndexByte(lower[i:min(len(lower), i+maxPath+2)], '>'); j > 0 && strings.IndexByte(lower[i:i+j], '@') > 0 {
				end = i + j + 1
			}
		}
		j := i
		for j < len(lower) && !isSpace(lower[j]) {
			j++
		}
		if end < 0 && strings.IndexByte(lower[i:j], '@') >= 0 {
			end = j
		}
		if end < 0 {
			if j == i {
				j++ // a space
			}
			b = append(b, lower[i:j]...)
			i = j
			continue
		}
		for i = end; i < len(lower) && isSpace(lower[i]); i++ {
		}
	}
	return string(b)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

// lowerASCII lowercases the ASCII letters of s.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// enhancedCode returns the RFC 3463 enhanced status code that opens text
// (RFC 2034 section 4: class "." subject "." detail, one digit then one
// to three digits each, followed by a space or the end), when its class
// is the first digit of code; else "".
func enhancedCode(code int, text string) string {
	if len(text) < 5 || text[1] != '.' || int(text[0]-'0') != code/100 {
		return ""
	}
	i := 2
	for part := 0; part < 2; part++ {
		start := i
		for i < len(text) && i-start < 3 && '0' <= text[i] && text[i] <= '9' {
			i++
		}
		if i == start {
			return ""
		}
		if part == 0 {
			if i >= len(text) || text[i] != '.' {
				return ""
			}
			i++
		}
	}
	if i < len(text) && text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n' {
		return ""
	}
	return text[:i]
}

// splitEnhanced returns the numbers of a code enhancedCode returned.
func splitEnhanced(enh string) (class, subject, detail int) {
	class = int(enh[0] - '0')
	rest := enh[2:]
	dot := strings.IndexByte(rest, '.')
	return class, atoi3(rest[:dot]), atoi3(rest[dot+1:])
}

func atoi3(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
