package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
)

// jobForm is a multipart body: the fields in order, then the file part
// (unless file is nil), then the trailing fields.
func jobForm(t *testing.T, fields [][2]string, file []byte, trailing ...[2]string) (string, *bytes.Buffer) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	if file != nil {
		fw, _ := mw.CreateFormFile("file", "list.csv")
		fw.Write(file)
	}
	for _, f := range trailing {
		mw.WriteField(f[0], f[1])
	}
	mw.Close()
	return mw.FormDataContentType(), &b
}

// sendAs is send with another gateway key.
func sendAs(t *testing.T, h http.Handler, key, method, target string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	req.Header.Set("X-Gateway-Key", key)
	req.Header.Set("X-Gateway-Host", "test")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func jobsHandler(t *testing.T, cfg jobs.Config) (*httpapi.Handler, *jobs.Manager) {
	t.Helper()
	m, err := jobs.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return mustNew(t, httpapi.Config{Keys: []secret.String{"k", "other"}, RatePerSecond: -1, Jobs: m}), m
}

func decodeJob(t *testing.T, env envelopeBody) jobs.Job {
	t.Helper()
	var j jobs.Job
	if err := json.Unmarshal(env.Data, &j); err != nil {
		t.Fatalf("data %s: %v", env.Data, err)
	}
	return j
}

// The routes of a job, from upload to results, on the in-process queue.
func TestJobRoutes(t *testing.T) {
	h, m := jobsHandler(t, jobs.Config{ChunkRows: 2})
	file := []byte("name,email\nAna,ana@example.test\nBo,info@example.test\nCy,nope\n")

	ct, body := jobForm(t, [][2]string{{"check_mx", "false"}}, file)
	resp, env := send(t, h, "POST", "/v1/email/bulk/jobs", ct, body)
	if resp.StatusCode != http.StatusAccepted || !env.Success {
		t.Fatalf("submit: %d %+v", resp.StatusCode, env.Error)
	}
	j := decodeJob(t, env)
	if j.Status != jobs.StatusQueued || j.Total != 3 || len(j.ID) != 32 || j.FinishedAt != nil {
		t.Fatalf("submitted: %+v", j)
	}
	var raw map[string]any
	json.Unmarshal(env.Data, &raw)
	for _, k := range []string{"id", "status", "total", "done", "summary", "created_at", "finished_at", "rows_per_second", "eta_seconds"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("job JSON lacks %q: %s", k, env.Data)
		}
	}

	path := "/v1/email/bulk/jobs/" + j.ID
	if rec := sendAs(t, h, "other", "GET", path); rec.Code != http.StatusNotFound {
		t.Errorf("another key: %d %s", rec.Code, rec.Body)
	}
	if rec := sendAs(t, h, "other", "DELETE", path); rec.Code != http.StatusNotFound {
		t.Errorf("another key cancelling: %d %s", rec.Code, rec.Body)
	}
	if rec := sendAs(t, h, "other", "GET", path+"/results"); rec.Code != http.StatusNotFound {
		t.Errorf("another key's results: %d %s", rec.Code, rec.Body)
	}
	resp, env = send(t, h, "GET", path+"/results", "", nil)
	if resp.StatusCode != http.StatusConflict || env.Error == nil || env.Error.Code != "CONFLICT" {
		t.Errorf("early results: %d %+v", resp.StatusCode, env.Error)
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(30 * time.Second)
	for j.Status != jobs.StatusDone && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		_, env = send(t, h, "GET", path, "", nil)
		j = decodeJob(t, env)
	}
	if j.Status != jobs.StatusDone || j.Done != 3 || j.Summary.Valid != 2 || j.Summary.RoleAccounts != 1 || j.FinishedAt == nil {
		t.Fatalf("done job: %+v", j)
	}

	rec := sendAs(t, h, "k", "GET", path+"/results")
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/csv") {
		t.Fatalf("results: %d %q %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	v, _ := email.New(email.Config{})
	var want bytes.Buffer
	v.VerifyCSV(context.Background(), bytes.NewReader(file), &want, email.StreamOptions{Checks: email.Checks{SkipMX: true}})
	if rec.Body.String() != want.String() {
		t.Errorf("results:\n%s\nwant verify-list's:\n%s", rec.Body, want.String())
	}

	resp, env = send(t, h, "DELETE", path, "", nil)
	if resp.StatusCode != 200 || decodeJob(t, env).Status != jobs.StatusDone {
		t.Errorf("cancelling a done job: %d %s", resp.StatusCode, env.Data)
	}
	resp, _ = send(t, h, "GET", path+"?x=1", "", nil)
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a query parameter: %d", resp.StatusCode)
	}
}

// Cancelling a queued job answers 200 with the cancelled job.
func TestJobCancelRoute(t *testing.T) {
	h, _ := jobsHandler(t, jobs.Config{}) // no workers run: the job stays queued
	ct, body := jobForm(t, nil, []byte("email\na@b.test\n"))
	_, env := send(t, h, "POST", "/v1/email/bulk/jobs", ct, body)
	j := decodeJob(t, env)
	resp, env := send(t, h, "DELETE", "/v1/email/bulk/jobs/"+j.ID, "", nil)
	if c := decodeJob(t, env); resp.StatusCode != 200 || c.Status != jobs.StatusCancelled || c.FinishedAt == nil {
		t.Errorf("cancel: %d %s", resp.StatusCode, env.Data)
	}
}

// DELETE of a job that has ended deletes it (then it is 404); over a
// quota of its key, an upload is 429 with Retry-After, naming the quota.
func TestJobDeleteAndQuotaRoutes(t *testing.T) {
	h, m := jobsHandler(t, jobs.Config{MaxOwnerRowsInFlight: 2})
	ct, body := jobForm(t, nil, []byte("email\na@b.test\nc@d.test\n"))
	_, env := send(t, h, "POST", "/v1/email/bulk/jobs", ct, body)
	j := decodeJob(t, env)

	ct, body = jobForm(t, nil, []byte("email\ne@f.test\n"))
	resp, env := send(t, h, "POST", "/v1/email/bulk/jobs", ct, body)
	if resp.StatusCode != 429 || env.Error == nil || env.Error.Code != "RATE_LIMIT_EXCEEDED" || resp.Header.Get("Retry-After") != "60" ||
		!strings.Contains(env.Error.Message, "rows in flight") || !strings.Contains(env.Error.Message, " 2 rows") {
		t.Fatalf("an upload over the quota: %d %+v Retry-After %q", resp.StatusCode, env.Error, resp.Header.Get("Retry-After"))
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if g, _ := m.Get(context.Background(), hexKey("k"), j.ID); g.Status == jobs.StatusDone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the job did not end")
		}
	}
	resp, env = send(t, h, "DELETE", "/v1/email/bulk/jobs/"+j.ID, "", nil)
	if d := decodeJob(t, env); resp.StatusCode != 200 || d.Status != jobs.StatusDone {
		t.Errorf("DELETE of a done job: %d %s", resp.StatusCode, env.Data)
	}
	for _, path := range []string{"/v1/email/bulk/jobs/" + j.ID, "/v1/email/bulk/jobs/" + j.ID + "/results"} {
		if resp, _ := send(t, h, "GET", path, "", nil); resp.StatusCode != 404 {
			t.Errorf("GET %s after DELETE: %d, want 404", path, resp.StatusCode)
		}
	}
}

// Bad uploads: limits named, fields checked.
func TestJobUploadErrors(t *testing.T) {
	h, _ := jobsHandler(t, jobs.Config{MaxRows: 3, MaxBytes: 1000})
	rows := func(n int) []byte { return []byte("email\n" + strings.Repeat("a@b.test\n", n)) }
	tests := []struct {
		name     string
		fields   [][2]string
		file     []byte
		trailing [][2]string
		status   int
		want     string
	}{
		{"rows", nil, rows(4), nil, 400, "limit of 3 data rows"},
		{"bytes", nil, []byte("email\n" + strings.Repeat("x", 1200) + "\n"), nil, 413, "limit of 1000 bytes"},
		{"body", nil, []byte(strings.Repeat("x", 80<<10)), nil, 413, "exceeds"},
		{"no file", [][2]string{{"check_mx", "true"}}, nil, nil, 400, "file"},
		{"bad bool", [][2]string{{"check_mx", "maybe"}}, rows(1), nil, 400, "check_mx"},
		{"unknown field", [][2]string{{"column", "email"}}, rows(1), nil, 400, "column"},
		{"twice", [][2]string{{"check_mx", "true"}, {"check_mx", "false"}}, rows(1), nil, 400, "given twice"},
		{"field after the file", nil, rows(1), [][2]string{{"check_mx", "false"}}, 400, "before the file part"},
		{"no header", nil, []byte(""), nil, 400, "header row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct, body := jobForm(t, tt.fields, tt.file, tt.trailing...)
			resp, env := send(t, h, "POST", "/v1/email/bulk/jobs", ct, body)
			if resp.StatusCode != tt.status || env.Error == nil || !strings.Contains(env.Error.Message, tt.want) {
				t.Errorf("status %d %+v, want %d naming %q", resp.StatusCode, env.Error, tt.status, tt.want)
			}
		})
	}
	resp, _ := send(t, h, "POST", "/v1/email/bulk/jobs", "application/json", strings.NewReader("{}"))
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("JSON body: %d", resp.StatusCode)
	}
}

// The multipart layer holds no part whole: the bytes around the file part
// (a part's headers, which mime/multipart reads whole up to 10 MiB, the
// check_* fields) are bounded, and a file part of one 8 MiB row is
// refused at the row bound; each upload allocates a few buffers.
func TestJobUploadHoldsNoPart(t *testing.T) {
	h, _ := jobsHandler(t, jobs.Config{})
	header := func(n int) string {
		return "--B\r\nContent-Disposition: form-data; name=\"check_mx\"\r\nX-Pad: " + strings.Repeat("p", n) + "\r\n\r\ntrue\r\n"
	}
	file := "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"l.csv\"\r\n\r\nemail\na@b.test\n\r\n--B--\r\n"
	for _, tc := range []struct {
		name, body, want string
	}{
		{"a part's header of 8 MiB", header(8 << 20), "take more than"},
		{"a field of 8 MiB", "--B\r\nContent-Disposition: form-data; name=\"check_mx\"\r\n\r\ntrue" + strings.Repeat(" ", 8<<20) + "\r\n" + file, "take more than"},
		{"a part's header of 8 MiB after the file", "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"l.csv\"\r\n\r\nemail\na@b.test\n\r\n" + header(8<<20) + "--B--\r\n", "take more than"},
		{"a row of 8 MiB", "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"l.csv\"\r\n\r\nemail\n" + strings.Repeat("x", 8<<20) + "\n\r\n--B--\r\n", "limit of 65536 bytes per row"},
	} {
		var resp *http.Response
		var env envelopeBody
		const runs = 3 // a few uploads, counted as testing.AllocsPerRun counts
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			resp, env = send(t, h, "POST", "/v1/email/bulk/jobs", "multipart/form-data; boundary=B", strings.NewReader(tc.body))
		}
		runtime.ReadMemStats(&after)
		if resp.StatusCode != 400 || env.Error == nil || !strings.Contains(env.Error.Message, tc.want) {
			t.Errorf("%s: %d %+v, want 400 naming %q", tc.name, resp.StatusCode, env.Error, tc.want)
		}
		if a := (after.TotalAlloc - before.TotalAlloc) / runs; a > 1<<20 {
			t.Errorf("%s: %d bytes allocated per upload, want under 1 MiB", tc.name, a)
		}
	}
	// Small headers and fields, as clients send them, are read.
	resp, env := send(t, h, "POST", "/v1/email/bulk/jobs", "multipart/form-data; boundary=B", strings.NewReader(header(100)+file))
	if resp.StatusCode != 202 {
		t.Errorf("an upload with a 100-byte header: %d %+v", resp.StatusCode, env.Error)
	}
}

// Without a Manager the routes answer 503 saying how to configure one.
func TestJobRoutesUnconfigured(t *testing.T) {
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})
	for _, c := range []struct{ method, path string }{
		{"GET", "/v1/email/bulk/jobs/" + strings.Repeat("0", 32)},
		{"GET", "/v1/email/bulk/jobs/" + strings.Repeat("0", 32) + "/results"},
		{"DELETE", "/v1/email/bulk/jobs/" + strings.Repeat("0", 32)},
	} {
		resp, env := send(t, h, c.method, c.path, "", nil)
		if resp.StatusCode != 503 || env.Error == nil || !strings.Contains(env.Error.Message, "bulk jobs are not configured") {
			t.Errorf("%s %s: %d %+v", c.method, c.path, resp.StatusCode, env.Error)
		}
	}
}

// The job routes' answers match the OpenAPI document: 202 with a job,
// the job, 409, 404, and the CSV.
func TestJobRoutesMatchDocument(t *testing.T) {
	h, m := jobsHandler(t, jobs.Config{})
	router := documentRouter(t, h)
	check := func(method, path, ct string, body []byte) *httptest.ResponseRecorder {
		t.Helper()
		req := httptest.NewRequest(method, "http://quiver.test"+path, bytes.NewReader(body))
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "h")
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		route, params, err := router.FindRoute(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
			Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes())), Options: &openapi3filter.Options{IncludeResponseStatus: true}}
		if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
			t.Errorf("%s %s -> %d %.300s\ndoes not match the document: %v", method, path, rec.Code, rec.Body, err)
		}
		return rec
	}
	ct, body := jobForm(t, nil, []byte("email\na@b.test\n"))
	rec := check("POST", "/v1/email/bulk/jobs", ct, body.Bytes())
	var env envelopeBody
	json.Unmarshal(rec.Body.Bytes(), &env)
	j := decodeJob(t, env)
	check("GET", "/v1/email/bulk/jobs/"+j.ID, "", nil)
	check("GET", "/v1/email/bulk/jobs/"+j.ID+"/results", "", nil) // 409
	check("GET", "/v1/email/bulk/jobs/"+strings.Repeat("f", 32), "", nil)
	ctx, cancel := context.WithCancel(context.Background())
	go m.Run(ctx)
	defer cancel()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got, _ := m.Get(ctx, hexKey("k"), j.ID); got.Status == jobs.StatusDone {
			break
		}
	}
	check("GET", "/v1/email/bulk/jobs/"+j.ID+"/results", "", nil)
	check("DELETE", "/v1/email/bulk/jobs/"+j.ID, "", nil)
}

// hexKey is the owner under which the handler files the jobs of key.
func hexKey(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

// TestSlowSteadyUploadGetsItsAnswer: a job upload that trickles in
// steadily for longer than RequestTimeout and the server's ReadTimeout
// and WriteTimeout still gets its 202.
func TestSlowSteadyUploadGetsItsAnswer(t *testing.T) {
	m, err := jobs.New(jobs.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Jobs: m,
		RequestTimeout: 300 * time.Millisecond, SlowWriteTimeout: 2 * time.Second})
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ReadTimeout = 500 * time.Millisecond
	srv.Config.WriteTimeout = 500 * time.Millisecond
	srv.Start()
	defer srv.Close()

	ct, body := jobForm(t, nil, []byte("email\n"+strings.Repeat("a@b.test\n", 20)))
	pr, pw := io.Pipe()
	go func() {
		chunk := (body.Len() + 9) / 10
		for body.Len() > 0 { // ten pieces, 150 ms apart: 1.5 s in all
			if _, err := pw.Write(body.Next(chunk)); err != nil {
				return
			}
			time.Sleep(150 * time.Millisecond)
		}
		pw.Close()
	}()
	req, _ := http.NewRequest("POST", srv.URL+"/v1/email/bulk/jobs", pr)
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "test")
	req.Header.Set("Content-Type", ct)
	start := time.Now()
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("after %v: %v", time.Since(start), err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d: %s", res.StatusCode, raw)
	}
	if elapsed := time.Since(start); elapsed < time.Second {
		t.Errorf("the upload took %v: it proves nothing", elapsed)
	}
}

// TestStalledUploadIsCut: the upload is exempt from RequestTimeout, but
// an upload that stops coming is still cut, within SlowWriteTimeout of
// its last bytes, even on a server without a ReadTimeout.
func TestStalledUploadIsCut(t *testing.T) {
	m, err := jobs.New(jobs.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Jobs: m, SlowWriteTimeout: 300 * time.Millisecond})
	srv := httptest.NewServer(h)
	defer srv.Close()
	ct, body := jobForm(t, nil, []byte("email\na@b.test\n"))
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write(body.Bytes()[:body.Len()/2]) // half the body, then nothing
	req, _ := http.NewRequest("POST", srv.URL+"/v1/email/bulk/jobs", pr)
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "test")
	req.Header.Set("Content-Type", ct)
	done := make(chan *http.Response, 1)
	go func() {
		res, err := srv.Client().Do(req)
		if err != nil {
			res = nil
		}
		done <- res
	}()
	select {
	case res := <-done:
		if res != nil {
			defer res.Body.Close()
			if res.StatusCode == http.StatusAccepted {
				t.Errorf("a half upload was accepted")
			}
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a stalled upload still holds the connection 30 s after a 300 ms read deadline")
	}
}

// An upload that stops before its end gets a fixed answer that names no
// address of the server or the client: 408 when it stalls past the read
// deadline, 400 when the connection ends early.
func TestStoppedUploadAnswersPlainly(t *testing.T) {
	m, err := jobs.New(jobs.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, RatePerSecond: -1, Jobs: m, SlowWriteTimeout: 300 * time.Millisecond})
	srv := httptest.NewServer(h)
	defer srv.Close()
	ct, body := jobForm(t, nil, []byte("email\n"+strings.Repeat("someone@example.test\n", 500)))
	for _, c := range []struct {
		name   string
		stall  bool
		status int
		want   string
	}{
		{"stalled", true, http.StatusRequestTimeout, "did not arrive in time"},
		{"cut", false, http.StatusBadRequest, "ended before its closing boundary"},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /v1/email/bulk/jobs HTTP/1.1\r\nHost: quiver.test\r\nX-Gateway-Key: k\r\nX-Gateway-Host: test\r\n"+
				"Content-Type: %s\r\nContent-Length: %d\r\n\r\n", ct, body.Len())
			conn.Write(body.Bytes()[:body.Len()/2])
			if !c.stall {
				conn.(*net.TCPConn).CloseWrite()
			}
			conn.SetReadDeadline(time.Now().Add(30 * time.Second))
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != c.status || !strings.Contains(string(raw), c.want) {
				t.Errorf("status %d %s, want %d saying %q", res.StatusCode, raw, c.status, c.want)
			}
			for _, leak := range []string{"127.0.0.1", "tcp", "EOF", "timeout"} {
				if strings.Contains(string(raw), leak) {
					t.Errorf("the answer %s names %q", raw, leak)
				}
			}
		})
	}
}
