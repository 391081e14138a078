package email

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/miekg/dns"

	"github.com/quiverkit/quiver/internal/meter"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// TestDomainHealthDedupe: domains that normalize to one name (case, a
// final dot, the Unicode and A-label forms of an IDN) are checked and
// answered once, in the order of first appearance, each result listing
// the request entries it answers.
func TestDomainHealthDedupe(t *testing.T) {
	srv, r := fixture(t, resolvertest.Config{})
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

// budgetMeter allows left bytes, and refuses past them with errOverBudget.
type budgetMeter struct {
	mu      sync.Mutex
	left    int64
	charged int64
}

var errOverBudget = errors.New("over budget")

func (m *budgetMeter) Charge(n int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n > m.left {
		return errOverBudget
	}
	m.left -= n
	m.charged += n
	return nil
}

// TestDomainHealthMeter: a meter in the context is charged each result's
// JSON size as it is finished, and its refusal fails the call.
func TestDomainHealthMeter(t *testing.T) {
	_, r := fixture(t, resolvertest.Config{})
	v := &Verifier{cfg: Config{Resolver: r}}
	req := DomainHealthRequest{Domains: []string{"good.test", "weak.test", "nullmx.test"}}
	m := &budgetMeter{left: 1 << 20}
	res, err := v.DomainHealth(meter.With(context.Background(), m), req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Results)
	// The results' sizes, each with its newline, and the array's commas
	// and brackets.
	if want := int64(len(b)) - 2 - 2 + 3; m.charged != want {
		t.Errorf("charged %d bytes, want %d", m.charged, want)
	}
	_, err = v.DomainHealth(meter.With(context.Background(), &budgetMeter{left: m.charged / 2}), req)
	if !errors.Is(err, errOverBudget) {
		t.Errorf("over the meter's budget: %v", err)
	}
}
