package email

import (
	"context"
	"strings"
	"sync"

	"github.com/quiverkit/quiver/envelope"
)

// MaxBatch is the most addresses or domains one bulk request may carry.
const MaxBatch = 500

// BulkRequest is the body of POST /v1/email/bulk/validate.
type BulkRequest struct {
	// Emails are the addresses to validate, 1 to 500.
	Emails []string `json:"emails" openapi:"required"`
	// CheckMX looks up the MX records of each distinct domain. Default true.
	CheckMX *bool `json:"check_mx,omitempty"`
	// CheckDisposable checks the disposable list. Default true.
	CheckDisposable *bool `json:"check_disposable,omitempty"`
	// CheckRoleAccount checks the role list. Default true.
	CheckRoleAccount *bool `json:"check_role_account,omitempty"`
}

func isFalse(b *bool) bool { return b != nil && !*b }

// BulkItem is the result for one address of a bulk validation: the input
// as sent and the fields of [Result].
type BulkItem struct {
	// Input is the address as sent.
	Input string `json:"input"`
	Result
}

// DuplicateKey is the identity by which a bulk summary counts
// duplicates: the normalized address, or the input trimmed of spaces
// when its syntax is invalid. Two items repeat each other when their keys
// are equal.
func (it *BulkItem) DuplicateKey() string {
	r := &it.Result
	switch {
	case r.Email != nil:
		return "\x00" + *r.Email
	case r.LocalPart != nil && r.Domain != nil:
		return "\x00" + *r.LocalPart + "@" + *r.Domain
	}
	return strings.TrimSpace(it.Input)
}

// Summary counts the results of a bulk validation.
type Summary struct {
	// Total is the number of addresses.
	Total int `json:"total"`
	// Valid is the number of valid addresses.
	Valid int `json:"valid"`
	// Invalid is the number of invalid addresses.
	Invalid int `json:"invalid"`
	// Disposable is the number of addresses at disposable domains.
	Disposable int `json:"disposable"`
	// RoleAccounts is the number of role addresses.
	RoleAccounts int `json:"role_accounts"`
	// DomainsWithMX is the number of distinct domains with MX records.
	DomainsWithMX int `json:"domains_with_mx"`
	// Duplicates is the number of addresses that repeat an earlier one
	// after normalization (an invalid input repeats when equal after
	// trimming).
	Duplicates int `json:"duplicates"`
}

// BulkResult is the data of a bulk validation.
type BulkResult struct {
	// Results are in the order of the input.
	Results []BulkItem `json:"results"`
	// Summary counts them.
	Summary Summary `json:"summary"`
}

// checkBatch validates the size of a list field.
func checkBatch(field string, n int) error {
	switch {
	case n == 0:
		return envelope.Invalidf(field, "is required: 1 to %d items", MaxBatch)
	case n > MaxBatch:
		return envelope.Invalidf(field, "has %d items; at most %d are allowed", n, MaxBatch)
	}
	return nil
}

// ValidateBulk validates 1 to 500 addresses. Each distinct domain is
// looked up once, with at most Concurrency lookups at a time; the results
// come in input order with the summary. Invalid addresses are results,
// not errors: the error is a validation error about the request itself.
func (v *Verifier) ValidateBulk(ctx context.Context, req BulkRequest) (BulkResult, error) {
	if err := checkBatch("emails", len(req.Emails)); err != nil {
		return BulkResult{}, err
	}
	c := Checks{SkipMX: isFalse(req.CheckMX), SkipDisposable: isFalse(req.CheckDisposable), SkipRole: isFalse(req.CheckRoleAccount)}
	return v.bulk(ctx, req.Emails, c), nil
}

func (v *Verifier) bulk(ctx context.Context, inputs []string, c Checks) BulkResult {
	out := BulkResult{Results: make([]BulkItem, len(inputs))}
	addrs := make([]Address, len(inputs))
	var domains []string
	seenDomain := map[string]bool{}
	for i, in := range inputs {
		addrs[i], out.Results[i].Result = v.check(in, c)
		out.Results[i].Input = in
		if out.Results[i].Reason == nil && !addrs[i].Literal && !seenDomain[addrs[i].ASCIIDomain] {
			seenDomain[addrs[i].ASCIIDomain] = true
			domains = append(domains, addrs[i].ASCIIDomain)
		}
	}
	var mx map[string]MX
	if !c.SkipMX {
		mx = v.mxAll(ctx, domains)
	}

	seen := map[string]bool{}
	withMX := map[string]bool{}
	var reasons reasonArena
	s := &out.Summary
	for i := range out.Results {
		r := &out.Results[i].Result
		if r.Reason == nil && !c.SkipMX {
			m := mx[addrs[i].ASCIIDomain]
			if addrs[i].Literal {
				m = v.lookupMX(ctx, addrs[i])
			}
			r.applyMX(&m, m.provider())
			if m.Status == MXFound {
				withMX[addrs[i].ASCIIDomain] = true
			}
		}
		r.setReachability(nil, &reasons)
		key := out.Results[i].DuplicateKey()
		if seen[key] {
			s.Duplicates++
		}
		seen[key] = true
		tally{&s.Total, &s.Valid, &s.Invalid, &s.Disposable, &s.RoleAccounts}.add(r)
	}
	s.DomainsWithMX = len(withMX)
	return out
}

// tally is the one counter of results that a bulk [Summary] and the
// [StreamStats] of a stream share, over their own fields.
type tally struct{ total, valid, invalid, disposable, role *int }

// add counts r.
func (t tally) add(r *Result) {
	*t.total++
	if r.IsValid {
		*t.valid++
	} else {
		*t.invalid++
	}
	if r.IsDisposable {
		*t.disposable++
	}
	if r.IsRoleAccount {
		*t.role++
	}
}

// mxAll looks up the MX of each domain, at most Concurrency at once.
func (v *Verifier) mxAll(ctx context.Context, domains []string) map[string]MX {
	out := make(map[string]MX, len(domains))
	var mu sync.Mutex
	forEach(len(domains), v.concurrency(), func(i int) {
		m := v.domainMX(ctx, domains[i])
		mu.Lock()
		out[domains[i]] = m
		mu.Unlock()
	})
	return out
}

// forEach calls fn(0..n-1) on at most limit goroutines.
func forEach(n, limit int, fn func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(n, limit) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// ListRequest is the body of the disposable and role-account checks.
type ListRequest struct {
	// Emails are the addresses to classify, 1 to 500.
	Emails []string `json:"emails" openapi:"required"`
}

// DisposableItem classifies one address.
type DisposableItem struct {
	// Input is the address as sent.
	Input string `json:"input"`
	// Email is the normalized address; null when its syntax is invalid.
	Email *string `json:"email"`
	// Domain is the normalized domain; null when the syntax is invalid.
	Domain *string `json:"domain"`
	// IsDisposable: the domain or a parent domain is on the disposable
	// list and not on the allowlist.
	IsDisposable bool `json:"is_disposable"`
	// IsFreeProvider: the domain is a free mailbox provider.
	IsFreeProvider bool `json:"is_free_provider"`
	// Reason is why the address is invalid; null when valid.
	Reason *Reason `json:"reason"`
}

// DisposableResult is the data of the disposable check.
type DisposableResult struct {
	// Results are in input order.
	Results []DisposableItem `json:"results"`
	// Summary counts them.
	Summary ListSummary `json:"summary"`
}

// ListSummary counts a list classification.
type ListSummary struct {
	// Total is the number of addresses.
	Total int `json:"total"`
	// Matched is the number classified disposable (or role).
	Matched int `json:"matched"`
	// Invalid is the number whose syntax is invalid.
	Invalid int `json:"invalid"`
}

// CheckDisposable classifies 1 to 500 addresses as disposable or not.
// It needs no DNS.
func (v *Verifier) CheckDisposable(_ context.Context, req ListRequest) (DisposableResult, error) {
	if err := checkBatch("emails", len(req.Emails)); err != nil {
		return DisposableResult{}, err
	}
	out := DisposableResult{Results: make([]DisposableItem, len(req.Emails))}
	for i, in := range req.Emails {
		_, r := v.check(in, Checks{SkipRole: true})
		out.Results[i] = DisposableItem{Input: in, Email: r.Email, Domain: r.Domain, IsDisposable: r.IsDisposable, IsFreeProvider: r.IsFreeProvider, Reason: r.Reason}
		out.Summary.count(r, r.IsDisposable)
	}
	return out, nil
}

func (s *ListSummary) count(r Result, matched bool) {
	s.Total++
	if r.Reason != nil {
		s.Invalid++
	}
	if matched {
		s.Matched++
	}
}

// RoleItem classifies one address.
type RoleItem struct {
	// Input is the address as sent.
	Input string `json:"input"`
	// Email is the normalized address; null when its syntax is invalid.
	Email *string `json:"email"`
	// LocalPart is the normalized local part; null when invalid.
	LocalPart *string `json:"local_part"`
	// IsRoleAccount: the local part, ignoring case and a +tag, is a role.
	IsRoleAccount bool `json:"is_role_account"`
	// Role is the role name matched (lowercase, without the tag); null
	// when not a role.
	Role *string `json:"role"`
	// Reason is why the address is invalid; null when valid.
	Reason *Reason `json:"reason"`
}

// RoleResult is the data of the role-account check.
type RoleResult struct {
	// Results are in input order.
	Results []RoleItem `json:"results"`
	// Summary counts them.
	Summary ListSummary `json:"summary"`
}

// CheckRoleAccounts classifies 1 to 500 addresses as role accounts or
// not. It needs no DNS.
func (v *Verifier) CheckRoleAccounts(_ context.Context, req ListRequest) (RoleResult, error) {
	if err := checkBatch("emails", len(req.Emails)); err != nil {
		return RoleResult{}, err
	}
	out := RoleResult{Results: make([]RoleItem, len(req.Emails))}
	for i, in := range req.Emails {
		a, r := v.check(in, Checks{SkipDisposable: true})
		item := RoleItem{Input: in, Email: r.Email, LocalPart: r.LocalPart, IsRoleAccount: r.IsRoleAccount, Reason: r.Reason}
		if r.IsRoleAccount {
			role := roleName(a.Local)
			item.Role = &role
		}
		out.Results[i] = item
		out.Summary.count(r, r.IsRoleAccount)
	}
	return out, nil
}

// ValidateRequest is the body of the single-validation routes.
type ValidateRequest struct {
	// Email is the address to validate.
	Email string `json:"email" openapi:"required"`
	// CheckSMTP probes the mailbox over SMTP: slower and not always
	// reliable. Default false.
	CheckSMTP bool `json:"check_smtp,omitempty"`
}

// ValidateEmail validates one address with every check, and the SMTP
// probe when asked: the operation of POST /v1/dev/email/validate and
// /v1/utility/email/validate.
func (v *Verifier) ValidateEmail(ctx context.Context, req ValidateRequest) (Validation, error) {
	if req.Email == "" {
		return Validation{}, envelope.Invalid("email", "is required")
	}
	if len(req.Email) > maxInput {
		return Validation{}, envelope.Invalidf("email", "is longer than %d bytes", maxInput)
	}
	return v.Validate(ctx, req.Email, Checks{SMTP: req.CheckSMTP}), nil
}

func roleName(local string) string {
	local = strings.ToLower(strings.Trim(local, `"`))
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	return local
}
