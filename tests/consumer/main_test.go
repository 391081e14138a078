package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiverkit/quiver/llm/llmtest"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

// zone is the DNS the program sees: a domain ready for mail.
const zone = `
shop.test.        60 IN A     192.0.2.10
shop.test.        60 IN MX    10 mx.shop.test.
mx.shop.test.     60 IN A     192.0.2.25
shop.test.        60 IN TXT   "v=spf1 mx -all"
_dmarc.shop.test. 60 IN TXT   "v=DMARC1; p=reject; rua=mailto:dmarc@shop.test"
25.2.0.192.in-addr.arpa. 60 IN PTR mx.shop.test.
`

// syncBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start runs the program on loopback against loopback DNS and model
// servers, and returns its base URL.
func start(t *testing.T, replies ...llmtest.Reply) string {
	t.Helper()
	dns := resolvertest.Start(t, resolvertest.Config{Zone: zone})
	model := llmtest.Start(t, llmtest.OpenAI, replies...)

	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, options{
			addr: "127.0.0.1:0", key: "consumer-key", dns: dns.Addr,
			modelURL: model.BaseURL(), modelName: "gpt-4o-mini",
			microblogFile: "../../examples/microblog/data/sample.jsonl", domain: "shop.test",
		}, out)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	re := regexp.MustCompile(`listening on (http://\S+)`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-done:
			done <- err
			t.Fatalf("the program exited: %v\n%s", err, out)
		default:
		}
	}
	t.Fatalf("the program did not listen within 10s:\n%s", out)
	return ""
}

// call makes one request to the embedded API and decodes the envelope.
func call(t *testing.T, base, method, path, key, body string) (int, envelope) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Gateway-Key", key)
	req.Header.Set("X-Gateway-Host", "consumer.test")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var env envelope
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
		t.Fatalf("%s %s: not an envelope: %v", method, path, err)
	}
	return res.StatusCode, env
}

type envelope struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *struct {
		Code string `json:"code"`
	} `json:"error"`
	Meta map[string]any `json:"meta"`
}

const summary = `{"summary":"Quiver checks addresses, domains and sites, and writes with a model.","key_points":["Email and domain checks.","Content from a language model."]}`

// TestEmbeddedAPI calls the Quiver API that the program mounts under
// /quiver/, with the program's key, resolver, model, providers and
// metrics.
func TestEmbeddedAPI(t *testing.T) {
	base := start(t, llmtest.Reply{Content: summary, PromptTokens: 1000, CompletionTokens: 200})

	if code, env := call(t, base, "POST", "/quiver/v1/dev/data/base64/encode", "wrong-key", `{"value":"hello"}`); code != 401 || env.Error == nil || env.Error.Code != "UNAUTHORIZED" {
		t.Errorf("wrong key: %d %+v", code, env.Error)
	}
	tests := []struct {
		method, path, body string
		want               []string // substrings of data
	}{
		{"POST", "/quiver/v1/dev/data/base64/encode", `{"value":"hello"}`, []string{`"output":"aGVsbG8="`}},
		{"POST", "/quiver/v1/email/domain/health", `{"domains":["shop.test"]}`, []string{`"verdict":"ready"`, `mx.shop.test`}},
		{"POST", "/quiver/v1/utility/dns/analyze", `{"domain":"shop.test"}`, []string{`"10 mx.shop.test"`, `"192.0.2.10"`}},
		{"POST", "/quiver/v1/content/summarize", `{"text":"Quiver verifies email addresses, checks domains and web sites, and generates content."}`, []string{`"summary":"Quiver checks addresses`}},
		{"GET", "/quiver/v1/microblog/user-tweets?username=ana_dev&limit=3", "", []string{`"result_count":3`}},
		{"GET", "/quiver/v1/photosocial/posts?username=sample.bakery&limit=2", "", []string{`"shortcode"`}},
	}
	for _, tt := range tests {
		code, env := call(t, base, tt.method, tt.path, "consumer-key", tt.body)
		if code != 200 || !env.Success {
			t.Errorf("%s %s: %d %+v %s", tt.method, tt.path, code, env.Error, env.Data)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(string(env.Data), w) {
				t.Errorf("%s %s: data lacks %s: %s", tt.method, tt.path, w, env.Data)
			}
		}
		if strings.Contains(tt.path, "/content/") {
			if env.Meta["model"] != "gpt-4o-mini" || env.Meta["cost_usd"] != 0.00027 {
				t.Errorf("summarize meta = %v, want model gpt-4o-mini and cost 0.00027 (1000 x 0.15 + 200 x 0.60 per million)", env.Meta)
			}
		}
	}

	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, w := range []string{
		`quiver_http_requests_total{route="POST /v1/dev/data/base64/encode",status="200"} 1`,
		`quiver_http_requests_total{route="unmatched",status="401"} 1`,
		`quiver_llm_tokens_total{kind="prompt",model="gpt-4o-mini"} 1000`,
		`quiver_llm_cost_usd_total{model="gpt-4o-mini"} 0.00027`,
	} {
		if !strings.Contains(string(text), w) {
			t.Errorf("/metrics lacks %s", w)
		}
	}
}

// TestDirectUse reads /report, where the program calls each package
// without httpapi.
func TestDirectUse(t *testing.T) {
	base := start(t, llmtest.Reply{Content: summary, PromptTokens: 10, CompletionTokens: 5})
	res, err := http.Get(base + "/report")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		body, _ := io.ReadAll(res.Body)
		t.Fatalf("/report: %d %s", res.StatusCode, body)
	}
	var got report
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := report{
		Base64:       "aGVsbG8=",
		EmailValid:   true,
		DidYouMean:   "Jane.Doe@gmail.com",
		MXStatus:     "mx",
		Verdict:      "ready",
		MXRecords:    []string{"10 mx.shop.test"},
		URLHost:      "example.com",
		Summary:      "Quiver checks addresses, domains and sites, and writes with a model.",
		Model:        "gpt-4o-mini",
		Tweets:       got.Tweets,
		TopHashtag:   got.TopHashtag,
		PhotoMedia:   12,
		RobotsAllows: true,
		DMARCPolicy:  "reject",
		NXDomain:     true,
	}
	if got.Tweets == 0 || got.TopHashtag == "" {
		t.Errorf("microblog: %d tweets, top hashtag %q; want the sample's", got.Tweets, got.TopHashtag)
	}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("report\n got %s\nwant %s", gotJSON, wantJSON)
	}
}
