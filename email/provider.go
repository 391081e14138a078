package email

import "strings"

// A Provider is the mailbox provider (or mail gateway) that answers for a
// domain, found from the names of its MX hosts: one of the Provider
// constants. It tells how far the SMTP probe's answer can be trusted; the
// package documentation gives the evidence for each.
type Provider string

// Providers, by the suffix of the MX host name.
const (
	// ProviderGoogle: Gmail and Google Workspace, MX hosts under
	// google.com (smtp.google.com, aspmx.l.google.com) or googlemail.com.
	ProviderGoogle Provider = "google"
	// ProviderMicrosoft365: Exchange Online, MX hosts under
	// mail.protection.outlook.com or mx.microsoft.
	ProviderMicrosoft365 Provider = "microsoft365"
	// ProviderOutlookConsumer: Outlook.com and Hotmail, MX hosts under
	// olc.protection.outlook.com.
	ProviderOutlookConsumer Provider = "outlook_consumer"
	// ProviderYahoo: Yahoo and AOL mail, MX hosts under yahoodns.net.
	ProviderYahoo Provider = "yahoo"
	// ProviderProofpoint: a Proofpoint gateway, MX hosts under
	// pphosted.com or ppe-hosted.com.
	ProviderProofpoint Provider = "proofpoint"
	// ProviderMimecast: a Mimecast gateway, MX hosts under mimecast.com.
	ProviderMimecast Provider = "mimecast"
	// ProviderOther: any other mail server.
	ProviderOther Provider = "other"
)

// Providers returns every Provider, in the order of the constants.
func Providers() []Provider {
	return []Provider{ProviderGoogle, ProviderMicrosoft365, ProviderOutlookConsumer, ProviderYahoo,
		ProviderProofpoint, ProviderMimecast, ProviderOther}
}

// providerSuffixes maps MX host name suffixes to providers; first match
// wins, so that the consumer suffix of Microsoft comes before its
// business one. The package documentation gives the source of each.
var providerSuffixes = []struct {
	suffix   string
	provider Provider
}{
	{".olc.protection.outlook.com", ProviderOutlookConsumer},
	{".mail.protection.outlook.com", ProviderMicrosoft365},
	{".mx.microsoft", ProviderMicrosoft365},
	{".google.com", ProviderGoogle},
	{".googlemail.com", ProviderGoogle},
	{".yahoodns.net", ProviderYahoo},
	{".pphosted.com", ProviderProofpoint},
	{".ppe-hosted.com", ProviderProofpoint},
	{".mimecast.com", ProviderMimecast},
}

// ProviderOf returns the provider of an MX host name (in ASCII; case and
// a final dot are ignored): the provider whose documented host suffix it
// ends with, else ProviderOther. It does no I/O.
func ProviderOf(mxHost string) Provider {
	h := strings.TrimSuffix(mxHost, ".")
	for _, s := range providerSuffixes {
		if hasSuffixFold(h, s.suffix) {
			return s.provider
		}
	}
	return ProviderOther
}

// hasSuffixFold is strings.HasSuffix ignoring ASCII case.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// trust is what a provider's SMTP answer proves.
type trust struct {
	// acceptProves: a 250 for an address is evidence that its mailbox
	// exists (after the catch-all test, unless knownNoCatchAll).
	acceptProves bool
	// skipCatchAll: the catch-all test is not run: it proves nothing
	// there, or it costs the prober the real answer or its reputation.
	skipCatchAll bool
}

// consumerGmail are the domains of Gmail's consumer accounts, at which
// Google rejects unknown recipients (550 5.1.1 "does not exist"): no
// catch-all there, so the catch-all test proves nothing and is skipped.
var consumerGmail = map[string]bool{"gmail.com": true, "googlemail.com": true}

// trustOf returns what the answer of the provider of host proves for an
// address at the ASCII domain, and whether the domain is known to have no
// catch-all.
func trustOf(p Provider, domain string) (t trust, knownNoCatchAll bool) {
	switch p {
	case ProviderYahoo, ProviderOutlookConsumer:
		// Their 250 is no proof, so the catch-all test could prove
		// nothing either.
		return trust{acceptProves: false, skipCatchAll: true}, false
	case ProviderGoogle:
		if consumerGmail[strings.ToLower(domain)] {
			return trust{acceptProves: true, skipCatchAll: true}, true
		}
	}
	return trust{acceptProves: true}, false
}
