package httpapi_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/httpapi/redislimit"
	"github.com/quiverkit/quiver/internal/testutil"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/photosocial"
)

// TestConfigErrorsSayTheirCauseOnce gives every constructor a
// configuration that cannot work, a nested llm.Config among them, and
// checks that its error says the cause once, names no internal package,
// and still wraps each sentinel that its documentation promises.
func TestConfigErrorsSayTheirCauseOnce(t *testing.T) {
	badLLM := llm.Config{Timeout: -time.Second}
	twoBad := llm.Config{Timeout: -time.Second, MaxAttempts: -1}
	newErr := func(_ any, err error) error { return err }
	tests := []struct {
		name string
		err  error
		is   []error
	}{
		{"llm Validate", badLLM.Validate(), []error{llm.ErrInvalidConfig}},
		{"llm Validate, two fields", twoBad.Validate(), []error{llm.ErrInvalidConfig}},
		{"httpapi fields", newErr(httpapi.New(httpapi.Config{Keys: []secret.String{" "}, Burst: -1, MaxBodyBytes: -1, TrustedProxies: []string{"nope"}})), []error{httpapi.ErrInvalidConfig}},
		{"httpapi no keys", newErr(httpapi.New(httpapi.Config{})), []error{httpapi.ErrInvalidConfig}},
		{"content LLM", newErr(content.New(content.Config{LLM: badLLM})), []error{content.ErrInvalidConfig, llm.ErrInvalidConfig}},
		{"content LLM, two fields", newErr(content.New(content.Config{LLM: twoBad})), []error{content.ErrInvalidConfig, llm.ErrInvalidConfig}},
		{"devutil LLM", newErr(devutil.NewRegexGenerator(devutil.Config{LLM: badLLM})), []error{devutil.ErrInvalidConfig, llm.ErrInvalidConfig}},
		{"devutil match timeout", newErr(devutil.NewRegexGenerator(devutil.Config{RegexMatchTimeout: -1})), []error{devutil.ErrInvalidConfig}},
		{"devutil stack trace LLM", newErr(devutil.NewStacktraceAnalyzer(devutil.Config{LLM: badLLM})), []error{devutil.ErrInvalidConfig, llm.ErrInvalidConfig}},
		{"devutil README LLM", newErr(devutil.NewReadmeGenerator(devutil.Config{LLM: badLLM})), []error{devutil.ErrInvalidConfig, llm.ErrInvalidConfig}},
		{"photosocial LLM", newErr(photosocial.New(photosocial.Config{LLM: badLLM})), []error{photosocial.ErrInvalidConfig, llm.ErrInvalidConfig}},
		{"photosocial Graph", newErr(photosocial.NewGraph(photosocial.GraphConfig{})), []error{photosocial.ErrInvalidConfig}},
		{"photosocial Apify", newErr(photosocial.NewApify(photosocial.ApifyConfig{})), []error{photosocial.ErrInvalidConfig}},
		{"photosocial file", newErr(photosocial.NewFile(photosocial.FileConfig{})), []error{photosocial.ErrInvalidConfig}},
		{"photosocial file, bad record", newErr(photosocial.NewFile(photosocial.FileConfig{Reader: strings.NewReader(`{"kind":"profile","username":7}`)})), nil},
		{"photosocial file, no username", newErr(photosocial.NewFile(photosocial.FileConfig{Reader: strings.NewReader(`{"kind":"profile"}`)})), nil},
		{"photosocial file, missing", newErr(photosocial.NewFile(photosocial.FileConfig{Paths: []string{"testdata/no-such-file.jsonl"}})), []error{os.ErrNotExist}},
		{"microblog twitterapi.io", newErr(microblog.NewTwitterAPIIO(microblog.TwitterAPIIOConfig{})), []error{microblog.ErrInvalidConfig}},
		{"microblog X", newErr(microblog.NewXAPI(microblog.XAPIConfig{})), []error{microblog.ErrInvalidConfig}},
		{"microblog file", newErr(microblog.NewFile(microblog.FileConfig{})), []error{microblog.ErrInvalidConfig}},
		{"microblog file, bad record", newErr(microblog.NewFile(microblog.FileConfig{Reader: strings.NewReader(`{"type":"profile","username":7}`)})), nil},
		{"microblog file, missing", newErr(microblog.NewFile(microblog.FileConfig{Paths: []string{"testdata/no-such-file.jsonl"}})), []error{os.ErrNotExist}},
		{"resolver", newErr(resolver.New(resolver.Config{Servers: []string{"127.0.0.1:99999", "http://1.1.1.1"}})), []error{resolver.ErrInvalidConfig}},
		{"email", newErr(email.New(email.Config{SMTP: email.SMTPOptions{Proxy: "http://user:secret@proxy"}})), []error{email.ErrInvalidConfig}},
		{"email SMTP port", newErr(email.New(email.Config{SMTP: email.SMTPOptions{Port: 70000}})), []error{email.ErrInvalidConfig}},
		{"email DNSBL", newErr(email.New(email.Config{DNSBLZones: []string{"not a zone"}})), []error{email.ErrInvalidConfig}},
		{"jobs", newErr(jobs.New(jobs.Config{TTL: -1, Workers: -1})), []error{jobs.ErrInvalidConfig}},
		{"redislimit", newErr(redislimit.New(redislimit.Config{})), []error{redislimit.ErrInvalidConfig, redislimit.ErrNoClient}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil {
				t.Fatal("no error")
			}
			text := tt.err.Error()
			t.Log(text)
			for _, p := range testutil.ErrorTextProblems(text, testutil.GoCaller) {
				t.Errorf("%s: %q", p, text)
			}
			if strings.Contains(text, "secret") {
				t.Errorf("shows a credential: %q", text)
			}
			for _, target := range tt.is {
				if !errors.Is(tt.err, target) {
					t.Errorf("errors.Is(%q, %v) = false", text, target)
				}
			}
		})
	}
}
