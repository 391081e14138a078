package email

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/miekg/dns"
)

// TestDomainHealthDedupe: domains that normalize to one name (case, a
// final dot, the Unicode and A-label forms of an IDN) are checked and
// answered once, in the order of first appearance, each result listing
// the request entries it answers.
func TestDomainHealthDedupe(t *testing.T) {
	srv, r := fixture(t)
	v := &Verifier{cfg: Config{Resolver: r}}
	req := DomainHealthRequest{Domains: []string{
		"Bücher.DE", "good.test", "xn--bcher-kva.de", "GOOD.test.", "bücher.de.", "missing.test", "good.test",
	}}
	res, err := v.DomainHealth(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	type short struct {
		Domain string
		Inputs []int
	}
	var got []short
	for _, h := range res.Results {
		got = append(got, short{h.Domain, h.Inputs})
	}
	want := []short{{"xn--bcher-kva.de", []int{0, 2, 4}}, {"good.test", []int{1, 3, 6}}, {"missing.test", []int{5}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	// Each distinct domain asks its MX once.
	if n := srv.QueriesFor("good.test", dns.TypeMX); n != 1 {
		t.Errorf("good.test MX asked %d times, want 1", n)
	}
}
