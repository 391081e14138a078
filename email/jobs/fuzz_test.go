package jobs_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/envelope"
)

// FuzzSubmit feeds any file to Submit: it is refused with a 400 or 413
// naming the file, or it becomes a job whose results are exactly
// verify-list's output of the same file, however it was cut into chunks
// (by rows or by bytes), byte for byte: both read it with one reader,
// which keeps a quoted "\r\n".
func FuzzSubmit(f *testing.F) {
	for _, seed := range []string{
		"email\na@b.test\n",
		"\xef\xbb\xbfname,Email\r\nAna,ana@example.test\r\n\r\nBo,\"info@x.test\"\r\n",
		"a,b,c\n1\n1,2,3,4,5\n\"multi\nline\",x@y.test,\"q\"\"q\"\n",
		"email\n\"unterminated\n",
		"",
		"email\n",
		"x\n\"a\rb\",c\n\n\n",
		"e\n" + string(bytes.Repeat([]byte("a@b.test\n"), 40)),
		"000000\n\"\r\r\n0\"",
		"e,n\na@b.test,\"x\r\ny\"\r\n",
	} {
		f.Add([]byte(seed))
	}
	v, err := email.New(email.Config{})
	if err != nil {
		f.Fatal(err)
	}
	m, err := jobs.New(jobs.Config{Verifier: v, ChunkRows: 3, ChunkBytes: 64, MaxRows: 100, MaxBytes: 4096, MaxOwnerJobsStored: -1})
	if err != nil {
		f.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
	f.Cleanup(func() { cancel(); <-done })

	f.Fuzz(func(t *testing.T, file []byte) {
		j, err := m.Submit(context.Background(), jobs.SubmitRequest{Owner: "k", File: bytes.NewReader(file)})
		if err != nil {
			e := envelope.From(err)
			if s := e.HTTPStatus(); s != http.StatusBadRequest && s != http.StatusRequestEntityTooLarge {
				t.Fatalf("Submit(%q): status %d: %v", file, s, err)
			}
			return
		}
		deadline := time.Now().Add(10 * time.Second)
		for j.Status != jobs.StatusDone {
			if j.Status != jobs.StatusQueued && j.Status != jobs.StatusRunning || time.Now().After(deadline) {
				t.Fatalf("job of %q: %+v", file, j)
			}
			time.Sleep(time.Millisecond)
			if j, err = m.Get(context.Background(), "k", j.ID); err != nil {
				t.Fatal(err)
			}
		}
		var got, want bytes.Buffer
		if err := m.Results(context.Background(), "k", j.ID, &got); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if _, err := m.Delete(context.Background(), "k", j.ID); err != nil {
				t.Errorf("Delete: %v", err)
			}
		}()
		stats, err := v.VerifyCSV(context.Background(), bytes.NewReader(file), &want, email.StreamOptions{})
		if err != nil {
			t.Fatalf("verify-list refuses what Submit took (%q): %v", file, err)
		}
		if stats.Rows != j.Total || j.Done != j.Total || j.Summary.Valid != stats.Valid || j.Summary.RoleAccounts != stats.RoleAccounts {
			t.Errorf("job %+v, verify-list %+v", j, stats)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("results of %q:\n%q\nverify-list:\n%q", file, got.Bytes(), want.Bytes())
		}
	})
}
