package devutil_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2/v2"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/llmjson"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/llm/llmtest"
)

var flavors = []string{"pcre", "python", "javascript", "go", "re2", "dotnet"}

func catalogResult(t *testing.T, description, flavor string) devutil.RegexGenerateResult {
	t.Helper()
	res, ai, err := newRegexGenerator(t, devutil.Config{}).Generate(context.Background(), devutil.RegexGenerateRequest{Description: description, Flavor: flavor})
	if err != nil {
		t.Fatalf("Generate(%q, %s): %v", description, flavor, err)
	}
	if ai != (llm.Usage{}) {
		t.Errorf("catalog answer has AI metadata %+v", ai)
	}
	return res
}

// TestRegexCatalog compiles every catalog pattern in every flavor and
// runs its test cases, independently of the package's own check.
func TestRegexCatalog(t *testing.T) {
	descriptions := map[string]string{
		"email": "email address", "url": "URL", "ipv4": "IPv4 address", "ipv6": "IPv6 address", "uuid": "UUID",
		"iso-date": "ISO 8601 date", "time": "24-hour time", "hex-color": "hex color", "semver": "semver",
		"us-phone": "US phone number", "e164-phone": "E.164 phone number", "slug": "URL slug", "credit-card": "credit card number",
	}
	if len(descriptions) != len(devutil.CatalogNames()) {
		t.Fatalf("catalog has %v", devutil.CatalogNames())
	}
	for _, name := range devutil.CatalogNames() {
		for _, flavor := range flavors {
			res := catalogResult(t, descriptions[name], flavor)
			if res.Source != "catalog" || res.Flavor != flavor || res.Explanation == "" || len(res.TestCases) < 8 {
				t.Errorf("%s/%s: %+v", name, flavor, res)
			}
			var match func(string) bool
			switch flavor {
			case "go", "re2":
				re := regexp.MustCompile(res.Pattern)
				match = re.MatchString
			default:
				p := res.Pattern
				opt := regexp2.None
				if flavor == "javascript" {
					opt = regexp2.ECMAScript
				}
				if flavor == "python" {
					p = strings.ReplaceAll(p, `\Z`, `\z`) // Python's \Z is .NET's \z
				}
				re := regexp2.MustCompile(p, opt)
				re.MatchTimeout = time.Second
				match = func(s string) bool { ok, err := re.MatchString(s); return ok && err == nil }
			}
			for _, tc := range res.TestCases {
				if match(tc.String) != tc.ShouldMatch {
					t.Errorf("%s/%s: %q should_match %v", name, flavor, tc.String, tc.ShouldMatch)
				}
				// Anchored to the whole string: no trailing newline.
				if tc.ShouldMatch && match(tc.String+"\n") {
					t.Errorf("%s/%s: %q followed by a newline matches", name, flavor, tc.String)
				}
			}
		}
	}
}

// TestRegexCatalogIPAgainstNetip checks the IP patterns against
// net/netip on many addresses.
func TestRegexCatalogIPAgainstNetip(t *testing.T) {
	v4 := regexp.MustCompile(catalogResult(t, "ipv4", "go").Pattern)
	v6 := regexp.MustCompile(catalogResult(t, "ipv6", "go").Pattern)
	inputs := []string{"1.2.3.4", "255.255.255.255", "256.0.0.1", "1.2.3.04", "::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8",
		"1::8", "1:2::7:8", "1::4:5:6:7:8", "1:2:3:4:5:6::8", "::ffff:1.2.3.4", "64:ff9b::192.0.2.33", "1:2:3:4:5:6:1.2.3.4", "1::1.2.3.4",
		"1:2:3:4:5:6:7:1.2.3.4", ":::", "1:::2", "1:2:3:4:5:6:7:8:9", "::12345", "1.2.3", "", "::ffff:256.1.1.1", "fe80::%1", "1:2:3:4:5::6:7:8"}
	for _, s := range inputs {
		addr, err := netip.ParseAddr(s)
		is4 := err == nil && addr.Is4() && !strings.Contains(s, ":")
		is6 := err == nil && strings.Contains(s, ":") && addr.Zone() == ""
		if v4.MatchString(s) != is4 {
			t.Errorf("ipv4 pattern on %q = %v, netip says %v", s, v4.MatchString(s), is4)
		}
		if v6.MatchString(s) != is6 {
			t.Errorf("ipv6 pattern on %q = %v, netip says %v", s, v6.MatchString(s), is6)
		}
	}
}

func TestRegexCatalogDescriptions(t *testing.T) {
	for desc, want := range map[string]string{
		"Match an email address":            `\A[A-Za-z0-9`,
		"validate e-mail addresses":         `\A[A-Za-z0-9`,
		"UUIDs":                             `\A[0-9A-Fa-f]{8}`,
		"a regex for hex colour codes":      `\A#(?:`,
		"Semantic Versioning":               `\A(?:0|`,
		"slug":                              `\A[a-z0-9]+`,
		"regular expression for IPv6":       `\A(?:(?:`,
		"E.164 phone numbers":               `\A\+[1-9]`,
		"the shape of a credit card number": `\A[0-9](?:`,
	} {
		if res := catalogResult(t, desc, ""); !strings.HasPrefix(res.Pattern, want) || res.Flavor != "pcre" {
			t.Errorf("%q: pattern %q flavor %s", desc, res.Pattern, res.Flavor)
		}
	}
}

func TestRegexGenerateWithoutModel(t *testing.T) {
	for _, desc := range []string{"gmail addresses only", "email or phone", "a date", "phone number", "palindromes"} {
		_, _, err := newRegexGenerator(t, devutil.Config{}).Generate(context.Background(), devutil.RegexGenerateRequest{Description: desc})
		var e *envelope.Error
		if !errors.As(err, &e) || e.Code != envelope.CodeServiceUnavailable || !strings.Contains(e.Message, "configure a language model") {
			t.Errorf("%q: err = %v, want SERVICE_UNAVAILABLE saying to configure a language model", desc, err)
		}
	}
}

func TestRegexGenerateInvalid(t *testing.T) {
	for _, req := range []devutil.RegexGenerateRequest{
		{Description: ""},
		{Description: "  "},
		{Description: strings.Repeat("x", devutil.MaxRegexDescriptionLength+1)},
		{Description: "email", Flavor: "perl6"},
	} {
		_, _, err := newRegexGenerator(t, devutil.Config{}).Generate(context.Background(), req)
		var v *envelope.ValidationError
		if !errors.As(err, &v) {
			t.Errorf("%+v: err = %v, want a ValidationError", req, err)
		}
	}
}

func modelReply(t *testing.T, pattern string, cases ...devutil.RegexTestCase) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"pattern": pattern, "explanation": "Order numbers.", "test_cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var orderCases = []devutil.RegexTestCase{
	{String: "ORD-12345", ShouldMatch: true}, {String: "ORD-00001", ShouldMatch: true},
	{String: "ORD-1234", ShouldMatch: false}, {String: "ord-12345", ShouldMatch: false},
}

func TestRegexGenerateModelGoodAnswer(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: modelReply(t, `^ORD-[0-9]{5}$`, orderCases...), PromptTokens: 120, CompletionTokens: 40})
	g := newRegexGenerator(t, devutil.Config{LLM: llm.Config{Model: srv.ModelT(t, "gpt-4o-mini"), Name: "gpt-4o-mini",
		Prices: llm.Prices{"gpt-4o-mini": {Input: 1, Output: 2}}}})
	res, ai, err := g.Generate(context.Background(), devutil.RegexGenerateRequest{Description: "order numbers like ORD-12345", Flavor: "javascript"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pattern != `^ORD-[0-9]{5}$` || res.Source != "model" || res.Flavor != "javascript" || len(res.TestCases) != 4 {
		t.Errorf("result %+v", res)
	}
	if ai.Model != "gpt-4o-mini" || ai.PromptTokens != 120 || ai.CompletionTokens != 40 || ai.CostUSD <= 0 {
		t.Errorf("ai %+v", ai)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].Messages[0].Content, "Flavor: ECMAScript") || !strings.Contains(reqs[0].Messages[1].Content, "ORD-12345") {
		t.Errorf("requests %+v", reqs)
	}
}

func TestRegexGenerateModelFixesFailingPattern(t *testing.T) {
	bad := modelReply(t, `^ORD-[0-9]+$`, orderCases...) // accepts ORD-1234
	good := modelReply(t, `^ORD-[0-9]{5}$`, orderCases...)
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: bad, PromptTokens: 100, CompletionTokens: 30}, llmtest.Reply{Content: good, PromptTokens: 180, CompletionTokens: 30})
	res, ai, err := newRegexGenerator(t, devutil.Config{LLM: llm.Config{Model: srv.ModelT(t, "m")}}).Generate(context.Background(), devutil.RegexGenerateRequest{Description: "order numbers", Flavor: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pattern != `^ORD-[0-9]{5}$` {
		t.Errorf("pattern %q", res.Pattern)
	}
	if ai.PromptTokens != 280 || ai.CompletionTokens != 60 {
		t.Errorf("usage of both calls not summed: %+v", ai)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d calls", len(reqs))
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	if !strings.Contains(last, `test case \"ORD-1234\" should not match but does`) && !strings.Contains(last, `test case "ORD-1234" should not match but does`) {
		t.Errorf("retry prompt does not show the failure:\n%s", last)
	}
}

func TestRegexGenerateModelFlavorCompileError(t *testing.T) {
	// A lookahead is not RE2: the retry says so, and the fix passes.
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: modelReply(t, `^(?=ORD)ORD-[0-9]{5}$`, orderCases...)}, llmtest.Reply{Content: modelReply(t, `^ORD-[0-9]{5}$`, orderCases...)})
	if _, _, err := newRegexGenerator(t, devutil.Config{LLM: llm.Config{Model: srv.ModelT(t, "m")}}).Generate(context.Background(), devutil.RegexGenerateRequest{Description: "order numbers", Flavor: "re2"}); err != nil {
		t.Fatal(err)
	}
	if last := srv.Requests()[1].Messages; !strings.Contains(last[len(last)-1].Content, "does not compile as re2") {
		t.Errorf("retry prompt: %q", last[len(last)-1].Content)
	}
}

func TestRegexGenerateModelGarbage(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: "Sure! Here is your regex: /ORD-\\d+/"}, llmtest.Reply{Content: `{"pattern": 42}`})
	_, ai, err := newRegexGenerator(t, devutil.Config{LLM: llm.Config{Model: srv.ModelT(t, "m")}}).Generate(context.Background(), devutil.RegexGenerateRequest{Description: "order numbers"})
	var e *envelope.Error
	if !errors.As(err, &e) || e.Code != envelope.CodeUpstreamError {
		t.Fatalf("err = %v, want UPSTREAM_ERROR", err)
	}
	var ce *llmjson.ContractError
	if !errors.As(err, &ce) || ce.Attempts != 2 {
		t.Errorf("err = %v, want a ContractError after 2 attempts", err)
	}
	if ai.Model == "" {
		t.Errorf("ai %+v", ai)
	}
}

func TestRegexGenerateModelCatastrophicPattern(t *testing.T) {
	evil := modelReply(t, `\A(a+)+\z`, devutil.RegexTestCase{String: "aaaa", ShouldMatch: true}, devutil.RegexTestCase{String: "a", ShouldMatch: true},
		devutil.RegexTestCase{String: strings.Repeat("a", 40) + "!", ShouldMatch: false}, devutil.RegexTestCase{String: "b", ShouldMatch: false})
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: evil})
	g := newRegexGenerator(t, devutil.Config{LLM: llm.Config{Model: srv.ModelT(t, "m"), MaxAttempts: 1}, RegexMatchTimeout: 50 * time.Millisecond})
	start := time.Now()
	_, _, err := g.Generate(context.Background(), devutil.RegexGenerateRequest{Description: "runs of a"})
	var ce *llmjson.ContractError
	if !errors.As(err, &ce) || !strings.Contains(strings.Join(ce.Violations, " "), "did not finish in time") {
		t.Errorf("err = %v, want a timeout violation", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}

func TestRegexGenerateModelTimeout(t *testing.T) {
	srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: modelReply(t, `^x$`, orderCases...), Delay: 5 * time.Second})
	g := newRegexGenerator(t, devutil.Config{LLM: llm.Config{Model: srv.ModelT(t, "m"), Timeout: 100 * time.Millisecond}})
	_, _, err := g.Generate(context.Background(), devutil.RegexGenerateRequest{Description: "order numbers"})
	var e *envelope.Error
	if !errors.As(err, &e) || e.Code != envelope.CodeUpstreamTimeout {
		t.Errorf("err = %v, want UPSTREAM_TIMEOUT", err)
	}
}

// TestRegexGenerateModelUnanchored checks that a pattern passing its own
// test cases but not anchored to the whole string is sent back: it would
// accept any string that contains a match.
func TestRegexGenerateModelUnanchored(t *testing.T) {
	for _, tt := range []struct{ flavor, bad, good string }{
		{"pcre", `ORD-[0-9]{5}`, `\AORD-[0-9]{5}\z`},
		{"pcre", `^ORD-[0-9]{5}$`, `^ORD-[0-9]{5}\z`},       // $ allows a trailing newline
		{"dotnet", `\AORD-[0-9]{5}\\z`, `\AORD-[0-9]{5}\z`}, // an escaped backslash, then z
		{"python", `\AORD-[0-9]{5}\z`, `\AORD-[0-9]{5}\Z`},
		{"javascript", `ORD-[0-9]{5}$`, `^ORD-[0-9]{5}$`},
		{"go", `^ORD-[0-9]{5}\$`, `^ORD-[0-9]{5}$`},
		{"re2", `^ORD-[0-9]{5}`, `\AORD-[0-9]{5}\z`},
		{"go", `^ORD-[0-9]{5}|^X$`, `^(?:ORD-[0-9]{5}|X)$`}, // the first alternative has no end
		{"go", `^(?m)ORD-[0-9]{5}$`, `^ORD-[0-9]{5}$`},      // multi-line: $ ends any line
		{"re2", `^(?sm:ORD-[0-9]{5})$`, `^(?s:ORD-[0-9]{5})$`},
	} {
		srv := llmtest.Start(t, llmtest.OpenAI, llmtest.Reply{Content: modelReply(t, tt.bad, orderCases...)}, llmtest.Reply{Content: modelReply(t, tt.good, orderCases...)})
		res, _, err := newRegexGenerator(t, devutil.Config{LLM: llm.Config{Model: srv.ModelT(t, "m")}}).Generate(context.Background(), devutil.RegexGenerateRequest{Description: "order numbers", Flavor: tt.flavor})
		if err != nil || res.Pattern != tt.good {
			t.Errorf("%s %#q: pattern %#q, err %v; want the retry's %#q", tt.flavor, tt.bad, res.Pattern, err, tt.good)
			continue
		}
		if reqs := srv.Requests(); len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "must match the whole string") {
			t.Errorf("%s %#q: the retry does not ask for anchors", tt.flavor, tt.bad)
		}
	}
}
