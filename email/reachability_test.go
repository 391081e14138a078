package email

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/resolver/resolvertest"
)

func TestReachabilityOf(t *testing.T) {
	syntax, nullMX := ReasonMissingAt, ReasonNullMX
	mx := &MX{Status: MXFound, Hosts: []string{"mx.example.test"}}
	for _, tt := range []struct {
		name  string
		v     Validation
		reach Reachability
		why   []ReachabilityReason
	}{
		{"bad syntax", Validation{Result: Result{Reason: &syntax}}, ReachabilityInvalid, []ReachabilityReason{ReachInvalidSyntax}},
		{"null MX", Validation{Result: Result{Reason: &nullMX, MX: &MX{Status: MXNull}}}, ReachabilityInvalid, []ReachabilityReason{ReachNullMX}},
		{"not probed", Validation{Result: Result{IsValid: true, MX: mx}}, ReachabilityUnknown, []ReachabilityReason{ReachNotProbed}},
		{"not probed, role", Validation{Result: Result{IsValid: true, IsRoleAccount: true, MX: mx}}, ReachabilityRisky, []ReachabilityReason{ReachRoleAccount, ReachNotProbed}},
		{"not probed, MX skipped", Validation{Result: Result{IsValid: true}}, ReachabilityUnknown, []ReachabilityReason{ReachNotProbed, ReachMXNotChecked}},
		{"not probed, SERVFAIL", Validation{Result: Result{IsValid: true, MX: &MX{Status: MXServFail}}}, ReachabilityUnknown, []ReachabilityReason{ReachNotProbed, ReachDNSFailed}},
		{"verified", Validation{Result: Result{IsValid: true, MX: mx}, SMTP: &SMTPResult{Status: SMTPVerified}}, ReachabilitySafe, []ReachabilityReason{}},
		{"verified disposable", Validation{Result: Result{IsValid: true, IsDisposable: true, MX: mx}, SMTP: &SMTPResult{Status: SMTPVerified}}, ReachabilityRisky, []ReachabilityReason{ReachDisposable}},
		{"rejected role", Validation{Result: Result{IsValid: true, IsRoleAccount: true, MX: mx}, SMTP: &SMTPResult{Status: SMTPRejected}}, ReachabilityInvalid, []ReachabilityReason{ReachMailboxNotFound}},
		{"disabled", Validation{Result: Result{IsValid: true, MX: mx}, SMTP: &SMTPResult{Status: SMTPRejected, Disabled: true}}, ReachabilityInvalid, []ReachabilityReason{ReachMailboxDisabled}},
		{"full", Validation{Result: Result{IsValid: true, MX: mx}, SMTP: &SMTPResult{Status: SMTPUnknown, Reason: SMTPMailboxFull, MailboxFull: true}}, ReachabilityRisky, []ReachabilityReason{ReachMailboxFull}},
		{"catch-all", Validation{Result: Result{IsValid: true, MX: mx}, SMTP: &SMTPResult{Status: SMTPCatchAll}}, ReachabilityRisky, []ReachabilityReason{ReachCatchAll}},
		{"catch-all unchecked", Validation{Result: Result{IsValid: true, MX: mx}, SMTP: &SMTPResult{Status: SMTPUnknown, Reason: SMTPNoCatchAllCheck}}, ReachabilityRisky, []ReachabilityReason{ReachCatchAllUnchecked}},
		{"yahoo 250", Validation{Result: Result{IsValid: true, MX: mx}, SMTP: &SMTPResult{Status: SMTPUnknown, Reason: SMTPProviderUnverifiable}}, ReachabilityRisky, []ReachabilityReason{ReachProviderUnverifiable}},
		{"blocked", Validation{Result: Result{IsValid: true, MX: mx}, SMTP: &SMTPResult{Status: SMTPUnknown, Reason: SMTPBlocked}}, ReachabilityUnknown, []ReachabilityReason{ReachProbeUndecided}},
		{"blocked, disposable", Validation{Result: Result{IsValid: true, IsDisposable: true, MX: mx}, SMTP: &SMTPResult{Status: SMTPUnknown, Reason: SMTPBlocked}}, ReachabilityRisky, []ReachabilityReason{ReachDisposable, ReachProbeUndecided}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reach, why := ReachabilityOf(&tt.v)
			if reach != tt.reach || !slices.Equal(why, tt.why) || why == nil {
				t.Errorf("got %s %q, want %s %q", reach, why, tt.reach, tt.why)
			}
		})
	}
}

// Every result carries its verdict: single validations with and without
// the probe, bulk items, stream items and CSV rows.
func TestResultsCarryReachability(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	v := &Verifier{cfg: Config{Resolver: r}}
	ctx := context.Background()
	want := map[string]struct {
		reach Reachability
		why   string
	}{
		"ana@mx.test":         {ReachabilityUnknown, "not_probed"},
		"info@mx.test":        {ReachabilityRisky, "role_account;not_probed"},
		"a@mailinator.com":    {ReachabilityInvalid, "domain_not_found"}, // not in the loopback zone
		"a@nullmx.test":       {ReachabilityInvalid, "null_mx"},
		"a@missing.test":      {ReachabilityInvalid, "domain_not_found"},
		"not an address":      {ReachabilityInvalid, "invalid_syntax"},
		"a@implicit.test":     {ReachabilityUnknown, "not_probed"},
		"admin@implicit.test": {ReachabilityRisky, "role_account;not_probed"},
	}
	var addrs []string
	for a := range want {
		addrs = append(addrs, a)
	}
	slices.Sort(addrs)
	check := func(where, addr string, res *Result) {
		t.Helper()
		w := want[addr]
		if got := joinReasons(res.ReachabilityReasons); res.Reachability != w.reach || got != w.why {
			t.Errorf("%s %s: %s %s, want %s %s", where, addr, res.Reachability, got, w.reach, w.why)
		}
		if reach, why := judge(res, nil, nil); reach != res.Reachability || !slices.Equal(why, res.ReachabilityReasons) {
			t.Errorf("%s %s: fields %s %q disagree with ReachabilityOf %s %q", where, addr, res.Reachability, res.ReachabilityReasons, reach, why)
		}
	}
	for _, a := range addrs {
		res := v.Validate(ctx, a, Checks{})
		check("Validate", a, &res.Result)
	}
	bulk, err := v.ValidateBulk(ctx, BulkRequest{Emails: addrs})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range bulk.Results {
		check("ValidateBulk", it.Input, &it.Result)
	}
	for it, err := range v.ValidateStream(ctx, slices.Values(addrs), StreamOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		check("ValidateStream", it.Input, &it.Result)
	}
	var in, out bytes.Buffer
	in.WriteString("email\n")
	for _, a := range addrs {
		in.WriteString(`"` + a + "\"\n")
	}
	if _, err := v.VerifyCSV(ctx, &in, &out, StreamOptions{}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if h := recs[0]; h[len(h)-2] != "reachability" || h[len(h)-1] != "reachability_reasons" {
		t.Fatalf("header %q", h)
	}
	for _, rec := range recs[1:] {
		w := want[rec[0]]
		if got := rec[len(rec)-2:]; got[0] != string(w.reach) || got[1] != w.why {
			t.Errorf("VerifyCSV %s: %q, want %s %s", rec[0], got, w.reach, w.why)
		}
	}
	// The JSON of a verdict without reasons is an empty list, not null.
	b, _ := json.Marshal(Result{Reachability: ReachabilitySafe, ReachabilityReasons: []ReachabilityReason{}})
	if !strings.Contains(string(b), `"reachability":"safe","reachability_reasons":[]`) {
		t.Errorf("JSON %s", b)
	}
	if res := v.Validate(ctx, "ana@mx.test", Checks{}); res.MailboxProvider != ProviderOther {
		t.Errorf("mailbox_provider %q", res.MailboxProvider)
	}
}

// MaxCSVResultBytes bounds the result columns of any row, beyond the two
// that repeat the address.
func TestMaxCSVResultBytes(t *testing.T) {
	longest := func(vals []string) int {
		n := 0
		for _, v := range vals {
			n = max(n, len(v))
		}
		return n
	}
	var reasons []string
	for _, r := range Reasons() {
		reasons = append(reasons, string(r))
	}
	var mx []string
	for _, m := range MXStatuses() {
		mx = append(mx, string(m))
	}
	var verdicts []string
	for _, r := range Reachabilities() {
		verdicts = append(verdicts, string(r))
	}
	// The most reasons a verdict can have: two flags, one probe reason
	// and one DNS reason.
	worst := 0
	for _, a := range []ReachabilityReason{ReachDisposable, ReachRoleAccount} {
		worst += len(a) + 1
	}
	var probe, dns []string
	for _, r := range []ReachabilityReason{ReachCatchAll, ReachCatchAllUnchecked, ReachMailboxFull, ReachProviderUnverifiable, ReachNotProbed, ReachProbeUndecided} {
		probe = append(probe, string(r))
	}
	for _, r := range []ReachabilityReason{ReachDNSFailed, ReachMXNotChecked} {
		dns = append(dns, string(r))
	}
	worst += longest(probe) + 1 + longest(dns)
	n := 5*len("false") + longest(reasons) + longest(mx) + longest(verdicts) + worst +
		len(csvResultHeader) + len("\r\n") // a comma before each column, and the line end
	if n > MaxCSVResultBytes {
		t.Errorf("the result columns take up to %d bytes, over MaxCSVResultBytes (%d)", n, MaxCSVResultBytes)
	}
	t.Logf("result columns: at most %d bytes (bound %d)", n, MaxCSVResultBytes)
}

func FuzzReachabilityOf(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0), false, false, false, false)
	f.Add(uint8(1), uint8(2), uint8(3), uint8(4), true, true, true, true)
	statuses := []SMTPStatus{"", SMTPVerified, SMTPRejected, SMTPCatchAll, SMTPUnknown}
	reasons := []SMTPReason{"", SMTPGreylisted, SMTPBlocked, SMTPMailboxFull, SMTPNoCatchAllCheck, SMTPProviderUnverifiable, SMTPTimeout, SMTPUnclassified}
	mxs := []MXStatus{"", MXFound, MXImplicit, MXNull, MXNone, MXNXDomain, MXServFail, MXTimeout, MXError, MXSkipped, MXLiteral}
	invalids := []Reason{"", ReasonMissingAt, ReasonNullMX, ReasonDomainNotFound, ReasonNoMailServer}
	known := map[ReachabilityReason]bool{}
	for _, r := range ReachabilityReasons() {
		known[r] = true
	}
	f.Fuzz(func(t *testing.T, status, reason, mx, invalid uint8, disposable, role, disabled, full bool) {
		var v Validation
		v.IsDisposable, v.IsRoleAccount = disposable, role
		if m := mxs[int(mx)%len(mxs)]; m != "" {
			v.MX = &MX{Status: m}
		}
		if r := invalids[int(invalid)%len(invalids)]; r != "" {
			v.Reason = &r
		} else {
			v.IsValid = true
		}
		if s := statuses[int(status)%len(statuses)]; s != "" {
			v.SMTP = &SMTPResult{Status: s, Reason: reasons[int(reason)%len(reasons)], Disabled: disabled, MailboxFull: full}
			v.SMTPVerified = s == SMTPVerified
		}
		reach, why := ReachabilityOf(&v)
		if why == nil || (reach == ReachabilitySafe) != (len(why) == 0) {
			t.Fatalf("%+v: %s with reasons %q", v, reach, why)
		}
		for _, r := range why {
			if !known[r] {
				t.Fatalf("unknown reason %q", r)
			}
		}
		switch reach {
		case ReachabilitySafe:
			if v.SMTP == nil || v.SMTP.Status != SMTPVerified || disposable || role || v.Reason != nil {
				t.Fatalf("%+v %+v: safe", v, v.SMTP)
			}
		case ReachabilityInvalid:
			if v.Reason == nil && (v.SMTP == nil || v.SMTP.Status != SMTPRejected) {
				t.Fatalf("%+v: invalid without a reason or a rejection", v)
			}
		case ReachabilityRisky, ReachabilityUnknown:
			if v.Reason != nil || v.SMTP != nil && v.SMTP.Status == SMTPRejected {
				t.Fatalf("%+v: %s despite a rejection", v, reach)
			}
		default:
			t.Fatalf("verdict %q", reach)
		}
		if v.SMTP == nil && reach == ReachabilitySafe {
			t.Fatal("safe without the probe")
		}
		if again, why2 := ReachabilityOf(&v); again != reach || !slices.Equal(why, why2) {
			t.Fatal("not deterministic")
		}
	})
}

// The reasons of the rows of a list share backing arrays, but each row's
// list is its own: changing or appending to one leaves the others.
func TestReasonListsDoNotAlias(t *testing.T) {
	v := &Verifier{}
	res, err := v.ValidateBulk(context.Background(), BulkRequest{Emails: []string{"a@example.test", "b@example.test", "info@example.test"}})
	if err != nil {
		t.Fatal(err)
	}
	first := res.Results[0].ReachabilityReasons
	if cap(first) != len(first) {
		t.Fatalf("cap %d, len %d: an append would reach the next row", cap(first), len(first))
	}
	first[0] = ReachDisposable
	_ = append(first, ReachCatchAll)
	if got := joinReasons(res.Results[1].ReachabilityReasons); got != "not_probed;mx_not_checked" {
		t.Errorf("second row %q", got)
	}
	if got := joinReasons(res.Results[2].ReachabilityReasons); got != "role_account;not_probed;mx_not_checked" {
		t.Errorf("third row %q", got)
	}
	var a reasonArena
	for i := range reasonArenaSize + 3 { // across a new backing array
		why := a.keep(ReachNotProbed, ReachDNSFailed)
		if len(why) != 2 || cap(why) != 2 || why[1] != ReachDNSFailed {
			t.Fatalf("list %d: %q cap %d", i, why, cap(why))
		}
	}
}
