package email

// Reachability is the verdict on an address, the one field a sender acts
// on: safe, risky, invalid or unknown (see the package documentation for
// the definition and how it differs from Reacher's is_reachable).
type Reachability string

// Verdicts of [ReachabilityOf].
const (
	// ReachabilitySafe: the SMTP probe verified the mailbox, at a domain
	// that is not catch-all, with a provider whose acceptance is
	// evidence; and the address is not disposable, not a role and its
	// mailbox is not full.
	ReachabilitySafe Reachability = "safe"
	// ReachabilityRisky: the address may receive mail but something makes
	// sending to it a risk: see the reasons.
	ReachabilityRisky Reachability = "risky"
	// ReachabilityInvalid: mail to the address would bounce: bad syntax,
	// a domain that takes no mail, or a mailbox the server rejected or
	// reports disabled.
	ReachabilityInvalid Reachability = "invalid"
	// ReachabilityUnknown: nothing proves the address good or bad: not
	// probed, or the probe could not decide.
	ReachabilityUnknown Reachability = "unknown"
)

// Reachabilities returns every Reachability, in the order of the
// constants.
func Reachabilities() []Reachability {
	return []Reachability{ReachabilitySafe, ReachabilityRisky, ReachabilityInvalid, ReachabilityUnknown}
}

// A ReachabilityReason says why a verdict is what it is: one of the
// ReachabilityReason constants.
type ReachabilityReason string

// Reasons of a verdict, by the verdict they lead to.
const (
	// Invalid.
	ReachInvalidSyntax   ReachabilityReason = "invalid_syntax"    // the syntax is invalid (reason says how)
	ReachDomainNotFound  ReachabilityReason = "domain_not_found"  // the domain does not exist
	ReachNullMX          ReachabilityReason = "null_mx"           // the domain publishes a null MX (RFC 7505)
	ReachNoMailServer    ReachabilityReason = "no_mail_server"    // neither MX nor address records
	ReachMailboxNotFound ReachabilityReason = "mailbox_not_found" // the server rejected the mailbox
	ReachMailboxDisabled ReachabilityReason = "mailbox_disabled"  // the server reports the account disabled
	// Risky.
	ReachDisposable           ReachabilityReason = "disposable"            // a disposable-address provider
	ReachRoleAccount          ReachabilityReason = "role_account"          // a role (info@, support@), often a shared inbox
	ReachCatchAll             ReachabilityReason = "catch_all"             // the server accepts any recipient
	ReachCatchAllUnchecked    ReachabilityReason = "catch_all_unchecked"   // accepted, catch-all test switched off
	ReachMailboxFull          ReachabilityReason = "mailbox_full"          // the mailbox exists and is full
	ReachProviderUnverifiable ReachabilityReason = "provider_unverifiable" // accepted by a provider whose acceptance proves nothing
	// Unknown (also given beside risky reasons).
	ReachNotProbed      ReachabilityReason = "not_probed"      // the SMTP probe was not asked for (lists never are)
	ReachProbeUndecided ReachabilityReason = "probe_undecided" // the probe could not decide: smtp.reason says why
	ReachDNSFailed      ReachabilityReason = "dns_failed"      // the MX lookup failed (SERVFAIL, timeout)
	ReachMXNotChecked   ReachabilityReason = "mx_not_checked"  // the MX check was skipped or has no resolver
)

// ReachabilityReasons returns every ReachabilityReason, in the order of
// the constants.
func ReachabilityReasons() []ReachabilityReason {
	return []ReachabilityReason{ReachInvalidSyntax, ReachDomainNotFound, ReachNullMX, ReachNoMailServer,
		ReachMailboxNotFound, ReachMailboxDisabled, ReachDisposable, ReachRoleAccount, ReachCatchAll,
		ReachCatchAllUnchecked, ReachMailboxFull, ReachProviderUnverifiable, ReachNotProbed,
		ReachProbeUndecided, ReachDNSFailed, ReachMXNotChecked}
}

// ReachabilityOf returns the verdict on a validation and the reasons for
// it, from its fields alone (it does no I/O, and ignores the
// Reachability fields v already has):
//
//   - invalid when the syntax or the domain makes the address invalid
//     (reason is set), or the probe's server rejected the mailbox
//     (smtp.status rejected; mailbox_disabled when it said the account is
//     disabled);
//   - safe when the probe verified the mailbox (smtp_verified: a 250 at a
//     domain that is not catch-all, from a provider whose 250 is
//     evidence) and the address is neither disposable nor a role;
//   - risky when the address is disposable or a role, the domain is
//     catch-all, the mailbox is full, the catch-all test was switched
//     off, or the provider's 250 proves nothing (Yahoo, Outlook.com);
//   - unknown otherwise: not probed, or the probe could not decide.
//
// Without the probe nothing is safe: an address that is otherwise fine is
// unknown with reason not_probed, one that is disposable or a role is
// risky with not_probed among its reasons. Safe has no reasons; every
// other verdict has at least one.
func ReachabilityOf(v *Validation) (Reachability, []ReachabilityReason) {
	return judge(&v.Result, v.SMTP, nil)
}

// judge is ReachabilityOf on a result and a probe outcome (nil: not
// probed); the reasons are cut from a (nil: a new slice).
func judge(r *Result, p *SMTPResult, a *reasonArena) (Reachability, []ReachabilityReason) {
	if r.Reason != nil {
		var why ReachabilityReason
		switch *r.Reason {
		case ReasonDomainNotFound:
			why = ReachDomainNotFound
		case ReasonNullMX:
			why = ReachNullMX
		case ReasonNoMailServer:
			why = ReachNoMailServer
		default:
			why = ReachInvalidSyntax
		}
		return ReachabilityInvalid, a.keep(why)
	}
	if p != nil && p.Status == SMTPRejected {
		if p.Disabled {
			return ReachabilityInvalid, a.keep(ReachMailboxDisabled)
		}
		return ReachabilityInvalid, a.keep(ReachMailboxNotFound)
	}
	var buf [5]ReachabilityReason // two flags, a probe reason, a DNS reason
	why := buf[:0]
	if r.IsDisposable {
		why = append(why, ReachDisposable)
	}
	if r.IsRoleAccount {
		why = append(why, ReachRoleAccount)
	}
	verified, undecided := false, false
	switch {
	case p == nil:
	case p.Status == SMTPVerified:
		verified = true
	case p.Status == SMTPCatchAll:
		why = append(why, ReachCatchAll)
	case p.Reason == SMTPMailboxFull:
		why = append(why, ReachMailboxFull)
	case p.Reason == SMTPNoCatchAllCheck:
		why = append(why, ReachCatchAllUnchecked)
	case p.Reason == SMTPProviderUnverifiable:
		why = append(why, ReachProviderUnverifiable)
	default:
		undecided = true
	}
	risky := len(why) > 0
	if verified && !risky {
		return ReachabilitySafe, []ReachabilityReason{}
	}
	switch {
	case p == nil:
		why = append(why, ReachNotProbed)
	case undecided:
		why = append(why, ReachProbeUndecided)
	}
	if r.MX == nil {
		why = append(why, ReachMXNotChecked)
	} else {
		switch r.MX.Status {
		case MXSkipped:
			why = append(why, ReachMXNotChecked)
		case MXServFail, MXTimeout, MXError:
			why = append(why, ReachDNSFailed)
		}
	}
	if risky {
		return ReachabilityRisky, a.keep(why...)
	}
	return ReachabilityUnknown, a.keep(why...)
}

// reasonArenaSize is how many reasons a reasonArena's backing array holds.
const reasonArenaSize = 512

// A reasonArena hands out the reason lists of many results from shared
// backing arrays, so that a list of addresses does not allocate one per
// row; each list is a region of its own (cut to its length and capacity),
// so that changing or appending to one never touches another. Not safe
// for concurrent use: one per goroutine.
type reasonArena struct{ buf []ReachabilityReason }

// keep returns a list holding why, cut from a (nil a: a new slice).
func (a *reasonArena) keep(why ...ReachabilityReason) []ReachabilityReason {
	if a == nil {
		return append([]ReachabilityReason(nil), why...)
	}
	if cap(a.buf)-len(a.buf) < len(why) {
		a.buf = make([]ReachabilityReason, 0, reasonArenaSize)
	}
	start := len(a.buf)
	a.buf = append(a.buf, why...)
	return a.buf[start:len(a.buf):len(a.buf)]
}
