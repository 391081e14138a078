package mailauth

import (
	"fmt"
	"strings"
	"testing"
)

// hostileRecords are 64 KiB records built to yield one finding per few
// bytes: malformed parts, repeated tags or fields, invalid values.
func hostileRecords() []struct {
	name  string
	parse func(string) ([]string, []string, []Problem, bool)
	in    string
} {
	const size = 64 << 10
	fill := func(prefix, unit string) string {
		return prefix + strings.Repeat(unit, (size-len(prefix))/len(unit))
	}
	dkim := func(s string) ([]string, []string, []Problem, bool) {
		k := ParseDKIM(s)
		return k.Errors, k.Warnings, k.Problems, k.Valid()
	}
	policy := func(s string) ([]string, []string, []Problem, bool) {
		p := ParseMTASTSPolicy(s)
		return p.Errors, p.Warnings, p.Problems, p.Valid()
	}
	record := func(s string) ([]string, []string, []Problem, bool) {
		r := ParseMTASTSRecord(s)
		return r.Errors, r.Warnings, r.Problems, r.Valid()
	}
	tlsrpt := func(s string) ([]string, []string, []Problem, bool) {
		r := ParseTLSRPT(s)
		return r.Errors, r.Warnings, r.Problems, r.Valid()
	}
	bimi := func(s string) ([]string, []string, []Problem, bool) {
		b := ParseBIMI(s)
		return b.Errors, b.Warnings, b.Problems, b.Valid()
	}
	return []struct {
		name  string
		parse func(string) ([]string, []string, []Problem, bool)
		in    string
	}{
		{"dkim malformed parts", dkim, fill("", "x;")},
		{"dkim repeated tag", dkim, fill("v=DKIM1; p=; ", "k=rsa;")},
		{"mta-sts record malformed parts", record, fill("v=STSv1; id=1;", "x;")},
		{"tlsrpt malformed parts", tlsrpt, fill("v=TLSRPTv1; rua=mailto:a@example.com;", "x;")},
		{"tlsrpt many rua", tlsrpt, fill("v=TLSRPTv1; rua=", "x,")},
		{"bimi malformed parts", bimi, fill("v=BIMI1; l=;", "x;")},
		{"policy colon-less lines", policy, fill("version: STSv1\nmode: none\nmax_age: 86400\n", "x\n")},
		{"policy repeated mode", policy, fill("version: STSv1\nmode: none\nmax_age: 86400\n", "mode: none\n")},
		{"policy invalid mx", policy, fill("version: STSv1\nmode: enforce\nmax_age: 86400\n", "mx: -\n")},
	}
}

// TestHostileRecordBounded: a 64 KiB record lists at most
// maxRecordFindings problems plus one counting the rest, stays invalid,
// and parses in a bounded number of allocations.
func TestHostileRecordBounded(t *testing.T) {
	for _, tt := range hostileRecords() {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.in) > 64<<10 || len(tt.in) < 60<<10 {
				t.Fatalf("record of %d bytes", len(tt.in))
			}
			errs, warns, ps, valid := tt.parse(tt.in)
			checkFindings(t, tt.name, errs, warns, ps)
			if valid {
				t.Errorf("a hostile record is valid, %d problems", len(ps))
			}
			if len(ps) > maxRecordFindings+1 {
				t.Errorf("%d problems, more than %d", len(ps), maxRecordFindings+1)
			}
			allocs := testing.AllocsPerRun(5, func() { tt.parse(tt.in) })
			if allocs > 300 {
				t.Errorf("%.0f allocations per parse", allocs)
			}
			t.Logf("%d problems, %.0f allocations per parse", len(ps), allocs)
		})
	}
}

// TestFindingsCapKeepsErrors: an error dropped by the cap after ten
// warnings still makes the record invalid.
func TestFindingsCapKeepsErrors(t *testing.T) {
	var errs, warns []string
	var ps []Problem
	f := findings{errors: &errs, warnings: &warns, problems: &ps}.capped()
	for range maxRecordFindings {
		f.warn(CodeMTASTSDuplicateField, "w")
	}
	f.fail(CodeMTASTSPolicySyntax, "e")
	f.flush()
	if len(errs) != 1 || len(ps) != maxRecordFindings+1 || ps[maxRecordFindings].Code != CodeMTASTSPolicySyntax {
		t.Fatalf("errors %q problems %v", errs, ps)
	}
}

// The problem counting those the cap dropped has the code of an error
// dropped when it is an error: a code keeps its documented severity.
func TestFindingsCapKeepsCodeSeverity(t *testing.T) {
	record := "v=DMARC1; p=reject"
	for i := range maxRecordFindings + 1 {
		record += fmt.Sprintf("; x%d=1", i) // unknown tags: warnings
	}
	d := ParseDMARC(record + "; pct=abc")
	if len(d.Problems) != maxRecordFindings+1 {
		t.Fatalf("%d problems, want %d", len(d.Problems), maxRecordFindings+1)
	}
	if last := d.Problems[maxRecordFindings]; last.Code != CodeDMARCSyntax || last.Severity != SeverityError {
		t.Errorf("last problem %+v, want the error dmarc_syntax", last)
	}
	if d.Valid() {
		t.Error("valid with pct=abc")
	}
}

func BenchmarkHostileRecord(b *testing.B) {
	for _, tt := range hostileRecords() {
		b.Run(strings.ReplaceAll(tt.name, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tt.parse(tt.in)
			}
		})
	}
}
