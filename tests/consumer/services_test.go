package main

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/llm/llmtest"
)

// send makes one request to the program with the consumer's key and
// returns the status and the body.
func send(t *testing.T, method, url, contentType string, body io.Reader) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Gateway-Key", "consumer-key")
	req.Header.Set("X-Gateway-Host", "consumer.test")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, b
}

// job is the part of a bulk job's JSON the test reads.
type job struct {
	ID     string  `json:"id"`
	Status string  `json:"status"`
	Total  int     `json:"total"`
	Done   int     `json:"done"`
	Reason *string `json:"reason"`
}

// TestEmbeddedJobs submits a CSV through the embedded API's bulk job
// route and follows the job until it is done: the program built the
// jobs.Manager, passed it as httpapi.Config.Jobs and runs its workers
// (Manager.Run), without which the job would stay queued.
func TestEmbeddedJobs(t *testing.T) {
	base := start(t)

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if err := mw.WriteField("check_role_account", "false"); err != nil {
		t.Fatal(err)
	}
	fw, err := mw.CreateFormFile("file", "list.csv")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(fw, "name,email\nJane,jane@shop.test\nBo,not-an-address\n")
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	code, b := send(t, "POST", base+"/quiver/v1/email/bulk/jobs", mw.FormDataContentType(), &body)
	var env struct {
		Data job `json:"data"`
	}
	if err := json.Unmarshal(b, &env); err != nil || code != http.StatusAccepted || env.Data.ID == "" {
		t.Fatalf("submit: %d %v %s", code, err, b)
	}
	id := env.Data.ID

	// A busy 2-core machine checks two rows well within a minute; the
	// loop ends as soon as the job does. The key's rate limit applies to
	// the polls too: a 429 waits its second.
	var j job
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the job is still %s after a minute (%d of %d rows): are the workers running?", j.Status, j.Done, j.Total)
		}
		code, b := send(t, "GET", base+"/quiver/v1/email/bulk/jobs/"+id, "", nil)
		if code == http.StatusTooManyRequests {
			time.Sleep(time.Second)
			continue
		}
		env.Data = job{}
		if err := json.Unmarshal(b, &env); err != nil || code != http.StatusOK {
			t.Fatalf("get: %d %v %s", code, err, b)
		}
		j = env.Data
		if j.Status != "queued" && j.Status != "running" {
			break
		}
	}
	if j.Status != "done" || j.Total != 2 || j.Done != 2 {
		t.Fatalf("job = %+v, want done with 2 of 2 rows", j)
	}

	code, b = send(t, "GET", base+"/quiver/v1/email/bulk/jobs/"+id+"/results", "", nil)
	if code != http.StatusOK {
		t.Fatalf("results: %d %s", code, b)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "name,email,is_valid,") ||
		!strings.HasPrefix(lines[1], "Jane,jane@shop.test,true,") || !strings.HasPrefix(lines[2], "Bo,not-an-address,false,") {
		t.Errorf("results, want the header and two rows in input order, valid then invalid:\n%s", b)
	}
}

// TestEmbeddedDevutilModels calls the stack trace and README routes of
// the embedded API: the program built the analyzer and the generator
// with its model and passed them as httpapi.Config.Stacktrace and
// Readme, so both answers carry the model's part (a nil service would
// answer without it).
func TestEmbeddedDevutilModels(t *testing.T) {
	base := start(t,
		llmtest.Reply{Content: `{"suggestion":"Check that the map was made before writing to it."}`},
		llmtest.Reply{Content: `{"description":"Quiver checks addresses and domains.","features":["Email checks, with DNS."]}`},
	)

	trace := "panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:9 +0x2c\nexit status 2\n"
	reqBody, err := json.Marshal(map[string]string{"stacktrace": trace})
	if err != nil {
		t.Fatal(err)
	}
	code, b := send(t, "POST", base+"/quiver/v1/dev/stacktrace", "application/json", bytes.NewReader(reqBody))
	var st struct {
		Data struct {
			AISuggestion string `json:"ai_suggestion"`
			AINote       string `json:"ai_note"`
		} `json:"data"`
		Meta map[string]any `json:"meta"`
	}
	if err := json.Unmarshal(b, &st); err != nil || code != http.StatusOK {
		t.Fatalf("stacktrace: %d %v %s", code, err, b)
	}
	if st.Data.AISuggestion != "Check that the map was made before writing to it." || st.Meta["model"] != "gpt-4o-mini" {
		t.Errorf("stacktrace: ai_suggestion %q (note %q), meta %v; want the model's suggestion and its usage", st.Data.AISuggestion, st.Data.AINote, st.Meta)
	}

	code, b = send(t, "POST", base+"/quiver/v1/dev/readme", "application/json",
		strings.NewReader(`{"repo_name":"quiver","description":"A Go toolkit.","features":["Email checks."],"polish":true}`))
	var rd struct {
		Data struct {
			ReadmeMD string `json:"readme_md"`
			Polished bool   `json:"polished"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &rd); err != nil || code != http.StatusOK {
		t.Fatalf("readme: %d %v %s", code, err, b)
	}
	if !rd.Data.Polished || !strings.Contains(rd.Data.ReadmeMD, "Quiver checks addresses and domains.") || !strings.Contains(rd.Data.ReadmeMD, "Email checks, with DNS.") {
		t.Errorf("readme: polished %v, want the model's description and feature:\n%s", rd.Data.Polished, rd.Data.ReadmeMD)
	}
}
