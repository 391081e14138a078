package email

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// replyCorpus are SMTP replies of the kinds mail servers send, written for
// these tests after the documents the reply table cites (the addresses
// and IP addresses are documentation ones): each with the class it must
// be read as.
var replyCorpus = []struct {
	name string
	code int
	text string
	want ReplyClass
}{
	// Accepted, whatever the text says.
	{"accepted", 250, "2.1.5 Ok", ReplyAccepted},
	{"accepted forwarded", 251, "User not local; will forward to <ana@example.org>", ReplyAccepted},
	{"accepted with scary text", 250, "2.1.5 recipient ok, not blocked using anything", ReplyAccepted},

	// The address does not exist (RFC 3463 X.1.x, provider texts).
	{"gmail no such account", 550, "5.1.1 The email account that you tried to reach does not exist. Please check the\n5.1.1 recipient's address for typos. - gsmtp", ReplyMailboxNotFound},
	{"postfix local recipient table", 550, "5.1.1 <bob@example.net>: Recipient address rejected: User unknown in local recipient table", ReplyMailboxNotFound},
	{"postfix virtual table", 550, "5.1.1 <bob@example.net>: Recipient address rejected: User unknown in virtual mailbox table", ReplyMailboxNotFound},
	{"microsoft resolver", 550, "5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient bob@example.net not found by SMTP address lookup", ReplyMailboxNotFound},
	// The echoed address is not read: its words are not the server's.
	{"echoed address at a blocklist's domain", 550, "5.1.1 <nobody@spamhaus.org>: Recipient address rejected: User unknown", ReplyMailboxNotFound},
	{"echoed address with a blaming word", 550, "5.1.1 <reputation@example.net>: Recipient address rejected: User unknown in virtual mailbox table", ReplyMailboxNotFound},
	{"echoed address, no brackets", 550, "x@blocklist.de... User unknown", ReplyMailboxNotFound},
	{"echoed address inside the phrase", 550, "Recipient bob@example.net not found by SMTP address lookup", ReplyMailboxNotFound},
	{"microsoft dbeb", 550, "5.4.1 Recipient address rejected: Access denied. AS(201806281) [XX0PR01MB0001.eurprd01.prod.outlook.com]", ReplyMailboxNotFound},
	{"bad destination system", 550, "5.1.2 Host unknown: no such domain at this server", ReplyMailboxNotFound},
	{"bad mailbox syntax", 501, "5.1.3 Bad recipient address syntax", ReplyMailboxNotFound},
	{"mailbox moved", 550, "5.1.6 Recipient mailbox has moved, no forwarding address", ReplyMailboxNotFound},
	{"null mx recipient", 556, "5.1.10 Recipient address has null MX", ReplyMailboxNotFound},
	{"no enhanced, user unknown", 550, "<bob@example.net>... User unknown", ReplyMailboxNotFound},
	{"no enhanced, no such user", 550, "No Such User Here", ReplyMailboxNotFound},
	{"mimecast invalid recipient", 550, "Invalid Recipient - https://community.mimecast.com/docs", ReplyMailboxNotFound},
	{"exim unrouteable", 550, "Unrouteable address", ReplyMailboxNotFound},
	{"yahoo no account", 554, "delivery error: dd This user doesn't have a yahoo.com account (bob@yahoo.com) [0] - mta1001.mail.ne1.yahoo.com", ReplyMailboxNotFound},
	{"yahoo no account, typographic apostrophe", 554, "delivery error: dd This user doesn\u2019t have a example.com account", ReplyMailboxNotFound},
	{"552 with a not-found text", 552, "1 Requested mail action aborted, mailbox not found", ReplyMailboxNotFound},
	{"user not local", 551, "User not local; please try <bob@example.org>", ReplyMailboxNotFound},
	{"553 mailbox name", 553, "Requested action not taken: mailbox name not allowed", ReplyMailboxNotFound},
	{"generic 5.1.0 with unknown recipient", 550, "5.1.0 Unknown recipient", ReplyMailboxNotFound},

	// Disabled mailboxes.
	{"gmail disabled", 550, "5.2.1 The email account that you tried to reach is disabled. - gsmtp", ReplyMailboxDisabled},
	{"gmail disabled, no enhanced code", 550, "The email account that you tried to reach is disabled.", ReplyMailboxDisabled},
	{"yahoo disabled", 554, "delivery error: dd Sorry your message to ana@yahoo.com cannot be delivered. This account has been disabled or discontinued [#102].", ReplyMailboxDisabled},
	{"disabled, 5.2.0", 550, "5.2.0 Mailbox disabled, not accepting messages", ReplyMailboxDisabled},

	// Full mailboxes: the mailbox exists.
	{"gmail over quota, permanent", 552, "5.2.2 The email account that you tried to reach is over quota. - gsmtp", ReplyMailboxFull},
	{"gmail over quota, temporary", 452, "4.2.2 The email account that you tried to reach is over quota. - gsmtp", ReplyMailboxFull},
	{"mailbox full, enhanced", 552, "5.2.2 Mailbox full", ReplyMailboxFull},
	{"mailbox full, basic code only", 552, "Requested mail action aborted: exceeded storage allocation", ReplyMailboxFull},
	{"too many messages", 550, "user has too many messages on the server", ReplyMailboxFull},
	{"quota exceeded without code", 452, "Mail quota exceeded for bob@example.net", ReplyMailboxFull},

	// Blocklists and reputation: never the address's fault.
	{"postfix rbl at rcpt", 554, "5.7.1 Service unavailable; Client host [192.0.2.25] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/192.0.2.25", ReplyBlocked},
	{"postfix rbl without enhanced code", 554, "Service unavailable; Client host [192.0.2.25] blocked using bl.spamcop.net", ReplyBlocked},
	{"barracuda", 554, "Service unavailable; Client host [192.0.2.25] blocked using Barracuda Reputation; http://www.barracudanetworks.com/reputation/", ReplyBlocked},
	{"exim black list", 550, "rejected because 192.0.2.25 is in a black list at b.barracudacentral.org", ReplyBlocked},
	{"yahoo BL21", 553, "5.7.1 [BL21] Connections will not be accepted from 192.0.2.25, because the ip is in Spamhaus's list; see https://senders.yahooinc.com/smtp-error-codes", ReplyBlocked},
	{"microsoft banned ip", 550, "5.7.606 Access denied, banned sending IP [192.0.2.25]. To request removal from this list please visit https://sender.office.com/", ReplyBlocked},
	{"microsoft traffic not accepted", 550, "5.7.708 Access denied, traffic not accepted from this IP.", ReplyBlocked},
	{"microsoft spamhaus", 550, "5.7.1 Service unavailable, Client host [192.0.2.25] blocked using Spamhaus. To request removal from this list see https://www.spamhaus.org/query/lookup/", ReplyBlocked},
	{"outlook.com block list", 550, "SC-001 (XXX0-MC1) Unfortunately, messages from 192.0.2.25 weren't sent. Please contact your Internet service provider since part of their network is on our block list.", ReplyBlocked},
	{"gmail low reputation", 550, "5.7.1 Our system has detected that this message is likely unsolicited mail. To reduce the amount of spam sent to Gmail, this message has been blocked. - gsmtp", ReplyBlocked},
	{"gmail ip reputation", 550, "5.7.1 The IP you're using to send mail is not authorized to send email directly to our servers. - gsmtp", ReplyBlocked},
	{"administratively denied", 553, "sorry, mail from your location [192.0.2.25] is administratively denied (#5.7.1)", ReplyBlocked},
	{"mimecast reputation", 550, "Poor Reputation Sender. - https://community.mimecast.com/docs", ReplyBlocked},
	{"proofpoint reputation", 550, "5.7.0 Mail from 192.0.2.25 refused by Proofpoint Reputation Services", ReplyBlocked},
	{"postfix client access", 554, "5.7.1 <unknown[192.0.2.25]>: Client host rejected: Access denied", ReplyBlocked},
	{"recipient policy", 554, "5.7.1 <bob@example.net>: Recipient address rejected: Access denied", ReplyBlocked},
	{"auth required", 530, "5.7.0 Authentication required", ReplyBlocked},
	{"auth required, no enhanced code", 530, "Authentication required", ReplyBlocked},
	{"blocklist beats user unknown", 550, "5.1.1 <bob@example.net>: User unknown; and your IP is on the Spamhaus blocklist", ReplyBlocked},
	{"blocklist with a full code", 552, "5.2.2 blocked using dnsbl.example.org", ReplyBlocked},
	{"temporary blocklist", 451, "4.7.1 Service unavailable; Client host [192.0.2.25] blocked using dnsbl.example.org", ReplyBlocked},
	{"tss04", 421, "4.7.0 [TSS04] Messages from 192.0.2.25 temporarily deferred due to unexpected volume or user complaints", ReplyRateLimited},

	// Reverse DNS.
	{"postfix unknown client", 450, "4.7.25 Client host rejected: cannot find your hostname, [192.0.2.25]", ReplyNeedsReverseDNS},
	{"postfix unknown client, 4.7.1", 450, "4.7.1 Client host rejected: cannot find your hostname, [192.0.2.25]", ReplyNeedsReverseDNS},
	{"postfix reverse hostname, permanent", 550, "5.7.1 Client host rejected: cannot find your reverse hostname, [192.0.2.25]", ReplyNeedsReverseDNS},
	{"gmail ptr", 550, "5.7.25 The IP address sending this message does not have a PTR record setup, or the corresponding forward DNS entry does not point to the sending IP. - gsmtp", ReplyNeedsReverseDNS},
	{"gmail ptr temporary", 421, "4.7.23 The sending IP does not match the IP address of the hostname specified in the pointer (PTR) record. - gsmtp", ReplyNeedsReverseDNS},
	{"reverse dns without code", 550, "We do not accept mail from hosts without reverse DNS", ReplyNeedsReverseDNS},

	// Rate.
	{"gmail unusual rate", 421, "4.7.28 Our system has detected an unusual rate of unsolicited mail originating from your IP address. - gsmtp", ReplyRateLimited},
	{"gmail recipient rate", 450, "4.2.1 The user you are trying to contact is receiving mail too quickly. Please resend your message at a later time. - gsmtp", ReplyRateLimited},
	{"gmail recipient rate, other text", 450, "4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered. - gsmtp", ReplyRateLimited},
	{"postfix anvil", 421, "4.7.0 mx.example.net Error: too many connections from 192.0.2.25", ReplyRateLimited},
	{"permanent rate limit", 550, "5.7.1 Rate limit exceeded for 192.0.2.25", ReplyRateLimited},

	// Relay policy.
	{"postfix relay", 554, "5.7.1 <bob@example.net>: Relay access denied", ReplyRelayDenied},
	{"postfix relay, no enhanced code", 554, "<bob@example.net>: Relay access denied", ReplyRelayDenied},
	{"sendmail relaying denied", 550, "5.7.1 <bob@example.net>... Relaying denied", ReplyRelayDenied},
	{"exim relay", 550, "relay not permitted", ReplyRelayDenied},
	{"qmail rcpthosts", 553, "sorry, that domain isn't in my list of allowed rcpthosts (#5.7.1)", ReplyRelayDenied},
	{"microsoft unable to relay", 550, "5.7.54 SMTP; Unable to relay recipient in non-accepted domain", ReplyRelayDenied},
	{"temporary relay", 454, "4.7.1 <bob@example.net>: Relay access denied", ReplyRelayDenied},

	// The envelope sender or our identity.
	{"bad sender address", 553, "5.1.7 The sender address is malformed", ReplySenderRejected},
	{"bad sender domain", 553, "5.1.8 <probe@nowhere.example>: Sender address rejected: Domain not found", ReplySenderRejected},
	{"spf failed", 550, "5.7.23 SPF validation failed", ReplySenderRejected},
	{"gmail unauthenticated", 550, "5.7.26 This mail is unauthenticated, which poses a security risk to the sender and Gmail users. - gsmtp", ReplySenderRejected},
	{"sender null mx", 550, "5.7.27 Sender address has null MX", ReplySenderRejected},
	{"postfix sender, no enhanced", 450, "<probe@nowhere.example>: Sender address rejected: Domain not found", ReplySenderRejected},
	{"helo rejected", 504, "5.5.2 <localhost>: Helo command rejected: need fully-qualified hostname", ReplySenderRejected},
	{"exim sender verify", 550, "Sender verify failed", ReplySenderRejected},
	{"sender domain does not exist", 550, "Sender domain does not exist", ReplySenderRejected},

	// Temporary failures.
	{"postgrey", 450, "4.2.0 <bob@example.net>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/example.net.html", ReplyGreylisted},
	{"greylisting 4.7.1", 451, "4.7.1 Greylisting in action, please come back later", ReplyGreylisted},
	{"server busy", 421, "4.4.5 Server busy, try again later.", ReplyGreylisted},
	{"temporary local error", 451, "4.3.0 Mail server temporarily rejected message.", ReplyGreylisted},
	{"temporary user unknown", 450, "4.1.1 <bob@example.net>: Recipient address rejected: User unknown in local recipient table", ReplyGreylisted},
	{"temporary disabled", 450, "Mailbox disabled for a while", ReplyGreylisted},

	// Protocol.
	{"syntax error", 501, "5.5.4 Syntax error in parameters", ReplyProtocolError},
	{"bad sequence", 503, "Bad sequence of commands", ReplyProtocolError},
	{"not a final code", 354, "Start mail input", ReplyProtocolError},
	{"out of range", 999, "what", ReplyProtocolError},
	{"zero", 0, "", ReplyProtocolError},

	// Refusals that name nothing readable.
	{"bare 550", 550, "Rejected", ReplyUnclassified},
	// RFC 5321's 550 text: "mailbox not found, no access, or command
	// rejected for policy reasons".
	{"generic 5.0.0 mailbox unavailable", 550, "5.0.0 Requested action not taken: mailbox unavailable", ReplyUnclassified},
	{"outlook.com generic protocol code", 550, "5.5.0 Requested action not taken: mailbox unavailable (S2017062302)", ReplyUnclassified},
	{"access disabled", 554, "Your access to this mail system has been disabled", ReplyUnclassified},
	{"service disabled for the client", 550, "Service disabled for your IP address", ReplyUnclassified},
	{"bare 554", 554, "5.0.0 Transaction failed", ReplyUnclassified},
	{"network", 550, "5.4.4 Unable to route", ReplyUnclassified},
	{"system", 550, "5.3.2 System not accepting network messages", ReplyUnclassified},
	{"message too long", 552, "5.2.3 Message length exceeds administrative limit", ReplyUnclassified},
	{"enhanced code of another class", 550, "4.1.1 no such user", ReplyMailboxNotFound},
}

func TestClassifyReplyCorpus(t *testing.T) {
	for _, tt := range replyCorpus {
		t.Run(tt.name, func(t *testing.T) {
			r := ClassifyReply(tt.code, tt.text)
			if r.Class != tt.want {
				t.Errorf("ClassifyReply(%d, %q) = %+v; want %s", tt.code, tt.text, r, tt.want)
			}
			if r.Rule == "" || r.Source == "" {
				t.Errorf("no rule or source: %+v", r)
			}
		})
	}
}

func TestClassifyReplyEnhancedCode(t *testing.T) {
	for _, tt := range []struct {
		code       int
		text, want string
	}{
		{550, "5.1.1 no such user", "5.1.1"},
		{550, "5.1.10 recipient not found", "5.1.10"},
		{550, "5.100.100", "5.100.100"},
		{550, "5.1000.1 x", ""}, // a subject has at most three digits
		{550, "4.1.1 contradicts the reply code", ""},
		{550, "5.1. missing detail", ""},
		{550, "5.1.1x glued to a word", ""},
		{550, "5.1.1\nsecond line", "5.1.1"},
		{450, "4.7.1 greylisted", "4.7.1"},
		{250, "2.1.5 Ok", "2.1.5"},
		{550, "", ""},
		{550, "User unknown (#5.1.1)", ""}, // not where RFC 2034 puts it
	} {
		if got := ClassifyReply(tt.code, tt.text).Enhanced; got != tt.want {
			t.Errorf("ClassifyReply(%d, %q).Enhanced = %q, want %q", tt.code, tt.text, got, tt.want)
		}
	}
}

// Every class is reached by the corpus, every rule of the table has a
// source and is exercised by the corpus.
func TestReplyTableCovered(t *testing.T) {
	seen := map[ReplyClass]bool{}
	rules := map[string]bool{}
	for _, tt := range replyCorpus {
		r := ClassifyReply(tt.code, tt.text)
		seen[r.Class] = true
		rules[r.Rule] = true
	}
	for _, c := range ReplyClasses() {
		if !seen[c] {
			t.Errorf("no corpus reply is read as %s", c)
		}
	}
	for _, p := range phrases {
		if p.source == "" || p.phrase != strings.ToLower(p.phrase) {
			t.Errorf("phrase %q: source %q", p.phrase, p.source)
		}
	}
	for _, c := range enhancedRules {
		if c.source == "" {
			t.Errorf("rule %s has no source", c.rule)
		}
	}
}

// The package documentation shows the whole table: every rule, with its
// source.
func TestReplyTableDocumented(t *testing.T) {
	doc := packageDoc(t)
	for _, p := range phrases {
		if !strings.Contains(doc, p.rule) {
			t.Errorf("the package documentation does not list the phrase %s", p.rule)
		}
	}
	for _, c := range enhancedRules {
		if !strings.Contains(doc, c.rule) {
			t.Errorf("the package documentation does not list %s", c.rule)
		}
	}
	for _, b := range basicRules {
		if !strings.Contains(doc, b.rule) {
			t.Errorf("the package documentation does not list %s", b.rule)
		}
	}
}

func FuzzClassifyReply(f *testing.F) {
	for _, tt := range replyCorpus {
		f.Add(tt.code, tt.text)
	}
	f.Add(550, strings.Repeat("a", 5000)+"user unknown")
	f.Add(250, "5.1.1 user unknown")
	f.Fuzz(func(t *testing.T, code int, text string) {
		r := ClassifyReply(code, text)
		if r.Class == "" || r.Rule == "" || r.Source == "" {
			t.Fatalf("ClassifyReply(%d, %q) = %+v: incomplete", code, text, r)
		}
		valid := false
		for _, c := range ReplyClasses() {
			valid = valid || c == r.Class
		}
		if !valid {
			t.Fatalf("class %q is not a ReplyClass", r.Class)
		}
		if code >= 200 && code <= 299 && r.Class != ReplyAccepted {
			t.Fatalf("ClassifyReply(%d, %q) = %s: a 2xx reply read as a refusal", code, text, r.Class)
		}
		if (code < 200 || code > 299) && r.Class == ReplyAccepted {
			t.Fatalf("ClassifyReply(%d, %q) accepted", code, text)
		}
		if code >= 400 && code <= 499 && (r.Class == ReplyMailboxNotFound || r.Class == ReplyMailboxDisabled) {
			t.Fatalf("ClassifyReply(%d, %q) = %s: a temporary reply read as a missing mailbox", code, text, r.Class)
		}
		if r.Enhanced != "" && !strings.HasPrefix(text, r.Enhanced) {
			t.Fatalf("enhanced code %q is not the start of %q", r.Enhanced, text)
		}
		if !utf8.ValidString(r.Rule) {
			t.Fatalf("rule %q", r.Rule)
		}
	})
}

// packageDoc returns the package documentation's source.
func packageDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
