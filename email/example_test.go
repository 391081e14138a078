package email_test

import (
	"context"
	"fmt"

	"github.com/quiverkit/quiver/email"
)

func ExampleParse() {
	for _, in := range []string{"Jane.Doe@Example.COM", "用户@例子.广告", "jane..doe@example.com", "jane@example"} {
		a, reason := email.Parse(in, email.SyntaxOptions{})
		if reason != "" {
			fmt.Printf("%s: %s (%s)\n", in, reason, reason.Message())
			continue
		}
		fmt.Printf("%s -> %s [%s] smtputf8=%v\n", in, a, a.ASCIIDomain, a.SMTPUTF8)
	}
	// Output:
	// Jane.Doe@Example.COM -> Jane.Doe@example.com [example.com] smtputf8=false
	// 用户@例子.广告 -> 用户@例子.广告 [xn--fsqu00a.xn--4rr70v] smtputf8=true
	// jane..doe@example.com: local_invalid_dot (the part before the @ sign starts or ends with a dot, or has two dots in a row)
	// jane@example: domain_no_dot (the domain has no dot)
}

func ExampleValidate() {
	// Without a resolver, Validate runs the offline checks only.
	res := email.Validate(context.Background(), "Support+Billing@gmial.com", email.Options{})
	fmt.Println(res.IsValid, *res.Email, res.IsRoleAccount, *res.DidYouMean, res.MX.Status)
	// Output:
	// true Support+Billing@gmial.com true Support+Billing@gmail.com skipped
}

func ExampleVerifier_CheckDisposable() {
	v := &email.Verifier{Lists: email.DefaultLists().WithAllowed("yopmail.com")}
	res, _ := v.CheckDisposable(context.Background(), email.ListRequest{Emails: []string{"a@mailinator.com", "a@inbox.mailinator.com", "a@yopmail.com"}})
	for _, r := range res.Results {
		fmt.Println(r.Input, r.IsDisposable)
	}
	// Output:
	// a@mailinator.com true
	// a@inbox.mailinator.com true
	// a@yopmail.com false
}
