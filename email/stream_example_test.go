package email_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/quiverkit/quiver/email"
)

// VerifyCSV streams a list of any size: each row is written back with
// its result columns, in input order. This Verifier has no resolver, so
// the MX check is "skipped"; give it one (email.NewResolver) to check
// the domains, each distinct domain once while its answer is cached.
func ExampleVerifier_VerifyCSV() {
	list := "name,email\nAna,ana@example.com\nBob,bob@\nInfo,info@example.com\n"
	var v email.Verifier
	stats, err := v.VerifyCSV(context.Background(), strings.NewReader(list), os.Stdout, email.StreamOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d rows, %d valid, %d role accounts\n", stats.Rows, stats.Valid, stats.RoleAccounts)
	// Output:
	// name,email,is_valid,reason,normalized_email,is_disposable,is_role_account,is_free_provider,has_mx_records,mx_status,did_you_mean
	// Ana,ana@example.com,true,,ana@example.com,false,false,false,false,skipped,
	// Bob,bob@,false,domain_empty,,false,false,false,false,,
	// Info,info@example.com,true,,info@example.com,false,true,false,false,skipped,
	// 3 rows, 2 valid, 1 role accounts
}

// ValidateStream takes addresses from any sequence (a database cursor, a
// channel, a file) and yields the results in the same order.
func ExampleVerifier_ValidateStream() {
	var v email.Verifier
	addrs := slices.Values([]string{"ana@example.com", "not-an-address", "support@example.org"})
	for item, err := range v.ValidateStream(context.Background(), addrs, email.StreamOptions{Checks: email.Checks{SkipMX: true}}) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(item.Input, item.IsValid, item.IsRoleAccount)
	}
	// Output:
	// ana@example.com true false
	// not-an-address false false
	// support@example.org true true
}
